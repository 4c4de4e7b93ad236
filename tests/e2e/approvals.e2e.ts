import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { monthOf } from '../../src/shared/constants/statements';
import {
  api,
  axeViolations,
  chooseRetailer,
  cspViolations,
  launchBrowser,
  settled,
  signedInPage,
} from './browser';

/**
 * Issue 51's maker-checker in Chromium, on the suite's demo network, which has a single admin: an employee asks for
 * an adjustment with a note for the statement and an internal reason; the admin sees both, each in its own column,
 * and approves; the retailer's statement and wallet show the note, never the reason; the employee sees the decision,
 * who made it and when; a rejected command shows its reason to its maker; the admin's own command offers no Approve
 * or Reject, and the screen says plainly that the network has a single admin.
 */

const baseURL = inject('baseURL');
const ADMIN = { mobile: '9999999999', password: 'Admin@1234' };
const EMPLOYEE = { mobile: '9000000001', password: 'Demo@1234' };
const DEMO_PASSWORD = 'Demo@1234';
/** Not selling.e2e's retailer, whose balances that file compares before and after. */
const OTHER_FILES_RETAILER = '9300000001';

const tag = Date.now().toString(36).toUpperCase();
const NOTE = `Bonus ${tag}`;
const REASON = `Cash collected at branch ${tag}`;
const PAYOUT_REFERENCE = `E2E-REJ-${tag}`;
const REJECTION = `Bank details not verified ${tag}`;
const SINGLE_ADMIN = /This network has a single admin/;

let browser: Browser;
let admin: Page;
let employee: Page;
let chosen: { _id: string; name: string; mobile: string };

const signedIn = (user: { mobile: string; password: string }) => signedInPage(browser, baseURL, user);

const toast = (page: Page, text: string | RegExp) => page.getByText(text).first().waitFor();

/** The Approvals screen, opened from the menu. */
async function approvals(page: Page) {
  await page.goto(`${baseURL}/home`);
  await page.getByRole('menuitem', { name: 'Approvals' }).click();
  await page.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor();
}

/** A row's cells by their column's header. */
async function cellsOf(row: Locator) {
  await row.waitFor();
  const table = row.locator('xpath=ancestor::table[1]');
  const headers = await table.getByRole('columnheader').allTextContents();
  const cells = await row.getByRole('cell').allTextContents();
  return (header: string) => cells[headers.indexOf(header)];
}

/** axe on the page as it is now: no serious or critical violation. */
async function passesAxe(page: Page, where: string) {
  await settled(page);
  expect(await axeViolations(page), where).toEqual([]);
}

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await signedIn(ADMIN);
  const retailers = await api(admin, 'account/fetch?type=4&limit=100');
  const candidate = (
    retailers.json.result.users as { _id: string; name: string; mobile: { number: string }; status: string }[]
  )
    // A demo retailer (its mobile starts with 9): imports.e2e's people, which may come first, have other passwords.
    .find(
      (u) => /^9/.test(u.mobile.number) && u.mobile.number !== OTHER_FILES_RETAILER && u.status === 'ACTIVE',
    );
  if (!candidate) throw new Error('no active demo retailer');
  chosen = { _id: candidate._id, name: candidate.name, mobile: candidate.mobile.number };
  employee = await signedIn(EMPLOYEE);
});
afterAll(async () => {
  await browser?.close();
});

describe('maker and checker in the panel (issue 51)', () => {
  it('an employee asks for an adjustment with a note and an internal reason; the single admin is said', async () => {
    await approvals(employee);
    await employee.getByRole('status').filter({ hasText: SINGLE_ADMIN }).waitFor();
    await employee.getByRole('button', { name: 'Adjust Wallet' }).click();
    const dialog = employee.getByRole('dialog', { name: 'Adjust Wallet' });
    await chooseRetailer(employee, dialog, chosen.name);
    await dialog.getByRole('textbox', { name: 'Amount (₹)' }).fill('1.50');
    await dialog.getByRole('textbox', { name: 'Note for the statement' }).fill(NOTE);
    await dialog.getByRole('textbox', { name: 'Internal reason' }).fill(REASON);
    await passesAxe(employee, 'the Adjust Wallet dialog');
    await dialog.getByRole('button', { name: 'Send for approval' }).click();
    // The 202's toast: nothing moved yet, and with one admin, who can add a second.
    await toast(employee, /^Adjustment awaits approval by another admin: no money has moved yet/);
    await employee.getByRole('alert').filter({ hasText: 'npm run admin -- create' }).first().waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const row = employee.getByRole('row').filter({ hasText: NOTE });
    expect((await cellsOf(row))('Status')).toBe('PENDING');
    expect(await row.getByRole('button', { name: /^Approve / }).count()).toBe(0);
  });

  it('the admin sees the note and the internal reason in columns of their own, and approves', async () => {
    await approvals(admin);
    await admin.getByRole('status').filter({ hasText: SINGLE_ADMIN }).waitFor();
    const row = admin.getByRole('row').filter({ hasText: NOTE });
    const cell = await cellsOf(row);
    expect([cell('Kind'), cell('Reference / Note'), cell('Reason'), cell('Made By')]).toEqual([
      'ADJUSTMENT',
      NOTE,
      REASON,
      'Anita Sharma',
    ]);
    await passesAxe(admin, 'Approvals with the single-admin notice');
    await row.getByRole('button', { name: /^Approve the adjustment of ₹1\.50 for / }).click();
    const dialog = admin.getByRole('dialog', { name: 'Approve Command' });
    await passesAxe(admin, 'the Approve dialog');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await toast(admin, 'Approved: the money has moved');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('the retailer’s statement and wallet show the note, never the internal reason', async () => {
    const retailer = await signedIn({ mobile: chosen.mobile, password: DEMO_PASSWORD });
    await retailer.getByRole('menuitem', { name: 'Statements' }).click();
    await retailer.getByRole('heading', { level: 1, name: 'Statements' }).waitFor();
    const month = monthOf(new Date());
    const table = retailer.getByRole('table', { name: `Postings of ${month}` });
    await table.getByRole('row').filter({ hasText: NOTE }).waitFor();
    expect(await retailer.locator('body').textContent()).not.toContain(REASON);
    await retailer.getByRole('menuitem', { name: 'My Wallet' }).click();
    await retailer.getByRole('row').filter({ hasText: NOTE }).waitFor();
    expect(await retailer.locator('body').textContent()).not.toContain(REASON);
    await retailer.context().close();
  });

  it('the employee sees the decision on its command: approved, by whom, when', async () => {
    await approvals(employee);
    const cell = await cellsOf(employee.getByRole('row').filter({ hasText: NOTE }));
    expect([cell('Status'), cell('Decided By')]).toEqual(['APPROVED', 'Administrator']);
    expect(cell('Decided At')).toMatch(/\d{4}, \d{1,2}:\d{2}:\d{2}/);
  });

  it('a rejected command shows its reason to its maker', async () => {
    const made = await api(employee, 'wallet/payout', {
      userId: chosen._id,
      amount: 1,
      reference: PAYOUT_REFERENCE,
    });
    expect(made.status).toBe(202);
    await approvals(admin);
    const row = admin.getByRole('row').filter({ hasText: PAYOUT_REFERENCE });
    await row.getByRole('button', { name: /^Reject the payout of ₹1\.00 for / }).click();
    const dialog = admin.getByRole('dialog', { name: 'Reject Command' });
    await dialog.getByRole('textbox', { name: 'Reason' }).fill(REJECTION);
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await toast(admin, 'Rejected');
    await dialog.waitFor({ state: 'hidden' });

    await approvals(employee);
    const cell = await cellsOf(employee.getByRole('row').filter({ hasText: PAYOUT_REFERENCE }));
    expect([cell('Status'), cell('Decided By'), cell('Rejection Reason')]).toEqual([
      'REJECTED',
      'Administrator',
      REJECTION,
    ]);
  });

  it('the admin’s own command offers no Approve or Reject, and the screen says why nobody can', async () => {
    const own = await api(admin, 'wallet/adjust', {
      userId: chosen._id,
      amount: 2,
      note: `Own ${tag}`,
      reason: `Own reason ${tag}`,
    });
    expect(own.status).toBe(202);
    await approvals(admin);
    const row = admin.getByRole('row').filter({ hasText: `Own ${tag}` });
    await row.waitFor();
    expect(await row.getByRole('button', { name: /^(Approve|Reject) / }).count()).toBe(0);
    const notice = admin.getByRole('status').filter({ hasText: SINGLE_ADMIN });
    expect(await notice.textContent()).toContain(
      'npm run admin -- create --userName <u> --name <n> [--email <e>] [--mobile <m>]',
    );
  });

  it('violated no Content-Security-Policy on the way', () => {
    expect(cspViolations).toEqual([]);
  });
});
