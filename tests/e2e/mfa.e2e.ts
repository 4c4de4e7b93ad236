import { TOTP } from 'otpauth';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MFA_MSG } from '../../src/shared/constants/mfa';
import { SALES_MSG } from '../../src/shared/constants/sales';
import { en } from '../../src/web/i18n/en';
import { hi } from '../../src/web/i18n/hi';
import { api, axeViolations, cspViolations, launchBrowser, preparePage, settled } from './browser';
import { type RunningServer, startServer } from './server';

/**
 * Issue 51 in Chromium: an admin sets up the second step of signing in by reading the key shown beside the QR code
 * and computing codes with otpauth (as an authenticator app does), signs out and in with a code, and approves a
 * payout the demo employee made with a code; then switches it off. The same walk runs in Hindi, signing in again
 * on a page opened afresh (the sign-in form drawn by the page's first script, before the panel). axe checks the
 * Security page and every dialog of the walk.
 *
 * The file starts a server of its own (its own DATA_DIR and port): the suite's shared server keeps the demo admin on
 * a password alone, as the other files sign in with it.
 */

const ADMIN = { mobile: '9999999999', password: 'Admin@1234' };
const EMPLOYEE = { mobile: '9000000001', password: 'Demo@1234' };

let server: RunningServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A page of its own (own storage), in `locale`, prepared like every page of the suite. */
async function newPage(locale: 'en' | 'hi') {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  contexts.push(context);
  context.on('page', preparePage);
  await context.addInitScript(
    (value) => localStorage.setItem('RaStore.locale', JSON.stringify(value)),
    locale,
  );
  return context.newPage();
}

const STEP_MS = 30_000;
const stepNow = () => Math.floor(Date.now() / STEP_MS);
/** Time a code takes from being read to the server's check, with room to spare on a loaded machine. */
const TYPING_MS = 10_000;
/** The last step whose code was sent, per key: the server takes each step's code once, in order. */
const spent = new Map<string, number>();

/**
 * The code an authenticator app shows for `secret`, of a step not used yet. The server takes a code one step either
 * way of its clock: the code the app showed a moment ago and the next one serve at once, so a walk's first three
 * codes need no wait; past that, this waits as a person waits for the app to show a new code. The step before the
 * clock's is only used while the clock's step has TYPING_MS left, so the code is still taken when it arrives.
 */
async function nextCode(secret: string): Promise<string> {
  const justShown = Date.now() % STEP_MS < STEP_MS - TYPING_MS ? stepNow() - 1 : stepNow();
  const step = Math.max(justShown, (spent.get(secret) ?? Number.NEGATIVE_INFINITY) + 1);
  await expect.poll(() => stepNow() >= step - 1, { timeout: 2 * STEP_MS }).toBe(true);
  spent.set(secret, step);
  return new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: step * STEP_MS,
  });
}

/** The serious and critical axe violations of what is on screen now, under `name`. */
async function axe(page: Page, name: string, found: string[]) {
  await settled(page, page.locator('[role=progressbar]'));
  for (const violation of await axeViolations(page)) found.push(`${name}: ${violation}`);
}

/** The panel's texts the walk reads on screen, in one language (from its catalogue). */
const wordsOf = (locale: 'en' | 'hi') => {
  const t = locale === 'hi' ? hi : en;
  return {
    mobile: t.app.login.mobile,
    password: t.app.login.password,
    login: t.app.login.submit,
    loginOtp: t.app.login.otp,
    userMenu: t.ra.auth.user_menu,
    security: t.app.menu.security,
    logout: t.app.menu.logout,
    logoutTitle: t.app.logout.title,
    logoutYes: t.app.logout.yes,
    /** The Security page and its dialogs. */
    sec: t.app.security,
    approveRow: t.app.approvals.approveRow,
    approveTitle: t.app.approvals.approveTitle,
    approve: t.app.approvals.approve,
    approvalOtp: t.app.approvals.otp,
    codeRequired: locale === 'hi' ? hi.app.shared.mfa.codeRequired : MFA_MSG.codeRequired,
    commandApproved: locale === 'hi' ? hi.app.shared.sales.commandApproved : SALES_MSG.commandApproved,
  };
};
type Texts = ReturnType<typeof wordsOf>;

/** A field by its label as react-admin draws a required one (`Label *`). */
const field = (scope: Page | Locator, label: string) => scope.getByLabel(`${label} *`, { exact: true });

/** Signs in with the password on the sign-in form, drawn by the page's first script or mounted by the panel. */
async function signInWithPassword(page: Page, t: Texts) {
  await field(page, t.mobile).fill(ADMIN.mobile);
  await field(page, t.password).fill(ADMIN.password);
  await page.getByRole('button', { name: t.login }).click();
}

/** A catalogue phrase with `%{...}` arguments as a pattern matching it with any arguments. */
const phrasePattern = (phrase: string) =>
  new RegExp(`^${phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%\\\{\w+\\\}/g, '.*')}$`);

/** A payout the demo employee makes to a retailer with money (the demo's settled wallets): it waits for an admin. */
async function pendingPayout(amount: string) {
  const page = await newPage('en');
  await page.goto(`${server.baseURL}/auth`);
  await field(page, 'Mobile').fill(EMPLOYEE.mobile);
  await field(page, 'Password').fill(EMPLOYEE.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(/\/home$/);
  const retailers = await api(page, 'account/fetch?type=4&limit=100');
  const funded = (retailers.json.result.users as { _id: string; wallet: { balance: number } }[]).sort(
    (a, b) => b.wallet.balance - a.wallet.balance,
  )[0];
  expect(funded.wallet.balance).toBeGreaterThan(Number(amount));
  const made = await api(page, 'wallet/payout', {
    userId: funded._id,
    amount,
    reference: `E2E-MFA-${Date.now().toString(36).toUpperCase()}`,
  });
  expect(made.status).toBe(202);
  await page.close();
}

/**
 * The walk in one language: Security from the user menu, the set-up (the key read off the screen), signing out and
 * in with a code, approving a payout with a code, switching it off. Each step is an `it` of its own: between codes
 * the walk may wait for the app's next one.
 */
function walk(locale: 'en' | 'hi', amount: string, signInAgain: 'panel' | 'a page opened afresh') {
  const t = wordsOf(locale);
  const found: string[] = [];
  let page: Page;
  let secret: string;

  it(`${locale}: sets up the second step from the Security page, reading the key beside the QR code`, async () => {
    await pendingPayout(amount);
    page = await newPage(locale);
    await page.goto(`${server.baseURL}/auth`);
    await signInWithPassword(page, t);
    await page.waitForURL(/\/home$/);
    await page.getByRole('button', { name: t.userMenu }).click();
    await page.getByRole('menuitem', { name: t.security }).click();
    await page.waitForURL(/\/security$/);
    const card = page.getByRole('region', { name: t.sec.secondStep });
    await card.getByText(t.sec.off).waitFor();
    await page.getByRole('table', { name: t.sec.sessionsList }).getByText(t.sec.thisSession).waitFor();
    await axe(page, `${locale} /security`, found);

    await card.getByRole('button', { name: t.sec.setUp, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: t.sec.setUpTitle });
    await dialog.getByRole('img', { name: t.sec.qrAlt }).waitFor();
    secret = ((await dialog.getByTestId('second-step-key').textContent()) ?? '').trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await axe(page, `${locale} the set-up dialog`, found);
    await field(dialog, t.sec.otp).fill(await nextCode(secret));
    await dialog.getByRole('button', { name: t.sec.switchOn }).click();

    const codes = page.getByRole('dialog', { name: t.sec.codesTitle });
    const list = codes.getByRole('list', { name: t.sec.codesList });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(10);
    await axe(page, `${locale} the recovery codes`, found);
    await codes.getByRole('button', { name: t.sec.done }).click();
    await codes.waitFor({ state: 'hidden' });
    await card.getByText(t.sec.on).waitFor();
  });

  it(`${locale}: signs out, and in again with a code (${signInAgain})`, async () => {
    await page.getByRole('menuitem', { name: t.logout }).click();
    await page
      .getByRole('dialog', { name: t.logoutTitle })
      .getByRole('button', { name: t.logoutYes })
      .click();
    await page.waitForURL(/\/auth$/);
    // The running panel mounts the sign-in form at /auth; a page opened afresh draws it before the panel.
    if (signInAgain === 'a page opened afresh') await page.reload();
    await field(page, t.mobile).waitFor();
    await signInWithPassword(page, t);
    const codeField = field(page, t.loginOtp);
    await codeField.waitFor();
    await expect.poll(() => codeField.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await codeField.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await codeField.getAttribute('inputmode')).toBe('numeric');
    await page.getByRole('status').getByText(t.codeRequired).waitFor();
    await axe(page, `${locale} /auth asking for the code (${signInAgain})`, found);
    await codeField.fill(await nextCode(secret));
    await page.getByRole('button', { name: t.login }).click();
    await page.waitForURL(/\/home$/);
  });

  it(`${locale}: approves the employee's payout with a code`, async () => {
    await page.goto(`${server.baseURL}/approvals/list`);
    await page
      .getByRole('row')
      .filter({ hasText: `₹${amount}.00` })
      .getByRole('button', { name: phrasePattern(t.approveRow) })
      .click();
    const dialog = page.getByRole('dialog', { name: t.approveTitle });
    const code = field(dialog, t.approvalOtp);
    await code.waitFor();
    await axe(page, `${locale} the approve dialog`, found);
    await dialog.getByRole('button', { name: t.approve, exact: true }).click();
    await dialog.getByText(t.codeRequired).waitFor();
    await code.fill(await nextCode(secret));
    await dialog.getByRole('button', { name: t.approve, exact: true }).click();
    await page.getByText(t.commandApproved).waitFor();
    await dialog.waitFor({ state: 'hidden' });
  });

  it(`${locale}: switches it off with a code, and axe found nothing on the way`, async () => {
    await page.getByRole('button', { name: t.userMenu }).click();
    await page.getByRole('menuitem', { name: t.security }).click();
    const card = page.getByRole('region', { name: t.sec.secondStep });
    await card.getByRole('button', { name: t.sec.switchOff }).click();
    const dialog = page.getByRole('dialog', { name: t.sec.switchOffTitle });
    await field(dialog, t.sec.otp).waitFor();
    await axe(page, `${locale} the switch-off dialog`, found);
    await field(dialog, t.sec.otp).fill(await nextCode(secret));
    await dialog.getByRole('button', { name: t.sec.switchOff }).click();
    await card.getByText(t.sec.off).waitFor();
    expect(found).toEqual([]);
  });
}

describe('two-step sign-in, in English', () => {
  walk('en', '1', 'panel');
});

describe('two-step sign-in, in Hindi', () => {
  walk('hi', '2', 'a page opened afresh');
});

describe('Content-Security-Policy', () => {
  it('was not violated by any page above', async () => {
    for (const context of contexts) await context.close();
    expect(cspViolations).toEqual([]);
  });
});
