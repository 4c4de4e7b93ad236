import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePanelBuilt, PANEL_STAMP, panelSourcesHash } from '../../src/server/panel-build';
import { makeTestContext, type TestContext } from './helpers';

/** A built panel as Vite leaves it: index.html, a hashed asset and its precompressed copies. */
const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-web-'));
const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
let ctx: TestContext;

beforeAll(async () => {
  fs.mkdirSync(path.join(webDir, 'assets'));
  fs.writeFileSync(
    path.join(webDir, 'index.html'),
    '<!doctype html><script type="module" src="/assets/index-abc123.js"></script>',
  );
  fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), script);
  fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js.br'), zlib.brotliCompressSync(script));
  fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js.gz'), zlib.gzipSync(script));
  // What makes the panel installable (vite-plugin-pwa and public/): the worker, the manifest, the icons.
  fs.writeFileSync(path.join(webDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  fs.writeFileSync(path.join(webDir, 'manifest.webmanifest'), JSON.stringify({ name: 'Tierdesk' }));
  fs.writeFileSync(path.join(webDir, 'favicon.ico'), fs.readFileSync('public/favicon.ico'));
  fs.writeFileSync(path.join(webDir, 'favicon.svg'), fs.readFileSync('public/favicon.svg'));
  fs.mkdirSync(path.join(webDir, 'icons'));
  fs.writeFileSync(path.join(webDir, 'icons', 'icon-192.png'), fs.readFileSync('public/icons/icon-192.png'));
  ctx = await makeTestContext({ demo: false, config: { webDir } });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) =>
  ctx.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

describe('the built panel', () => {
  it('sends hashed assets precompressed as the browser accepts, cached for a year', async () => {
    const br = await get('/assets/index-abc123.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gz = await get('/assets/index-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await get('/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('sends index.html, for the root and for every panel route, to be checked on every visit', async () => {
    for (const url of ['/', '/index.html', '/customer/list', '/sale/123']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toContain('/assets/index-abc123.js');
    }
  });

  it('sends the manifest, the service worker and the icons with their types, checked on every visit', async () => {
    const types: Record<string, string> = {
      '/manifest.webmanifest': 'application/manifest+json',
      '/sw.js': 'application/javascript',
      '/favicon.ico': 'image/vnd.microsoft.icon',
      '/favicon.svg': 'image/svg+xml',
      '/icons/icon-192.png': 'image/png',
    };
    for (const [url, type] of Object.entries(types)) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toContain(type);
      // A new build's worker and manifest reach the browser at its next visit (no stale copy for a year).
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    expect((await get('/manifest.webmanifest')).json()).toEqual({ name: 'Tierdesk' });
    // The icon itself, not the app shell that answers a panel route.
    expect((await get('/favicon.ico')).rawPayload).toEqual(fs.readFileSync('public/favicon.ico'));
  });

  it("lets the page's own service worker and manifest load under the Content-Security-Policy", async () => {
    const res = await get('/home');
    const directives = Object.fromEntries(
      String(res.headers['content-security-policy'])
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );
    expect(directives['worker-src']).toEqual(["'self'"]);
    expect(directives['manifest-src']).toEqual(["'self'"]);
  });

  it('keeps unknown API paths a JSON 404, however they are spelled', async () => {
    for (const url of ['/api/v1/nothing-here', '/API/v1/nothing-here', '//api/v1/nothing-here', '/api']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toContain('application/json');
      expect(res.json().message, url).toMatch(/^Route GET .* not found$/);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
  });
});

describe('npm start builds the panel only when its sources changed', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-src-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('hashes every source file, so any change (or a new file) gives another hash', () => {
    fs.mkdirSync(path.join(root, 'src', 'web'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'web', 'App.tsx'), 'export const App = 1;');
    fs.writeFileSync(path.join(root, 'index.html'), '<div id="root"></div>');
    const first = panelSourcesHash(root);
    expect(panelSourcesHash(root)).toBe(first);
    fs.writeFileSync(path.join(root, 'src', 'web', 'App.tsx'), 'export const App = 2;');
    const second = panelSourcesHash(root);
    expect(second).not.toBe(first);
    fs.writeFileSync(path.join(root, 'src', 'web', 'New.tsx'), '');
    expect(panelSourcesHash(root)).not.toBe(second);
  });

  it('skips the build when the last build is of the same sources', () => {
    fs.mkdirSync(path.join(root, 'dist', 'web'), { recursive: true });
    fs.writeFileSync(path.join(root, 'dist', 'web', 'index.html'), 'built');
    fs.writeFileSync(path.join(root, PANEL_STAMP), `${panelSourcesHash(root)}\n`);
    const lines: string[] = [];
    // No vite in this folder: a build attempt would fail loudly.
    expect(ensurePanelBuilt(root, (line) => lines.push(line))).toBe(false);
    expect(lines).toEqual([]);
    fs.writeFileSync(path.join(root, 'src', 'web', 'App.tsx'), 'export const App = 3;');
    expect(() => ensurePanelBuilt(root, (line) => lines.push(line))).toThrow('The panel build failed');
    expect(lines).toEqual(['Building the panel (its sources changed since the last build)...']);
  });
});
