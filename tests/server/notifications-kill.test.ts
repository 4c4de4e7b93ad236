import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type ServerProcess, startServer } from '../spawn-server';
import { throwAwayDatabase } from '../throwaway-database';

/**
 * The outbox survives its deliverer (issue 55): a server killed with SIGKILL while it delivers a batch of webhooks
 * loses none of them. Another server on the same database (the same DATA_DIR on the embedded one, once the first is
 * gone) delivers every one: each id at least once, and every delivery the receiver never acknowledged again with
 * the same id. On the suite's engine: a throw-away database on DATABASE_URL's PostgreSQL server, or the embedded
 * database.
 */

const serverUrl = process.env.DATABASE_URL;
const XSRF = { cookie: 'XSRF-TOKEN=t', 'x-xsrf-token': 't', 'content-type': 'application/json' };
/** Long enough for a loaded machine to start a server and hand the runner over; the waits end sooner. */
const WAIT = { timeout: 90_000, interval: 200 };
/** Rejected commands, one approval.decided webhook each. */
const DELIVERIES = 12;

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const api = (server: ServerProcess) => `${server.origin}/api/v1`;

async function post(server: ServerProcess, token: string | null, pathName: string, body: unknown) {
  const res = await fetch(`${api(server)}/${pathName}`, {
    method: 'POST',
    headers: { ...XSRF, ...(token ? { 'x-auth-token': `bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const signIn = async (server: ServerProcess, userName: string, password: string) =>
  (await post(server, null, 'account/login', { userName, password })).body.result.token as string;

/**
 * The integrator's endpoint. While `hanging`, it takes a delivery and never answers it (the server is mid-batch);
 * otherwise it answers 204. Every delivery it took is kept, with whether it was answered.
 */
function endpoint() {
  const got: { id: string; answered: boolean }[] = [];
  let hanging = false;
  let onHang: (() => void) | undefined;
  const held: http.ServerResponse[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (hanging && got.length >= 2) {
        got.push({ id, answered: false });
        held.push(response);
        onHang?.();
        return;
      }
      got.push({ id, answered: true });
      response.writeHead(204).end();
    });
  });
  return {
    got,
    hang: () =>
      new Promise<void>((resolve) => {
        hanging = true;
        onHang = resolve;
      }),
    answer: () => {
      hanging = false;
      for (const response of held.splice(0)) response.destroy();
    },
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe(`a delivering server killed mid-batch (${serverUrl ? 'PostgreSQL' : 'the embedded database'})`, () => {
  it('loses nothing: another server delivers every webhook, each id at least once', {
    timeout: 240_000,
  }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-notify-kill-'));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const env: Record<string, string> = { DATA_DIR: path.join(dir, 'data'), DATABASE_URL: '' };
    if (serverUrl) {
      const database = await throwAwayDatabase(serverUrl, 'tierdesk_notify');
      cleanups.push(database.drop);
      env.DATABASE_URL = database.url;
    }
    const receiver = endpoint();
    const port = await receiver.listen();
    cleanups.push(receiver.close);

    const first = await startServer(env);
    cleanups.push(first.stop);
    const admin = await signIn(first, '9999999999', 'Admin@1234');
    const employee = await signIn(first, '9000000001', 'Demo@1234');
    const created = await post(first, admin, 'webhooks/create', {
      url: `http://127.0.0.1:${port}/hook`,
      events: ['approval.decided'],
    });
    expect(created.status).toBe(200);
    const retailers = await (
      await fetch(`${api(first)}/account/fetch?type=4&limit=1`, {
        headers: { 'x-auth-token': `bearer ${admin}` },
      })
    ).json();
    const userId = retailers.result.users[0]._id as string;

    // The endpoint takes two deliveries, then holds the next: the server is mid-batch when it is killed.
    const hung = receiver.hang();
    for (let i = 0; i < DELIVERIES; i++) {
      const made = await post(first, employee, 'wallet/adjust', {
        userId,
        amount: 100 + i,
        note: 'Float',
        reason: `Kill test ${i}`,
      });
      expect(made.status).toBe(202);
      const rejected = await post(first, admin, `approvals/reject/${made.body.result._id}`, { reason: 'No' });
      expect(rejected.status).toBe(200);
    }
    await hung;
    first.child.kill('SIGKILL');
    await first.exited;
    receiver.answer();

    const second = await startServer(env);
    cleanups.push(second.stop);
    const admin2 = await signIn(second, '9999999999', 'Admin@1234');
    const rows = async () =>
      (
        await (
          await fetch(`${api(second)}/notifications/fetch?channel=WEBHOOK&limit=100`, {
            headers: { 'x-auth-token': `bearer ${admin2}` },
          })
        ).json()
      ).result.notifications as { _id: string; status: string }[];
    await vi.waitFor(async () => {
      const all = await rows();
      expect(all).toHaveLength(DELIVERIES);
      expect(all.every((row) => row.status === 'SENT')).toBe(true);
    }, WAIT);
    const ids = (await rows()).map((row) => row._id);
    const answered = new Set(receiver.got.filter((d) => d.answered).map((d) => d.id));
    // Every delivery reached the endpoint and was acknowledged, the ones held when the server died included.
    expect([...answered].sort()).toEqual([...ids].sort());
    const unanswered = receiver.got.filter((d) => !d.answered).map((d) => d.id);
    expect(unanswered.length).toBeGreaterThan(0);
    for (const id of unanswered) expect(answered.has(id)).toBe(true);
  });
});
