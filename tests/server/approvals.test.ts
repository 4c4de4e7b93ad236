import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readConfig } from '../../src/server/config';
import { monthOf } from '../../src/shared/constants/statements';
import { adminDesk } from './admins';
import { ADMIN, call, DEMO_PASSWORD, login, makeTestContext, type TestContext } from './helpers';
import { idsByMobile } from './selling';

/**
 * Maker-checker (issues 43 and 51). Money: a payout above PAYOUT_APPROVAL_ABOVE_RUPEES (₹10,000 by default), an
 * admin's payouts past PAYOUT_APPROVAL_DAILY_RUPEES in a day (₹50,000), any payout an employee records and every
 * manual adjustment wait as pending commands, for tier users only. Power: making an admin (new or promoted) and
 * resetting another admin's password or second step wait too. An admin who is neither the maker nor the person a
 * command is for approves it (it runs then) or rejects it with a reason. Runs on PGlite and, with DATABASE_URL, on
 * PostgreSQL.
 */

let ctx: TestContext;
/** The approvals' people: admins from the console with their second steps (tests/server/admins.ts). */
let desk: ReturnType<typeof adminDesk>;
const as: ReturnType<typeof adminDesk>['as'] = (...args) => desk.as(...args);
const chooseOwnPassword: ReturnType<typeof adminDesk>['chooseOwnPassword'] = (...args) =>
  desk.chooseOwnPassword(...args);
const nextMobile = () => desk.nextMobile();
const STRONG = 'Check@2026';
let admin: string;
let employee: string;
let employeeId: string;
let retailer1: string;
let ids: Record<string, string>;
let retailerId: string;
let adminId: string;
let tehsil: { _id: string; districtId: { _id: string } };

/** Admins beside the bootstrap one, each first made from the server console (as `npm run admin -- create` does). */
const admins: Record<string, { token: string; id: string }> = {};

const PERMISSION = 'You do not have permission to do this';

const walletOf = async (token = retailer1) =>
  (await as(token, 'GET', 'wallet/fetch')).body.result.wallet as { balance: number; clearingBalance: number };
const commandOf = async (id: string) =>
  (
    (await as(admin, 'GET', 'approvals/fetch', undefined, { limit: '100' })).body.result.approvals as {
      _id: string;
      status: string;
    }[]
  ).find((c) => c._id === id);
const adminCount = async (token = admin) =>
  (await as(token, 'GET', 'approvals/admins')).body.result.admins as number;

let referenceCounter = 0;
const reference = () => `APPROVAL-REF-${++referenceCounter}`;
/** Another admin from the server console, signed in with its own password and second step. */
async function consoleAdmin(key: string) {
  admins[key] = await desk.consoleAdmin(key);
  return admins[key];
}

/** Credits the retailer's available balance through an approved adjustment (`maker` makes, `checker` approves). */
async function fund(amount: number, maker: string, checker: string, userId = retailerId) {
  const made = await as(maker, 'POST', 'wallet/adjust', {
    userId,
    amount,
    note: 'Float',
    reason: 'Opening float for the test',
  });
  expect(made.status).toBe(202);
  const approved = await as(checker, 'POST', `approvals/approve/${made.body.result._id}`);
  expect(approved.status).toBe(200);
}

const newAdminBody = (userName: string, extra: Record<string, unknown> = {}) => ({
  type: 0,
  name: `New ${userName}`,
  email: `${userName}@example.com`,
  mobile: nextMobile(),
  userName,
  districtId: tehsil.districtId._id,
  tehsilId: tehsil._id,
  ...extra,
});

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  ctx = await makeTestContext();
  desk = adminDesk(ctx);
  const signedIn = await login(ctx.app, ADMIN.userName, ADMIN.password);
  admin = signedIn.token;
  adminId = signedIn.user._id;
  const staff = await login(ctx.app, '9000000001', DEMO_PASSWORD);
  employee = staff.token;
  employeeId = staff.user._id;
  retailer1 = (await login(ctx.app, '9300000001', DEMO_PASSWORD)).token;
  ids = await idsByMobile(ctx.app, admin);
  retailerId = ids['9300000001'];
  [tehsil] = (await as(admin, 'GET', 'tehsil/fetch', undefined, { limit: '1' })).body.result.tehsil;
});
afterAll(async () => {
  await ctx.close();
  vi.useRealTimers();
});

describe('PAYOUT_APPROVAL_ABOVE_RUPEES and PAYOUT_APPROVAL_DAILY_RUPEES', () => {
  it('default to ₹10,000 and ₹50,000, take whole rupees from 0, and stop the start on anything else', () => {
    expect(readConfig({}).payoutApprovalAbovePaise).toBe(1_000_000);
    expect(readConfig({}).payoutApprovalDailyPaise).toBe(5_000_000);
    expect(readConfig({ PAYOUT_APPROVAL_ABOVE_RUPEES: '0' }).payoutApprovalAbovePaise).toBe(0);
    expect(readConfig({ PAYOUT_APPROVAL_ABOVE_RUPEES: '25000' }).payoutApprovalAbovePaise).toBe(2_500_000);
    expect(readConfig({ PAYOUT_APPROVAL_DAILY_RUPEES: '0' }).payoutApprovalDailyPaise).toBe(0);
    expect(readConfig({ PAYOUT_APPROVAL_DAILY_RUPEES: '75000' }).payoutApprovalDailyPaise).toBe(7_500_000);
    for (const name of ['PAYOUT_APPROVAL_ABOVE_RUPEES', 'PAYOUT_APPROVAL_DAILY_RUPEES'])
      for (const bad of ['-1', '10.5', 'ten', '10000000000001'])
        expect(() => readConfig({ [name]: bad }), `${name}=${bad}`).toThrow(
          `${name} must be a whole number of rupees from 0 to 10000000000000, got "${bad}"`,
        );
  });
});

describe('one admin alone (issue 51, finding 1)', () => {
  it('cannot make another admin: account/create with type 0 takes no password and only waits', async () => {
    expect(await adminCount()).toBe(1);
    const withPassword = await as(
      admin,
      'POST',
      'account/create',
      newAdminBody('puppet', { password: 'First@2026', confirmPassword: 'First@2026' }),
    );
    expect(withPassword.status).toBe(400);
    expect(withPassword.body.errors).toContainEqual({
      msg: "An admin's first password is not chosen by its maker: the admin who approves receives a one-time password",
      param: 'password',
    });
    const asked = await as(admin, 'POST', 'account/create', newAdminBody('puppet'));
    expect(asked.status).toBe(202);
    expect(asked.body.message).toBe('The new admin awaits approval by another admin: nobody is created yet');
    expect(asked.body.result).toMatchObject({
      kind: 'ADMIN_CREATE',
      status: 'PENDING',
      user: null,
      amount: null,
      details: { name: 'New puppet', userName: 'puppet', email: 'puppet@example.com' },
      maker: { _id: adminId },
    });
    // Nobody is made: the name signs in to nothing, and the admin alone cannot approve it.
    const signIn = await call(ctx.app, 'POST', 'account/login', {
      body: { userName: 'puppet', password: 'First@2026' },
    });
    expect(signIn.status).toBe(401);
    const own = await as(admin, 'POST', `approvals/approve/${asked.body.result._id}`);
    expect(own.status).toBe(403);
    expect(own.body.message).toBe('You made this command: another admin must approve or reject it');
    expect(await adminCount()).toBe(1);
  });

  it('is refused to an employee, and a clash of user name or mobile is told at once', async () => {
    const refused = await as(employee, 'POST', 'account/create', newAdminBody('by.employee'));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(PERMISSION);
    const clash = await as(admin, 'POST', 'account/create', newAdminBody(ADMIN.userName));
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({
      message: 'This user name is already taken',
      errors: [{ msg: 'This user name is already taken', param: 'userName' }],
    });
  });
});

describe('a second admin, from the server console', () => {
  it('approves the first admin’s request: the new admin exists, with a one-time password for the checker alone', async () => {
    const second = await consoleAdmin('second');
    expect(await adminCount()).toBe(2);
    const pending = (
      await as(second.token, 'GET', 'approvals/fetch', undefined, { status: 'PENDING', limit: '100' })
    ).body.result.approvals.find(
      (c: { details: { userName: string } | null }) => c.details?.userName === 'puppet',
    );
    const approved = await as(second.token, 'POST', `approvals/approve/${pending._id}`);
    expect(approved.status).toBe(200);
    expect(approved.body.message).toBe(
      'Approved: the admin is created. Hand over its one-time password in person: it is shown only now',
    );
    const { oneTimePassword, ...command } = approved.body.result;
    expect(oneTimePassword).toMatch(/^[\w-]{16}$/);
    expect(command).toMatchObject({
      kind: 'ADMIN_CREATE',
      status: 'APPROVED',
      maker: { _id: adminId },
      checker: { _id: second.id, name: 'Admin second' },
      user: { name: 'New puppet', type: 0 },
    });
    expect(await adminCount()).toBe(3);
    // The new admin signs in with it once, and must choose its own password before anything else.
    const first = await login(ctx.app, 'puppet', oneTimePassword);
    expect(first.user).toMatchObject({ _id: command.user._id, type: 0, passwordUpdatedAt: null });
    const blocked = await as(first.token, 'GET', 'approvals/fetch');
    expect(blocked.status).toBe(403);
    expect(blocked.body.message).toBe('Password change required');
    await chooseOwnPassword('puppet', oneTimePassword);

    // The maker never learns it: not from the request's answer, its lists, nor the audit trail.
    const answers = [
      JSON.stringify((await as(admin, 'GET', 'approvals/fetch', undefined, { limit: '100' })).body),
      JSON.stringify((await as(admin, 'GET', 'audit/fetch', undefined, { limit: '100' })).body),
      JSON.stringify(
        (await as(admin, 'GET', 'audit/fetch', undefined, { entity: 'user', limit: '100' })).body,
      ),
      JSON.stringify((await as(admin, 'GET', 'account/fetch', undefined, { _id: command.user._id })).body),
    ];
    for (const answer of answers) expect(answer).not.toContain(oneTimePassword);
    // The audit trail names both people: the maker asked, the checker created.
    const created = (
      await as(admin, 'GET', 'audit/fetch', undefined, { action: 'user.create', limit: '100' })
    ).body.result.audit.find((a: { entityId: string }) => a.entityId === command.user._id);
    expect(created.actor._id).toBe(second.id);
  });

  it('two admins approving one admin creation at once make one admin', async () => {
    const third = await consoleAdmin('third');
    for (let round = 0; round < 3; round++) {
      const asked = await as(admin, 'POST', 'account/create', newAdminBody(`twice.${round}`));
      expect(asked.status).toBe(202);
      const before = await adminCount();
      const answers = await Promise.all([
        as(admins.second.token, 'POST', `approvals/approve/${asked.body.result._id}`),
        as(third.token, 'POST', `approvals/approve/${asked.body.result._id}`),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)?.body.message).toBe('This command was already approved');
      expect(await adminCount()).toBe(before + 1);
    }
  });

  it('two requests for one user name: the second approval is refused and stays pending', async () => {
    const first = await as(admin, 'POST', 'account/create', newAdminBody('same.name'));
    const second = await as(employee, 'POST', 'account/create', newAdminBody('same.name'));
    expect(second.status).toBe(403);
    const again = await as(admins.third.token, 'POST', 'account/create', newAdminBody('same.name'));
    expect([first.status, again.status]).toEqual([202, 202]);
    expect((await as(admins.second.token, 'POST', `approvals/approve/${first.body.result._id}`)).status).toBe(
      200,
    );
    const late = await as(admins.second.token, 'POST', `approvals/approve/${again.body.result._id}`);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('This user name is already taken');
    expect((await commandOf(again.body.result._id))?.status).toBe('PENDING');
  });
});

describe('promoting an employee', () => {
  let staffId: string;
  let staffToken: string;

  beforeAll(async () => {
    const created = await as(admin, 'POST', 'account/create', {
      type: 5,
      name: 'Promoted Staff',
      email: 'promoted@example.com',
      mobile: nextMobile(),
      userName: 'promoted.staff',
      districtId: tehsil.districtId._id,
      tehsilId: tehsil._id,
      password: 'First@2026',
      confirmPassword: 'First@2026',
    });
    expect(created.status).toBe(200);
    staffId = created.body.result._id;
    staffToken = (await chooseOwnPassword('promoted.staff', 'First@2026')).token;
  });

  it('waits for another admin, who makes it an admin that must choose a new password; its sessions end', async () => {
    const missing = await as(admin, 'POST', `account/promote/${staffId}`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ msg: 'A reason for the request is required', param: 'reason' }]);
    const asked = await as(admin, 'POST', `account/promote/${staffId}`, { reason: 'Runs the branch now' });
    expect(asked.status).toBe(202);
    expect(asked.body.message).toBe('Making this employee an admin awaits approval by another admin');
    expect(asked.body.result).toMatchObject({
      kind: 'ADMIN_PROMOTE',
      status: 'PENDING',
      user: { _id: staffId, type: 5 },
      reason: 'Runs the branch now',
    });
    const twice = await as(admins.second.token, 'POST', `account/promote/${staffId}`, { reason: 'Again' });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('The same request already waits for approval');
    const byEmployee = await as(employee, 'POST', `account/promote/${employeeId}`, { reason: 'Me' });
    expect(byEmployee.status).toBe(403);
    expect(byEmployee.body.message).toBe(PERMISSION);

    const approved = await as(admins.second.token, 'POST', `approvals/approve/${asked.body.result._id}`);
    expect(approved.status).toBe(200);
    expect(approved.body.message).toBe(
      'Approved: the employee is an admin now, and chooses a new password at its next sign-in',
    );
    expect(approved.body.result.oneTimePassword).toBeUndefined();
    const ended = await as(staffToken, 'GET', 'account/fetch', undefined, { _id: staffId });
    expect(ended.status).toBe(401);
    const again = await login(ctx.app, 'promoted.staff', STRONG);
    expect(again.user).toMatchObject({ type: 0, passwordUpdatedAt: null });
  });

  it('refuses anyone but an employee', async () => {
    for (const id of [retailerId, adminId, '00000000-0000-4000-8000-000000000000']) {
      const res = await as(admin, 'POST', `account/promote/${id}`, { reason: 'x' });
      expect(res.status, id).toBe(404);
      expect(res.body.message).toBe('Employee not found');
    }
  });
});

describe('resetting another admin', () => {
  it('resets its password once a third admin approves: the one it is for cannot; its sessions end', async () => {
    const target = admins.third;
    const asked = await as(admin, 'POST', `account/resetPassword/${target.id}`, {
      reason: 'Lost the password',
    });
    expect(asked.status).toBe(202);
    expect(asked.body.message).toBe("Resetting this admin's password awaits approval by another admin");
    for (const [token, message] of [
      [admin, 'You made this command: another admin must approve or reject it'],
      [target.token, 'This command is about you: another admin must approve or reject it'],
    ] as const) {
      for (const path of [
        `approvals/approve/${asked.body.result._id}`,
        `approvals/reject/${asked.body.result._id}`,
      ]) {
        const res = await as(token, 'POST', path, path.includes('reject') ? { reason: 'No' } : undefined);
        expect(res.status, path).toBe(403);
        expect(res.body.message).toBe(message);
      }
    }
    const approved = await as(admins.second.token, 'POST', `approvals/approve/${asked.body.result._id}`);
    expect(approved.status).toBe(200);
    expect(approved.body.message).toBe(
      "Approved: the admin's password is reset and its sessions have ended. Hand over the one-time password in person: it is shown only now",
    );
    const { oneTimePassword } = approved.body.result;
    expect(oneTimePassword).toMatch(/^[\w-]{16}$/);
    expect((await as(target.token, 'GET', 'approvals/fetch')).status).toBe(401);
    const old = await call(ctx.app, 'POST', 'account/login', {
      body: { userName: 'admin.third', password: STRONG },
    });
    expect(old.status).toBe(401);
    admins.third.token = (await chooseOwnPassword('admin.third', oneTimePassword)).token;
    expect(JSON.stringify((await as(admin, 'GET', 'approvals/fetch')).body)).not.toContain(oneTimePassword);
  });

  it('resets its second step: its sessions end and it is a new admin again', async () => {
    const target = admins.third;
    const asked = await as(admin, 'POST', `account/resetSecondStep/${target.id}`, {
      reason: 'Lost the phone',
    });
    expect(asked.status).toBe(202);
    expect(asked.body.message).toBe("Resetting this admin's second step awaits approval by another admin");
    const refused = await as(target.token, 'POST', `approvals/approve/${asked.body.result._id}`);
    expect(refused.status).toBe(403);
    const approved = await as(admins.second.token, 'POST', `approvals/approve/${asked.body.result._id}`);
    expect(approved.status).toBe(200);
    expect(approved.body.message).toBe(
      "Approved: the admin's second step is reset and its sessions have ended",
    );
    // Its authenticator's secret is gone with the reset: it signs in with its password alone, and sets up anew.
    desk.forgetSecondStep('admin.third');
    expect((await as(target.token, 'GET', 'approvals/fetch')).status).toBe(401);
    const again = await login(ctx.app, 'admin.third', STRONG);
    expect(again.user.passwordUpdatedAt).toBeNull();
    admins.third.token = (await chooseOwnPassword('admin.third', STRONG, 'Check@2027')).token;
  });

  it('refuses one’s own, anyone but an admin, and an employee asking', async () => {
    for (const path of ['resetPassword', 'resetSecondStep']) {
      const own = await as(admin, 'POST', `account/${path}/${adminId}`, { reason: 'x' });
      expect(own.status, path).toBe(400);
      expect(own.body.message).toBe(
        'Your own password and second step are changed from your own account, not through approval',
      );
      const notAdmin = await as(admin, 'POST', `account/${path}/${employeeId}`, { reason: 'x' });
      expect(notAdmin.status).toBe(404);
      expect(notAdmin.body.message).toBe('Admin not found');
      const byEmployee = await as(employee, 'POST', `account/${path}/${adminId}`, { reason: 'x' });
      expect(byEmployee.status).toBe(403);
      expect(byEmployee.body.message).toBe(PERMISSION);
    }
  });
});

describe('money goes to tier users only (issue 51, finding 2)', () => {
  it('refuses an adjustment or a payout to an admin, an employee or a customer, and an unknown user', async () => {
    const pendingBefore = (await as(admin, 'GET', 'approvals/fetch', undefined, { status: 'PENDING' })).body
      .result.totalCounts;
    // Finding 2: with an employee as maker, an admin approved a credit to its own wallet.
    for (const userId of [adminId, admins.second.id, employeeId, ids['9400000001']]) {
      for (const [path, body] of [
        ['wallet/adjust', { userId, amount: 5000, note: 'Bonus', reason: 'For me' }],
        ['wallet/payout', { userId, amount: 1, reference: reference() }],
      ] as const) {
        const res = await as(employee, 'POST', path, body);
        expect(res.status, `${path} ${userId}`).toBe(400);
        expect(res.body.errors).toEqual([
          {
            msg: 'Payouts and adjustments are for master distributors, distributors and retailers only',
            param: 'userId',
          },
        ]);
      }
    }
    const unknown = await as(admin, 'POST', 'wallet/adjust', {
      userId: '00000000-0000-4000-8000-000000000000',
      amount: 10,
      note: 'x',
      reason: 'x',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('User not found');
    expect(
      (await as(admin, 'GET', 'approvals/fetch', undefined, { status: 'PENDING' })).body.result.totalCounts,
    ).toBe(pendingBefore);
  });
});

describe('adjustments', () => {
  it('credit only once another admin approves; the statement shows the note, never the internal reason', async () => {
    const before = await walletOf();
    const made = await as(admins.second.token, 'POST', 'wallet/adjust', {
      userId: retailerId,
      amount: '200000',
      note: 'Float for the approvals test',
      reason: 'Cash collected at branch, not in ledger',
    });
    expect(made.status).toBe(202);
    expect(made.body.message).toBe('Adjustment awaits approval by another admin: no money has moved yet');
    expect(made.body.result).toMatchObject({
      kind: 'ADJUSTMENT',
      status: 'PENDING',
      amount: 200000,
      note: 'Float for the approvals test',
      reason: 'Cash collected at branch, not in ledger',
      maker: { _id: admins.second.id, name: 'Admin second' },
      checker: null,
      user: { _id: retailerId },
    });
    expect(await walletOf()).toEqual(before);
    const approved = await as(admin, 'POST', `approvals/approve/${made.body.result._id}`);
    expect(approved.status).toBe(200);
    expect(approved.body.message).toBe('Approved: the money has moved');
    expect(approved.body.result).toMatchObject({ status: 'APPROVED', checker: { _id: adminId } });
    expect(await walletOf()).toEqual({ ...before, balance: before.balance + 200000 });
    const [latest] = (await as(retailer1, 'GET', 'wallet/fetch')).body.result.transactions;
    expect(latest).toMatchObject({
      _id: approved.body.result.postingId,
      kind: 'ADJUSTMENT',
      status: 'ADJUSTED',
      transactionType: 'CREDIT',
      balanceType: 'AVAILABLE',
      amount: 200000,
      reference: 'Float for the approvals test',
    });
    // Finding 8: the retailer's own views never carry the internal reason; staff read both in the audit trail.
    const statement = await as(retailer1, 'GET', 'statements/fetch', undefined, {
      userId: retailerId,
      month: monthOf(new Date()),
    });
    expect(statement.status).toBe(200);
    expect(JSON.stringify(statement.body)).toContain('Float for the approvals test');
    for (const body of [statement.body, (await as(retailer1, 'GET', 'wallet/fetch')).body])
      expect(JSON.stringify(body)).not.toContain('Cash collected at branch');
    const trail = (
      await as(admin, 'GET', 'audit/fetch', undefined, { action: 'wallet.adjust', limit: '100' })
    ).body.result.audit.find((a: { entityId: string }) => a.entityId === approved.body.result.postingId);
    expect(trail.after).toMatchObject({
      note: 'Float for the approvals test',
      reason: 'Cash collected at branch, not in ledger',
    });
  });

  it('debit through approval, never below zero', async () => {
    const before = await walletOf();
    const made = await as(employee, 'POST', 'wallet/adjust', {
      userId: retailerId,
      amount: -150.5,
      note: 'Correction',
      reason: 'Duplicate credit',
    });
    expect(made.status).toBe(202);
    expect(made.body.result.amount).toBe(-150.5);
    const approved = await as(admins.second.token, 'POST', `approvals/approve/${made.body.result._id}`);
    expect(approved.status).toBe(200);
    expect((await walletOf()).balance).toBe(before.balance - 150.5);
    const [latest] = (await as(retailer1, 'GET', 'wallet/fetch')).body.result.transactions;
    expect(latest).toMatchObject({ kind: 'ADJUSTMENT', transactionType: 'DEBIT', amount: 150.5 });

    const tooMuch = await as(employee, 'POST', 'wallet/adjust', {
      userId: retailerId,
      amount: -(before.balance + 1000),
      note: 'Correction',
      reason: 'Too much',
    });
    expect(tooMuch.status).toBe(202);
    const refused = await as(admin, 'POST', `approvals/approve/${tooMuch.body.result._id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/^Adjustment exceeds the available balance of ₹/);
    expect((await commandOf(tooMuch.body.result._id))?.status).toBe('PENDING');
    expect((await walletOf()).balance).toBe(before.balance - 150.5);
  });

  it('needs a note, a reason and an amount other than 0, and is refused to tier users', async () => {
    const cases: [unknown, string][] = [
      [{ userId: retailerId, amount: 10, note: 'x' }, 'A reason for the adjustment is required'],
      [
        { userId: retailerId, amount: 10, note: 'x', reason: '  ' },
        'A reason for the adjustment is required',
      ],
      [{ userId: retailerId, amount: 10, reason: 'x' }, 'A note for the statement is required'],
      [{ userId: retailerId, amount: 10, note: ' ', reason: 'x' }, 'A note for the statement is required'],
      [
        { userId: retailerId, amount: 10, note: 'n'.repeat(101), reason: 'x' },
        'A note is at most 100 characters',
      ],
      [
        { userId: retailerId, amount: 0, note: 'x', reason: 'x' },
        'Amount must be a number of rupees other than 0, with at most 2 decimals',
      ],
      [
        { userId: retailerId, amount: '1.234', note: 'x', reason: 'x' },
        'Amount must be a number of rupees other than 0, with at most 2 decimals',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await as(admin, 'POST', 'wallet/adjust', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors.map((e: { msg: string }) => e.msg)).toContain(message);
    }
    const body = { userId: retailerId, amount: 10, note: 'x', reason: 'x' };
    for (const mobile of ['9100000001', '9200000001', '9300000001']) {
      const tier = await login(ctx.app, mobile, DEMO_PASSWORD);
      const refused = await as(tier.token, 'POST', 'wallet/adjust', body);
      expect(refused.status, mobile).toBe(403);
      expect(refused.body.message).toBe(PERMISSION);
    }
    const malformed = await as(employee, 'POST', 'wallet/adjust', { ...body, userId: 'not-an-id' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors).toEqual([{ msg: 'Invalid user id', param: 'userId' }]);
    const anonymous = await call(ctx.app, 'POST', 'wallet/adjust', { body });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.message).toBe('Authentication required');
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

  it('above the available balance are refused when made, whoever makes them, with the same message (finding 8)', async () => {
    const { balance } = await walletOf();
    const message = /^Payout exceeds the available balance of ₹[\d,.]+$/;
    // Before, an employee's payout above the balance was accepted as pending, and refused only at approval.
    for (const [token, amount] of [
      [employee, balance + 1],
      [admin, Math.max(balance + 1, 10000.01)],
    ] as const) {
      const res = await as(token, 'POST', 'wallet/payout', {
        userId: retailerId,
        amount,
        reference: reference(),
      });
      expect(res.status, String(amount)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    expect((await walletOf()).balance).toBe(balance);
  });

  it('from an employee is always pending, and the employee reads only its own commands, decided or not', async () => {
    const before = await walletOf();
    const made = await as(employee, 'POST', 'wallet/payout', {
      userId: retailerId,
      amount: 100,
      reference: reference(),
    });
    expect(made.status).toBe(202);
    expect(made.body.result).toMatchObject({ status: 'PENDING', amount: 100 });
    expect(await walletOf()).toEqual(before);
    const decide = await as(employee, 'POST', `approvals/approve/${made.body.result._id}`);
    expect(decide.status).toBe(403);
    expect(decide.body.message).toBe(PERMISSION);
    const rejected = await as(admin, 'POST', `approvals/reject/${made.body.result._id}`, {
      reason: 'Bank details not verified',
    });
    expect(rejected.status).toBe(200);
    const mine = await as(employee, 'GET', 'approvals/fetch', undefined, { limit: '100' });
    expect(mine.status).toBe(200);
    const makers = new Set(mine.body.result.approvals.map((c: { maker: { _id: string } }) => c.maker._id));
    expect([...makers]).toEqual([employeeId]);
    // The maker sees the decision, who made it, when, and why.
    const seen = mine.body.result.approvals.find((c: { _id: string }) => c._id === made.body.result._id);
    expect(seen).toMatchObject({
      status: 'REJECTED',
      checker: { _id: adminId, name: 'Administrator' },
      rejectionReason: 'Bank details not verified',
    });
    expect(Date.parse(seen.decidedAt)).toBeGreaterThanOrEqual(Date.parse(seen.createdAt));
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
    const approved = await as(admins.second.token, 'POST', `approvals/approve/${made.body.result._id}`);
    expect(approved.status).toBe(200);
    expect(approved.body.result).toMatchObject({
      status: 'APPROVED',
      maker: { _id: adminId },
      checker: { _id: admins.second.id, name: 'Admin second' },
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
    const rejected = await as(admin, 'POST', `approvals/reject/${id}`, { reason: 'Wrong account' });
    expect(rejected.status).toBe(200);
    expect(rejected.body.message).toBe('Rejected');
    expect(rejected.body.result).toMatchObject({
      status: 'REJECTED',
      rejectionReason: 'Wrong account',
      checker: { _id: adminId },
      postingId: null,
    });
    expect(await walletOf()).toEqual(before);
    const late = await as(admins.second.token, 'POST', `approvals/approve/${id}`);
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
        as(admins.second.token, 'POST', `approvals/approve/${id}`),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.status === 409)?.body.message).toBe('This command was already approved');
      expect((await walletOf()).balance).toBe(before.balance - 250);
    }
  });

  it('is refused at approval when the balance no longer covers it, and stays pending', async () => {
    const { balance } = await walletOf();
    const share = Math.floor(balance * 0.6);
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
    await fund(share, admins.second.token, admin);
    const later = await as(admin, 'POST', `approvals/approve/${second.body.result._id}`);
    expect(later.status).toBe(200);
  });
});

describe('the daily line (issue 51, finding 5)', () => {
  it('sends an admin’s payouts to approval once its day’s payouts pass ₹50,000, each under the per-payout line', async () => {
    const maker = await consoleAdmin('daily');
    await fund(100_000, admins.second.token, admin);
    const before = await walletOf();
    for (let slice = 0; slice < 5; slice++) {
      const paid = await as(maker.token, 'POST', 'wallet/payout', {
        userId: retailerId,
        amount: 10000,
        reference: reference(),
      });
      expect(paid.status, `slice ${slice}`).toBe(200);
    }
    for (const amount of [10000, 1]) {
      const held = await as(maker.token, 'POST', 'wallet/payout', {
        userId: retailerId,
        amount,
        reference: reference(),
      });
      expect(held.status).toBe(202);
      expect(held.body.message).toBe(
        'Payout awaits approval by another admin: your payouts today pass the daily line. No money has moved yet',
      );
      expect(held.body.result).toMatchObject({ kind: 'PAYOUT', status: 'PENDING', amount });
      // Approved by someone else, it pays; it does not count against the checker's own line.
      expect(
        (await as(admins.second.token, 'POST', `approvals/approve/${held.body.result._id}`)).status,
      ).toBe(200);
    }
    expect((await walletOf()).balance).toBeCloseTo(before.balance - 60001, 2);
  });

  it('counts what a checker approved apart from what it paid alone', async () => {
    // admins.second approved well over ₹50,000 of others' payouts today, yet pays up to its own line alone.
    const before = await walletOf();
    for (let slice = 0; slice < 5; slice++) {
      const paid = await as(admins.second.token, 'POST', 'wallet/payout', {
        userId: retailerId,
        amount: 10000,
        reference: reference(),
      });
      expect(paid.status, `slice ${slice}`).toBe(200);
    }
    expect((await walletOf()).balance).toBeCloseTo(before.balance - 50000, 2);
    const held = await as(admins.second.token, 'POST', 'wallet/payout', {
      userId: retailerId,
      amount: 0.01,
      reference: reference(),
    });
    expect(held.status).toBe(202);
  });

  it('counts one maker’s concurrent payouts exactly: no two are judged against the same total', async () => {
    await fund(100_000, admins.second.token, admin);
    for (const key of ['race.one', 'race.two']) {
      const maker = await consoleAdmin(key);
      const before = await walletOf();
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          as(maker.token, 'POST', 'wallet/payout', {
            userId: retailerId,
            amount: 9000,
            reference: reference(),
          }),
        ),
      );
      // 5 × ₹9,000 = ₹45,000 fit the line; a sixth would pass it.
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 202, 202, 202]);
      expect((await walletOf()).balance).toBeCloseTo(before.balance - 45000, 2);
    }
  });
});

describe('afterwards', () => {
  it('counts the admins for whoever reads approvals, and lists pending commands with a status filter', async () => {
    expect(await adminCount(employee)).toBe(await adminCount());
    const tier = await as(retailer1, 'GET', 'approvals/admins');
    expect(tier.status).toBe(403);
    expect(tier.body.message).toBe(PERMISSION);
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
    const payout = approvals.find((a) =>
      requests.some((r) => r.entityId === a.entityId && r.after.kind === 'PAYOUT' && r.actor._id === adminId),
    );
    expect(payout?.actor._id).toBe(admins.second.id);
    expect(payout?.after).toMatchObject({ status: 'APPROVED', checkerId: admins.second.id });
    // The posting itself is the checker's.
    const payouts = await trail('wallet.payout');
    expect(payouts.find((p) => p.entityId === payout?.after.postingId)?.actor._id).toBe(admins.second.id);
    // A new admin's request records its fields, its mobile masked as any user's.
    const creation = requests.find((r) => r.after.kind === 'ADMIN_CREATE' && r.after.userName === 'puppet');
    expect(creation?.after).toMatchObject({
      userName: 'puppet',
      mobile: expect.stringMatching(/^\d{2}X{6}\d{2}$/),
    });
    const promotions = await trail('user.promote');
    expect(promotions[0]?.after).toEqual({ type: 0 });
    expect((await trail('user.password.reset'))[0]?.actor._id).toBe(admins.second.id);
    expect((await trail('user.secondStep.reset'))[0]?.actor._id).toBe(admins.second.id);
  });
});
