import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/server/config';
import { ADMIN, call, DEMO_PASSWORD, login, makeTestContext, type TestContext } from './helpers';
import { idsByMobile } from './selling';

/**
 * Maker-checker (issue 43): a payout above PAYOUT_APPROVAL_ABOVE_RUPEES (₹10,000 by default), any payout an
 * employee records and every manual adjustment wait as pending commands; an admin who did not make one approves
 * it (it runs then) or rejects it with a reason. Runs on PGlite and, with DATABASE_URL, on PostgreSQL.
 */

let ctx: TestContext;
let admin: string;
let admin2: string;
let employee: string;
let retailer1: string;
let ids: Record<string, string>;
let retailerId: string;
let adminId: string;
let admin2Id: string;

const PERMISSION = 'You do not have permission to do this';
const SECOND_ADMIN = { userName: 'second.admin', password: 'Check@2026', mobile: '9888800001' };

const as = (
  token: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  query?: Record<string, string>,
) => call(ctx.app, method, path, { token, body, query });
const walletOf = async (token = retailer1) =>
  (await as(token, 'GET', 'wallet/fetch')).body.result.wallet as { balance: number; clearingBalance: number };
const commandOf = async (id: string) =>
  (
    (await as(admin, 'GET', 'approvals/fetch', undefined, { limit: '100' })).body.result.approvals as {
      _id: string;
      status: string;
    }[]
  ).find((c) => c._id === id);

/** The command the maker (admin) could not decide and admin2 approved. */
let checkedId: string;
let referenceCounter = 0;
const reference = () => `APPROVAL-REF-${++referenceCounter}`;

/** Credits the retailer's available balance through an approved adjustment (admin2 makes, admin approves). */
async function fund(amount: number) {
  const made = await as(admin2, 'POST', 'wallet/adjust', {
    userId: retailerId,
    amount,
    reason: 'Opening float',
  });
  expect(made.status).toBe(202);
  const approved = await as(admin, 'POST', `approvals/approve/${made.body.result._id}`);
  expect(approved.status).toBe(200);
}

beforeAll(async () => {
  ctx = await makeTestContext();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const signedIn = await login(ctx.app, ADMIN.userName, ADMIN.password);
  admin = signedIn.token;
  adminId = signedIn.user._id;
  employee = (await login(ctx.app, '9000000001', DEMO_PASSWORD)).token;
  retailer1 = (await login(ctx.app, '9300000001', DEMO_PASSWORD)).token;
  ids = await idsByMobile(ctx.app, admin);
  retailerId = ids['9300000001'];
});
afterAll(() => ctx.close());

describe('PAYOUT_APPROVAL_ABOVE_RUPEES', () => {
  it('defaults to ₹10,000, takes whole rupees from 0, and stops the start on anything else', () => {
    expect(readConfig({}).payoutApprovalAbovePaise).toBe(1_000_000);
    expect(readConfig({ PAYOUT_APPROVAL_ABOVE_RUPEES: '0' }).payoutApprovalAbovePaise).toBe(0);
    expect(readConfig({ PAYOUT_APPROVAL_ABOVE_RUPEES: '25000' }).payoutApprovalAbovePaise).toBe(2_500_000);
    for (const bad of ['-1', '10.5', 'ten', '10000000000001'])
      expect(() => readConfig({ PAYOUT_APPROVAL_ABOVE_RUPEES: bad }), bad).toThrow(
        `PAYOUT_APPROVAL_ABOVE_RUPEES must be a whole number of rupees from 0 to 10000000000000, got "${bad}"`,
      );
  });
});

describe('a second admin', () => {
  it('is created by an admin (account/create with type 0), and by nobody else', async () => {
    const tehsils = (await as(admin, 'GET', 'tehsil/fetch', undefined, { limit: '1' })).body.result.tehsil;
    const body = {
      type: 0,
      name: 'Second Admin',
      email: 'second.admin@example.com',
      mobile: SECOND_ADMIN.mobile,
      userName: SECOND_ADMIN.userName,
      districtId: tehsils[0].districtId._id,
      tehsilId: tehsils[0]._id,
      password: 'First@2026',
      confirmPassword: 'First@2026',
    };
    const refused = await as(employee, 'POST', 'account/create', body);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(PERMISSION);
    const created = await as(admin, 'POST', 'account/create', body);
    expect(created.status).toBe(200);
    expect(created.body.message).toBe('Admin Created Successfully!');
    expect(created.body.result).toMatchObject({ type: 0, name: 'Second Admin' });
    const first = await login(ctx.app, SECOND_ADMIN.userName, 'First@2026');
    const changed = await as(first.token, 'POST', 'account/resetPassword', {
      oldPassword: 'First@2026',
      newPassword: SECOND_ADMIN.password,
      confirmPassword: SECOND_ADMIN.password,
    });
    expect(changed.status).toBe(200);
    const signedIn = await login(ctx.app, SECOND_ADMIN.userName, SECOND_ADMIN.password);
    admin2 = signedIn.token;
    admin2Id = signedIn.user._id;
    expect(signedIn.user.type).toBe(0);
  });
});

describe('adjustments', () => {
  it('credit only once another admin approves, as an ADJUSTMENT posting', async () => {
    const before = await walletOf();
    const made = await as(admin2, 'POST', 'wallet/adjust', {
      userId: retailerId,
      amount: '50000',
      reason: 'Float for the approvals test',
    });
    expect(made.status).toBe(202);
    expect(made.body.message).toBe('Adjustment awaits approval by another admin: no money has moved yet');
    expect(made.body.result).toMatchObject({
      kind: 'ADJUSTMENT',
      status: 'PENDING',
      amount: 50000,
      reason: 'Float for the approvals test',
      maker: { _id: admin2Id, name: 'Second Admin' },
      checker: null,
      user: { _id: retailerId },
    });
    expect(await walletOf()).toEqual(before);
    const approved = await as(admin, 'POST', `approvals/approve/${made.body.result._id}`);
    expect(approved.status).toBe(200);
    expect(approved.body.message).toBe('Approved: the money has moved');
    expect(approved.body.result).toMatchObject({ status: 'APPROVED', checker: { _id: adminId } });
    expect(await walletOf()).toEqual({ ...before, balance: before.balance + 50000 });
    const [latest] = (await as(retailer1, 'GET', 'wallet/fetch')).body.result.transactions;
    expect(latest).toMatchObject({
      _id: approved.body.result.postingId,
      kind: 'ADJUSTMENT',
      status: 'ADJUSTED',
      transactionType: 'CREDIT',
      balanceType: 'AVAILABLE',
      amount: 50000,
      reference: 'Float for the approvals test',
    });
  });

  it('debit through approval, never below zero', async () => {
    const before = await walletOf();
    const made = await as(employee, 'POST', 'wallet/adjust', {
      userId: retailerId,
      amount: -150.5,
      reason: 'Duplicate credit',
    });
    expect(made.status).toBe(202);
    expect(made.body.result.amount).toBe(-150.5);
    const approved = await as(admin2, 'POST', `approvals/approve/${made.body.result._id}`);
    expect(approved.status).toBe(200);
    expect((await walletOf()).balance).toBe(before.balance - 150.5);
    const [latest] = (await as(retailer1, 'GET', 'wallet/fetch')).body.result.transactions;
    expect(latest).toMatchObject({ kind: 'ADJUSTMENT', transactionType: 'DEBIT', amount: 150.5 });

    const tooMuch = await as(employee, 'POST', 'wallet/adjust', {
      userId: retailerId,
      amount: -(before.balance + 1000),
      reason: 'Too much',
    });
    expect(tooMuch.status).toBe(202);
    const refused = await as(admin, 'POST', `approvals/approve/${tooMuch.body.result._id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/^Adjustment exceeds the available balance of ₹/);
    expect((await commandOf(tooMuch.body.result._id))?.status).toBe('PENDING');
    expect((await walletOf()).balance).toBe(before.balance - 150.5);
  });

  it('needs a reason and an amount other than 0, and is refused to tier users', async () => {
    const cases: [unknown, string][] = [
      [{ userId: retailerId, amount: 10 }, 'A reason for the adjustment is required'],
      [{ userId: retailerId, amount: 10, reason: '  ' }, 'A reason for the adjustment is required'],
      [
        { userId: retailerId, amount: 0, reason: 'x' },
        'Amount must be a number of rupees other than 0, with at most 2 decimals',
      ],
      [
        { userId: retailerId, amount: '1.234', reason: 'x' },
        'Amount must be a number of rupees other than 0, with at most 2 decimals',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await as(admin, 'POST', 'wallet/adjust', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors.map((e: { msg: string }) => e.msg)).toContain(message);
    }
    const tier = await as(retailer1, 'POST', 'wallet/adjust', {
      userId: retailerId,
      amount: 10,
      reason: 'x',
    });
    expect(tier.status).toBe(403);
    expect(tier.body.message).toBe(PERMISSION);
  });

  it('refuse an unknown or malformed user, the other tier users, and a caller without a session; nothing waits', async () => {
    const pendingBefore = (await as(admin, 'GET', 'approvals/fetch', undefined, { status: 'PENDING' })).body
      .result.totalCounts;
    const body = { amount: 10, reason: 'x' };
    const unknown = await as(admin, 'POST', 'wallet/adjust', {
      ...body,
      userId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('User not found');
    const malformed = await as(employee, 'POST', 'wallet/adjust', { ...body, userId: 'not-an-id' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors).toEqual([{ msg: 'Invalid user id', param: 'userId' }]);
    for (const mobile of ['9100000001', '9200000001']) {
      const tier = await login(ctx.app, mobile, DEMO_PASSWORD);
      const refused = await as(tier.token, 'POST', 'wallet/adjust', { ...body, userId: retailerId });
      expect(refused.status, mobile).toBe(403);
      expect(refused.body.message).toBe(PERMISSION);
    }
    const anonymous = await call(ctx.app, 'POST', 'wallet/adjust', { body: { ...body, userId: retailerId } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.message).toBe('Authentication required');
    expect(
      (await as(admin, 'GET', 'approvals/fetch', undefined, { status: 'PENDING' })).body.result.totalCounts,
    ).toBe(pendingBefore);
  });
});

describe('payouts that need a second person', () => {
  it('above the line answer 202 PENDING and move nothing; at the line they pay at once', async () => {
    const before = await walletOf();
    const above = await as(admin, 'POST', 'wallet/payout', {
      userId: retailerId,
      amount: '10000.01',
      reference: reference(),
    });
    expect(above.status).toBe(202);
    expect(above.body.message).toBe('Payout awaits approval by another admin: no money has moved yet');
    expect(above.body.result).toMatchObject({ kind: 'PAYOUT', status: 'PENDING', amount: 10000.01 });
    expect(typeof above.body.result._id).toBe('string');
    expect(await walletOf()).toEqual(before);
    // The same reference again is the same command (idempotent), not a second one.
    const again = await as(admin, 'POST', 'wallet/payout', {
      userId: retailerId,
      amount: '10000.01',
      reference: above.body.result.reference,
    });
    expect(again.status).toBe(202);
    expect(again.body.result._id).toBe(above.body.result._id);
    // Its reference is held: a direct payout under it is refused.
    const clash = await as(admin, 'POST', 'wallet/payout', {
      userId: retailerId,
      amount: '5',
      reference: above.body.result.reference,
    });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe('This reference was already used for another payout');

    const atLine = await as(admin, 'POST', 'wallet/payout', {
      userId: retailerId,
      amount: 10000,
      reference: reference(),
    });
    expect(atLine.status).toBe(200);
    expect(atLine.body.result).toMatchObject({ kind: 'PAYOUT', amount: 10000 });
    expect((await walletOf()).balance).toBe(before.balance - 10000);
  });

  it('from an employee is always pending, and the employee reads only its own commands', async () => {
    const before = await walletOf();
    const made = await as(employee, 'POST', 'wallet/payout', {
      userId: retailerId,
      amount: 100,
      reference: reference(),
    });
    expect(made.status).toBe(202);
    expect(made.body.result).toMatchObject({ status: 'PENDING', amount: 100 });
    expect(await walletOf()).toEqual(before);
    const mine = await as(employee, 'GET', 'approvals/fetch', undefined, { limit: '100' });
    expect(mine.status).toBe(200);
    const makers = new Set(mine.body.result.approvals.map((c: { maker: { _id: string } }) => c.maker._id));
    expect(makers.size).toBe(1);
    expect(mine.body.result.approvals.map((c: { _id: string }) => c._id)).toContain(made.body.result._id);
    const decide = await as(employee, 'POST', `approvals/approve/${made.body.result._id}`);
    expect(decide.status).toBe(403);
    expect(decide.body.message).toBe(PERMISSION);
    const tier = await as(retailer1, 'GET', 'approvals/fetch');
    expect(tier.status).toBe(403);
    expect(tier.body.message).toBe(PERMISSION);
  });

  it('cannot be approved or rejected by its maker', async () => {
    const made = await as(admin, 'POST', 'wallet/payout', {
      userId: retailerId,
      amount: 20000,
      reference: reference(),
    });
    expect(made.status).toBe(202);
    for (const [path, body] of [
      [`approvals/approve/${made.body.result._id}`, undefined],
      [`approvals/reject/${made.body.result._id}`, { reason: 'Changed my mind' }],
    ] as const) {
      const res = await as(admin, 'POST', path, body);
      expect(res.status, path).toBe(403);
      expect(res.body.message).toBe('You made this command: another admin must approve or reject it');
    }
    expect((await commandOf(made.body.result._id))?.status).toBe('PENDING');
    checkedId = made.body.result._id;
    const approved = await as(admin2, 'POST', `approvals/approve/${made.body.result._id}`);
    expect(approved.status).toBe(200);
    expect(approved.body.result).toMatchObject({
      status: 'APPROVED',
      maker: { _id: adminId },
      checker: { _id: admin2Id, name: 'Second Admin' },
    });
  });

  it('rejected need a reason, which is kept; nothing moves, and a decided command stays decided', async () => {
    const before = await walletOf();
    const ref = reference();
    const made = await as(employee, 'POST', 'wallet/payout', {
      userId: retailerId,
      amount: 300,
      reference: ref,
    });
    const id = made.body.result._id;
    for (const body of [{}, { reason: '   ' }]) {
      const res = await as(admin, 'POST', `approvals/reject/${id}`, body);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ msg: 'A reason for the rejection is required', param: 'reason' }]);
    }
    const rejected = await as(admin, 'POST', `approvals/reject/${id}`, {
      reason: 'Bank details not verified',
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body.message).toBe('Rejected');
    expect(rejected.body.result).toMatchObject({
      status: 'REJECTED',
      rejectionReason: 'Bank details not verified',
      checker: { _id: adminId },
      postingId: null,
    });
    expect(await walletOf()).toEqual(before);
    const late = await as(admin2, 'POST', `approvals/approve/${id}`);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('This command was already rejected');
    const missing = await as(admin, 'POST', 'approvals/approve/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Pending command not found');
    // A rejection frees the reference.
    const retried = await as(employee, 'POST', 'wallet/payout', {
      userId: retailerId,
      amount: 300,
      reference: ref,
    });
    expect(retried.status).toBe(202);
    expect(retried.body.result._id).not.toBe(id);
  });

  it('approved by two admins at once pay once', async () => {
    for (let round = 0; round < 4; round++) {
      const before = await walletOf();
      const made = await as(employee, 'POST', 'wallet/payout', {
        userId: retailerId,
        amount: 250,
        reference: reference(),
      });
      const id = made.body.result._id;
      const answers = await Promise.all([
        as(admin, 'POST', `approvals/approve/${id}`),
        as(admin2, 'POST', `approvals/approve/${id}`),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)?.body.message).toBe('This command was already approved');
      expect((await walletOf()).balance).toBe(before.balance - 250);
    }
  });

  it('is refused at approval when the balance no longer covers it, and stays pending', async () => {
    const { balance } = await walletOf();
    const share = Math.floor((balance * 0.6) / 1) || 1;
    const first = await as(employee, 'POST', 'wallet/payout', {
      userId: retailerId,
      amount: share,
      reference: reference(),
    });
    const second = await as(employee, 'POST', 'wallet/payout', {
      userId: retailerId,
      amount: share,
      reference: reference(),
    });
    expect([first.status, second.status]).toEqual([202, 202]);
    expect((await as(admin, 'POST', `approvals/approve/${first.body.result._id}`)).status).toBe(200);
    const refused = await as(admin, 'POST', `approvals/approve/${second.body.result._id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/^Payout exceeds the available balance of ₹/);
    expect((await commandOf(second.body.result._id))?.status).toBe('PENDING');
    expect((await walletOf()).balance).toBeCloseTo(balance - share, 2);
    // Money comes in: the same command can be approved then.
    await fund(share);
    const later = await as(admin, 'POST', `approvals/approve/${second.body.result._id}`);
    expect(later.status).toBe(200);
  });
});

describe('afterwards', () => {
  it('lists pending commands for the menu count, with a status filter', async () => {
    const pending = await as(admin, 'GET', 'approvals/fetch', undefined, { status: 'PENDING', limit: '1' });
    expect(pending.status).toBe(200);
    const all = (await as(admin, 'GET', 'approvals/fetch', undefined, { limit: '100' })).body.result
      .approvals;
    expect(pending.body.result.totalCounts).toBe(
      all.filter((c: { status: string }) => c.status === 'PENDING').length,
    );
    const bad = await as(admin, 'GET', 'approvals/fetch', undefined, { status: 'DONE' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { msg: 'status must be one of PENDING, APPROVED, REJECTED', param: 'status' },
    ]);
  });

  it('reconciles', async () => {
    const report = await as(admin, 'GET', 'ledger/reconcile');
    expect(report.status).toBe(200);
    expect(report.body.result.breaks).toEqual([]);
    expect(report.body.result.ok).toBe(true);
  });

  it('shows both people in the audit trail: the maker at creation, the checker at the decision', async () => {
    const trail = async (action: string) =>
      (await as(admin, 'GET', 'audit/fetch', undefined, { action, limit: '100' })).body.result.audit as {
        entityId: string;
        actor: { _id: string };
        after: Record<string, unknown>;
      }[];
    const requests = await trail('approval.request');
    const approvals = await trail('approval.approve');
    const rejections = await trail('approval.reject');
    const approved = approvals.find((a) => a.entityId === checkedId);
    expect(approved?.actor._id).toBe(admin2Id);
    expect(approved).toBeDefined();
    const request = requests.find((r) => r.entityId === approved?.entityId);
    expect(request?.actor._id).toBe(adminId);
    expect(request?.after).toMatchObject({ kind: 'PAYOUT', status: 'PENDING' });
    expect(approved?.after).toMatchObject({ status: 'APPROVED', checkerId: admin2Id });
    const rejected = rejections.find((r) => r.after.rejectionReason === 'Bank details not verified');
    expect(rejected?.actor._id).toBe(adminId);
    // The posting itself is the checker's.
    const payouts = await trail('wallet.payout');
    expect(payouts.find((p) => p.entityId === approved?.after.postingId)?.actor._id).toBe(admin2Id);
  });
});
