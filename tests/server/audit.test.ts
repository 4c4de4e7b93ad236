import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSettlementJob } from '../../src/server/modules/ledger/settlement';
import { verhoeffDigit } from '../../src/shared/identity';
import {
  ADMIN,
  call,
  DEMO_PASSWORD,
  freshAddress,
  login,
  makeTestContext,
  type TestContext,
} from './helpers';
import { deliver, idsByMobile, sell } from './selling';

let ctx: TestContext;
let admin: string;
let adminId: string;
let employee: string;
let retailer: string;
let retailerId: string;
let ids: Record<string, string>;
let place: { districtId: string; tehsilId: string };

const audit = async (query: Record<string, string> = {}, token = admin) =>
  call(ctx.app, 'GET', 'audit/fetch', { token, query });
/** The newest audit row of an action (and entity id). */
const latest = async (action: string, entityId?: string) => {
  const rows = (await audit({ action, limit: '100' })).body.result.audit as Record<string, unknown>[];
  return rows.find((r) => entityId === undefined || r.entityId === entityId);
};
const count = async (action: string) => (await audit({ action })).body.result.totalCounts as number;

function aadhar(seed: number) {
  const base = `6${String(seed).padStart(10, '0')}`;
  return `${base}${verhoeffDigit(base)}`;
}

beforeAll(async () => {
  ctx = await makeTestContext();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const signedIn = await login(ctx.app, ADMIN.userName, ADMIN.password);
  admin = signedIn.token;
  adminId = signedIn.user._id;
  employee = (await login(ctx.app, '9000000001', DEMO_PASSWORD)).token;
  const r = await login(ctx.app, '9300000001', DEMO_PASSWORD);
  retailer = r.token;
  retailerId = r.user._id;
  ids = await idsByMobile(ctx.app, admin);
  const tehsils = await call(ctx.app, 'GET', 'tehsil/fetch', { token: admin, query: { limit: '1' } });
  const t = tehsils.body.result.tehsil[0];
  place = { districtId: t.districtId._id, tehsilId: t._id };
});
afterAll(() => ctx.close());

describe('every successful write is one audit row', () => {
  it('records who, role, action, entity, the fields after, address and time', async () => {
    const res = await call(ctx.app, 'POST', 'state/create', {
      token: admin,
      body: { name: 'Audit Pradesh' },
      ip: '10.20.30.40',
    });
    expect(res.status).toBe(200);
    const row = await latest('state.create', res.body.result._id);
    expect(row).toMatchObject({
      actor: { _id: adminId, name: 'Administrator', type: 0, kind: 'USER' },
      action: 'state.create',
      entity: 'state',
      entityId: res.body.result._id,
      before: null,
      after: { name: 'Audit Pradesh' },
      ip: '10.20.30.40',
    });
    expect(Date.now() - Date.parse(String(row?.createdAt))).toBeLessThan(60_000);
  });

  it('keeps only the changed fields of an update, before and after', async () => {
    const created = await call(ctx.app, 'POST', 'providers/create', {
      token: employee,
      body: { name: 'Audit Bank' },
    });
    const id = created.body.result._id;
    await call(ctx.app, 'POST', `providers/update/${id}`, {
      token: employee,
      body: { name: 'Audit Bank Ltd' },
    });
    const row = await latest('provider.update', id);
    expect(row).toMatchObject({
      actor: { name: 'Anita Sharma', type: 5, kind: 'USER' },
      before: { name: 'Audit Bank' },
      after: { name: 'Audit Bank Ltd' },
    });
  });

  it('writes nothing for a refused write', async () => {
    const before = await count('state.create');
    const res = await call(ctx.app, 'POST', 'state/create', {
      token: admin,
      body: { name: 'audit pradesh' },
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A state named "audit pradesh" already exists');
    expect(await count('state.create')).toBe(before);
  });

  it('masks personal data: mobile and email partly, PAN to its last five, Aadhar never recorded', async () => {
    const number = aadhar(1);
    const body = {
      type: 1,
      name: 'Audit Customer',
      email: 'ravi.kumar@example.com',
      mobile: '9876543210',
      userName: '9876543210',
      ...place,
      customer: { aadharId: number, panId: 'ABCDE1234F', retailerId: null },
    };
    const created = await call(ctx.app, 'POST', 'account/create', { token: admin, body });
    expect(created.status).toBe(200);
    const id = created.body.result._id;
    const row = await latest('user.create', id);
    expect(row?.after).toMatchObject({
      name: 'Audit Customer',
      email: 'ra***@example.com',
      mobile: '98XXXXXX10',
      userName: '98XXXXXX10',
      panId: 'XXXXX1234F',
      aadharHash: '[not recorded]',
    });
    const updated = await call(ctx.app, 'POST', `account/update/${id}`, {
      token: admin,
      body: { ...body, email: 'sita@example.org', customer: { ...body.customer, aadharId: aadhar(2) } },
    });
    expect(updated.status).toBe(200);
    const update = await latest('user.update', id);
    // Only what changed; the Aadhar number shows as changed, with neither value.
    expect(update?.before).toEqual({ email: 'ra***@example.com', aadharHash: '[not recorded]' });
    expect(update?.after).toEqual({ email: 'si***@example.org', aadharHash: '[not recorded]' });
    const trail = JSON.stringify((await audit({ entity: 'user', limit: '100' })).body);
    for (const secret of [number, aadhar(2), '9876543210', 'ravi.kumar', 'ABCDE1234F', '$argon2'])
      expect(trail).not.toContain(secret);
  });

  it('records a status change as such', async () => {
    const res = await call(ctx.app, 'POST', `account/update/${ids['9300000008']}`, {
      token: admin,
      body: { status: 'ACTIVE' },
    });
    expect(res.status).toBe(200);
    expect(await latest('user.status', ids['9300000008'])).toMatchObject({
      before: { status: 'INACTIVE' },
      after: { status: 'ACTIVE' },
    });
  });

  it('records sign-in, password change and sign-out, never a password or token', async () => {
    const session = await login(ctx.app, '9200000002', DEMO_PASSWORD);
    const changed = await call(ctx.app, 'POST', 'account/resetPassword', {
      token: session.token,
      body: { oldPassword: DEMO_PASSWORD, newPassword: 'Audit@1234', confirmPassword: 'Audit@1234' },
    });
    expect(changed.status).toBe(200);
    await call(ctx.app, 'POST', 'account/logout', { token: session.token });
    for (const action of ['user.login', 'user.password', 'user.logout'])
      expect(await latest(action, session.user._id)).toMatchObject({
        actor: { _id: session.user._id, kind: 'USER', type: 3 },
      });
    const password = await latest('user.password', session.user._id);
    expect(Object.keys(password?.after as object)).toEqual(['passwordUpdatedAt']);
    const trail = JSON.stringify((await audit({ userId: session.user._id })).body);
    expect(trail).not.toContain('Audit@1234');
    expect(trail).not.toContain(session.token);
  });

  it('records selling: the account opening, the sale, and the partner’s event as the partner', async () => {
    const products = await call(ctx.app, 'GET', 'products/fetch', {
      token: admin,
      query: { searchText: 'Saving' },
    });
    const { utmCode, merchantCode, recorded } = await sell(ctx.app, retailer, {
      customerId: ids['9400000001'],
      productId: products.body.result.products[0]._id,
    });
    expect(recorded.status).toBe(200);
    const saleId = recorded.body.result._id;
    expect(await latest('accountOpening.create', utmCode)).toMatchObject({
      actor: { _id: retailerId, kind: 'USER', type: 4 },
      after: { utmCode, merchantCode, accountType: 'PAYUSPRINT-SAVING' },
    });
    expect(await latest('sale.create', saleId)).toMatchObject({
      actor: { _id: retailerId },
      after: { status: 'PENDING', utmCode, amountPaise: 50000 },
    });
    const eventId = randomUUID();
    expect((await deliver(ctx.app, { event: 'account.opened', utmCode, merchantCode, eventId })).status).toBe(
      200,
    );
    expect(await latest('provider.event', saleId)).toMatchObject({
      actor: { _id: null, name: 'Partner', type: null, kind: 'PARTNER' },
      entity: 'sale',
      before: { status: 'PENDING' },
      after: { status: 'CONFIRMED', event: 'account.opened', eventId },
    });
    // A replay changes nothing and records nothing.
    const events = await count('provider.event');
    await deliver(ctx.app, { event: 'account.opened', utmCode, merchantCode, eventId });
    expect(await count('provider.event')).toBe(events);
  });

  it('rolls the audit row back with the write when the write fails after it (same transaction)', async () => {
    const products = await call(ctx.app, 'GET', 'products/fetch', {
      token: admin,
      query: { searchText: 'Saving' },
    });
    const sale = await sell(ctx.app, retailer, {
      customerId: ids['9400000002'],
      productId: products.body.result.products[0]._id,
    });
    await deliver(ctx.app, {
      event: 'account.opened',
      utmCode: sale.utmCode,
      merchantCode: sale.merchantCode,
    });
    await call(ctx.app, 'POST', 'wallet/settle', { token: admin, body: { userId: retailerId } });
    const wallet = (await call(ctx.app, 'GET', 'wallet/fetch', { token: retailer })).body.result.wallet;
    const paid = await call(ctx.app, 'POST', 'wallet/payout', {
      token: admin,
      body: { userId: retailerId, amount: wallet.balance, reference: `AUDIT-${randomUUID()}` },
    });
    expect(paid.status).toBe(200);
    expect(await latest('wallet.payout', paid.body.result._id)).toMatchObject({
      actor: { _id: adminId },
      after: { userId: retailerId, amountPaise: Math.round(wallet.balance * 100) },
    });
    // The reversal's audit row is written before its postings, which then fail (a check added here refuses
    // them): both roll back.
    const events = await count('provider.event');
    await ctx.database.pool.query(
      "alter table postings add constraint audit_test_no_reversal check (kind <> 'REVERSAL') not valid",
    );
    try {
      const refused = await deliver(ctx.app, {
        event: 'account.reversed',
        utmCode: sale.utmCode,
        merchantCode: sale.merchantCode,
      });
      expect(refused.status).toBe(500);
    } finally {
      await ctx.database.pool.query('alter table postings drop constraint audit_test_no_reversal');
    }
    expect(await count('provider.event')).toBe(events);
  });

  it('names the admin for a settlement by hand and the system for the job', async () => {
    const byHand = await latest('wallet.settle', retailerId);
    expect(byHand).toMatchObject({ actor: { _id: adminId, kind: 'USER' }, entity: 'wallet' });
    expect((byHand?.after as { settled?: number } | undefined)?.settled).toBeGreaterThan(0);
    const result = await runSettlementJob(ctx.database.db, ctx.ledgerKey, ctx.app.runners, {
      delayHours: 0,
      now: new Date(Date.now() + 60_000),
    });
    expect(result?.settled).toBeGreaterThan(0);
    const rows = (await audit({ action: 'wallet.settle', limit: '100' })).body.result.audit;
    expect(rows[0]).toMatchObject({ actor: { _id: null, name: 'System', kind: 'SYSTEM' }, ip: null });
  });
});

describe('refusals that matter', () => {
  it('records a failed sign-in under the typed name, masked when it is a mobile number', async () => {
    const ip = freshAddress();
    const res = await call(ctx.app, 'POST', 'account/login', {
      body: { userName: '9300000002', password: 'Wrong@1234' },
      ip,
    });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Invalid username or password');
    const row = await latest('user.login.failed', ids['9300000002']);
    expect(row).toMatchObject({
      actor: { _id: null, name: '93XXXXXX02', kind: 'PUBLIC' },
      entity: 'user',
      after: { userName: '93XXXXXX02' },
      ip,
    });
    expect(JSON.stringify(row)).not.toContain('Wrong@1234');
    // An unknown name is recorded too, with no user.
    await call(ctx.app, 'POST', 'account/login', { body: { userName: 'nobody-here', password: 'x' }, ip });
    const unknown = (await audit({ action: 'user.login.failed' })).body.result.audit[0];
    expect(unknown).toMatchObject({ entityId: null, actor: { name: 'nobody-here' } });
  });

  it('records a 403 with the caller, the route and the message', async () => {
    const res = await call(ctx.app, 'POST', 'state/create', { token: retailer, body: { name: 'Nope' } });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('You do not have permission to do this');
    const row = (await audit({ action: 'access.denied' })).body.result.audit[0];
    expect(row).toMatchObject({
      actor: { _id: retailerId, type: 4, kind: 'USER' },
      entity: 'route',
      entityId: 'POST /api/v1/state/create',
      after: { message: 'You do not have permission to do this' },
    });
  });

  it('records a customer’s refused sign-in as that customer', async () => {
    const res = await call(ctx.app, 'POST', 'account/login', {
      body: { userName: '9400000003', password: DEMO_PASSWORD },
      ip: freshAddress(),
    });
    expect(res.status).toBe(403);
    const row = (await audit({ action: 'access.denied' })).body.result.audit[0];
    expect(row).toMatchObject({
      actor: { _id: ids['9400000003'], type: 1 },
      entityId: 'POST /api/v1/account/login',
      after: { message: 'Customer login not allowed on panel. Please download app!' },
    });
  });
});

describe('audit/fetch', () => {
  it('is ADMIN’s only', async () => {
    for (const token of [employee, retailer]) {
      const res = await audit({}, token);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('You do not have permission to do this');
    }
    const anonymous = await call(ctx.app, 'GET', 'audit/fetch');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.message).toBe('Authentication required');
  });

  it('lists newest first with totals and pages, filtered by user, entity, action and time', async () => {
    const all = await audit({ limit: '5' });
    expect(all.status).toBe(200);
    const rows = all.body.result.audit;
    expect(rows).toHaveLength(5);
    const times = rows.map((r: { createdAt: string }) => Date.parse(r.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const page2 = await audit({ limit: '5', page: '2' });
    expect(page2.body.result.totalCounts).toBe(all.body.result.totalCounts);
    expect(page2.body.result.audit[0]._id).not.toBe(rows[0]._id);

    const byRetailer = (await audit({ userId: retailerId, limit: '100' })).body.result;
    expect(byRetailer.totalCounts).toBeGreaterThan(0);
    expect(byRetailer.audit.every((r: { actor: { _id: string } }) => r.actor._id === retailerId)).toBe(true);
    const states = (await audit({ entity: 'state', limit: '100' })).body.result.audit;
    expect(states.every((r: { entity: string }) => r.entity === 'state')).toBe(true);

    const today = new Date(Date.now() + 5.5 * 3_600_000).toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + (24 + 5.5) * 3_600_000).toISOString().slice(0, 10);
    expect((await audit({ from: today, to: today })).body.result.totalCounts).toBe(
      all.body.result.totalCounts,
    );
    expect((await audit({ from: tomorrow })).body.result.totalCounts).toBe(0);
    const exact = new Date(Date.now() - 3_600_000).toISOString();
    expect((await audit({ to: exact })).body.result.totalCounts).toBe(0);
  });

  it('refuses bad filters with the field named', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ entity: 'planet' }, 'entity', 'entity must be one of'],
      [{ action: 'user.delete' }, 'action', 'Unknown action'],
      [{ from: 'yesterday' }, 'from', 'Must be a date (YYYY-MM-DD) or an ISO 8601 date-time'],
      [{ userId: 'x' }, 'userId', 'Invalid user id'],
      [{ from: '2026-11-02', to: '2026-11-01' }, 'from', 'from must not be later than to'],
      [
        { from: '2026-11-01T10:00:00.001Z', to: '2026-11-01T10:00:00Z' },
        'from',
        'from must not be later than to',
      ],
    ];
    for (const [query, param, message] of cases) {
      const res = await audit(query);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].param).toBe(param);
      expect(res.body.errors[0].msg).toContain(message);
    }
  });

  it('refuses dates out of range and dates the calendar does not have, with the field named (issue 41)', async () => {
    const outOfRange = 'Must be a date from 2000-01-01 to 2100-12-31';
    const noSuchDate = 'No such date in the calendar';
    const cases: [Record<string, string>, string, string][] = [
      [{ from: '+275760-09-13T00:00:00.000Z' }, 'from', outOfRange],
      [{ from: '-000001-01-01' }, 'from', outOfRange],
      [{ from: '0001-01-01' }, 'from', outOfRange],
      [{ to: '1999-12-31' }, 'to', outOfRange],
      [{ to: '2101-01-01T00:00:00Z' }, 'to', outOfRange],
      [{ from: '2026-02-30' }, 'from', noSuchDate],
      [{ to: '2026-02-29' }, 'to', noSuchDate],
      [{ from: '2026-13-01' }, 'from', noSuchDate],
      [{ to: '2026-11-01T24:00:00Z' }, 'to', noSuchDate],
      [{ from: '2026-02-30T10:00:00+05:30' }, 'from', noSuchDate],
    ];
    for (const [query, param, message] of cases) {
      const res = await audit(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.errors, JSON.stringify(query)).toEqual([{ msg: message, param }]);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    // The edges of the range and a leap day are dates.
    for (const query of [
      { from: '2000-01-01', to: '2100-12-31' },
      { from: '2028-02-29', to: '2028-02-29' },
    ])
      expect((await audit(query)).status, JSON.stringify(query)).toBe(200);
  });

  it('offers no way to change or delete a row, and the table refuses it', async () => {
    for (const path of ['audit/update/x', 'audit/delete', 'audit/create']) {
      const res = await call(ctx.app, 'POST', path, { token: admin, body: {} });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(`Route POST /api/v1/${path} not found`);
    }
    for (const statement of [
      "update audit_log set actor_name = 'x'",
      'delete from audit_log',
      'truncate audit_log',
    ])
      await expect(ctx.database.pool.query(statement)).rejects.toThrow(/audit rows are append-only/);
  });
});
