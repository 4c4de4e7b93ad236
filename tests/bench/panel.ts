// Benchmark parts about the panel: bundle sizes (what the sign-in page loads, and all of it, gzip), Chromium
// timings (median of 5, fresh context each), and how long `npm start` takes on an existing data dir next to
// the server alone.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { freePort } from '../free-port';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const gzipSize = (file: string) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

const launch = () =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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

export const hasChromium = () => fs.existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');

/**
 * The JavaScript the sign-in page loads (its scripts as the browser fetched them, gzip) and the whole panel's
 * (every script and stylesheet in dist/web/assets, gzip), in KB.
 */
export async function bundleSizes(origin: string, webDir = 'dist/web') {
  const assets = path.join(webDir, 'assets');
  const all = fs.readdirSync(assets).filter((f) => /\.(js|css)$/.test(f));
  const total = all.reduce((sum, f) => sum + gzipSize(path.join(assets, f)), 0);
  let signIn = 0;
  const loaded: string[] = [];
  if (hasChromium()) {
    const browser = await launch();
    try {
      const page = await browser.newPage();
      page.on('response', (response) => {
        const url = new URL(response.url());
        if (url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js'))
          loaded.push(path.basename(url.pathname));
      });
      await page.goto(`${origin}/auth`);
      await page.getByRole('button', { name: 'Login' }).waitFor();
      await page.waitForLoadState('networkidle');
      signIn = [...new Set(loaded)].reduce((sum, f) => sum + gzipSize(path.join(assets, f)), 0);
    } finally {
      await browser.close();
    }
  }
  return {
    signInJsKbGzip: Math.round(signIn / 1024),
    signInChunks: [...new Set(loaded)].length,
    wholePanelKbGzip: Math.round(total / 1024),
    chunks: all.length,
  };
}

/** Median of 5 (a fresh context each): the sign-in form, the dashboard after Login, and the customer list. */
export async function chromiumTimings(origin: string, admin: { userName: string; password: string }) {
  const browser = await launch();
  const runs = {
    authForm: [] as number[],
    loginToTiles: [] as number[],
    customerListFirstRow: [] as number[],
  };
  try {
    for (let i = 0; i < 5; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      let t0 = performance.now();
      await page.goto(`${origin}/auth`);
      await page.getByRole('button', { name: 'Login' }).waitFor();
      runs.authForm.push(performance.now() - t0);
      // Typed as a person types (a key each 50 ms, faster than most), not filled at once: the sign-in page starts
      // loading the screens behind it on the first key, and a person's typing is the time it has to do so.
      // Required fields carry react-admin's asterisk in their label (as tests/e2e/browser.ts signIn fills them).
      await page.getByLabel('Mobile *', { exact: true }).pressSequentially(admin.userName, { delay: 50 });
      await page.getByLabel('Password *', { exact: true }).pressSequentially(admin.password, { delay: 50 });
      t0 = performance.now();
      await page.getByRole('button', { name: 'Login' }).click();
      await page.getByText('Total Customers').waitFor();
      await page.getByText('Retailers', { exact: true }).first().waitFor();
      runs.loginToTiles.push(performance.now() - t0);
      t0 = performance.now();
      await page.goto(`${origin}/customer/list`);
      await page.locator('tbody tr').first().waitFor();
      runs.customerListFirstRow.push(performance.now() - t0);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return {
    authFormMs: Math.round(median(runs.authForm)),
    loginToTilesMs: Math.round(median(runs.loginToTiles)),
    customerListFirstRowMs: Math.round(median(runs.customerListFirstRow)),
  };
}

/** Seconds from spawning `command` to the server's first answer. */
async function timeToAnswer(command: string[], dataDir: string) {
  const port = await freePort();
  const started = performance.now();
  const child: ChildProcess = spawn(command[0], command.slice(1), {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', DATABASE_URL: '' },
    stdio: 'ignore',
    // Its own process group, so npm and the server it starts are stopped together.
    detached: true,
  });
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/state/fetch`);
        if (res.ok) return (performance.now() - started) / 1000;
      } catch {
        // not listening yet
      }
      if (child.exitCode !== null) throw new Error('the server exited before answering');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
    // The server releases DATA_DIR's lock as it exits; the next start needs it free.
    while (fs.existsSync(path.join(dataDir, 'server.lock')))
      await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const NPM_START = ['npm', 'start', '--silent'];
const SERVER_ALONE = [process.execPath, '--import', 'tsx', 'src/server/main.ts'];

/** `npm start` on an existing data dir and built panel, against the server alone (median of 3, alternating). */
export async function startTimes() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-start-'));
  try {
    await timeToAnswer(NPM_START, dataDir); // first start: demo data (and a build if the sources changed)
    const withCheck: number[] = [];
    const alone: number[] = [];
    for (let i = 0; i < 3; i++) {
      withCheck.push(await timeToAnswer(NPM_START, dataDir));
      alone.push(await timeToAnswer(SERVER_ALONE, dataDir));
    }
    const npmStart = median(withCheck);
    const serverAlone = median(alone);
    return {
      npmStartSeconds: Number(npmStart.toFixed(2)),
      serverAloneSeconds: Number(serverAlone.toFixed(2)),
      ratio: Number((npmStart / serverAlone).toFixed(2)),
    };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
