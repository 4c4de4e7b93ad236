import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { monthOf } from '../../src/shared/constants/statements';
import { formatRupees } from '../../src/shared/format';
import { api, chooseRetailer, cspViolations, launchBrowser, signedInPage } from './browser';

/**
 * Issue 43's month in Chromium: an employee records a payout for a retailer (an employee's payout always waits as
 * a pending command), an admin approves it in the Approvals screen, and the retailer, signed in, opens Statements
 * for the month and sees the payout line, its balances those the server holds.
 */

const baseURL = inject('baseURL');
const ADMIN = { mobile: '9999999999', password: 'Admin@1234' };
const EMPLOYEE = { mobile: '9000000001', password: 'Demo@1234' };
const DEMO_PASSWORD = 'Demo@1234';
/** Not selling.e2e's retailer, whose balances that file compares before and after. */
const OTHER_FILES_RETAILER = '9300000001';
const AMOUNT = 1.25;

let browser: Browser;
let admin: Page;
let employee: Page;
let retailer: Page;
const reference = `E2E-STMT-${Date.now().toString(36).toUpperCase()}`;
let chosen: { _id: string; name: string; mobile: string };

const signedIn = (user: { mobile: string; password: string }) => signedInPage(browser, baseURL, user);

const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await signedIn(ADMIN);
  // A demo retailer with commissions, settled so it has an available balance to pay out (setting up, not the test).
  const retailers = await api(admin, 'account/fetch?type=4&limit=100');
  const candidate = (
    retailers.json.result.users as {
      _id: string;
      name: string;
      mobile: { number: string };
      wallet: { balance: number; clearingBalance: number };
    }[]
  ).find(
    (u) =>
      /^9/.test(u.mobile.number) &&
      u.mobile.number !== OTHER_FILES_RETAILER &&
      u.wallet.balance + u.wallet.clearingBalance >= AMOUNT,
  );
  if (!candidate) throw new Error('no demo retailer with commissions');
  chosen = { _id: candidate._id, name: candidate.name, mobile: candidate.mobile.number };
  expect((await api(admin, 'wallet/settle', { userId: chosen._id })).status).toBe(200);
  employee = await signedIn(EMPLOYEE);
});
afterAll(async () => {
  await browser?.close();
});

describe('a payout through approval, on the retailer’s statement', () => {
  it('an employee records a payout: it waits for approval', async () => {
    await employee.getByRole('menuitem', { name: 'Approvals' }).click();
    await employee.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor();
    await employee.getByRole('button', { name: 'Record Payout' }).click();
    const dialog = employee.getByRole('dialog', { name: 'Record Payout' });
    await dialog.waitFor();
    await chooseRetailer(employee, dialog, chosen.name);
    await dialog.getByRole('textbox', { name: 'Amount (₹)' }).fill(String(AMOUNT));
    await dialog.getByRole('textbox', { name: 'Reference' }).fill(reference);
    await dialog.getByRole('button', { name: 'Record Payout' }).click();
    // The demo network has one admin: the toast says that too, after the payout's own message.
    await employee
      .getByText(/^Payout awaits approval by another admin: no money has moved yet/)
      .first()
      .waitFor();
    await dialog.waitFor({ state: 'hidden' });
    // Its own pending command is in its list; it offers no Approve (employees decide none).
    const row = employee.getByRole('row').filter({ hasText: reference });
    await row.waitFor();
    expect(await row.getByRole('button', { name: /^Approve / }).count()).toBe(0);
  });

  it('an admin approves it in the Approvals screen', async () => {
    await admin.goto(`${baseURL}/home`);
    await admin.getByRole('menuitem', { name: 'Approvals' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor();
    const row = admin.getByRole('row').filter({ hasText: reference });
    await row.getByRole('button', { name: /^Approve the / }).click();
    const dialog = admin.getByRole('dialog', { name: 'Approve Command' });
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await toast(admin, 'Approved: the money has moved');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('the retailer opens Statements for the month and sees the payout line', async () => {
    retailer = await signedIn({ mobile: chosen.mobile, password: DEMO_PASSWORD });
    await retailer.getByRole('menuitem', { name: 'Statements' }).click();
    await retailer.waitForURL(/\/statements$/);
    await retailer.getByRole('heading', { level: 1, name: 'Statements' }).waitFor();
    const month = monthOf(new Date());
    await expect.poll(() => retailer.getByRole('textbox', { name: 'Month' }).inputValue()).toBe(month);
    const table = retailer.getByRole('table', { name: `Postings of ${month}` });
    const line = table.getByRole('row').filter({ hasText: reference });
    await line.waitFor();
    const headers = await table.getByRole('columnheader').allTextContents();
    const cells = await line.getByRole('cell').allTextContents();
    const cell = (name: string) => cells[headers.indexOf(name)];
    expect(cell('Kind')).toBe('PAYOUT');
    expect(cell('Sale or payout')).toBe(reference);
    expect(cell('Debit')).toBe(formatRupees(AMOUNT));
    expect(cell('Credit')).toBe('');
    // Its balances are the wallet's right after it; the closing balance is the wallet's now.
    const { wallet, transactions } = (await api(retailer, 'wallet/fetch?limit=1')).json.result;
    expect(transactions[0].reference).toBe(reference);
    expect(cell('Available balance')).toBe(formatRupees(transactions[0].balance));
    const closing = retailer.getByRole('listitem', { name: 'Closing balance' });
    await expect.poll(() => closing.textContent()).toContain(formatRupees(wallet.balance));
  });

  it('violated no Content-Security-Policy on the way', () => {
    expect(cspViolations).toEqual([]);
  });
});
