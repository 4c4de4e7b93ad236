import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_ROWS } from '../../src/server/config';
import { DEMO_PASSWORD } from '../../src/server/demo/network';
import { IMPORT_POLL_MS } from '../../src/shared/schemas/imports';
import { freePort } from '../free-port';
import { type ServerProcess, startServer } from '../spawn-server';
import { throwAwayDatabase } from '../throwaway-database';

// Issue 51's proof: a real server process (from its sources, through tests/spawn-server.ts) checks a
// customers file of IMPORT_MAX_ROWS rows (its default, 200,000), every row bad, for an employee (a dry run is
// all it takes). Throughout, /healthz is asked from outside about every 100 ms and must answer 200 within 1 s,
// and the server process's resident memory (its PGlite worker thread included: the same process) must stay
// under 1 GB. The job must count every row and every error exactly, keeping the first 1,000 errors. On the
// suite's engine: the embedded one, or with DATABASE_URL a throw-away database on that PostgreSQL server.

const HEALTH_BOUND_MS = 1_000;
const MEMORY_BOUND_BYTES = 1024 ** 3;
const ROWS = IMPORT_ROWS.default;
/** Errors each row of the file has: email, state, retailer, PAN, and two for the Aadhar number (length, check digit). */
const ERRORS_PER_ROW = 6;

const serverUrl = process.env.DATABASE_URL;
let server: ServerProcess | undefined;
let base = '';
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  await server?.stop();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A new database on the suite's PostgreSQL server, dropped afterwards; undefined on the embedded engine. */
async function databaseOfItsOwn(): Promise<string | undefined> {
  if (!serverUrl) return undefined;
  const database = await throwAwayDatabase(serverUrl, 'tierdesk_bound');
  cleanups.push(database.drop);
  return database.url;
}

beforeAll(async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-bound-'));
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: (await databaseOfItsOwn()) ?? '',
    DEMO_DATA: '1',
    LOG_LEVEL: 'warn',
    // The default, said out loud: the proof is at the limit a server starts with.
    IMPORT_MAX_ROWS: '',
  };
  // The first start seeds the demo network; the check runs on the server as it runs every day after that.
  await (await startServer(env)).stop();
  server = await startServer(env);
  base = `http://127.0.0.1:${port}`;
}, 300_000);

/**
 * A thread of its own that asks /healthz about every 100 ms, timing each answer, and reads the server's resident
 * memory (VmRSS: every thread of the process, the PGlite worker included) after each: outside the test's own work
 * (the upload, the polling), which would otherwise delay the asking. Its first request (the client's own
 * start-up) is not counted.
 */
function startSampler(pid: number) {
  const worker = new Worker(
    `
    const { parentPort, workerData } = require('node:worker_threads');
    const fs = require('node:fs');
    const resident = () =>
      Number(/^VmRSS:\\s+(\\d+) kB/m.exec(fs.readFileSync('/proc/' + workerData.pid + '/status', 'utf8'))[1]) * 1024;
    let sampling = true;
    parentPort.on('message', () => { sampling = false; });
    (async () => {
      await (await fetch(workerData.url)).arrayBuffer();
      parentPort.postMessage({ ready: true });
      const samples = [];
      while (sampling) {
        const started = performance.now();
        const res = await fetch(workerData.url, { signal: AbortSignal.timeout(10000) }).catch(() => null);
        await res?.arrayBuffer();
        const ms = performance.now() - started;
        samples.push({ ms, status: res ? res.status : 0, bytes: resident() });
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, 100 - ms)));
      }
      parentPort.postMessage({ samples });
    })();
    `,
    { eval: true, workerData: { url: `${base}/healthz`, pid } },
  );
  const ready = new Promise<void>((resolve) => worker.once('message', () => resolve()));
  return {
    ready,
    async stop(): Promise<{ ms: number; status: number; bytes: number }[]> {
      const done = new Promise<{ samples: { ms: number; status: number; bytes: number }[] }>((resolve) =>
        worker.once('message', resolve),
      );
      worker.postMessage('stop');
      const { samples } = await done;
      await worker.terminate();
      return samples;
    },
  };
}

/** The file: ROWS customers, each with ERRORS_PER_ROW errors the dialog's rules and the database find. */
function badCustomers(): Buffer {
  const lines = ['name,email,mobile,userName,state,district,tehsil,retailerMobile,aadharId,panId'];
  for (let i = 0; i < ROWS; i++)
    lines.push(
      `Customer ${i},not-an-email-${i},${8_000_000_000 + i},cust${i},Atlantis ${i % 97},Nowhere,Nothing,${9_399_000_000 + (i % 1000)},1234${i},PAN${i}`,
    );
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** The server process's resident memory now (VmRSS: every thread of it, the PGlite worker included). */
function residentBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) * 1024;
}

/** What a check cost, seen from outside, and the job it ended as. */
interface Checked {
  job: { status: string; errors: unknown[] } & Record<string, unknown>;
  health: { ms: number; status: number }[];
  slowest: number;
  before: number;
  peakBytes: number;
}

/**
 * An employee's check (a dry run) of `file` as `kind`, followed as the Import screen follows it, with /healthz and
 * the server's memory sampled from start to end. Prints the figures.
 */
async function checkFromOutside(kind: string, file: Buffer, what: string): Promise<Checked> {
  const json = { 'content-type': 'application/json', cookie: 'XSRF-TOKEN=t', 'x-xsrf-token': 't' };
  const signIn = await fetch(`${base}/api/v1/account/login`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ userName: '9000000001', password: DEMO_PASSWORD }),
  });
  expect(signIn.status).toBe(200);
  const auth = { 'x-auth-token': `bearer ${(await signIn.json()).result.token}` };

  const before = residentBytes(server!.child.pid!);
  const sampler = startSampler(server!.child.pid!);
  await sampler.ready;

  const started = performance.now();
  const form = new FormData();
  form.append('dryRun', 'true');
  form.append('file', new Blob([new Uint8Array(file)], { type: 'text/csv' }), `${kind}.csv`);
  const answer = await fetch(`${base}/api/v1/import/${kind}`, {
    method: 'POST',
    headers: { ...auth, cookie: 'XSRF-TOKEN=t', 'x-xsrf-token': 't' },
    body: form,
  });
  const answered = performance.now() - started;
  expect(answer.status, await answer.clone().text()).toBe(200);
  const id = (await answer.json()).result._id;
  let job: Checked['job'] | undefined;
  await expect
    .poll(
      async () => {
        job = (await (await fetch(`${base}/api/v1/import/fetch/${id}`, { headers: auth })).json()).result;
        return job!.status;
      },
      { timeout: 600_000, interval: IMPORT_POLL_MS },
    )
    .not.toBe('RUNNING');
  const seconds = (performance.now() - started) / 1000;
  const health = await sampler.stop();
  const peakBytes = Math.max(before, ...health.map((h) => h.bytes));
  const slowest = Math.max(...health.map((h) => h.ms));
  const sorted = health.map((h) => h.ms).sort((a, b) => a - b);
  console.log(
    `${serverUrl ? 'PostgreSQL' : 'PGlite'}: ${what} (${(file.length / 1024 ** 2).toFixed(1)} MB) ` +
      `checked in ${seconds.toFixed(1)} s (answered in ${(answered / 1000).toFixed(1)} s); /healthz asked ` +
      `${health.length} times: median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, slowest ` +
      `${slowest.toFixed(0)} ms; server memory ${(before / 1024 ** 2).toFixed(0)} MB before, at most ` +
      `${(peakBytes / 1024 ** 2).toFixed(0)} MB`,
  );
  return { job: job!, health, slowest, before, peakBytes };
}

/** The bounds: every /healthz answered 200 within 1 s, the server's memory under 1 GB throughout. */
function expectWithinBounds({ health, slowest, peakBytes }: Checked) {
  expect(health.length).toBeGreaterThan(10);
  expect(health.filter((h) => h.status !== 200)).toEqual([]);
  expect(slowest).toBeLessThan(HEALTH_BOUND_MS);
  expect(peakBytes).toBeLessThan(MEMORY_BOUND_BYTES);
}

describe('a check of a file of IMPORT_MAX_ROWS bad rows', () => {
  it('keeps /healthz answering within 1 s and the server under 1 GB, and counts every error', async () => {
    const checked = await checkFromOutside(
      'customers',
      badCustomers(),
      `${ROWS.toLocaleString('en')} bad rows`,
    );
    expect(checked.job).toMatchObject({
      status: 'DONE',
      total: ROWS,
      counts: { read: ROWS, created: 0, unchanged: 0, conflicts: 0, refused: ROWS },
      errorsTotal: ROWS * ERRORS_PER_ROW,
      errorsKept: 1000,
    });
    expect(checked.job.errors).toHaveLength(100);
    expectWithinBounds(checked);
  }, 900_000);

  it('keeps the same bounds for a file that is one line of 12 million cells and one cell of 24 MB', async () => {
    const file = Buffer.concat([
      Buffer.from('name\n'),
      Buffer.alloc(24 * 1024 ** 2, 'y,'),
      Buffer.from('\n"'),
      Buffer.alloc(24 * 1024 ** 2, 'x'),
      Buffer.from('"\nGoa\n'),
    ]);
    const checked = await checkFromOutside('states', file, 'a line of 12,582,912 cells and a cell of 24 MB');
    expect(checked.job).toMatchObject({
      status: 'DONE',
      counts: { read: 3, created: 1, refused: 2 },
      errorsTotal: 2,
      errors: [
        { row: 2, column: '', message: 'The row has more than 64 cells' },
        { row: 3, column: 'name', message: 'The cell has more than 1,000 characters' },
      ],
    });
    expectWithinBounds(checked);
  }, 900_000);
});
