import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, call, DEMO_PASSWORD, login, makeTestContext, type TestContext } from './helpers';
import { deliver, idsByMobile, sell } from './selling';

/**
 * `ledger/reconcile` is a live monitor: it reads one snapshot, so while callbacks confirm and reverse sales and
 * settlements run, every report it gives is true of one moment and says ok.
 */
let ctx: TestContext;
let admin: string;
let ids: Record<string, string>;

const SELLERS: [string, string[]][] = [
  ['9300000001', ['9400000001', '9400000002', '9400000003']],
  ['9300000002', ['9400000004', '9400000005', '9400000006']],
  ['9300000003', ['9400000007', '9400000008', '9400000009']],
  ['9300000004', ['9400000010', '9400000011', '9400000012']],
];

beforeAll(async () => {
  ctx = await makeTestContext();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  ids = await idsByMobile(ctx.app, admin);
});
afterAll(() => ctx.close());

describe('ledger/reconcile during a callback storm', () => {
  it('answers ok every time, on one snapshot', async () => {
    const products = (await call(ctx.app, 'GET', 'products/fetch', { token: admin })).body.result
      .products as { _id: string }[];
    const tokens = new Map<string, string>();
    for (const [retailer] of SELLERS)
      tokens.set(retailer, (await login(ctx.app, retailer, DEMO_PASSWORD)).token);
    const sellOne = async (n: number) => {
      const [retailer, customers] = SELLERS[n % SELLERS.length];
      const { utmCode, merchantCode, recorded } = await sell(ctx.app, tokens.get(retailer)!, {
        customerId: ids[customers[n % customers.length]],
        productId: products[n % products.length]._id,
      });
      expect(recorded.status).toBe(200);
      return { utmCode, merchantCode };
    };
    // Ten sales confirmed and settled before the storm, reversed during it (out of available balances).
    const earlier = [];
    for (let n = 0; n < 10; n++) {
      const sale = await sellOne(n);
      expect((await deliver(ctx.app, { event: 'account.opened', ...sale })).status).toBe(200);
      earlier.push(sale);
    }
    expect((await call(ctx.app, 'POST', 'wallet/settle', { token: admin, body: { all: true } })).status).toBe(
      200,
    );
    const sales = [];
    for (let n = 0; n < 40; n++) sales.push(await sellOne(n + 10));

    const storm = [
      ...sales.flatMap((s) => {
        const event = { eventId: randomUUID(), event: 'account.opened', ...s };
        return [event, event];
      }),
      ...earlier.map((s) => ({ eventId: randomUUID(), event: 'account.reversed', ...s })),
    ].map((e) => () => deliver(ctx.app, e));
    for (let n = 0; n < 5; n++)
      storm.push(() => call(ctx.app, 'POST', 'wallet/settle', { token: admin, body: { all: true } }));

    let stormOver = false;
    const reports: { ok: boolean; breaks: unknown[] }[] = [];
    const monitor = (async () => {
      while (!stormOver) {
        const res = await call(ctx.app, 'GET', 'ledger/reconcile', { token: admin });
        expect(res.status).toBe(200);
        if (!stormOver) reports.push(res.body.result);
      }
    })();
    const answers = await Promise.all(storm.map((run) => run()));
    stormOver = true;
    await monitor;

    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    // The monitor ran while the storm did, more than once.
    expect(reports.length).toBeGreaterThanOrEqual(2);
    for (const report of reports) expect(report).toMatchObject({ ok: true, breaks: [] });
    const last = (await call(ctx.app, 'GET', 'ledger/reconcile', { token: admin })).body.result;
    expect(last).toMatchObject({ ok: true, breaks: [], sales: { confirmed: 40, reversed: 10 } });
  });
});
