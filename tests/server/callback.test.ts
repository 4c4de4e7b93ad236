import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signCallback } from '../../src/server/security/signature';
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
/** The server's log lines at warn and above. */
const logLines: string[] = [];
let admin: string;
let retailer: string;
let ids: Record<string, string>;
let savingId: string;

beforeAll(async () => {
  ctx = await makeTestContext({
    config: { publicUrl: 'https://desk.example.com' },
    logger: { level: 'warn', stream: { write: (line: string) => logLines.push(line) } },
  });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  retailer = (await login(ctx.app, '9300000001', DEMO_PASSWORD)).token;
  ids = await idsByMobile(ctx.app, admin);
  savingId = await productIdOf(ctx.app, admin);
});
afterAll(() => ctx.close());

const pendingSale = async () => {
  const { utmCode, merchantCode, recorded, url } = await sell(ctx.app, retailer, {
    customerId: ids['9400000001'],
    productId: savingId,
  });
  return { utmCode, merchantCode, id: recorded.body.result._id as string, url };
};

const saleOf = async (id: string) =>
  (await call(ctx.app, 'GET', 'bought_products/fetch', { token: admin, query: { _id: id } })).body.result
    .boughtProducts[0];

describe('the callback is authenticated by its signature only', () => {
  it('points the partner link at PUBLIC_URL when it is set', async () => {
    const { url } = await pendingSale();
    expect(url).toMatch(/^https:\/\/desk\.example\.com\/sandbox\/open\?key=[\w-]{22}&utmCode=SBX/);
  });

  it('refuses a missing, wrong, malformed, stale or future signature and a tampered body with 401', async () => {
    const sale = await pendingSale();
    const event = { event: 'account.opened', utmCode: sale.utmCode, merchantCode: sale.merchantCode };
    const cases: [string, Parameters<typeof deliver>[2], string][] = [
      ['missing', { signature: null }, 'Missing provider signature'],
      ['empty', { signature: '' }, 'Missing provider signature'],
      ['other secret', { secret: 'not-the-secret' }, 'Invalid provider signature'],
      ['malformed', { signature: 'v1=abc' }, 'Invalid provider signature'],
      [
        'not hex',
        { signature: `t=${Math.floor(Date.now() / 1000)},v1=${'z'.repeat(64)}` },
        'Invalid provider signature',
      ],
      ['stale', { now: Date.now() - 301_000 }, 'Provider signature is too old or too far in the future'],
      // 310 s ahead, not 301: these times are taken before the cases run, and on a loaded machine the server may
      // check this one seconds later, bringing a 301 s signature back inside the 300 s window (CI saw it pass).
      ['future', { now: Date.now() + 310_000 }, 'Provider signature is too old or too far in the future'],
    ];
    for (const [name, opts, message] of cases) {
      const res = await deliver(ctx.app, event, opts);
      expect(res.status, name).toBe(401);
      expect(res.body.message, name).toBe(message);
    }
    // A signature made for one body does not cover another.
    const signed = JSON.stringify({ eventId: randomUUID(), ...event, event: 'account.failed' });
    const tampered = JSON.stringify({ eventId: randomUUID(), ...event });
    const res = await deliver(ctx.app, event, {
      raw: tampered,
      signature: signCallback(WEBHOOK_SECRET, signed),
    });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Invalid provider signature');
    expect((await saleOf(sale.id)).status).toBe('PENDING');
  });

  it('needs no session and no XSRF token, and a fresh signature within 300 s passes', async () => {
    const sale = await pendingSale();
    const res = await deliver(
      ctx.app,
      { event: 'account.opened', utmCode: sale.utmCode, merchantCode: sale.merchantCode },
      { now: Date.now() - 290_000 },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      result: { status: 'CONFIRMED', boughtProductId: sale.id },
      message: 'Event recorded',
    });
  });

  it('refuses an unknown utmCode (404), a merchantCode that is not the sale’s (409) and bad bodies (400)', async () => {
    const sale = await pendingSale();
    const unknown = await deliver(ctx.app, {
      event: 'account.opened',
      utmCode: 'NOPE',
      merchantCode: sale.merchantCode,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('No sale found for this utmCode');
    const mismatch = await deliver(ctx.app, {
      event: 'account.opened',
      utmCode: sale.utmCode,
      merchantCode: 'OTHER',
    });
    expect(mismatch.status).toBe(409);
    expect(mismatch.body.message).toBe('merchantCode does not match the sale');
    const notJson = await deliver(
      ctx.app,
      { event: '', utmCode: '', merchantCode: '' },
      { raw: '{not json' },
    );
    expect(notJson.status).toBe(400);
    expect(notJson.body.message).toBe('Body must be valid JSON');
    const badEvent = await deliver(ctx.app, {
      event: 'account.closed',
      utmCode: sale.utmCode,
      merchantCode: sale.merchantCode,
    });
    expect(badEvent.status).toBe(400);
    expect(badEvent.body.errors).toEqual([
      { msg: 'event must be one of account.opened, account.failed, account.reversed', param: 'event' },
    ]);
    const noId = await deliver(
      ctx.app,
      { event: 'account.opened', utmCode: sale.utmCode, merchantCode: sale.merchantCode },
      {
        raw: JSON.stringify({
          event: 'account.opened',
          utmCode: sale.utmCode,
          merchantCode: sale.merchantCode,
        }),
      },
    );
    expect(noId.status).toBe(400);
    expect(noId.body.errors).toEqual([{ msg: 'This field is required', param: 'eventId' }]);
    // None of the refused events was kept: the same eventId can be delivered again once it is right.
    expect((await saleOf(sale.id)).status).toBe('PENDING');
  });
});

describe('idempotent and one-way', () => {
  it('answers a repeated eventId with the first answer and posts once', async () => {
    const sale = await pendingSale();
    const event = {
      eventId: randomUUID(),
      event: 'account.opened',
      utmCode: sale.utmCode,
      merchantCode: sale.merchantCode,
    };
    const first = await deliver(ctx.app, event);
    const second = await deliver(ctx.app, event);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.result).toEqual(first.body.result);
    expect(second.body.message).toBe('Event already processed');
    // A second, different "opened" event posts nothing either.
    const other = await deliver(ctx.app, { ...event, eventId: randomUUID() });
    expect(other.status).toBe(200);
    expect(other.body.result.status).toBe('CONFIRMED');
    expect((await saleOf(sale.id)).postings).toHaveLength(5);
  });

  it('posts once when the same event arrives many times at once', async () => {
    const sale = await pendingSale();
    const event = {
      eventId: randomUUID(),
      event: 'account.opened',
      utmCode: sale.utmCode,
      merchantCode: sale.merchantCode,
    };
    const answers = await Promise.all(Array.from({ length: 12 }, () => deliver(ctx.app, event)));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(answers.filter((a) => a.body.message === 'Event recorded')).toHaveLength(1);
    expect((await saleOf(sale.id)).postings).toHaveLength(5);
  });

  it('refuses account.failed after account.opened, and account.opened after account.failed', async () => {
    const opened = await pendingSale();
    await deliver(ctx.app, {
      event: 'account.opened',
      utmCode: opened.utmCode,
      merchantCode: opened.merchantCode,
    });
    const late = await deliver(ctx.app, {
      event: 'account.failed',
      utmCode: opened.utmCode,
      merchantCode: opened.merchantCode,
    });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('The account was already opened: the sale cannot fail now');
    expect((await saleOf(opened.id)).status).toBe('CONFIRMED');

    const failed = await pendingSale();
    const f = await deliver(ctx.app, {
      event: 'account.failed',
      utmCode: failed.utmCode,
      merchantCode: failed.merchantCode,
    });
    expect(f.body.result.status).toBe('FAILED');
    const reopened = await deliver(ctx.app, {
      event: 'account.opened',
      utmCode: failed.utmCode,
      merchantCode: failed.merchantCode,
    });
    expect(reopened.status).toBe(409);
    expect(reopened.body.message).toBe('The sale is FAILED: it cannot be opened now');
    expect((await saleOf(failed.id)).postings).toEqual([]);
  });

  it('reverses a confirmed sale out of clearing, once; a pending sale cannot be reversed', async () => {
    const pending = await pendingSale();
    const early = await deliver(ctx.app, {
      event: 'account.reversed',
      utmCode: pending.utmCode,
      merchantCode: pending.merchantCode,
    });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('Only a confirmed sale can be reversed');

    const walletBefore = (await call(ctx.app, 'GET', 'wallet/fetch', { token: retailer })).body.result.wallet;
    await deliver(ctx.app, {
      event: 'account.opened',
      utmCode: pending.utmCode,
      merchantCode: pending.merchantCode,
    });
    const reversed = await deliver(ctx.app, {
      event: 'account.reversed',
      utmCode: pending.utmCode,
      merchantCode: pending.merchantCode,
    });
    expect(reversed.status).toBe(200);
    expect(reversed.body.result.status).toBe('REVERSED');
    const again = await deliver(ctx.app, {
      event: 'account.reversed',
      utmCode: pending.utmCode,
      merchantCode: pending.merchantCode,
    });
    expect(again.status).toBe(200);
    const sale = await saleOf(pending.id);
    expect(sale.status).toBe('REVERSED');
    expect(sale.reversedAt).not.toBeNull();
    const reversals = sale.postings.filter((p: { kind: string }) => p.kind === 'REVERSAL');
    expect(reversals).toHaveLength(5);
    for (const r of reversals) {
      expect(r).toMatchObject({ transactionType: 'DEBIT', balanceType: 'CLEARING', status: 'REVERSED' });
      expect(sale.postings.some((p: { _id: string }) => p._id === r.refPostingId)).toBe(true);
    }
    const walletAfter = (await call(ctx.app, 'GET', 'wallet/fetch', { token: retailer })).body.result.wallet;
    expect(walletAfter).toEqual(walletBefore);
  });
});

describe('an eventId is the partner’s promise (issue 41, item 7)', () => {
  const warnings = () =>
    logLines
      .map((line) => JSON.parse(line))
      .filter((l) => l.msg === 'partner eventId reused for a different event: refused');

  it('refuses the same eventId for another sale with 409, logged, and that sale stays PENDING', async () => {
    const first = await pendingSale();
    const second = await pendingSale();
    const eventId = randomUUID();
    const opened = await deliver(ctx.app, {
      eventId,
      event: 'account.opened',
      utmCode: first.utmCode,
      merchantCode: first.merchantCode,
    });
    expect(opened.status).toBe(200);
    const before = warnings().length;
    const reused = await deliver(ctx.app, {
      eventId,
      event: 'account.opened',
      utmCode: second.utmCode,
      merchantCode: second.merchantCode,
    });
    expect(reused.status).toBe(409);
    expect(reused.body).toEqual({
      message: 'This eventId was already used for a different event: each event needs its own eventId',
    });
    const sale = await saleOf(second.id);
    expect(sale.status).toBe('PENDING');
    expect(sale.postings).toEqual([]);
    expect(warnings().slice(before)).toEqual([
      expect.objectContaining({
        level: 40,
        eventId,
        first: { event: 'account.opened', utmCode: first.utmCode, merchantCode: first.merchantCode },
        now: { event: 'account.opened', utmCode: second.utmCode },
      }),
    ]);
    // Its own eventId then confirms it.
    const own = await deliver(ctx.app, {
      event: 'account.opened',
      utmCode: second.utmCode,
      merchantCode: second.merchantCode,
    });
    expect(own.status).toBe(200);
    expect((await saleOf(second.id)).status).toBe('CONFIRMED');
  });

  it('confirms one sale only when one eventId arrives for two sales at once', async () => {
    const sales = [await pendingSale(), await pendingSale()];
    const eventId = randomUUID();
    const answers = await Promise.all(
      sales.map((sale) =>
        deliver(ctx.app, {
          eventId,
          event: 'account.opened',
          utmCode: sale.utmCode,
          merchantCode: sale.merchantCode,
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const statuses = await Promise.all(sales.map(async (sale) => (await saleOf(sale.id)).status));
    expect([...statuses].sort()).toEqual(['CONFIRMED', 'PENDING']);
    // The sale answered 200 is the one confirmed, with its five commissions; the other has none.
    const winner = answers.findIndex((a) => a.status === 200);
    expect(statuses[winner]).toBe('CONFIRMED');
    expect((await saleOf(sales[winner].id)).postings).toHaveLength(5);
    expect((await saleOf(sales[1 - winner].id)).postings).toEqual([]);
  });

  it('refuses the same eventId as "opened" then "reversed" with 409, and reverses nothing', async () => {
    const sale = await pendingSale();
    const event = { eventId: randomUUID(), utmCode: sale.utmCode, merchantCode: sale.merchantCode };
    expect((await deliver(ctx.app, { ...event, event: 'account.opened' })).status).toBe(200);
    const reversed = await deliver(ctx.app, { ...event, event: 'account.reversed' });
    expect(reversed.status).toBe(409);
    expect(reversed.body.message).toBe(
      'This eventId was already used for a different event: each event needs its own eventId',
    );
    const after = await saleOf(sale.id);
    expect(after.status).toBe('CONFIRMED');
    expect(after.postings.filter((p: { kind: string }) => p.kind === 'REVERSAL')).toEqual([]);
    // Another merchant code under the same eventId is other content too.
    const otherMerchant = await deliver(ctx.app, {
      ...event,
      event: 'account.opened',
      merchantCode: 'OTHER',
    });
    expect(otherMerchant.status).toBe(409);
    expect(otherMerchant.body.message).toBe(
      'This eventId was already used for a different event: each event needs its own eventId',
    );
  });

  it('answers an exact replay with the first 200 answer, even after a refused reuse and after the sale moved on', async () => {
    const sale = await pendingSale();
    const event = {
      eventId: randomUUID(),
      event: 'account.opened',
      utmCode: sale.utmCode,
      merchantCode: sale.merchantCode,
    };
    const first = await deliver(ctx.app, event);
    expect(first).toEqual({
      status: 200,
      body: {
        result: { eventId: event.eventId, boughtProductId: sale.id, status: 'CONFIRMED' },
        message: 'Event recorded',
      },
    });
    expect((await deliver(ctx.app, { ...event, event: 'account.failed' })).status).toBe(409);
    const reversal = await deliver(ctx.app, { ...event, eventId: randomUUID(), event: 'account.reversed' });
    expect(reversal.body.result.status).toBe('REVERSED');
    const replay = await deliver(ctx.app, event);
    expect(replay).toEqual({
      status: 200,
      body: { result: first.body.result, message: 'Event already processed' },
    });
    expect((await saleOf(sale.id)).postings).toHaveLength(10);
  });
});
