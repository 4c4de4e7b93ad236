import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { formatRupees } from '../../src/shared/format';
import { hi } from '../../src/web/i18n/hi';
import { indiaDay, periodOfDay } from '../../src/web/resources/tds/period';
import { pdfText } from '../server/pdf';
import { axeViolations, cspViolations, launchBrowser, preparePage, settled, signIn } from './browser';

/**
 * Issue 51, finding 8, in Chromium on a phone (360 px) in Hindi: the demo's retailer, whose commissions the demo
 * settled today, opens My TDS from the menu, finds this quarter with what was credited to it and the tax, and
 * downloads the quarter's certificate: a PDF with the same figures.
 */

const baseURL = inject('baseURL');
const RETAILER = { mobile: '9300000001', password: 'Demo@1234' };
const PHONE = { width: 360, height: 780 };
const t = hi.app;

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: PHONE });
  context.on('page', preparePage);
  page = await context.newPage();
  await signIn(page, baseURL, RETAILER.mobile, RETAILER.password);
  await page.waitForURL(/\/home$/);
  // The stored language, read as the panel starts: the page is in Hindi from here on.
  await page.evaluate(() => localStorage.setItem('RaStore.locale', JSON.stringify('hi')));
  await page.reload();
});
afterAll(async () => {
  await browser?.close();
});

/** The API as the signed-in page calls it (its token). */
const api = (path: string) =>
  page.evaluate(async (path) => {
    const response = await fetch(`/api/v1/${path}`, {
      headers: { 'X-auth-token': `bearer ${localStorage.getItem('authToken')}` },
    });
    return { status: response.status, json: await response.json() };
  }, path);

describe('a retailer’s own TDS, on a phone, in Hindi', () => {
  const now = periodOfDay(indiaDay());

  it('opens My TDS from the menu and finds this quarter with its figures', async () => {
    // On a phone the menu is a drawer, opened from the app bar.
    await page.locator('header button').first().click();
    await page.getByRole('menuitem', { name: t.menu.tdsCertificate }).click();
    await page.waitForURL(/\/my-tds$/);
    await page.getByRole('heading', { level: 1, name: t.myTds.title }).waitFor();
    const table = page.getByRole('table', { name: t.myTds.quarters });
    await table.waitFor();
    await settled(page, page.locator('[role=progressbar]'));
    // What the server holds for it: the demo settled its commissions today.
    const { status, json } = await api('tds/quarters');
    expect(status).toBe(200);
    const quarter = json.result.quarters[0];
    expect({ fy: quarter.fy, quarter: quarter.quarter }).toEqual(now);
    expect(quarter.credited).toBeGreaterThan(0);
    const row = table
      .getByRole('row')
      .filter({ hasText: now.fy })
      .filter({ hasText: t.tds.quarters[now.quarter] });
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells.slice(1, 3)).toEqual([
      formatRupees(quarter.credited, 'hi'),
      formatRupees(quarter.tds, 'hi'),
    ]);
    // Whole on the phone: nothing wider than the window, the download button on screen, no accessibility fault.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const button = row.getByRole('button', {
      name: t.myTds.downloadOf
        .replace('%{fy}', now.fy)
        .replace('%{quarter}', t.myTds.quarterNames[now.quarter]),
    });
    const box = await button.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('downloads the quarter’s certificate: a PDF in Hindi with the same figures', async () => {
    const button = page.getByRole('button', {
      name: t.myTds.downloadOf
        .replace('%{fy}', now.fy)
        .replace('%{quarter}', t.myTds.quarterNames[now.quarter]),
    });
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toBe(`tds-certificate-${now.fy}-${now.quarter}.pdf`);
    const bytes = fs.readFileSync(await download.path());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { json } = await api('tds/quarters');
    const quarter = json.result.quarters[0];
    // The panel is in Hindi, so the certificate is too (lang=hi), read back as its text.
    const text = await pdfText(bytes);
    expect(text).toContain('स्रोत पर काटे गए कर का प्रमाणपत्र (फ़ॉर्म 16A का डेटा)');
    expect(text).toContain(`वित्तीय वर्ष ${now.fy}, ${t.myTds.quarterNames[now.quarter]}`);
    expect(text).toContain(`भुगतान या जमा राशि: ${formatRupees(quarter.credited, 'hi')}`);
    expect(text).toContain(`काटा गया कर: ${formatRupees(quarter.tds, 'hi')}`);
  });

  it('violated no Content-Security-Policy on the way', () => {
    expect(cspViolations).toEqual([]);
  });
});
