// The event stream (issue 55), over real HTTP: what a person's open stream receives when a callback confirms a sale,
// what a person outside the sale's network never receives, the replay after Last-Event-ID, a session ended
// elsewhere, and an event raised on one server reaching a stream on another server on the same database.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/server/app';
import { pruneEvents } from '../../src/server/modules/events/bus';
import { settle } from '../../src/server/modules/ledger/index';
import { signCallback } from '../../src/server/security/signature';
import { MSG } from '../../src/shared/messages';
import { type ServerProcess, startServer } from '../spawn-server';
import { throwAwayDatabase } from '../throwaway-database';
import {
  ADMIN,
  call,
  DEMO_PASSWORD,
  login,
  makeTestContext,
  type TestContext,
  WEBHOOK_SECRET,
} from './helpers';
import { deliver, idsByMobile, productIdOf, sell } from './selling';

let ctx: TestContext;
let origin: string;
let admin: string;
let ids: Record<string, string>;
let savingId: string;

beforeAll(async () => {
  ctx = await makeTestContext();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  ids = await idsByMobile(ctx.app, admin);
  savingId = await productIdOf(ctx.app, admin);
});
afterAll(() => ctx.close());

interface OpenStream {
  status: number;
  /** Every event received so far, in order. */
  events: EventSourceMessage[];
  /** Resolves once the server has ended the stream (or it was closed here). */
  ended: Promise<void>;
  close(): void;
}

/** Opens `GET events` as the panel does (fetch, the session header), and resolves once the server says connected. */
async function openStream(at: string, token: string, lastEventId?: string): Promise<OpenStream> {
  const controller = new AbortController();
  const res = await fetch(`${at}/api/v1/events`, {
    headers: {
      'x-auth-token': `bearer ${token}`,
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
    },
    signal: controller.signal,
  });
  const events: EventSourceMessage[] = [];
  let connected = false;
  const parser = createParser({
    onEvent: (event) => events.push(event),
    onComment: (comment) => {
      if (comment.trim() === 'connected') connected = true;
    },
  });
  const decoder = new TextDecoder();
  const ended = (async () => {
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
        parser.feed(decoder.decode(chunk, { stream: true }));
    } catch {
      // Closed here.
    }
  })();
  const stream = { status: res.status, events, ended, close: () => controller.abort() };
  streams.push(stream);
  if (res.ok) await vi.waitFor(() => expect(connected).toBe(true));
  return stream;
}

const streams: OpenStream[] = [];
afterAll(() => {
  for (const stream of streams) stream.close();
});

const dataOf = (event: EventSourceMessage) => JSON.parse(event.data);
const saleEvents = (stream: OpenStream, saleId: string) =>
  stream.events.filter((e) => e.event === 'sale' && dataOf(e).id === saleId).map(dataOf);

/** A retailer's PENDING sale to one of its customers. */
async function pendingSale(app: FastifyInstance, retailerToken: string, customerMobile: string) {
  const sale = await sell(app, retailerToken, { customerId: ids[customerMobile], productId: savingId });
  expect(sale.recorded.status).toBe(200);
  return { ...sale, id: sale.recorded.body.result._id as string };
}

/** The retailer's share of a sale, as its page shows it. */
async function retailerShare(saleId: string) {
  const res = await call(ctx.app, 'GET', 'bought_products/fetch', { token: admin, query: { _id: saleId } });
  const split: { tier: string; amount: number }[] = res.body.result.boughtProducts[0].split;
  return split.find((share) => share.tier === 'RETAILER')!.amount;
}

describe('GET events', () => {
  it('refuses a request without a session (401) and with an unknown one, with the catalogue messages', async () => {
    const none = await fetch(`${origin}/api/v1/events`);
    expect(none.status).toBe(401);
    expect((await none.json()).message).toBe(MSG.authRequired);
    const unknown = await fetch(`${origin}/api/v1/events`, {
      headers: { 'x-auth-token': 'bearer not-a-session' },
    });
    expect(unknown.status).toBe(401);
    expect((await unknown.json()).message).toBe(MSG.invalidSession);
  });

  it('is a text/event-stream that proxies must not keep', async () => {
    const { token } = await login(ctx.app, '9300000002', DEMO_PASSWORD);
    const res = await fetch(`${origin}/api/v1/events`, { headers: { 'x-auth-token': `bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    await res.body?.cancel();
  });

  it("brings a callback's confirmation to the retailer's open stream within 2 s, with its own commission", async () => {
    const { token } = await login(ctx.app, '9300000001', DEMO_PASSWORD);
    const stream = await openStream(origin, token);
    const sale = await pendingSale(ctx.app, token, '9400000001');
    await vi.waitFor(() => expect(saleEvents(stream, sale.id)).toHaveLength(1));
    expect(saleEvents(stream, sale.id)[0]).toMatchObject({ status: 'PENDING', code: sale.utmCode });

    const confirmed = await deliver(ctx.app, {
      event: 'account.opened',
      utmCode: sale.utmCode,
      merchantCode: sale.merchantCode,
    });
    expect(confirmed.status).toBe(200);
    await vi.waitFor(() => expect(saleEvents(stream, sale.id)).toHaveLength(2), { timeout: 2000 });
    expect(saleEvents(stream, sale.id)[1]).toEqual({
      id: sale.id,
      status: 'CONFIRMED',
      code: sale.utmCode,
      commission: await retailerShare(sale.id),
    });
    const eventIds = stream.events.map((e) => Number(e.id));
    expect(eventIds.every((id, n) => Number.isInteger(id) && (n === 0 || id > eventIds[n - 1]))).toBe(true);
  });

  it('never sends a sale to a person outside its network (two networks)', async () => {
    const first = (await login(ctx.app, '9300000001', DEMO_PASSWORD)).token;
    const second = (await login(ctx.app, '9300000005', DEMO_PASSWORD)).token;
    const otherMaster = (await login(ctx.app, '9100000002', DEMO_PASSWORD)).token;
    const ownMaster = (await login(ctx.app, '9100000001', DEMO_PASSWORD)).token;
    const outside = [await openStream(origin, second), await openStream(origin, otherMaster)];
    const inside = [await openStream(origin, first), await openStream(origin, ownMaster)];
    const staff = await openStream(origin, admin);

    const sale = await pendingSale(ctx.app, first, '9400000002');
    await deliver(ctx.app, {
      event: 'account.opened',
      utmCode: sale.utmCode,
      merchantCode: sale.merchantCode,
    });
    for (const stream of [...inside, staff])
      await vi.waitFor(() => expect(saleEvents(stream, sale.id).map((s) => s.status)).toContain('CONFIRMED'));
    // The master distributor reads its own share; staff read none.
    expect(saleEvents(inside[1], sale.id).at(-1).commission).toBeGreaterThan(0);
    expect(saleEvents(staff, sale.id).at(-1)).not.toHaveProperty('commission');

    // A sale in the second network afterwards: once it reached the second network's streams, everything before it
    // had too (a stream receives events in order).
    const marker = await pendingSale(ctx.app, second, '9400000013');
    for (const stream of outside) {
      await vi.waitFor(() => expect(saleEvents(stream, marker.id)).toHaveLength(1));
      expect(saleEvents(stream, sale.id)).toEqual([]);
    }
    expect(saleEvents(inside[0], marker.id)).toEqual([]);
  });

  it('replays what a stream missed after its Last-Event-ID, and only that', async () => {
    const { token } = await login(ctx.app, '9300000001', DEMO_PASSWORD);
    const first = await openStream(origin, token);
    const sale = await pendingSale(ctx.app, token, '9400000003');
    await vi.waitFor(() => expect(saleEvents(first, sale.id)).toHaveLength(1));
    const lastId = first.events.at(-1)!.id!;
    first.close();

    await deliver(ctx.app, {
      event: 'account.opened',
      utmCode: sale.utmCode,
      merchantCode: sale.merchantCode,
    });
    await deliver(ctx.app, {
      event: 'account.reversed',
      utmCode: sale.utmCode,
      merchantCode: sale.merchantCode,
    });

    const again = await openStream(origin, token, lastId);
    await vi.waitFor(() =>
      expect(saleEvents(again, sale.id).map((s) => s.status)).toEqual(['CONFIRMED', 'REVERSED']),
    );
    expect(again.events.every((e) => Number(e.id) > Number(lastId))).toBe(true);
    // Without Last-Event-ID a stream starts from now.
    const fresh = await openStream(origin, token);
    const later = await pendingSale(ctx.app, token, '9400000001');
    await vi.waitFor(() => expect(saleEvents(fresh, later.id)).toHaveLength(1));
    expect(saleEvents(fresh, sale.id)).toEqual([]);
  });

  it('replays nothing older than the retention once old events are removed', async () => {
    const { token } = await login(ctx.app, '9300000002', DEMO_PASSWORD);
    const first = await openStream(origin, token);
    const sale = await pendingSale(ctx.app, token, '9400000004');
    await vi.waitFor(() => expect(saleEvents(first, sale.id)).toHaveLength(1));
    const lastId = first.events.at(-1)!.id!;
    first.close();
    await deliver(ctx.app, {
      event: 'account.opened',
      utmCode: sale.utmCode,
      merchantCode: sale.merchantCode,
    });
    // A day and more later, the pruning has removed both events.
    const removed = await pruneEvents(
      ctx.database.db,
      ctx.app.runners,
      new Date(Date.now() + 25 * 3_600_000),
    );
    expect(removed).toBeGreaterThanOrEqual(2);
    const again = await openStream(origin, token, lastId);
    const later = await pendingSale(ctx.app, token, '9400000005');
    await vi.waitFor(() => expect(saleEvents(again, later.id)).toHaveLength(1));
    expect(saleEvents(again, sale.id)).toEqual([]);
  });

  it("tells a session's stream that it was ended elsewhere, and ends it; another session hears nothing", async () => {
    const ended = (await login(ctx.app, '9300000003', DEMO_PASSWORD)).token;
    const other = (await login(ctx.app, '9300000003', DEMO_PASSWORD)).token;
    const endedStream = await openStream(origin, ended);
    const otherStream = await openStream(origin, other);
    const out = await call(ctx.app, 'POST', 'account/logout', { token: ended });
    expect(out.status).toBe(200);
    await endedStream.ended;
    expect(endedStream.events.map((e) => [e.event, e.data])).toEqual([['session-ended', '{}']]);
    // The other session's stream goes on: it receives the next event in its scope.
    const sale = await pendingSale(ctx.app, other, '9400000007');
    await vi.waitFor(() => expect(saleEvents(otherStream, sale.id)).toHaveLength(1));
    expect(otherStream.events.some((e) => e.event === 'session-ended')).toBe(false);
  });

  it('tells the settled user, its network and staff of a settlement, and nobody else', async () => {
    const retailer = (await login(ctx.app, '9300000004', DEMO_PASSWORD)).token;
    const mine = await openStream(origin, retailer);
    const stranger = await openStream(origin, (await login(ctx.app, '9300000006', DEMO_PASSWORD)).token);
    const staff = await openStream(origin, admin);
    const sale = await pendingSale(ctx.app, retailer, '9400000010');
    await deliver(ctx.app, {
      event: 'account.opened',
      utmCode: sale.utmCode,
      merchantCode: sale.merchantCode,
    });
    const share = await retailerShare(sale.id);
    await settle(ctx.database.db, ctx.ledgerKey, { userId: ids['9300000004'] });
    const settled = (stream: OpenStream) =>
      stream.events
        .filter((e) => e.event === 'settlement' && dataOf(e).user === ids['9300000004'])
        .map(dataOf);
    for (const stream of [mine, staff]) await vi.waitFor(() => expect(settled(stream)).toHaveLength(1));
    expect(settled(mine)[0].amount).toBeGreaterThanOrEqual(share);
    const marker = await pendingSale(
      ctx.app,
      (await login(ctx.app, '9300000006', DEMO_PASSWORD)).token,
      '9400000015',
    );
    await vi.waitFor(() => expect(saleEvents(stranger, marker.id)).toHaveLength(1));
    expect(settled(stranger)).toEqual([]);
  });
});

describe('the approvals event', () => {
  it("reaches admins and the command's maker, and not the tier user it is for", async () => {
    const employee = (await login(ctx.app, '9000000001', DEMO_PASSWORD)).token;
    const payee = (await login(ctx.app, '9300000007', DEMO_PASSWORD)).token;
    const [adminStream, makerStream, payeeStream] = [
      await openStream(origin, admin),
      await openStream(origin, employee),
      await openStream(origin, payee),
    ];
    const made = await call(ctx.app, 'POST', 'wallet/adjust', {
      token: employee,
      body: { userId: ids['9300000007'], amount: 10, note: 'Float', reason: 'Live screens test' },
    });
    expect(made.status).toBe(202);
    const commandId: string = made.body.result._id;
    const approvals = (stream: OpenStream) =>
      stream.events.filter((e) => e.event === 'approval' && dataOf(e).id === commandId).map(dataOf);
    for (const stream of [adminStream, makerStream])
      await vi.waitFor(() =>
        expect(approvals(stream)).toEqual([
          { id: commandId, status: 'PENDING', kind: 'ADJUSTMENT', maker: made.body.result.maker._id },
        ]),
      );
    // The payee's next event in its scope comes after: the command's had reached it by then, had it been sent.
    const marker = await pendingSale(ctx.app, payee, '9400000017');
    await vi.waitFor(() => expect(saleEvents(payeeStream, marker.id)).toHaveLength(1));
    expect(approvals(payeeStream)).toEqual([]);
  });
});

describe('through another server on the same database', () => {
  /** The second server's origin, and how to stop it. */
  let other: { origin: string; stop(): Promise<void> };
  /** On PostgreSQL: both servers, spawned. */
  let spawned: ServerProcess[] = [];

  beforeAll(async () => {
    if (ctx.database.engine === 'postgres') {
      // Two servers as an operator starts them, on a database of their own on the same PostgreSQL server.
      const database = await throwAwayDatabase(process.env.DATABASE_URL!, 'tierdesk_events');
      const dirs: string[] = [];
      const env = () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-events-'));
        dirs.push(dir);
        return {
          DATABASE_URL: database.url,
          DATA_DIR: dir,
          DATA_KEY: key,
          PROVIDER_MODE: 'sandbox',
          PROVIDER_WEBHOOK_SECRET: WEBHOOK_SECRET,
        };
      };
      const key = randomBytes(32).toString('hex');
      // One after the other: the first migrates and seeds the demo network.
      const servers: ServerProcess[] = [await startServer(env()), await startServer(env())];
      spawned = servers;
      other = {
        origin: servers[1].origin,
        stop: async () => {
          for (const server of servers) await server.stop();
          await database.drop();
          for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    } else {
      // The embedded database is one process's: a second server in this process, on the same database.
      const app = await buildApp({
        config: ctx.config,
        db: ctx.database.db,
        cipher: ctx.cipher,
        ledgerKey: ctx.ledgerKey,
        webhookSecret: WEBHOOK_SECRET,
        logger: false,
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      other = {
        origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
        stop: () => app.close(),
      };
    }
  }, 300_000);
  afterAll(() => other?.stop());

  it("brings a sale confirmed on one server to the retailer's stream on the other", async () => {
    // On PostgreSQL both servers are spawned: the first one is where the sale and its callback are sent.
    const first = spawned[0]?.origin ?? origin;
    const post = async (at: string, route: string, token: string | null, body: unknown, extra = {}) => {
      const res = await fetch(`${at}/api/v1/${route}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          cookie: 'XSRF-TOKEN=x',
          'x-xsrf-token': 'x',
          ...(token ? { 'x-auth-token': `bearer ${token}` } : {}),
          ...extra,
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    };
    const signIn = await post(first, 'account/login', null, {
      userName: '9300000001',
      password: DEMO_PASSWORD,
    });
    expect(signIn.status).toBe(200);
    const token: string = signIn.body.result.token;
    const stream = await openStream(other.origin, token);

    const get = async (route: string) =>
      (await fetch(`${first}/api/v1/${route}`, { headers: { 'x-auth-token': `bearer ${token}` } })).json();
    const customers = await get('account/fetch?type=1&limit=100');
    const customer = customers.result.users.find(
      (u: { mobile: { number: string } }) => u.mobile.number === '9400000001',
    );
    const products = await get('products/fetch?searchText=Saving');
    const product = products.result.products[0];
    const opened = await post(first, 'payusprint/saving_account', token, {
      accountType: product.urlParams.data,
      productId: product._id,
      customerId: customer._id,
    });
    expect(opened.status).toBe(200);
    const url: string = opened.body.result.result.data;
    const utmCode = url.slice(url.lastIndexOf('=') + 1);
    const merchantCode: string = opened.body.result.merchantCode;
    const recorded = await post(first, 'bought_products/create', token, {
      customerId: customer._id,
      retailerId: null,
      productId: product._id,
      utmCode,
      merchantCode,
    });
    expect(recorded.status).toBe(200);
    const saleId: string = recorded.body.result._id;
    const raw = JSON.stringify({
      eventId: randomBytes(8).toString('hex'),
      event: 'account.opened',
      utmCode,
      merchantCode,
    });
    const confirmed = await post(first, 'bought_products/callback', null, raw, {
      'x-provider-signature': signCallback(WEBHOOK_SECRET, raw),
    });
    expect(confirmed.status).toBe(200);
    await vi.waitFor(() => expect(saleEvents(stream, saleId).map((s) => s.status)).toContain('CONFIRMED'), {
      timeout: 2000,
    });
  });
});
