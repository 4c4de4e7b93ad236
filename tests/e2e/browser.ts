import fs from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { titleCase } from '../../src/shared/format';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * How long a click, fill, locator wait or navigation waits for the page before failing, for every page of the
 * suite (set by `openPage` / `preparePage`). Sized for a loaded 2-core CI machine, where the panel's first load
 * alone can take seconds; Vitest's `expect.poll` gets the same limit in vite.config.ts (e2e project).
 */
export const WAIT_MS = 30_000;

/**
 * Content-Security-Policy violations any page of this file reported (Chromium logs each one to the console;
 * the listener below adds the ones only the `securitypolicyviolation` event names).
 */
export const cspViolations: string[] = [];

/**
 * Sets the suite's waits on a page and watches it for CSP violations. Pages from `browser.newPage` get this by
 * themselves; pages of a context a test makes (and popups) need `context.on('page', preparePage)`.
 */
export function preparePage(page: Page) {
  page.setDefaultTimeout(WAIT_MS);
  page.setDefaultNavigationTimeout(WAIT_MS);
  page.on('console', (message) => {
    if (/Content.Security.Policy|CSP violation/i.test(message.text())) cspViolations.push(message.text());
  });
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`),
    );
  });
}

/** The flags this closed network needs (no background connections), for every Chromium the suite starts. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * Debian's Chromium, headless, with CHROMIUM_ARGS. Every page it opens with `newPage` is prepared (waits, CSP
 * watch).
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (...args) => {
    const page = await newPage(...args);
    preparePage(page);
    return page;
  };
  return browser;
}

/** A fresh page (its own context: no shared storage), prepared: waits up to WAIT_MS, CSP watched. */
export const openPage = (browser: Browser): Promise<Page> => browser.newPage();

export async function signIn(page: Page, baseURL: string, userName: string, password: string) {
  await page.goto(`${baseURL}/auth`);
  // Required fields carry react-admin's asterisk in their label.
  await page.getByLabel('Mobile *', { exact: true }).fill(userName);
  await page.getByLabel('Password *', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

/** A new page of `browser`, signed in as `user`, on its home screen. */
export async function signedInPage(
  browser: Browser,
  baseURL: string,
  user: { mobile: string; password: string },
) {
  const page = await browser.newPage();
  await signIn(page, baseURL, user.mobile, user.password);
  await page.waitForURL(/\/home$/);
  return page;
}

/**
 * Records the text of every toast drawn on `page` from now on (until it is reloaded), and returns a look at them: a
 * later notice replaces the one on screen at once (layout/Notification.tsx) and each hides after a few seconds, so on
 * a loaded machine a toast may be gone before a look finds it, though a person saw it.
 */
export async function recordToasts(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { toastsSeen: string[] }).toastsSeen = seen;
    new MutationObserver(() => {
      for (const alert of document.querySelectorAll('[role=alert]'))
        if (alert.textContent && !seen.includes(alert.textContent)) seen.push(alert.textContent);
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { toastsSeen: string[] }).toastsSeen);
}

/**
 * Waits for what a user waits for: no request in flight (the loading bar gone), and no transition still running (a
 * dialog fading in is half transparent, and its colours would be measured mid-fade). Endless animations (a spinner)
 * do not count. `loadingBar` is the page's loading bar, by its English name unless the page speaks another language.
 */
export async function settled(
  page: Page,
  loadingBar: Locator = page.getByRole('progressbar', { name: 'Loading' }),
) {
  await expect.poll(() => loadingBar.count()).toBe(0);
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          document
            .getAnimations()
            .filter(
              (a) =>
                a.playState === 'running' &&
                a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY,
            ).length,
      ),
    )
    .toBe(0);
}

/**
 * Gives the page a new size and waits until it has drawn a frame at it: the panel's layout follows the width through
 * media queries, whose change the page hears of only as it next renders (before that, a phone's width may still show
 * the laptop's table).
 */
export async function resizePage(page: Page, size: { width: number; height: number }) {
  await page.setViewportSize(size);
  await page.waitForFunction((width) => window.innerWidth === width, size.width);
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/**
 * axe-core's source, run in the page through Playwright's evaluate (the DevTools protocol), which the server's
 * Content-Security-Policy does not govern: the policy stays on and watched, no `bypassCSP` needed.
 */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The serious and critical axe violations of the page as it is now, each with a few of its nodes; and those of the
 * rules `also` names whatever their impact (a page's level-one heading is a moderate finding).
 */
export async function axeViolations(page: Page, also: string[] = []): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (also) => {
    interface Violation {
      id: string;
      impact: string;
      nodes: { target: string[]; failureSummary: string }[];
    }
    const { axe } = window as unknown as {
      axe: { run: (context: Document, options: object) => Promise<{ violations: Violation[] }> };
    };
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical' || also.includes(v.id))
      .map(
        (v) =>
          `${v.impact} ${v.id}: ${v.nodes
            .slice(0, 3)
            .map((n) => `${n.target.join(' ')} (${n.failureSummary.replace(/\s+/g, ' ')})`)
            .join(' | ')}`,
      );
  }, also);
}

/** Calls the API as the signed-in page would (its token and the XSRF header): GET, or POST with a body. */
export const api = (page: Page, path: string, body?: unknown) =>
  page.evaluate(
    async ({ path, body }) => {
      const xsrf = decodeURIComponent(document.cookie.match(/XSRF-TOKEN=([^;]+)/)?.[1] ?? '');
      const response = await fetch(`/api/v1/${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-auth-token': `bearer ${localStorage.getItem('authToken')}`,
          'X-XSRF-TOKEN': xsrf,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, json: await response.json() };
    },
    { path, body },
  );

/** In a money dialog (Record Payout, Adjust Wallet): a retailer by its name, then its available balance shown. */
export async function chooseRetailer(page: Page, dialog: Locator, name: string) {
  await dialog.getByRole('combobox', { name: 'User Type' }).click();
  await page.getByRole('option', { name: 'Retailer', exact: true }).click();
  const user = dialog.getByRole('combobox', { name: 'User', exact: true });
  await user.click();
  await user.fill(name);
  await page
    .getByRole('option', { name: new RegExp(titleCase(name), 'i') })
    .first()
    .click();
  await dialog.getByText(/^Available balance: /).waitFor();
}
