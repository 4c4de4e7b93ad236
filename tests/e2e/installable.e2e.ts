import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, cspViolations, launchBrowser, preparePage, signIn } from './browser';

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

/** The keys of every entry in the worker's caches: URLs, with Workbox's revision parameter where it set one. */
const cacheKeys = (page: Page) =>
  page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys())
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    return urls;
  });

/** Every path the worker's caches hold. */
const cachedUrls = async (page: Page) => (await cacheKeys(page)).map((url) => new URL(url).pathname).sort();

/** Every script and stylesheet of the build, as the page asks for them. */
const builtAssets = () =>
  fs
    .readdirSync('dist/web/assets')
    .filter((file) => /\.(js|css)$/.test(file))
    .map((file) => `/assets/${file}`);

/**
 * What a deployment of a new build does to the worker: dist/web/sw.js (and its .br and .gz copies) changes. Returns
 * what puts the built files back.
 */
function deployNewWorker(): () => void {
  const files = ['sw.js', 'sw.js.br', 'sw.js.gz'].map((name) => path.join('dist/web', name));
  const before = files.map((file) => fs.readFileSync(file));
  const next = Buffer.concat([before[0], Buffer.from('\n// the next build\n')]);
  fs.writeFileSync(files[0], next);
  fs.writeFileSync(files[1], zlib.brotliCompressSync(next));
  fs.writeFileSync(files[2], zlib.gzipSync(next));
  return () => {
    for (const [i, file] of files.entries()) fs.writeFileSync(file, before[i]);
  };
}

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

  it('precaches the built panel, downloads nothing twice, keeps no API answer, and opens offline saying so', async () => {
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

    // Its precache, complete once it is active: the page, every script and stylesheet of the build, the manifest.
    expect(await cachedUrls(page)).toEqual(['/index.html', '/manifest.webmanifest', ...builtAssets()].sort());
    // The server's caching rules suit it: what it keeps without a revision (the hashed files) is cached for a year, as
    // its name changes with its content; what carries one (index.html, the manifest), like the worker itself, is
    // checked on every visit.
    for (const key of await cacheKeys(page)) {
      const url = new URL(key);
      const answer = await page.request.get(`${baseURL}${url.pathname}`);
      expect(answer.headers()['cache-control'], url.pathname).toBe(
        url.searchParams.has('__WB_REVISION__') ? 'no-cache' : 'public, max-age=31536000, immutable',
      );
    }
    expect((await page.request.get(`${baseURL}/sw.js`)).headers()['cache-control']).toBe('no-cache');
    // What the page had loaded before the install, the install took from the browser's cache, and the page asked
    // for each of its files once: nothing was downloaded twice.
    const [serviceWorker] = context.serviceWorkers();
    const installed = await serviceWorker.evaluate(() =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((entry) => ({
        path: new URL(entry.name).pathname,
        transferSize: entry.transferSize,
      })),
    );
    const loadedFirst = await loadedAssets(page);
    expect(loadedFirst.length).toBeGreaterThan(0);
    expect(new Set(loadedFirst).size).toBe(loadedFirst.length);
    for (const asset of loadedFirst)
      expect(
        installed.filter((entry) => entry.path === asset),
        asset,
      ).toEqual([{ path: asset, transferSize: 0 }]);

    // Use the panel: sign in, the dashboard's figures, a list.
    await page.getByLabel('Mobile *', { exact: true }).fill('9999999999');
    await page.getByLabel('Password *', { exact: true }).fill('Admin@1234');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(/\/home$/);
    await expect.poll(() => page.getByTestId('tile-CUSTOMER').textContent()).toMatch(/^\d/);
    await page.getByRole('menuitem', { name: 'State', exact: true }).click();
    await page.locator('tbody tr').first().waitFor();
    expect(apiAnswers.length).toBeGreaterThan(0);
    expect(apiAnswers.filter((answer) => answer.fromWorker)).toEqual([]);
    expect((await cachedUrls(page)).filter((url) => /^\/+api(\/|$)/i.test(url))).toEqual([]);

    // The server's own pages are the server's, however they are spelled: the worker answers none with the panel.
    for (const path of ['/healthz', '/API/v1/state/fetch', '//api/v1/docs/json', '/Sandbox/open']) {
      const answer = await page.goto(`${baseURL}${path}`);
      expect(answer?.fromServiceWorker(), path).toBe(false);
      expect(await answer?.text(), path).not.toContain('<div id="root">');
    }

    // A repeat visit with no network: the panel opens (not the browser's error page, not react-admin's) and
    // says it is offline.
    await context.setOffline(true);
    // The worker's own requests find no network either: what it answers comes from its caches.
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
    // A list fails the same way.
    await page.getByRole('menuitem', { name: 'State', exact: true }).click();
    await page.getByText('The list could not be loaded.').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(0);

    // Back online: the message goes, and the list loads by itself (nobody presses Retry).
    await context.setOffline(false);
    await banner.waitFor({ state: 'detached' });
    await page.locator('tbody tr').first().waitFor();
    expect(await page.getByText('The list could not be loaded.').count()).toBe(0);
    await close();
  });

  it("offers a new build without reloading the page under the person's form, and reloads into it on Reload", async () => {
    const context = await freshContext();
    const page = await context.newPage();
    await signIn(page, baseURL, '9999999999', 'Admin@1234');
    await page.waitForURL(/\/home$/);
    await workerReady(page);
    // A half-filled form.
    await page.getByRole('menuitem', { name: 'State', exact: true }).click();
    await page.getByRole('button', { name: 'Add State' }).click();
    const name = page.getByRole('dialog', { name: 'Create New State' }).getByLabel('Name *');
    await name.fill('Half typed');

    // A new build is deployed: its worker differs from the one running (its compressed copies too, as the build
    // writes them), and the panel's hourly check asks for it.
    const restore = deployNewWorker();
    try {
      await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));
      // Shown above the page, behind the open dialog (which keeps the rest of the page from assistive technology).
      await page.getByText('A new version is available.').waitFor();
      // Nothing reloaded: what was typed is still there, and the new worker waits.
      expect(await name.inputValue()).toBe('Half typed');
      expect(
        await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => !!r?.waiting)),
      ).toBe(true);

      // The person finishes with the form (here: cancels it), then reloads.
      await page
        .getByRole('dialog', { name: 'Create New State' })
        .getByRole('button', { name: 'Cancel' })
        .click();
      const prompt = page.getByRole('status').filter({ hasText: 'A new version is available.' });
      const reloaded = page.waitForEvent('load');
      await prompt.getByRole('button', { name: 'Reload Application' }).click();
      await reloaded;
      await page.getByRole('menuitem', { name: 'Home' }).waitFor();
      // The new build's worker runs the page; none waits, and the page asks nothing more.
      expect(
        await page.evaluate(async () => {
          const registration = await navigator.serviceWorker.getRegistration();
          return { waiting: !!registration?.waiting, controlled: !!navigator.serviceWorker.controller };
        }),
      ).toEqual({ waiting: false, controlled: true });
      expect(await prompt.count()).toBe(0);
    } finally {
      restore();
      await context.close();
    }
  });

  it('was not kept from loading anything by the Content-Security-Policy', () => {
    expect(cspViolations).toEqual([]);
  });
});
