import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { formatRupees } from '../../src/shared/format';
import { api, cspViolations, launchBrowser, preparePage, recordToasts, signIn } from './browser';

/**
 * Issue 55's live screens in Chromium: a retailer has its dashboard open in one tab and a PENDING sale's page in
 * another; the partner confirms the sale (the sandbox partner's page, as in selling.e2e); both tabs change without a
 * reload (the event stream), and a toast says what changed.
 */

const baseURL = inject('baseURL');
/** Not selling.e2e's retailer, whose balances that file compares before and after. */
const RETAILER = { mobile: '9300000003', password: 'Demo@1234' };
/** The demo Saving Account: ₹500 with 20% for the retailer. */
const RETAILER_SHARE = 100;

let browser: Browser;
/** The retailer's browser: its tabs share the sign-in. */
let person: BrowserContext;
let dashboard: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  person = await browser.newContext();
  person.on('page', preparePage);
  dashboard = await person.newPage();
  await signIn(dashboard, baseURL, RETAILER.mobile, RETAILER.password);
  await dashboard.waitForURL(/\/home$/);
});
afterAll(async () => {
  await browser?.close();
});

/** Marks the page, so a reload (which clears it) is seen. */
const mark = (page: Page) => page.evaluate(() => Object.assign(window, { liveMark: true }));
const stillMarked = (page: Page) => page.evaluate(() => (window as { liveMark?: boolean }).liveMark === true);

describe('screens that update themselves', () => {
  it('the sale page and the dashboard change without a reload when the partner confirms the sale', async () => {
    const todayTile = dashboard.getByTestId('tile-commissions-today');
    await expect.poll(() => todayTile.textContent()).toMatch(/₹/);
    const before = await todayTile.textContent();

    // A PENDING sale, recorded as the panel's Proceed records it.
    const customers = await api(dashboard, 'account/fetch?type=1&limit=100');
    const customerId: string = customers.json.result.users[0]._id;
    const products = await api(dashboard, 'products/fetch?searchText=Saving');
    const saving = products.json.result.products[0];
    const opened = await api(dashboard, 'payusprint/saving_account', {
      accountType: saving.urlParams.data,
      productId: saving._id,
      customerId,
    });
    expect(opened.status).toBe(200);
    const link: string = opened.json.result.result.data;
    const utmCode = link.slice(link.lastIndexOf('=') + 1);
    const recorded = await api(dashboard, 'bought_products/create', {
      customerId,
      retailerId: null,
      productId: saving._id,
      utmCode,
      merchantCode: opened.json.result.merchantCode,
    });
    expect(recorded.status).toBe(200);

    // The sale's page in a second tab of the same person.
    const salePage = await person.newPage();
    await salePage.goto(`${baseURL}/sale/${recorded.json.result._id}`);
    await salePage.getByRole('heading', { level: 1, name: `Sale ${utmCode}` }).waitFor();
    await salePage.getByText('PENDING', { exact: true }).first().waitFor();
    await mark(salePage);
    await mark(dashboard);
    const toastsSeen = await recordToasts(salePage);

    // The partner confirms it: its page's button sends the signed callback.
    const partner = await person.newPage();
    await partner.goto(link);
    await partner.getByRole('button', { name: 'Account opened' }).click();
    await partner.close();

    const confirmed = `Sale ${utmCode} confirmed: commission ${formatRupees(RETAILER_SHARE)}`;
    await expect.poll(async () => (await toastsSeen()).some((text) => text.includes(confirmed))).toBe(true);
    await salePage.getByText('CONFIRMED', { exact: true }).first().waitFor();
    await expect.poll(() => todayTile.textContent()).not.toBe(before);
    expect(await stillMarked(salePage)).toBe(true);
    expect(await stillMarked(dashboard)).toBe(true);
  });
});

describe('Content-Security-Policy', () => {
  it('was not violated by the pages above', () => {
    expect(cspViolations).toEqual([]);
  });
});
