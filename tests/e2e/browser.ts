import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * How long a click, fill, locator wait or navigation waits for the page before failing, for every page of the
 * suite (set by `openPage`). Sized for a loaded 2-core CI machine, where the panel's first load alone can take
 * seconds; Vitest's `expect.poll` gets the same limit in vite.config.ts (e2e project).
 */
export const WAIT_MS = 30_000;

/** Debian's Chromium, headless, with the flags this closed network needs (no background connections). */
export function launchBrowser(): Promise<Browser> {
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

/** A fresh page (its own context: no shared storage) that waits up to WAIT_MS for anything. */
export async function openPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(WAIT_MS);
  page.setDefaultNavigationTimeout(WAIT_MS);
  return page;
}

export async function signIn(page: Page, baseURL: string, userName: string, password: string) {
  await page.goto(`${baseURL}/auth`);
  await page.getByLabel('Mobile').fill(userName);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}
