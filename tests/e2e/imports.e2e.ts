import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cspViolations, launchBrowser, preparePage, signIn } from './browser';

const baseURL = inject('baseURL');
let browser: Browser;
const PHONE = { width: 390, height: 844 };

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Unique per run, so the suite can run again against the same database (the demo network uses 9...). */
const serial = Date.now() % 10_000_000;
const mobile = (n: number) =>
  `6${String(serial * 100 + n)
    .padStart(9, '0')
    .slice(-9)}`;
const HEADER = 'name,email,mobile,userName,state,district,tehsil,distributorMobile';
const row = (n: number, fix: Partial<Record<'email' | 'mobile' | 'distributorMobile', string>> = {}) =>
  [
    `Import Retailer ${n}`,
    fix.email ?? `retailer${n}.${serial}@example.in`,
    fix.mobile ?? mobile(n),
    `imp${serial}r${n}`,
    'Rajasthan',
    'Jaipur',
    'Sanganer',
    fix.distributorMobile ?? '9200000001',
  ].join(',');

/** 50 retailers under a demo distributor; with `bad`, rows 5, 20 and 40 (file rows 6, 21, 41) are wrong. */
function retailersFile(bad: boolean) {
  const rows = Array.from({ length: 50 }, (_, i) => {
    const n = i + 1;
    if (!bad) return row(n);
    if (n === 5) return row(n, { email: 'not-an-email' });
    if (n === 20) return row(n, { distributorMobile: '9299999999' });
    if (n === 40) return row(n, { mobile: mobile(39) });
    return row(n);
  });
  return Buffer.from(`${HEADER}\n${rows.join('\n')}\n`);
}

async function choose(page: Page, name: string, csv: Buffer) {
  await page.locator('input[type=file]').setInputFiles({ name, mimeType: 'text/csv', buffer: csv });
  await page.getByText(`Chosen: ${name}`).waitFor();
}

const count = (page: Page, key: string) => page.getByTestId(`import-count-${key}`).textContent();

/** The admin on the Import screen at phone width, in its own context (downloads kept); in Hindi if told. */
async function adminOnImport(locale?: 'hi') {
  const context = await browser.newContext({ viewport: PHONE, acceptDownloads: true });
  context.on('page', preparePage);
  const page = await context.newPage();
  await signIn(page, baseURL, '9999999999', 'Admin@1234');
  await page.waitForURL(/\/home$/);
  if (locale)
    await page.evaluate((locale) => localStorage.setItem('RaStore.locale', JSON.stringify(locale)), locale);
  await page.goto(`${baseURL}/import`);
  return { context, page };
}

/** Presses a button and waits for the job's summary saying `done`. */
async function runAndWait(page: Page, button: string, done: string) {
  await page.getByRole('button', { name: button, exact: true }).click();
  await page.getByTestId('import-summary').filter({ hasText: done }).waitFor();
}

describe('the Import screen in Chromium, at 390 px', () => {
  it('admin imports a 50-row retailers file with 3 bad rows, fixes them and imports again', async () => {
    const { context, page } = await adminOnImport();
    await page.getByRole('combobox', { name: 'What to import' }).click();
    await page.getByRole('option', { name: 'Retailers', exact: true }).click();

    // The template downloads as the kind's CSV.
    const [template] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download template' }).click(),
    ]);
    expect(template.suggestedFilename()).toBe('retailers-template.csv');

    await choose(page, 'retailers.csv', retailersFile(true));
    await runAndWait(page, 'Check file', 'Check finished: nothing was written.');
    expect(await count(page, 'created')).toBe('47');
    expect(await count(page, 'refused')).toBe('3');
    const errors = page.getByRole('table', { name: 'Rows with errors' });
    await expect.poll(() => errors.locator('tbody tr').count()).toBe(3);
    await errors.getByText('Invalid email').waitFor();
    await errors.getByText('No distributor has the mobile number "9299999999"').waitFor();
    await errors.getByText('The same as row 40 of this file').waitFor();
    expect(await page.getByTestId('import-errors-total').textContent()).toBe('3 errors in all.');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download errors (CSV)' }).click(),
    ]);
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const csv = Buffer.concat(chunks).toString('utf8');
    expect(csv.split(/\r?\n/).filter(Boolean)).toHaveLength(4);
    expect(csv).toContain('6,email,Invalid email');
    // The page never scrolls sideways on the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // Importing as it is: the 47 good rows go in, the 3 bad ones are refused again.
    await runAndWait(page, 'Import', 'Import finished.');
    expect(await count(page, 'created')).toBe('47');
    expect(await count(page, 'refused')).toBe('3');

    // The fixed file: checked, then imported; what is in already is unchanged.
    await choose(page, 'retailers-fixed.csv', retailersFile(false));
    await runAndWait(page, 'Check file', 'Check finished: nothing was written.');
    expect(await count(page, 'created')).toBe('3');
    await page.getByText('No row has an error.').waitFor();
    await runAndWait(page, 'Import', 'Import finished.');
    expect(await count(page, 'created')).toBe('3');
    expect(await count(page, 'unchanged')).toBe('47');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('says the row errors and a refused file in Hindi when the panel is in Hindi', async () => {
    const { context, page } = await adminOnImport('hi');
    await page.getByRole('combobox', { name: 'क्या आयात करना है' }).waitFor();
    // Retailers, the screen's first choice.
    await page.locator('input[type=file]').setInputFiles({
      name: 'retailers.csv',
      mimeType: 'text/csv',
      buffer: retailersFile(true),
    });
    await page.getByText('चुनी गई: retailers.csv').waitFor();
    await runAndWait(page, 'फ़ाइल जाँचें', 'जाँच पूरी हुई: कुछ भी नहीं लिखा गया।');
    const errors = page.getByRole('table', { name: 'त्रुटियों वाली पंक्तियाँ' });
    await errors.getByText('अमान्य ईमेल').waitFor();
    await errors.getByText('मोबाइल नंबर "9299999999" किसी डिस्ट्रीब्यूटर का नहीं है').waitFor();
    await errors.getByText('इस फ़ाइल की पंक्ति 40 जैसी ही है').waitFor();
    expect(await page.getByTestId('import-errors-total').textContent()).toBe('कुल 3 त्रुटियाँ।');

    // A file refused before any row is read: its one message, in Hindi.
    await page.locator('input[type=file]').setInputFiles({
      name: 'semicolons.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`${HEADER.replaceAll(',', ';')}\n${row(1).replaceAll(',', ';')}\n`),
    });
    await page.getByText('चुनी गई: semicolons.csv').waitFor();
    await page.getByRole('button', { name: 'फ़ाइल जाँचें', exact: true }).click();
    await page
      .getByText(/कॉलम अर्धविराम \(;\) से अलग किए गए हैं/)
      .first()
      .waitFor();
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('pages the row errors of a file with more than 1,000, saying only the first 1,000 are kept', async () => {
    const { context, page } = await adminOnImport();
    // 1,200 retailers, each with an e-mail address that is not one: 1,200 errors.
    const rows = Array.from({ length: 1200 }, (_, i) => row(1000 + i, { email: 'not-an-email' }));
    await choose(page, 'many-errors.csv', Buffer.from(`${HEADER}\n${rows.join('\n')}\n`));
    await runAndWait(page, 'Check file', 'Check finished: nothing was written.');
    expect(await count(page, 'refused')).toBe('1200');
    expect(await page.getByTestId('import-errors-total').textContent()).toBe(
      '1,200 errors in all. Only the first 1,000 are kept: fix those rows and check the file again to find the rest.',
    );
    const errors = page.getByRole('table', { name: 'Rows with errors' });
    const firstRow = () => errors.locator('tbody tr').first().locator('td').first().textContent();
    await expect.poll(() => errors.locator('tbody tr').count()).toBe(100);
    await expect.poll(firstRow).toBe('2');
    await page.getByText('1-100 of 1,000').waitFor();
    const pages = page.getByRole('navigation', { name: 'Pages of errors' });
    await pages.getByRole('button', { name: 'Go to last page' }).click();
    await page.getByText('901-1,000 of 1,000').waitFor();
    // The pager says the page before its rows arrive.
    await expect.poll(firstRow).toBe('902');
    // The CSV has every error kept.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download errors (CSV)' }).click(),
    ]);
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString('utf8').split(/\r?\n/).filter(Boolean)).toHaveLength(1001);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(cspViolations).toEqual([]);
    await context.close();
  });
});
