import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { verhoeffDigit } from '../../src/shared/identity';
import { cspViolations, launchBrowser, openPage, resizePage, signIn } from './browser';

const baseURL = inject('baseURL');
let browser: Browser;

/** Unique per run so the suite can run again against the same database. */
const stamp = Date.now().toString(36);
const serial = Date.now() % 100_000_000;
/** Valid, unused Indian mobiles (10 digits starting with 7; the demo network uses 9...). */
const mobile = (n: number) =>
  `7${String(serial * 10 + n)
    .padStart(9, '0')
    .slice(-9)}`;
const title = (text: string) => text.replace(/\b\w/g, (c) => c.toUpperCase());

const md = { name: `e2e master ${stamp}`, mobile: mobile(1), userName: `md${stamp}` };
const distributor = { name: `e2e distributor ${stamp}`, mobile: mobile(2), userName: `dist${stamp}` };
const retailer = { name: `e2e retailer ${stamp}`, mobile: mobile(3), userName: `ret${stamp}` };
const customer = { name: `e2e customer ${stamp}`, mobile: mobile(4), userName: `cust${stamp}` };
const aadharBase = `7${String(serial).padStart(10, '0')}`;
const aadhar = `${aadharBase}${verhoeffDigit(aadharBase)}`;
const NEW_PASSWORD = 'Chosen@2026';

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();

/** Types into a typeahead and picks the suggestion with the given (title-cased) text. */
async function choose(page: Page, dialog: Locator, label: string, search: string, option: string) {
  const input = dialog.getByRole('combobox', { name: label, exact: true });
  await input.click();
  await input.fill(search);
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The shared user fields: name, email, mobile, user name, district Jaipur and its tehsil Sanganer (demo data). */
async function fillUser(
  page: Page,
  dialog: Locator,
  person: { name: string; mobile: string; userName: string },
) {
  await dialog.getByLabel('Name *', { exact: true }).fill(person.name);
  await dialog.getByLabel('Email *', { exact: true }).fill(`${person.userName}@example.in`);
  await dialog.getByLabel('Mobile *', { exact: true }).fill(person.mobile);
  await dialog.getByLabel('User Name *', { exact: true }).fill(person.userName);
  await expect
    .poll(() => dialog.getByRole('combobox', { name: 'Tehsil', exact: true }).isDisabled())
    .toBe(true);
  await choose(page, dialog, 'District', 'Jaipur', 'Jaipur');
  await choose(page, dialog, 'Tehsil', 'Sang', 'Sanganer');
}

/** Searches the list (q -> searchText) and returns the row that shows the name. */
async function findRow(page: Page, search: string, name: string) {
  await page.getByPlaceholder('Search').fill(search);
  const row = page.getByRole('row').filter({ hasText: name });
  await row.first().waitFor();
  return row;
}

describe('people in Chromium', () => {
  it('admin creates a master distributor, a distributor under it and a retailer under that', async () => {
    const page = await openPage(browser);
    await signIn(page, baseURL, '9999999999', 'Admin@1234');
    await page.waitForURL(/\/home$/);

    await page.getByRole('menuitem', { name: 'Master Distributors' }).click();
    await page.waitForURL(/\/master\/distributor\/list$/);
    await page.getByRole('heading', { level: 1, name: 'Master Distributors' }).waitFor();
    await page.getByRole('button', { name: 'Add Master Distributor' }).click();
    let dialog = page.getByRole('dialog', { name: 'Create New Master Distributor' });
    await dialog.getByLabel('Mobile *', { exact: true }).fill('12345');
    await dialog.getByLabel('Name *', { exact: true }).click();
    await dialog.getByText('Invalid mobile number').waitFor();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await toast(page, 'Invalid data!');
    await fillUser(page, dialog, md);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await toast(page, 'MasterDistributor Created Successfully!');
    await dialog.waitFor({ state: 'hidden' });
    const mdRow = await findRow(page, stamp, title(md.name));
    await mdRow.getByText('₹0.00').first().waitFor();
    await mdRow.getByText('Sanganer').waitFor();

    // Update Status: preselected with the toggled value, and back again.
    await mdRow.getByRole('button', { name: `Update Status of ${title(md.name)}` }).click();
    dialog = page.getByRole('dialog', { name: 'Update Status' });
    await expect.poll(() => dialog.getByRole('combobox', { name: 'Status' }).textContent()).toBe('INACTIVE');
    await dialog.getByRole('button', { name: 'Update' }).click();
    await toast(page, 'User Status Changed Successfully');
    await mdRow.getByText('INACTIVE', { exact: true }).waitFor();
    await mdRow.getByRole('button', { name: `Update Status of ${title(md.name)}` }).click();
    await expect.poll(() => dialog.getByRole('combobox', { name: 'Status' }).textContent()).toBe('ACTIVE');
    await dialog.getByRole('button', { name: 'Update' }).click();
    await mdRow.getByText('ACTIVE', { exact: true }).waitFor();

    await page.getByRole('menuitem', { name: 'Distributors', exact: true }).click();
    await page.waitForURL(/\/distributor\/list$/);
    await page.getByRole('button', { name: 'Add Distributor' }).click();
    dialog = page.getByRole('dialog', { name: 'Create New Distributor' });
    await fillUser(page, dialog, distributor);
    await choose(page, dialog, 'Master Distributor', stamp, title(md.name));
    await dialog.getByRole('button', { name: 'Create' }).click();
    await toast(page, 'Distributor Created Successfully!');
    await dialog.waitFor({ state: 'hidden' });
    const distributorRow = await findRow(page, stamp, title(distributor.name));
    await distributorRow.getByText(title(md.name)).waitFor();

    await page.getByRole('menuitem', { name: 'Retailers', exact: true }).click();
    await page.waitForURL(/\/retailer\/list$/);
    await page.getByRole('button', { name: 'Add Retailer' }).click();
    dialog = page.getByRole('dialog', { name: 'Create New Retailer' });
    await fillUser(page, dialog, retailer);
    const distributorInput = dialog.getByRole('combobox', { name: 'Distributor', exact: true });
    await expect.poll(() => distributorInput.isDisabled()).toBe(true);
    await choose(page, dialog, 'Master Distributor', stamp, title(md.name));
    await choose(page, dialog, 'Distributor', stamp, title(distributor.name));
    await dialog.getByRole('button', { name: 'Create' }).click();
    await toast(page, 'Retailer Created Successfully!');
    await dialog.waitFor({ state: 'hidden' });
    const retailerRow = await findRow(page, stamp, title(retailer.name));
    await retailerRow.getByText(title(distributor.name)).waitFor();
    await page.close();
  });

  it('the new retailer changes its initial password, creates a customer and sees only its own', async () => {
    const page = await openPage(browser);
    await signIn(page, baseURL, retailer.mobile, 'Welcome@123');
    await page.waitForURL(/\/home$/);
    const passwordDialog = page.getByRole('dialog', { name: 'Update Password' });
    await passwordDialog.getByLabel('Old Password *').fill('Welcome@123');
    await passwordDialog.getByLabel('New Password *', { exact: true }).fill(NEW_PASSWORD);
    await passwordDialog.getByLabel('Confirm New Password *').fill(NEW_PASSWORD);
    await passwordDialog.getByRole('button', { name: 'Update' }).click();
    await toast(page, 'Password Updated Successfully!');
    await page.waitForURL(/\/auth$/);

    await signIn(page, baseURL, retailer.mobile, NEW_PASSWORD);
    await page.waitForURL(/\/home$/);
    // A retailer's menu: its retailers and customers, no staff screens.
    await expect.poll(() => page.getByRole('menuitem', { name: 'Master Distributors' }).count()).toBe(0);
    await page.getByRole('menuitem', { name: 'Customers' }).click();
    await page.waitForURL(/\/customer\/list$/);
    await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
    await page.getByText('No Data Found').waitFor();

    await page.getByRole('button', { name: 'Add Customer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Customer' });
    await fillUser(page, dialog, customer);
    await expect.poll(() => dialog.getByRole('combobox', { name: 'Retailer' }).count()).toBe(0);
    await dialog.getByLabel('Aadhar Id *').fill('23456');
    await dialog.getByLabel('PAN Id *').fill('abcde1234f');
    await dialog.getByLabel('Name *', { exact: true }).click();
    await dialog.getByText('Aadhar length should be 12 digits').waitFor();
    await dialog.getByLabel('Aadhar Id *').fill(aadhar);
    await dialog.getByText('Aadhar length should be 12 digits').waitFor({ state: 'hidden' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await toast(page, 'Customer Created Successfully!');
    await dialog.waitFor({ state: 'hidden' });

    // Aadhar collapses below 1536 px (the laptop keeps the row actions in view): look at a wide screen.
    await resizePage(page, { width: 1600, height: 900 });
    const row = page.getByRole('row').filter({ hasText: title(customer.name) });
    await row.waitFor();
    await row.getByText(title(retailer.name)).waitFor();
    await row.getByText(`XXXXXXXX${aadhar.slice(-4)}`).waitFor();
    await row.getByText('ABCDE1234F').waitFor();
    // Exactly the one customer of this retailer, out of the network's many.
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await page.close();
  });
});

// Runs after this file's other tests: the built panel works under the server's Content-Security-Policy.
describe('Content-Security-Policy', () => {
  it('was not violated by any page above', () => {
    expect(cspViolations).toEqual([]);
  });
});
