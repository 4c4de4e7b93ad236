import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Content-Security-Policy violations any page of this file reported (Chromium logs each one to the console;
 * the listener below adds the ones only the `securitypolicyviolation` event names).
 */
export const cspViolations: string[] = [];

/** Watches one page for CSP violations (pages of contexts a test makes itself, popups). */
export function watchCsp(page: Page) {
  page.on('console', (message) => {
    if (/Content.Security.Policy|CSP violation/i.test(message.text())) cspViolations.push(message.text());
  });
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`),
    );
  });
}

/**
 * Debian's Chromium, headless, with the flags this closed network needs (no background connections). Every
 * page it opens is watched for CSP violations (`cspViolations`).
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await launch();
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (...args) => {
    const page = await newPage(...args);
    watchCsp(page);
    return page;
  };
  return browser;
}

function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export async function signIn(page: Page, baseURL: string, userName: string, password: string) {
  await page.goto(`${baseURL}/auth`);
  await page.getByLabel('Mobile').fill(userName);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}
