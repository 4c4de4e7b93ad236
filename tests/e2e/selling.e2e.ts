import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { formatRupees } from '../../src/shared/format';
import { cspViolations, launchBrowser, preparePage, signIn } from './browser';

/**
 * Issue 9 in Chromium, against the built-in sandbox partner (PROVIDER_MODE=sandbox, the default): a retailer sells
 * the demo Saving Account (₹500, retailer's share 20% = ₹100) to one of its customers, the sandbox confirms it,
 * and the admin sees the five commission credits, the retailer's share in clearing, and the balance after settling.
 * Balances are compared with their values before the sale, so the test holds on a database with other sales.
 */

const baseURL = inject('baseURL');
const RETAILER = { mobile: '9300000001', password: 'Demo@1234', name: 'Ganesh Mobile Store' };
const ADMIN = { mobile: '9999999999', password: 'Admin@1234' };
/** The demo Saving Account: ₹500 with 20% for the retailer. */
const RETAILER_SHARE_PAISE = 10_000;

let browser: Browser;
let sellerContext: BrowserContext;
let adminContext: BrowserContext;
let seller: Page;
let admin: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  // Two sign-ins side by side: each context has its own storage.
  sellerContext = await browser.newContext();
  adminContext = await browser.newContext();
  // Every page of both contexts, the sandbox tab included: the suite's waits, and watched for CSP violations.
  sellerContext.on('page', preparePage);
  adminContext.on('page', preparePage);
  seller = await sellerContext.newPage();
  admin = await adminContext.newPage();
  await signIn(admin, baseURL, ADMIN.mobile, ADMIN.password);
  await admin.waitForURL(/\/home$/);
  await signIn(seller, baseURL, RETAILER.mobile, RETAILER.password);
  await seller.waitForURL(/\/home$/);
});
afterAll(async () => {
  await browser?.close();
});

const toast = (page: Page, text: string | RegExp) =>
  page
    .getByText(text, { exact: typeof text === 'string' })
    .first()
    .waitFor();

/** Types into a typeahead and picks the suggestion with the given text. */
async function choose(
  page: Page,
  scope: Locator | Page,
  label: string,
  search: string,
  option: string | RegExp,
) {
  const input = scope.getByRole('combobox', { name: label, exact: true });
  await input.click();
  await input.fill(search);
  await page
    .getByRole('option', { name: option, exact: typeof option === 'string' })
    .first()
    .click();
}

const paise = (rupees: string) => Math.round(Number(rupees.replace(/[₹,\s]/g, '')) * 100);

/** The retailer's row in /retailer/list: its Balance and Clearing Balance, in paise. */
async function retailerWallet(page: Page) {
  await page.goto(`${baseURL}/retailer/list`);
  await page.getByRole('heading', { level: 1, name: 'Retailers' }).waitFor();
  await page.getByPlaceholder('Search').fill(RETAILER.name);
  const row = page.getByRole('row').filter({ hasText: RETAILER.name });
  await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
  const headers = await page.getByRole('columnheader').allTextContents();
  const cells = await row.getByRole('cell').allTextContents();
  return {
    balance: paise(cells[headers.indexOf('Balance')]),
    clearing: paise(cells[headers.indexOf('Clearing Balance')]),
  };
}

/** Reloads until the check holds, as a user waiting for the partner would (react-admin lists do not poll). */
async function reloadUntil(page: Page, check: () => Promise<boolean>) {
  await expect
    .poll(
      async () => {
        if (await check()) return true;
        await page.reload();
        return false;
      },
      { timeout: 45_000, interval: 1_000 },
    )
    .toBe(true);
}

describe('selling a partner product in Chromium', () => {
  let utmCode = '';
  let before = { balance: 0, clearing: 0 };

  it('a retailer sells a Saving Account to its customer; the sandbox tab opens and confirms it', async () => {
    before = await retailerWallet(admin);

    await seller.getByRole('menuitem', { name: 'Customers' }).click();
    await seller.waitForURL(/\/customer\/list$/);
    const select = seller.getByRole('button', { name: /^Select Product for / }).first();
    await select.waitFor();
    await select.click();
    const dialog = seller.getByRole('dialog', { name: 'Select Product' });
    await dialog.waitFor();

    // The seed's messages: Proceed without both, and the product lookup before a provider.
    await dialog.getByRole('button', { name: 'Proceed' }).click();
    await toast(seller, 'Please select both product and provider to proceed!');
    await dialog.getByRole('combobox', { name: 'Product', exact: true }).click();
    await seller.getByText('No provider selected', { exact: true }).first().waitFor();

    await choose(seller, dialog, 'Provider', 'PayU', 'PayU Sprint Bank');
    await choose(seller, dialog, 'Product', 'Saving', 'Saving Account');
    const [sandbox] = await Promise.all([
      sellerContext.waitForEvent('page'),
      dialog.getByRole('button', { name: 'Proceed' }).click(),
    ]);
    // The link carries the opening's key before its utmCode: the page and its button act only with it.
    await sandbox.waitForURL(/\/sandbox\/open\?key=[\w-]{22}&utmCode=/);
    utmCode = new URL(sandbox.url()).searchParams.get('utmCode') ?? '';
    expect(utmCode).not.toBe('');
    await toast(seller, 'Sale recorded. Complete the account opening in the new tab.');
    await dialog.waitFor({ state: 'hidden' });

    // The sandbox partner's page shows the sale; "Account opened" sends its signed callback.
    await sandbox.getByText(utmCode).first().waitFor();
    await sandbox.getByRole('button', { name: 'Account opened' }).click();

    // The retailer's own Sales list shows the sale once the partner has confirmed it.
    await seller.goto(`${baseURL}/sale/list`);
    await seller.getByPlaceholder('Search').fill(utmCode);
    const row = seller.getByRole('row').filter({ hasText: utmCode });
    await row.waitFor();
    await reloadUntil(seller, async () => (await row.getByText('CONFIRMED', { exact: true }).count()) === 1);
    await sandbox.close();
  });

  it('the admin sees the five credits of that sale and the retailer’s share in clearing', async () => {
    await admin.goto(`${baseURL}/transaction/list`);
    await admin.getByRole('heading', { level: 1, name: 'Transactions' }).waitFor();
    await choose(admin, admin, 'Bought Product', utmCode, new RegExp(`^${utmCode}`));
    const rows = admin.locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(5);
    await expect(rows.filter({ hasText: 'CREDIT' }).count()).resolves.toBe(5);
    const retailerRow = rows.filter({ hasText: RETAILER.name });
    await retailerRow
      .getByText(formatRupees(RETAILER_SHARE_PAISE / 100), { exact: true })
      .first()
      .waitFor();

    const after = await retailerWallet(admin);
    expect(after).toEqual({ balance: before.balance, clearing: before.clearing + RETAILER_SHARE_PAISE });
  });

  it('the admin settles the retailer; its balance moves and its wallet shows it', async () => {
    // An explicit empty filter: the list remembers the last one.
    await admin.goto(`${baseURL}/transaction/list?filter=${encodeURIComponent('{}')}`);
    await admin.getByRole('heading', { level: 1, name: 'Transactions' }).waitFor();
    await admin.getByRole('combobox', { name: 'User Type', exact: true }).click();
    await admin.getByRole('option', { name: 'Retailer', exact: true }).click();
    await choose(admin, admin, 'User', 'Ganesh', RETAILER.name);
    await admin.waitForURL(/userId/);
    await admin.getByRole('button', { name: 'Settle', exact: true }).click();
    const confirm = admin.getByRole('dialog', { name: 'Settle Commissions' });
    await confirm
      .getByText(`Move the clearing balance of ${RETAILER.name} to its available balance?`)
      .waitFor();
    await confirm.getByRole('button', { name: 'Settle', exact: true }).click();
    await toast(admin, /^\d+ commissions? settled$/);

    const settled = await retailerWallet(admin);
    const expected = before.balance + before.clearing + RETAILER_SHARE_PAISE;
    expect(settled).toEqual({ balance: expected, clearing: 0 });

    await seller.getByRole('menuitem', { name: 'My Wallet' }).click();
    await seller.waitForURL(/\/wallet$/);
    const balance = seller.getByRole('listitem', { name: 'Balance', exact: true });
    await balance.getByText(formatRupees(expected / 100), { exact: true }).waitFor();
    await seller
      .getByRole('listitem', { name: 'Clearing Balance', exact: true })
      .getByText(formatRupees(0), { exact: true })
      .waitFor();
  });
});

// Runs after this file's other tests: the panel and the sandbox page work under the server's CSP.
describe('Content-Security-Policy', () => {
  it("was not violated by any page above, the sandbox partner's page included", () => {
    expect(cspViolations).toEqual([]);
  });
});
