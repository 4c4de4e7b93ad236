import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { verhoeffDigit } from '../../src/shared/identity';
import { LEAD_MSG } from '../../src/shared/schemas/leads';
import { cspViolations, launchBrowser, openPage, signIn } from './browser';

const baseURL = inject('baseURL');
let browser: Browser;
let page: Page;
let dir: string;
let picturePath: string;
let documentPath: string;

/** Unique per run: the approved retailer's mobile is its user name. */
const now = String(Date.now());
const mobile = `9${now.slice(-9)}`;
const aadharBase = `5${now.slice(-10)}`;
const aadhar = `${aadharBase}${verhoeffDigit(aadharBase)}`;
const applicantName = 'Kiran Tester';

// Real files: a 1x1 PNG and a minimal PDF (the server judges the type from the bytes).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-onboarding-'));
  picturePath = path.join(dir, 'me.png');
  documentPath = path.join(dir, 'pan.pdf');
  fs.writeFileSync(picturePath, PNG);
  fs.writeFileSync(documentPath, PDF);
  browser = await launchBrowser();
  page = await openPage(browser);
});
afterAll(async () => {
  await browser?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const toast = (text: string) => page.getByText(text, { exact: true }).first().waitFor();
const region = (name: string) => page.getByRole('region', { name });

/** Types into a typeahead and picks the suggestion with the given (title-cased) text. */
async function choose(scope: Locator, label: string, search: string, option: string) {
  const input = scope.getByRole('combobox', { name: label, exact: true });
  await expect.poll(() => input.isEnabled()).toBe(true);
  await input.click();
  await input.fill(search);
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect.poll(() => input.inputValue()).toBe(option);
}

/** Every field of the application is required: its label carries react-admin's asterisk. */
const fill = (scope: Locator, label: string, value: string) =>
  scope.getByLabel(`${label} *`, { exact: true }).fill(value);

describe('onboarding in Chromium', () => {
  it('a retailer applies through the public form, with a picture and a document', async () => {
    await page.goto(`${baseURL}/welcome`);
    await page.getByRole('link', { name: /Join as Retailer/ }).click();
    await page.waitForURL(/\/onboarding\/retailer$/);
    await page.getByRole('heading', { level: 1, name: 'Retailer Onboarding' }).waitFor();

    // 'Same as above' is refused while the business section is empty.
    const same = page.getByRole('checkbox', { name: 'Same as above' });
    await same.click();
    await toast(LEAD_MSG.sameAsAboveRefused);
    await expect.poll(() => same.isChecked()).toBe(false);

    const applicant = region('Applicant Information');
    await page.locator('input[type=file][name=picture]').setInputFiles(picturePath);
    await applicant.getByRole('img', { name: 'Preview of the Applicant Picture' }).waitFor();
    await applicant.getByText('me.png').waitFor();
    await fill(applicant, 'Applicant Name', applicantName);
    await fill(applicant, 'Education', 'B.Com');
    await expect.poll(() => applicant.getByLabel('Male', { exact: true }).isChecked()).toBe(true);

    const business = region('Shop / Business Information');
    await fill(business, 'Establishment Name', 'Kiran Mobile Point');
    await fill(business, 'Outlet Address', 'Shop 4, Market Road');
    await fill(business, 'Landmark', 'Near bus stand');
    await fill(business, 'Pincode', '411001');
    await expect
      .poll(() => business.getByRole('combobox', { name: 'District', exact: true }).isDisabled())
      .toBe(true);
    await choose(business, 'State', 'Mahara', 'Maharashtra');
    await choose(business, 'District', 'Pun', 'Pune');
    await choose(business, 'Tehsil', 'Hav', 'Haveli');
    await fill(business, 'Mobile', mobile);
    await fill(business, 'Telephone', '020-2345678');
    await fill(business, 'Email', `kiran.${now}@example.in`);
    await business.getByLabel('Owned', { exact: true }).check();
    await fill(business, 'Years in Location', '5');

    await same.check();
    await expect.poll(() => same.isChecked()).toBe(true);
    const permanent = region('Permanent Address');
    await expect
      .poll(() => permanent.getByLabel('Residential Address *', { exact: true }).inputValue())
      .toBe('Shop 4, Market Road');
    await expect.poll(() => permanent.getByLabel('Mobile *', { exact: true }).inputValue()).toBe(mobile);
    await expect
      .poll(() => permanent.getByRole('combobox', { name: 'Tehsil', exact: true }).inputValue())
      .toBe('Haveli');

    const other = region('Other Business Information');
    await fill(other, 'Outlet Description', 'Mobile recharge and bill payments');
    await fill(other, 'Similar Arrangement Details', 'None');
    await fill(other, 'PAN Number', 'ABCDE1234F');
    await fill(other, 'Aadhar Number', aadhar);

    const bank = region('Bank Information');
    await fill(bank, 'Bank Name', 'State Bank');
    await fill(bank, 'Account Number', '123456789012');
    await fill(bank, 'IFSC Code', 'SBIN0001234');

    const identity = region('Identity Proof');
    await identity.getByRole('combobox', { name: 'Document Type' }).click();
    await page.getByRole('option', { name: 'PAN', exact: true }).click();
    await fill(identity, 'Document Number', 'ABCDE1234F');
    await page.locator('input[type=file][name=document]').setInputFiles(documentPath);
    await identity.getByText('pan.pdf').waitFor();

    await page.getByRole('button', { name: 'Submit' }).click();
    await toast(LEAD_MSG.thankYou);
    // The form starts again empty.
    await expect
      .poll(() =>
        region('Applicant Information').getByLabel('Applicant Name *', { exact: true }).inputValue(),
      )
      .toBe('');
  });

  it('an admin finds the lead, sees its picture and approves it under a master distributor and a distributor', async () => {
    await signIn(page, baseURL, '9999999999', 'Admin@1234');
    await page.waitForURL(/\/home$/);
    await page.getByRole('menuitem', { name: 'Leads' }).click();
    await page.waitForURL(/\/lead\/list$/);
    await page.getByRole('heading', { level: 1, name: 'Leads' }).waitFor();

    await page.getByPlaceholder('Search').fill(mobile);
    const row = page.getByRole('row').filter({ hasText: mobile });
    await row.first().waitFor();
    await expect.poll(() => row.count()).toBe(1);
    await row.getByText('NEW', { exact: true }).waitFor();
    await row.getByText('Pune', { exact: true }).waitFor();
    await row.getByRole('button', { name: `View the application of ${applicantName}` }).click();

    const detail = page.getByRole('dialog', { name: `Application of ${applicantName}` });
    await detail.waitFor();
    const picture = detail.getByRole('img', { name: `Picture of ${applicantName}` });
    await picture.waitFor();
    // The picture really loaded (fetched with the token, shown through an object URL).
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(1);
    await detail.getByRole('link', { name: 'Open pan.pdf' }).waitFor();
    await detail.getByText('Shop 4, Market Road').first().waitFor();

    await detail.getByRole('button', { name: 'Approve' }).click();
    const approve = page.getByRole('dialog', { name: 'Approve Application' });
    await approve.waitFor();
    await choose(approve, 'Master Distributor', 'Lakshmi', 'Lakshmi Enterprises');
    await choose(approve, 'Distributor', 'Pune', 'Pune Pay Hub');
    await approve.getByRole('button', { name: 'Approve' }).click();
    await toast(LEAD_MSG.approved);
    await approve.waitFor({ state: 'hidden' });
    await detail.getByText('APPROVED', { exact: true }).first().waitFor();
    await expect.poll(() => detail.getByRole('button', { name: 'Approve' }).count()).toBe(0);

    await detail.getByRole('button', { name: 'Close' }).click();
    await row.getByText('APPROVED', { exact: true }).waitFor();
  });
});

// Runs after this file's other tests: the built panel works under the server's Content-Security-Policy.
describe('Content-Security-Policy', () => {
  it('was not violated by any page above', () => {
    expect(cspViolations).toEqual([]);
  });
});
