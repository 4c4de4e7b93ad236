import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cspViolations, launchBrowser, openPage, signIn } from './browser';

const baseURL = inject('baseURL');
let browser: Browser;
let page: Page;

/** Unique per run so the suite can run again against the same database. */
const stamp = Date.now().toString(36);
const stateName = `e2e state ${stamp}`;
const districtName = `e2e district ${stamp}`;
const tehsilName = `e2e tehsil ${stamp}`;
const providerName = `e2e provider ${stamp}`;
const productName = `e2e product ${stamp}`;
const title = (text: string) => text.replace(/\b\w/g, (c) => c.toUpperCase());

beforeAll(async () => {
  browser = await launchBrowser();
  page = await openPage(browser);
  await signIn(page, baseURL, '9999999999', 'Admin@1234');
  await page.waitForURL(/\/home$/);
});
afterAll(async () => {
  await browser?.close();
});

const toast = (text: string) => page.getByText(text, { exact: true }).first().waitFor();

/** Types into a typeahead and picks the suggestion with the given (title-cased) text. */
async function choose(dialog: Locator, label: string, search: string, option: string) {
  const input = dialog.getByRole('combobox', { name: label });
  await input.click();
  await input.fill(search);
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Searches the list (q -> searchText) and returns the row that shows the name. */
async function findRow(search: string, name: string) {
  await page.getByPlaceholder('Search').fill(search);
  const row = page.getByRole('row').filter({ hasText: name });
  await row.first().waitFor();
  return row;
}

describe('locations and catalogue in Chromium', () => {
  it('creates a state, a district in it and a tehsil in it through the modals and typeaheads', async () => {
    await page.getByRole('menuitem', { name: 'State', exact: true }).click();
    await page.waitForURL(/\/location\/state\/list$/);
    await page.getByRole('heading', { level: 1, name: 'States' }).waitFor();

    await page.getByRole('button', { name: 'Add State' }).click();
    let dialog = page.getByRole('dialog', { name: 'Create New State' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await toast('Invalid data!');
    await dialog.getByText('State name is required!').waitFor();
    await dialog.getByLabel('Name *').fill(stateName);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await toast('State Created Successfully!');
    await dialog.waitFor({ state: 'hidden' });
    const stateRow = await findRow(stamp, title(stateName));
    await expect.poll(() => stateRow.count()).toBe(1);

    await page.getByRole('menuitem', { name: 'District', exact: true }).click();
    await page.waitForURL(/\/location\/district\/list$/);
    await page.getByRole('button', { name: 'Add District' }).click();
    dialog = page.getByRole('dialog', { name: 'Create New District' });
    await choose(dialog, 'State', stamp, title(stateName));
    await dialog.getByLabel('Name *').fill(districtName);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await toast('District Created Successfully!');
    await dialog.waitFor({ state: 'hidden' });
    const districtRow = await findRow(stamp, title(districtName));
    await districtRow.getByText(title(stateName)).waitFor();

    // The seed's create path opens the tehsil list with the modal open.
    await page.goto(`${baseURL}/location/tehsil/create`);
    dialog = page.getByRole('dialog', { name: 'Create New Tehsil' });
    await dialog.waitFor();
    await expect.poll(() => dialog.getByRole('combobox', { name: 'District' }).isDisabled()).toBe(true);
    await choose(dialog, 'State', stamp, title(stateName));
    await choose(dialog, 'District', stamp, title(districtName));
    await dialog.getByLabel('Tehsil Name *').fill(tehsilName);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await toast('Tehsil Created Successfully!');
    await dialog.waitFor({ state: 'hidden' });
    await page.waitForURL(/\/location\/tehsil\/list/);
    const tehsilRow = await findRow(stamp, title(tehsilName));
    await tehsilRow.getByText(title(districtName)).waitFor();
    await tehsilRow.getByText(title(stateName)).waitFor();

    // Edit opens 'Update Tehsil' with the row's state and district chosen.
    await tehsilRow.getByRole('button', { name: /Edit/ }).click();
    dialog = page.getByRole('dialog', { name: 'Update Tehsil' });
    await expect
      .poll(() => dialog.getByRole('combobox', { name: 'District' }).inputValue())
      .toBe(title(districtName));
    await dialog.getByLabel('Tehsil Name *').fill(`${tehsilName} renamed`);
    await dialog.getByRole('button', { name: 'Update' }).click();
    await toast('Tehsil Updated Successfully!');
    await findRow(stamp, title(`${tehsilName} renamed`));
  });

  it('creates a provider, then refuses a product whose commissions sum to 99 and accepts 100', async () => {
    await page.getByRole('menuitem', { name: 'Providers' }).click();
    await page.waitForURL(/\/provider\/list$/);
    await page.getByRole('button', { name: 'Add Provider' }).click();
    let dialog = page.getByRole('dialog', { name: 'Create New Provider' });
    await dialog.getByLabel('Name *').fill(providerName);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await toast('Provider Created Successfully!');
    await findRow(stamp, title(providerName));

    await page.getByRole('menuitem', { name: 'Products' }).click();
    await page.waitForURL(/\/product\/list$/);
    // The providers' screen stays until the products' is drawn (its code may still be loading): wait for its title.
    await page.getByRole('heading', { level: 1, name: 'Products' }).waitFor();
    await page.locator('tbody tr').first().or(page.getByText('No Data Found')).waitFor();
    // The seed: "No Add button is present in the screen, although a create action exists" (/product/create).
    expect(await page.getByRole('button', { name: /^Add/ }).count()).toBe(0);
    await page.goto(`${baseURL}/product/create`);
    dialog = page.getByRole('dialog', { name: 'Create New Product' });
    await choose(dialog, 'Provider', stamp, title(providerName));
    await dialog.getByLabel('Name *', { exact: true }).fill(productName);
    const shares = {
      'Admin Commission': '20',
      'Master Distributor Commission': '20',
      'Distributor Commission': '20',
      'Retailer Commission': '20',
      'Customer Commission': '19',
    };
    for (const [label, value] of Object.entries(shares))
      await dialog.getByLabel(`${label} *`, { exact: true }).fill(value);
    await dialog.getByLabel('Amount *').fill('150');
    await dialog.getByLabel('URL *', { exact: true }).fill('https://partner.example/open');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Total commission should be 100').waitFor();
    await toast('Invalid data!');

    await dialog.getByLabel('Customer Commission *', { exact: true }).fill('20');
    await dialog.getByText('Total commission should be 100').waitFor({ state: 'hidden' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await toast('Product Created Successfully!');
    await dialog.waitFor({ state: 'hidden' });
    const row = await findRow(stamp, title(productName));
    await row.getByText(title(providerName)).waitFor();
  });
});

// Runs after this file's other tests: the built panel works under the server's Content-Security-Policy.
describe('Content-Security-Policy', () => {
  it('was not violated by any page above', () => {
    expect(cspViolations).toEqual([]);
  });
});
