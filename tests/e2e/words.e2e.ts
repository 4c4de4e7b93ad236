import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AUDIT_MSG } from '../../src/shared/constants/audit';
import { HINDI } from '../../src/shared/i18n/hindi';
import { hi } from '../../src/web/i18n/hi';
import { launchBrowser, signIn } from './browser';

// Issue 53, "Hindi without codes" and "Bookmarked URLs", in Chromium: the audit trail's details as Hindi sentences,
// the import's error columns by their labels, account types by their names, and a bad date in a bookmarked address
// marked on its field while the list loads. (Products' Add button: catalog.e2e.ts.)

const baseURL = inject('baseURL');
const ADMIN = { mobile: '9999999999', password: 'Admin@1234' };
const PHONE = { width: 360, height: 740 };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** The admin, signed in, in `locale` (the stored choice the panel starts with), at `viewport`. */
async function adminIn(locale: 'en' | 'hi', viewport = { width: 1366, height: 768 }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await signIn(page, baseURL, ADMIN.mobile, ADMIN.password);
  await page.waitForURL(/\/home$/);
  await page.evaluate((chosen) => localStorage.setItem('RaStore.locale', JSON.stringify(chosen)), locale);
  return page;
}

/** A field's message as assistive technology reads it (react-admin's filter form keeps helper texts out of sight). */
const description = (field: Locator) =>
  field.evaluate((input) =>
    (input.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
      .trim(),
  );

/** A list's address with a filter, as a bookmark keeps it. */
const withFilter = (path: string, filter: Record<string, string>) =>
  `${baseURL}${path}?${new URLSearchParams({ filter: JSON.stringify(filter) })}`;

describe('Hindi without codes (issue 53)', () => {
  it("the import's error column names the column by its label, and the audit trail tells the check as a sentence", async () => {
    const page = await adminIn('hi', PHONE);
    await page.goto(`${baseURL}/import`);
    await page.locator('input[type=file]').setInputFiles({
      name: 'words.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        'name,email,mobile,userName,state,district,tehsil,distributorMobile\nwords,not-an-email,9399999901,wd53,Rajasthan,Jaipur,Sanganer,9200000001\n',
      ),
    });
    await page.getByRole('button', { name: hi.app.imports.check }).click();
    const errors = page.getByRole('table', { name: hi.app.imports.errorsTitle });
    await errors.waitFor();
    const columns = await errors.locator('tbody tr td:nth-child(2)').allInnerTexts();
    expect(columns).toContain(hi.app.imports.columns.email);
    for (const column of columns) expect(column).not.toMatch(/[A-Za-z]/);

    await page.goto(withFilter('/audit/list', { action: 'import.run' }));
    // At 360 px each row is a card (ListCards).
    const details = page
      .locator('tbody tr, .list-cards > li')
      .first()
      .getByText(/फ़ाइल जाँची/);
    await details.waitFor();
    const sentence = (await details.textContent()) ?? '';
    expect(sentence).toMatch(/^रिटेलर की फ़ाइल जाँची \(कुछ नहीं लिखा गया\): \d+ पंक्तियाँ पढ़ी गईं/);
    expect(sentence).not.toMatch(/kind|mode|counts|dryRun|status|DONE|[{}"]/);
  });

  it('the product dialog names each account type in Hindi, never by its code', async () => {
    const page = await adminIn('hi');
    await page.goto(`${baseURL}/product/list`);
    await page.locator('tbody tr').first().getByRole('button').last().click();
    const dialog = page.getByRole('dialog', { name: hi.app.products.updateTitle });
    await dialog.waitFor();
    const text = (await dialog.textContent()) ?? '';
    expect(Object.values(HINDI.accountTypes).some((name) => text.includes(name))).toBe(true);
    expect(text).not.toMatch(/PAYUSPRINT-/);
  });
});

describe('bookmarked URLs (issue 53)', () => {
  it('a bad date in a bookmarked address marks the field, and the list loads without it', async () => {
    const page = await adminIn('en');
    for (const [from, message] of [
      ['1999-12-31', AUDIT_MSG.dateOutOfRange],
      ['2026-13-45', AUDIT_MSG.impossibleDate],
    ]) {
      await page.goto(withFilter('/audit/list', { from }));
      await page.locator('tbody tr').first().waitFor();
      const field = page.getByLabel('From', { exact: true });
      await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
      expect(await description(field)).toBe(message);
      expect(await page.getByText('The list could not be loaded.').count()).toBe(0);
    }
  });

  it('in Hindi at 360 px, My Wallet marks From later than To in Hindi', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await signIn(page, baseURL, '9300000001', 'Demo@1234');
    await page.waitForURL(/\/home$/);
    await page.evaluate(() => localStorage.setItem('RaStore.locale', JSON.stringify('hi')));
    await page.goto(withFilter('/wallet', { from: '2026-11-20', to: '2026-11-01' }));
    const to = page.getByLabel(hi.resources.wallet.fields.to, { exact: true });
    await expect.poll(() => to.getAttribute('aria-invalid')).toBe('true');
    expect(await description(to)).toBe(hi.app.shared.audit.fromAfterTo);
    // The list loaded (its rows, cards at 360 px, or that there are none), not its error.
    await page
      .locator('tbody tr, .list-cards > li')
      .first()
      .or(page.getByText(hi.app.shared.msg.noData))
      .first()
      .waitFor();
    expect(await page.getByText(hi.app.list.loadError).count()).toBe(0);
  });
});
