import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { formatRupees } from '../../src/shared/format';
import { en } from '../../src/web/i18n/en';
import { hi } from '../../src/web/i18n/hi';
import { api, launchBrowser, preparePage, settled, signIn } from './browser';

/**
 * Issue 53 in Chromium on a phone (360 px), against the demo network (its commissions settled today): the demo
 * retailer's My Wallet says what its money in and out are, and they add up to its balances (a settlement, clearing
 * to available, is in neither); its dates are the seed's medium format with seconds; in Hindi, Statements, the
 * receipt page and the admin's TDS quarter show Hindi month names, a moment with its seconds and a day alone.
 */

const baseURL = inject('baseURL');
const RETAILER = { mobile: '9300000001', password: 'Demo@1234' };
const ADMIN = { mobile: '9999999999', password: 'Admin@1234' };
const PHONE = { width: 360, height: 780 };

/** A moment in the seed's medium format: 'Nov 28, 2026, 11:43:22 AM', and in Hindi '28 नव॰ 2026, 11:49:42'. */
const MOMENT_EN = /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2}\s[AP]M$/;
const MOMENT_HI = /^\d{1,2} [\u0900-\u097F]+॰? \d{4}, \d{2}:\d{2}:\d{2}$/;
/** A day alone, in Hindi's medium date: '1 अक्टू॰ 2026'. */
const DAY_HI = /\d{1,2} [\u0900-\u097F]+॰? \d{4}/;

let browser: Browser;

/** A page of a new phone-sized context, signed in, in `locale`. */
async function phonePage(user: { mobile: string; password: string }, locale: 'en' | 'hi') {
  const context = await browser.newContext({ viewport: PHONE });
  context.on('page', preparePage);
  const page = await context.newPage();
  await signIn(page, baseURL, user.mobile, user.password);
  await page.waitForURL(/\/home$/);
  if (locale === 'hi') {
    // The stored language, read as the panel starts: the page is in Hindi from here on.
    await page.evaluate(() => localStorage.setItem('RaStore.locale', JSON.stringify('hi')));
    await page.reload();
  }
  return page;
}

const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

const paise = (rupees: number) => Math.round(rupees * 100);

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('honest wallet totals and the seed’s dates, on a phone', () => {
  it('My Wallet: money in and out, each labelled and explained, add up to the balances; dates with seconds', async () => {
    const page = await phonePage(RETAILER, 'en');
    await page.goto(`${baseURL}/wallet`);
    await page.getByRole('heading', { level: 1, name: en.app.wallet.title }).waitFor();
    const totals = page.getByRole('region', { name: en.app.transactions.totals });
    await totals.waitFor();
    await settled(page);
    const { status, json } = await api(page, 'wallet/fetch?page=1&limit=10');
    expect(status).toBe(200);
    const { wallet, totals: sums } = json.result as {
      wallet: { balance: number; clearingBalance: number };
      totals: { moneyIn: number; moneyOut: number };
    };
    // Everything the wallet ever received less everything that left it is what it holds (it started empty); the
    // demo's settlements moved money inside it and count in neither.
    expect(sums.moneyIn).toBeGreaterThan(0);
    expect(paise(sums.moneyIn) - paise(sums.moneyOut)).toBe(
      paise(wallet.balance) + paise(wallet.clearingBalance),
    );
    const figure = (label: string) =>
      totals.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd');
    await expect
      .poll(() => figure(en.app.transactions.moneyIn).textContent())
      .toBe(formatRupees(sums.moneyIn));
    expect(await figure(en.app.transactions.moneyOut).textContent()).toBe(formatRupees(sums.moneyOut));
    expect(await totals.getByText(en.app.transactions.totalsNote).isVisible()).toBe(true);
    // The postings' dates: the moment with its seconds (at 360 px each posting is a card: ListCards' dd).
    const dates = await page
      .locator('td, .list-cards dd')
      .filter({ hasText: /\d{1,2}:\d{2}:\d{2}/ })
      .allTextContents();
    expect(dates.length).toBeGreaterThan(0);
    for (const text of dates) expect(text).toMatch(MOMENT_EN);
    await noSidewaysScroll(page);
    await page.context().close();
  });

  it('in Hindi: Statements’ lines and the receipt page in India’s time with seconds and Hindi month names', async () => {
    const page = await phonePage(RETAILER, 'hi');
    await page.goto(`${baseURL}/statements`);
    await page.getByRole('heading', { level: 1, name: hi.app.statements.title }).waitFor();
    const table = page.getByRole('table');
    await table.waitFor();
    await settled(page, page.locator('[role=progressbar]'));
    const firstCells = await table.getByRole('row').locator('td:first-child').allTextContents();
    expect(firstCells.length).toBeGreaterThan(0);
    for (const text of firstCells) expect(text).toMatch(MOMENT_HI);
    await noSidewaysScroll(page);

    // A sale's receipt as its printable page, in Hindi, at phone width.
    const sales = await api(page, 'bought_products/fetch?page=1&limit=1');
    expect(sales.status).toBe(200);
    const saleId = sales.json.result.boughtProducts[0]._id as string;
    const html = await page.evaluate(async (id) => {
      const response = await fetch(`/api/v1/bought_products/receipt/${id}?lang=hi`, {
        headers: { 'X-auth-token': `bearer ${localStorage.getItem('authToken')}` },
      });
      return response.text();
    }, saleId);
    const receipt = await page.context().newPage();
    await receipt.setContent(html);
    const recorded = receipt.locator('dt', { hasText: 'दर्ज करने का समय (भारतीय समय)' });
    expect(await recorded.count()).toBe(1);
    expect(await recorded.locator('xpath=following-sibling::dd[1]').textContent()).toMatch(MOMENT_HI);
    await noSidewaysScroll(receipt);
    await page.context().close();
  });

  it('in Hindi: the admin’s TDS quarter runs from one medium date to another', async () => {
    const page = await phonePage(ADMIN, 'hi');
    await page.goto(`${baseURL}/tds`);
    await page.getByRole('heading', { level: 1, name: hi.app.tds.title }).waitFor();
    const period = page.getByText(/ से .*, धारा 194H$/);
    await period.waitFor();
    const text = (await period.textContent()) ?? '';
    expect(text).toMatch(new RegExp(`^${DAY_HI.source} से ${DAY_HI.source}, धारा 194H$`));
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    await noSidewaysScroll(page);
    await page.context().close();
  });
});
