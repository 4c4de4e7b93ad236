import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, cspViolations, launchBrowser, preparePage } from './browser';

/**
 * Issue 44, the sign-in entry: a first visit draws the login form from the page's own small script, Login is
 * usable while the panel's code is still on its way, and Login hands over to the panel signed in. Issue 52: the
 * panel's login page is the same form. Behaviour only: the Slow 3G timings are the bench's (tests/bench/panel.ts).
 */

const baseURL = inject('baseURL');
const ADMIN = { mobile: '9999999999', password: 'Admin@1234' };
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function newPage(
  options: { viewport?: { width: number; height: number }; theme?: 'dark'; locale?: 'hi' } = {},
) {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1366, height: 768 } });
  context.on('page', preparePage);
  await context.addInitScript(
    ({ theme, locale }) => {
      if (theme) localStorage.setItem('RaStore.theme', JSON.stringify(theme));
      if (locale) localStorage.setItem('RaStore.locale', JSON.stringify(locale));
    },
    { theme: options.theme, locale: options.locale },
  );
  return context.newPage();
}

/** The scripts index.html itself loads: the sign-in entry. */
async function entryScripts(): Promise<Set<string>> {
  const html = await (await fetch(`${baseURL}/auth`)).text();
  return new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]));
}

/**
 * The form's validator: the login schema with zod, in the `validation` chunk (vite.config.ts) the entry imports on
 * the first key, and the scripts that chunk imports.
 */
async function validatorScripts(entry: Set<string>): Promise<Set<string>> {
  const scripts = new Set<string>();
  for (const path of entry) {
    const text = await (await fetch(`${baseURL}${path}`)).text();
    for (const [name] of text.matchAll(/\/?assets\/validation-[\w-]+\.js/g))
      scripts.add(name.startsWith('/') ? name : `/${name}`);
  }
  for (const path of [...scripts]) {
    const text = await (await fetch(`${baseURL}${path}`)).text();
    for (const [, name] of text.matchAll(/from"\.\/([\w-]+\.js)"/g)) scripts.add(`/assets/${name}`);
  }
  return scripts;
}

describe('the sign-in entry', () => {
  it("draws the form and signs in while the panel's code is held back; the panel then opens signed in", async () => {
    const entry = await entryScripts();
    expect(entry.size).toBeGreaterThan(0);
    const validator = await validatorScripts(entry);
    expect(validator.size).toBeGreaterThan(0);
    const page = await newPage();
    // Every script but the entry's and the validator's is held until the form has been used: the panel's code
    // (react-admin, MUI).
    const held: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/assets/*.js', async (route: Route) => {
      const path = new URL(route.request().url()).pathname;
      if (entry.has(path) || validator.has(path)) return route.continue();
      held.push(path);
      await released;
      await route.continue();
    });
    await page.goto(`${baseURL}/`);
    await page.waitForURL(/\/auth$/);
    await page.getByRole('heading', { name: 'Welcome back!' }).waitFor();
    await page.getByText('Enter your details to continue').waitFor();
    // The panel's code was asked for at once, before any key was typed, and has not arrived.
    await expect.poll(() => held.length).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.querySelectorAll('.MuiCard-root, .RaLayout-root').length)).toBe(
      0,
    );

    // The form works without it: a field message, then a sign-in the server accepts.
    const login = page.getByRole('button', { name: 'Login' });
    expect(await login.isEnabled()).toBe(true);
    await page.getByLabel('Mobile *', { exact: true }).fill('12');
    await page.getByLabel('Password *', { exact: true }).focus();
    await page.getByText('Minimum length not fulfilled').waitFor();
    await page.getByLabel('Mobile *', { exact: true }).fill(ADMIN.mobile);
    await page.getByLabel('Password *', { exact: true }).fill(ADMIN.password);
    const answered = page.waitForResponse((response) => response.url().includes('/api/v1/account/fetch'));
    await login.click();
    expect((await answered).status()).toBe(200);
    await expect
      .poll(() => page.evaluate(() => Object.keys(localStorage)))
      .toEqual(expect.arrayContaining(['authToken', 'uDD', 'userData']));
    // Login waits for the panel, busy, on the sign-in page.
    expect(page.url()).toMatch(/\/auth$/);
    expect(await login.isDisabled()).toBe(true);

    release();
    await page.waitForURL(/\/home$/);
    await page.getByText('Logged in successfully').waitFor();
    for (const label of ['Total Customers', 'Active Retailers', 'Master Distributors'])
      await page.getByRole('listitem', { name: label, exact: true }).waitFor();
    await page.getByRole('menuitem', { name: 'Logout' }).waitFor();
    await page.context().close();
  });

  it('a Hindi visitor reads the form and a refusal in Hindi', async () => {
    const page = await newPage({ locale: 'hi' });
    await page.goto(`${baseURL}/auth`);
    await page.getByRole('heading', { name: 'फिर से स्वागत है!' }).waitFor();
    await page.getByLabel('मोबाइल *', { exact: true }).fill(ADMIN.mobile);
    await page.getByLabel('पासवर्ड *', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'लॉगिन' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'त्रुटि: उपयोगकर्ता नाम या पासवर्ड गलत है' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('त्रुटि!!!');
    expect(page.url()).toMatch(/\/auth$/);
    await page.context().close();
  });

  it('after the session ended, the panel shows the form with its notice; after a reload, Login returns to the page the person was on', async () => {
    const page = await newPage({ theme: 'dark' });
    // The event stream cut, as a proxy that drops long-lived streams would: the panel then meets the ended session
    // on its next call, the path this test follows (with the stream, the panel leaves the page by itself as soon as
    // the session ends, before the click below: panel.e2e.ts checks that path).
    await page.route('**/api/v1/events', (route) => route.abort());
    await page.goto(`${baseURL}/auth`);
    await page.getByLabel('Mobile *', { exact: true }).fill(ADMIN.mobile);
    await page.getByLabel('Password *', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(/\/home$/);
    await page.goto(`${baseURL}/provider/list?page=1`);
    await page.locator('tbody tr').first().waitFor();
    // The session ends on the server; the panel's next call meets it and sends the person to sign in.
    const status = await page.evaluate(async () => {
      const xsrf = decodeURIComponent(document.cookie.match(/XSRF-TOKEN=([^;]+)/)?.[1] ?? '');
      const response = await fetch('/api/v1/account/logout', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-auth-token': `bearer ${localStorage.getItem('authToken')}`,
          'X-XSRF-TOKEN': xsrf,
        },
        body: '{}',
      });
      return response.status;
    });
    expect(status).toBe(200);
    await page.getByRole('menuitem', { name: 'Products' }).click();
    await page.waitForURL(/\/auth$/);
    await page.getByText('Your session has ended. Please log in again.').waitFor();
    // The panel's login page is the same form, in the chosen theme, with the panel's toast above it.
    await page.getByRole('heading', { name: 'Welcome back!' }).waitFor();
    expect(
      await page
        .locator('.sg')
        .evaluate((form) => [
          form.ownerDocument.querySelectorAll('.sg').length,
          getComputedStyle(form).backgroundColor,
        ]),
    ).toEqual([1, 'rgb(16, 20, 24)']);
    expect(await axeViolations(page)).toEqual([]);
    // A reload draws the entry's form, which still knows where the person was.
    await page.reload();
    await page.getByRole('heading', { name: 'Welcome back!' }).waitFor();
    await page.getByLabel('Mobile *', { exact: true }).fill(ADMIN.mobile);
    await page.getByLabel('Password *', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(/\/product\/list$/);
    await page.context().close();
  });

  it('passes axe in both themes, on a laptop and a phone, with its messages showing', async () => {
    const found: string[] = [];
    for (const theme of [undefined, 'dark'] as const)
      for (const viewport of [
        { width: 1366, height: 768 },
        { width: 390, height: 844 },
      ]) {
        const page = await newPage({ theme, viewport });
        await page.goto(`${baseURL}/auth`);
        await page.getByRole('button', { name: 'Login' }).click();
        await page.getByRole('alert').filter({ hasText: 'Username Or Password Invalid' }).waitFor();
        await page.getByRole('button', { name: 'English' }).click();
        await page.getByRole('menuitem', { name: 'हिन्दी' }).waitFor();
        await page.evaluate(AXE_SOURCE);
        const violations = await page.evaluate(async () => {
          const { axe } = window as unknown as {
            axe: { run: (context: Document) => Promise<{ violations: { id: string; impact: string }[] }> };
          };
          const { violations } = await axe.run(document);
          return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
        });
        for (const id of violations) found.push(`${theme ?? 'light'} ${viewport.width}: ${id}`);
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
          `${theme} ${viewport.width} scrolls sideways`,
        ).toBe(true);
        await page.context().close();
      }
    expect(found).toEqual([]);
  });

  it('was not violated by any page above (Content-Security-Policy)', () => {
    expect(cspViolations).toEqual([]);
  });
});
