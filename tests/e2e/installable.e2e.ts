import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, cspViolations, launchBrowser, preparePage } from './browser';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A fresh context (no worker, no caches yet) whose pages get the suite's waits and CSP watch. */
async function freshContext(): Promise<BrowserContext> {
  const context = await browser.newContext();
  context.on('page', preparePage);
  return context;
}

/**
 * A browser with a profile of its own on disk, and its first page (prepared): Chromium installs no app from an
 * incognito profile, which is what every `browser.newContext` is.
 */
async function profileBrowser(): Promise<{
  context: BrowserContext;
  page: Page;
  close: () => Promise<void>;
}> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-profile-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  preparePage(page);
  const close = async () => {
    await context.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { context, page, close };
}

/** A PNG's width and height, from its IHDR chunk. */
const pngSize = (body: Buffer) => ({ width: body.readUInt32BE(16), height: body.readUInt32BE(20) });
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Once the panel's service worker is active (activated) and controls the page. */
const workerReady = (page: Page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const active = registration.active;
    if (active && active.state !== 'activated')
      await new Promise<void>((resolve) =>
        active.addEventListener('statechange', () => active.state === 'activated' && resolve()),
      );
    if (!navigator.serviceWorker.controller)
      await new Promise((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
      );
    return { state: registration.active?.state, script: registration.active?.scriptURL };
  });

/** Every URL the worker's caches hold. */
const cachedUrls = (page: Page) =>
  page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
    }
    return urls.sort();
  });

/** The scripts and styles the panel has loaded so far (the ones an offline visit needs again). */
const loadedAssets = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name))
      .filter((url) => url.origin === location.origin && url.pathname.startsWith('/assets/'))
      .map((url) => url.pathname),
  );

describe('the installable panel', () => {
  it('links a valid manifest: names, start URL, colours, and 192 and 512 px PNG icons, maskable ones too', async () => {
    const context = await freshContext();
    const page = await context.newPage();
    await page.goto(`${baseURL}/auth`);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const response = await page.request.get(`${baseURL}${href}`);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('application/manifest+json');
    const manifest = await response.json();
    expect(manifest).toMatchObject({
      name: 'Tierdesk',
      short_name: 'Tierdesk',
      start_url: '/home',
      display: 'standalone',
      theme_color: '#1f4e8c',
      background_color: '#f5f7fa',
    });
    // The page's theme-color is the manifest's (the browser's bar before the manifest is read).
    expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).toBe(manifest.theme_color);

    const icons = manifest.icons as { src: string; sizes: string; type: string; purpose: string }[];
    for (const size of ['192x192', '512x512'])
      for (const purpose of ['any', 'maskable'])
        expect(
          icons.filter((icon) => icon.sizes === size && icon.purpose === purpose),
          `${size} ${purpose}`,
        ).toHaveLength(1);
    for (const icon of icons) {
      const res = await page.request.get(`${baseURL}${icon.src}`);
      expect(res.status(), icon.src).toBe(200);
      expect(res.headers()['content-type'], icon.src).toBe('image/png');
      const body = await res.body();
      expect(body.subarray(0, 8).equals(PNG_SIGNATURE), icon.src).toBe(true);
      const [width, height] = icon.sizes.split('x').map(Number);
      expect(pngSize(body), icon.src).toEqual({ width, height });
    }

    // Chromium's own reading of the manifest: no parse errors.
    const cdp = await context.newCDPSession(page);
    const read = await cdp.send('Page.getAppManifest');
    expect(read.url).toBe(`${baseURL}/manifest.webmanifest`);
    expect(read.errors).toEqual([]);
    await context.close();
  });

  it('has a favicon: /favicon.ico is an icon, not the panel page, and every linked icon is an image', async () => {
    const context = await freshContext();
    const page = await context.newPage();
    await page.goto(`${baseURL}/auth`);
    const links = await page
      .locator('link[rel="icon"]')
      .evaluateAll((elements) => elements.map((element) => element.getAttribute('href')));
    expect(links).toEqual(expect.arrayContaining(['/favicon.ico', '/favicon.svg']));
    for (const href of links) {
      const res = await page.request.get(`${baseURL}${href}`);
      expect(res.status(), String(href)).toBe(200);
      expect(res.headers()['content-type'], String(href)).toMatch(/^image\//);
    }
    const ico = await (await page.request.get(`${baseURL}/favicon.ico`)).body();
    // An ICO file's header: reserved 0, type 1 (icon).
    expect([...ico.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
    await context.close();
  });

  it('runs its service worker, keeps no API answer, and opens offline with a message that says so', async () => {
    const { context, page, close } = await profileBrowser();
    // Every API answer the page gets, and whether the worker gave it.
    const apiAnswers: { url: string; fromWorker: boolean }[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/api/'))
        apiAnswers.push({ url: response.url(), fromWorker: response.fromServiceWorker() });
    });
    await page.goto(`${baseURL}/auth`);
    const worker = await workerReady(page);
    expect(worker).toEqual({ state: 'activated', script: `${baseURL}/sw.js` });

    // Chromium finds nothing that keeps it from installing the panel.
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);

    // Use the panel: sign in (on this first page, loaded before the worker took over), the dashboard's figures,
    // a list.
    await page.getByLabel('Mobile *', { exact: true }).fill('9999999999');
    await page.getByLabel('Password *', { exact: true }).fill('Admin@1234');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(/\/home$/);
    await expect.poll(() => page.getByTestId('tile-CUSTOMER').textContent()).toMatch(/^\d/);
    await page.getByRole('menuitem', { name: 'State', exact: true }).click();
    await page.getByRole('columnheader').first().waitFor();
    expect(apiAnswers.length).toBeGreaterThan(0);
    expect(apiAnswers.filter((answer) => answer.fromWorker)).toEqual([]);

    // The worker keeps the page and every file the panel loaded, the ones loaded before it took over included;
    // no answer of the API.
    const assets = await loadedAssets(page);
    expect(assets.length).toBeGreaterThan(0);
    await expect.poll(() => cachedUrls(page)).toEqual(expect.arrayContaining(['/index.html', ...assets]));
    const cached = await cachedUrls(page);
    expect(cached.filter((url) => /^\/+api(\/|$)/i.test(url))).toEqual([]);

    // A repeat visit with no network: the panel opens (not the browser's error page, not react-admin's) and
    // says it is offline.
    await context.setOffline(true);
    // The worker's own requests find no network either: what it answers comes from its caches.
    const [serviceWorker] = context.serviceWorkers();
    expect(
      await serviceWorker.evaluate(() =>
        fetch('/favicon.svg', { cache: 'no-store' }).then(
          (response) => response.status,
          () => 'no network',
        ),
      ),
    ).toBe('no network');
    const visit = await page.goto(`${baseURL}/home`);
    expect(visit?.fromServiceWorker()).toBe(true);
    const banner = page.getByRole('status').filter({ hasText: 'You are offline.' });
    await banner.waitFor();
    expect(await banner.textContent()).toBe(
      'You are offline. What needs the server will load again when the connection is back.',
    );
    await page.getByRole('menuitem', { name: 'Home' }).waitFor();
    // The API was asked and got no answer (nothing came from a cache): the dashboard's own error state.
    await page.getByText('Could not load the user counts.').waitFor();
    expect(await page.getByText('Something went wrong').count()).toBe(0);

    // Back online, the message goes.
    await context.setOffline(false);
    await banner.waitFor({ state: 'detached' });
    await close();
  });

  it('was not kept from loading anything by the Content-Security-Policy', () => {
    expect(cspViolations).toEqual([]);
  });
});
