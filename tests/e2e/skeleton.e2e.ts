import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cspViolations, launchBrowser, openPage, signIn } from './browser';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const storedKeys = (page: Page) => page.evaluate(() => Object.keys(window.localStorage).sort());

describe('walking skeleton in Chromium', () => {
  it('signs in as admin, shows the nine tiles, and logs out through the confirm dialog', async () => {
    const page = await openPage(browser);
    await page.goto(baseURL);
    await page.waitForURL(/\/auth$/);
    await page.getByRole('heading', { name: 'Welcome back!' }).waitFor();
    await page.getByText('Enter your details to continue').waitFor();

    await signIn(page, baseURL, '9999999999', 'Admin@1234');
    await page.waitForURL(/\/home$/);
    for (const label of [
      'Total Active Distributors',
      'Active Employees',
      'Active Master Distributors',
      'Active Retailers',
      'Total Customers',
      'Distributors',
      'Employees',
      'Master Distributors',
      'Retailers',
    ]) {
      await page.getByRole('listitem', { name: label, exact: true }).waitFor();
    }
    // The demo network: 20 customers, 8 retailers of which 7 are active. The browser files share one server and
    // run in no fixed order (people and onboarding add users), so the tiles are held to the server's counts.
    const counts = await page.evaluate(async () => {
      const headers = { 'X-auth-token': `bearer ${localStorage.getItem('authToken')}` };
      const response = await fetch('/api/v1/report/userCounts', { headers });
      return (await response.json()).result.userReport[0] as Record<string, number>;
    });
    expect(counts.CUSTOMER).toBeGreaterThanOrEqual(20);
    expect(counts.ACTIVE_RETAILERS).toBeGreaterThanOrEqual(7);
    await expect.poll(() => page.getByTestId('tile-CUSTOMER').textContent()).toBe(String(counts.CUSTOMER));
    await page
      .getByTestId('tile-ACTIVE_RETAILERS')
      .filter({ hasText: new RegExp(`^${counts.ACTIVE_RETAILERS}$`) })
      .waitFor();
    expect(await storedKeys(page)).toEqual(expect.arrayContaining(['authToken', 'uDD', 'userData']));

    await page.getByRole('menuitem', { name: 'Logout' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm Logout' });
    await dialog.getByText('Are you sure you want to exit from this application?').waitFor();
    await dialog.getByRole('button', { name: 'No' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(page.url()).toMatch(/\/home$/);

    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Yes, logout' }).click();
    await page.waitForURL(/\/auth$/);
    const left = await storedKeys(page);
    expect(left).not.toContain('authToken');
    expect(left).not.toContain('userData');
    expect(left).not.toContain('uDD');
    // The session is gone on the server too: /home sends us back to sign in.
    await page.goto(`${baseURL}/home`);
    await page.waitForURL(/\/auth$/);
    await page.close();
  });

  it('refuses a wrong password with the error toast', async () => {
    const page = await openPage(browser);
    await signIn(page, baseURL, '9999999999', 'wrong-password');
    await page.getByText('Error: Invalid username or password').waitFor();
    await page.getByText('Error!!!').waitFor();
    expect(page.url()).toMatch(/\/auth$/);
    await page.close();
  });

  it('forces a user on the initial password through the Update Password dialog', async () => {
    const page = await openPage(browser);
    await signIn(page, baseURL, '9000000002', 'Welcome@123');
    await page.waitForURL(/\/home$/);
    const dialog = page.getByRole('dialog', { name: 'Update Password' });
    await dialog.waitFor();
    // Not dismissable: Escape leaves it open.
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(true);

    await dialog.getByLabel('Old Password *').fill('Welcome@123');
    await dialog.getByLabel('New Password *', { exact: true }).fill('weakpass');
    await dialog.getByLabel('Confirm New Password *').fill('weakpass');
    await dialog.getByRole('button', { name: 'Update' }).click();
    await dialog
      .getByText(
        'Password must contain at least eight characters, at least one number and both lower and uppercase letters and special characters',
      )
      .waitFor();

    await dialog.getByLabel('New Password *', { exact: true }).fill('Chosen@2026');
    await dialog.getByLabel('Confirm New Password *').fill('Chosen@2026');
    await dialog.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Password Updated Successfully!').waitFor();
    await page.waitForURL(/\/auth$/);

    await signIn(page, baseURL, '9000000002', 'Chosen@2026');
    await page.waitForURL(/\/home$/);
    // The counts load once the password is changed: the demo's two employees at least (other suites add some).
    await expect
      .poll(async () => Number((await page.getByTestId('tile-EMPLOYEE').textContent())?.replace(/,/g, '')))
      .toBeGreaterThanOrEqual(2);
    await expect.poll(() => page.getByRole('dialog', { name: 'Update Password' }).count()).toBe(0);
    await page.close();
  });
});

// Runs after this file's other tests: the built panel works under the server's Content-Security-Policy.
describe('Content-Security-Policy', () => {
  it('is sent with the panel: no inline scripts, no framing', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${baseURL}/auth`);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    await page.getByRole('heading', { name: 'Welcome back!' }).waitFor();
    await page.close();
  });

  it('was not violated by any page above', () => {
    expect(cspViolations).toEqual([]);
  });
});
