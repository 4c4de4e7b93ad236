import { sql } from 'drizzle-orm';
import { TOTP, URI } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readConfig } from '../../src/server/config';
import { inTransaction } from '../../src/server/db/transaction';
import { seedDemoSales } from '../../src/server/demo/sales';
import { clearSecondStep } from '../../src/server/modules/account/index';
import { MFA_MSG } from '../../src/shared/constants/mfa';
import { SALES_MSG } from '../../src/shared/constants/sales';
import { MSG } from '../../src/shared/messages';
import {
  ADMIN,
  call,
  DEMO_PASSWORD,
  freshAddress,
  INITIAL_PASSWORD,
  login,
  makeTestContext,
  type TestContext,
} from './helpers';

/**
 * Two-step sign-in (issue 51): the set-up of a second step (TOTP, RFC 6238), signing in with a code or a recovery
 * code, what a code may do (one step either way, each once, wrong ones locking out as wrong passwords do),
 * MFA_REQUIRED_FOR and the set-up it forces, step-up on approving and rejecting, switching it off. The clock is
 * fixed (Date only), so each code is the one of a known step. Runs on PGlite and, with DATABASE_URL, on PostgreSQL.
 */

const STEP = 30_000;
/** The start of the file's clock: a step boundary near the real time (the database keeps its own), plus 10 s. */
const T0 = Math.floor(Date.now() / STEP) * STEP + 10_000;
/** The clock's step now, counted from T0. */
let step = 0;
const setStep = (k: number) => {
  step = k;
  vi.setSystemTime(T0 + k * STEP);
};
/** The code of step `k` (from T0) of a base32 secret, as an authenticator app computes it. */
const codeAt = (secret: string, k: number) =>
  new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: T0 + k * STEP });

/** Each person's last step whose code was sent: a new code of the same step would be a replay. */
const spent = new Map<string, number>();
/** A code nobody has used: of the clock's step, or of the next one once this person used that. */
const freshCode = (who: string, secret: string) => {
  if ((spent.get(who) ?? Number.NEGATIVE_INFINITY) >= step) setStep(step + 1);
  spent.set(who, step);
  return codeAt(secret, step);
};

const RETAILER = '9300000003';
const DISTRIBUTOR = '9200000001';
const EMPLOYEE = '9000000001';
const NEW_EMPLOYEE = '9000000002'; // still on the initial password

let ctx: TestContext;
const as = (token: string, method: 'GET' | 'POST', path: string, body?: unknown, ip?: string) =>
  call(ctx.app, method, path, { token, body, ip });
const signIn = (userName: string, extra: Record<string, string> = {}, ip = freshAddress()) =>
  call(ctx.app, 'POST', 'account/login', {
    body: { userName, password: passwordOf(userName), ...extra },
    ip,
  });
const passwordOf = (userName: string) => (userName === ADMIN.userName ? ADMIN.password : DEMO_PASSWORD);

/** Sets up and switches on `userName`'s second step; its secret, recovery codes and a session. */
async function withSecondStep(userName: string) {
  const { token } = await login(ctx.app, userName, passwordOf(userName));
  const setup = await as(token, 'POST', 'account/mfa/setup');
  expect(setup.status).toBe(200);
  const { secret } = setup.body.result;
  const enabled = await as(token, 'POST', 'account/mfa/enable', { otp: freshCode(userName, secret) });
  expect(enabled.status).toBe(200);
  return { token, secret, recoveryCodes: enabled.body.result.recoveryCodes as string[] };
}

beforeAll(async () => {
  ctx = await makeTestContext();
  vi.useFakeTimers({ toFake: ['Date'] });
  setStep(0);
});
afterAll(async () => {
  vi.useRealTimers();
  await ctx?.close();
});

describe('MFA_REQUIRED_FOR', () => {
  it('defaults to admins without demo data and to nobody with it; takes panel user types; stops the start on anything else', () => {
    const real = { DEMO_DATA: '0', PROVIDER_MODE: 'http' };
    expect(readConfig(real).mfaRequiredFor).toEqual([0]);
    expect(readConfig({}).mfaRequiredFor).toEqual([]);
    expect(readConfig({ ...real, MFA_REQUIRED_FOR: '' }).mfaRequiredFor).toEqual([]);
    expect(readConfig({ MFA_REQUIRED_FOR: '5, 0,5' }).mfaRequiredFor).toEqual([0, 5]);
    expect(readConfig({ MFA_REQUIRED_FOR: '0,2,3,4,5' }).mfaRequiredFor).toEqual([0, 2, 3, 4, 5]);
    for (const bad of ['1', '0,1', '6', 'admin', '0;5'])
      expect(() => readConfig({ MFA_REQUIRED_FOR: bad }), bad).toThrow(
        `MFA_REQUIRED_FOR must be a comma-separated list of the user types 0, 2, 3, 4 and 5 (admins, master distributors, distributors, retailers, employees), or empty, got "${bad}"`,
      );
  });
});

describe('setting up the second step', () => {
  let token: string;
  let secret: string;

  it('answers a base32 secret and its otpauth URI (SHA-1, 6 digits, 30 s), not on yet', async () => {
    ({ token } = await login(ctx.app, ADMIN.userName, ADMIN.password));
    const setup = await as(token, 'POST', 'account/mfa/setup');
    expect(setup.status).toBe(200);
    secret = setup.body.result.secret;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const parsed = URI.parse(setup.body.result.otpauthUri) as TOTP;
    expect(parsed).toBeInstanceOf(TOTP);
    expect(parsed).toMatchObject({ issuer: 'Tierdesk', label: ADMIN.userName, algorithm: 'SHA1', digits: 6 });
    expect(parsed.period).toBe(30);
    expect(parsed.secret.base32).toBe(secret);
    // Not on until a code confirms it: a password alone still signs in.
    const self = await as(
      token,
      'GET',
      `account/fetch?_id=${(await signIn(ADMIN.userName)).body.result.user._id}`,
    );
    expect(self.body.result.users[0]).toMatchObject({ mfaEnabled: false, mfaSetupRequired: false });
  });

  it('refuses a wrong or malformed code, and a code before any set-up', async () => {
    const wrong = await as(token, 'POST', 'account/mfa/enable', { otp: codeAt(secret, step + 3) });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      message: MFA_MSG.wrongCode,
      errors: [{ msg: MFA_MSG.wrongCode, param: 'otp' }],
    });
    const malformed = await as(token, 'POST', 'account/mfa/enable', { otp: '12a456' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({
      message: MSG.validationFailed,
      errors: [{ msg: MFA_MSG.codeFormat, param: 'otp' }],
    });
    const missing = await as(token, 'POST', 'account/mfa/enable', {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ msg: MFA_MSG.codeRequired, param: 'otp' }]);
    const employee = await login(ctx.app, EMPLOYEE, DEMO_PASSWORD);
    const notSetUp = await as(employee.token, 'POST', 'account/mfa/enable', { otp: '123456' });
    expect(notSetUp.status).toBe(409);
    expect(notSetUp.body.message).toBe(MFA_MSG.notSetUp);
  });

  it('switches it on with a code of the secret: ten one-time recovery codes, once', async () => {
    const enabled = await as(token, 'POST', 'account/mfa/enable', { otp: freshCode(ADMIN.userName, secret) });
    expect(enabled.status).toBe(200);
    expect(enabled.body.message).toBe(MFA_MSG.enabled);
    const codes = enabled.body.result.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const again = await as(token, 'POST', 'account/mfa/enable', { otp: freshCode(ADMIN.userName, secret) });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(MFA_MSG.alreadyOn);
    const newSecret = await as(token, 'POST', 'account/mfa/setup');
    expect(newSecret.status).toBe(409);
    expect(newSecret.body.message).toBe(MFA_MSG.alreadyOn);
  });

  it('shows on one’s own record only', async () => {
    const adminId = (await signIn(ADMIN.userName, { otp: freshCode(ADMIN.userName, secret) })).body.result
      .user._id;
    const own = await call(ctx.app, 'GET', 'account/fetch', { token, query: { _id: adminId } });
    expect(own.body.result.users[0]).toMatchObject({ mfaEnabled: true, mfaSetupRequired: false });
    const employees = await call(ctx.app, 'GET', 'account/fetch', { token, query: { type: '5' } });
    expect(employees.body.result.users.length).toBeGreaterThan(0);
    for (const user of employees.body.result.users) {
      expect(user).not.toHaveProperty('mfaEnabled');
      expect(user).not.toHaveProperty('mfaSetupRequired');
    }
  });

  describe('signing in', () => {
    it('asks for the code after the right password: 401 with mfaRequired, and no session', async () => {
      const asked = await signIn(ADMIN.userName);
      expect(asked.status).toBe(401);
      expect(asked.body).toEqual({ message: MFA_MSG.codeRequired, result: { mfaRequired: true } });
      // A wrong password is refused as always, and says nothing about a second step.
      const wrong = await call(ctx.app, 'POST', 'account/login', {
        body: { userName: ADMIN.userName, password: 'Wrong@1234', otp: '000000' },
        ip: freshAddress(),
      });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ message: MSG.invalidCredentials });
    });

    it('signs in with the code of now, one step either way; two steps away and a replay are refused', async () => {
      setStep(step + 2);
      const now = step;
      const accepted = async (k: number) => {
        const res = await signIn(ADMIN.userName, { otp: codeAt(secret, k) });
        expect(res.status, `step ${k - now}`).toBe(200);
        expect(res.body.result.user).toMatchObject({ mfaEnabled: true, mfaSetupRequired: false });
        expect(res.body.message).toBe(MSG.loginSuccess);
      };
      const refused = async (k: number, message: string) => {
        const res = await signIn(ADMIN.userName, { otp: codeAt(secret, k) });
        expect(res.status, `step ${k - now}`).toBe(401);
        expect(res.body).toEqual({ message, result: { mfaRequired: true } });
      };
      await refused(now - 2, MFA_MSG.wrongCode);
      await refused(now + 2, MFA_MSG.wrongCode);
      await accepted(now - 1);
      await refused(now - 1, MFA_MSG.usedCode);
      await accepted(now);
      await refused(now, MFA_MSG.usedCode);
      await accepted(now + 1);
      await refused(now + 1, MFA_MSG.usedCode);
      // A code of an earlier step than one used is a replay too, though it was never sent.
      await refused(now, MFA_MSG.usedCode);
      spent.set(ADMIN.userName, now + 1);
    });
  });
});

describe('recovery codes and switching off', () => {
  it('a recovery code signs in once, in any case and without its dash; a used or unknown one is refused', async () => {
    const { recoveryCodes } = await withSecondStep(RETAILER);
    const first = await signIn(RETAILER, { recoveryCode: recoveryCodes[0] });
    expect(first.status).toBe(200);
    const reused = await signIn(RETAILER, { recoveryCode: recoveryCodes[0] });
    expect(reused.status).toBe(401);
    expect(reused.body).toEqual({ message: MFA_MSG.wrongRecoveryCode, result: { mfaRequired: true } });
    const unknown = await signIn(RETAILER, { recoveryCode: 'aaaaa-aaaaa' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ message: MFA_MSG.wrongRecoveryCode, result: { mfaRequired: true } });
    const typed = await signIn(RETAILER, {
      recoveryCode: ` ${recoveryCodes[1].replace('-', '').toUpperCase()} `,
    });
    expect(typed.status).toBe(200);
  });

  it('switches off with a current code or a recovery code, never without one; then a password alone signs in', async () => {
    const { token, secret, recoveryCodes } = await withSecondStep(DISTRIBUTOR);
    const missing = await as(token, 'POST', 'account/mfa/disable', {});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      message: MSG.validationFailed,
      errors: [{ msg: MFA_MSG.codeRequired, param: 'otp' }],
    });
    const wrong = await as(token, 'POST', 'account/mfa/disable', { otp: codeAt(secret, step + 5) });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      message: MFA_MSG.wrongCode,
      errors: [{ msg: MFA_MSG.wrongCode, param: 'otp' }],
    });
    const wrongRecovery = await as(token, 'POST', 'account/mfa/disable', { recoveryCode: 'bbbbb-bbbbb' });
    expect(wrongRecovery.status).toBe(400);
    expect(wrongRecovery.body).toEqual({
      message: MFA_MSG.wrongRecoveryCode,
      errors: [{ msg: MFA_MSG.wrongRecoveryCode, param: 'recoveryCode' }],
    });
    const off = await as(token, 'POST', 'account/mfa/disable', { otp: freshCode(DISTRIBUTOR, secret) });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ result: true, message: MFA_MSG.disabled });
    const again = await as(token, 'POST', 'account/mfa/disable', { recoveryCode: recoveryCodes[0] });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(MFA_MSG.notOn);
    const plain = await signIn(DISTRIBUTOR);
    expect(plain.status).toBe(200);
    expect(plain.body.result.user.mfaEnabled).toBe(false);
    // The recovery codes went with it.
    const second = await withSecondStep(DISTRIBUTOR);
    const old = await signIn(DISTRIBUTOR, { recoveryCode: recoveryCodes[1] });
    expect(old.status).toBe(401);
    expect(old.body.message).toBe(MFA_MSG.wrongRecoveryCode);
    const byRecovery = await as(second.token, 'POST', 'account/mfa/disable', {
      recoveryCode: second.recoveryCodes[0],
    });
    expect(byRecovery.status).toBe(200);
  });
});

describe('wrong codes lock out as wrong passwords do', () => {
  it('at sign-in: five wrong codes from an address, then even the right code is a 429 with its message', async () => {
    const { secret } = await withSecondStep('9200000002');
    const ip = freshAddress();
    for (let i = 0; i < 5; i++) {
      const res = await signIn('9200000002', { otp: codeAt(secret, step + 3 + i) }, ip);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: MFA_MSG.wrongCode, result: { mfaRequired: true } });
    }
    const locked = await signIn('9200000002', { otp: freshCode('9200000002', secret) }, ip);
    expect(locked.status).toBe(429);
    const minutes = Number(locked.headers['retry-after']) / 60;
    expect(minutes).toBeGreaterThanOrEqual(1);
    expect(locked.body).toEqual({ message: MSG.tooManyAttempts(minutes) });
    // The same lock as wrong passwords: the password alone is refused there too.
    const password = await signIn('9200000002', {}, ip);
    expect(password.status).toBe(429);
    // Another address still signs in.
    const elsewhere = await signIn('9200000002', { otp: freshCode('9200000002', secret) });
    expect(elsewhere.status).toBe(200);
  });

  it('signed in: wrong codes count with wrong passwords, then a 429 with its own message', async () => {
    const { token, secret } = await withSecondStep('9200000003');
    const ip = freshAddress();
    // A wrong old password counts on the same counter.
    const password = await as(
      token,
      'POST',
      'account/resetPassword',
      {
        oldPassword: 'Wrong@1234',
        newPassword: 'Other@1234',
        confirmPassword: 'Other@1234',
      },
      ip,
    );
    expect(password.status).toBe(400);
    for (let i = 0; i < 4; i++) {
      const res = await as(token, 'POST', 'account/mfa/disable', { otp: codeAt(secret, step + 3 + i) }, ip);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(MFA_MSG.wrongCode);
    }
    const locked = await as(
      token,
      'POST',
      'account/mfa/disable',
      { otp: freshCode('9200000003', secret) },
      ip,
    );
    expect(locked.status).toBe(429);
    const minutes = Number(locked.headers['retry-after']) / 60;
    expect(locked.body).toEqual({ message: MFA_MSG.tooManyCodeAttempts(minutes) });
  });
});

describe('step-up: approving and rejecting ask the checker for its code', () => {
  let admin: string;
  let secret: string;
  let employee: string;
  let retailerId: string;

  /** A payout the employee makes, which waits for an admin. */
  const pendingPayout = async () => {
    const made = await as(employee, 'POST', 'wallet/payout', {
      userId: retailerId,
      amount: '1',
      reference: `STEP-UP-${Math.random().toString(36).slice(2)}`,
    });
    expect(made.status).toBe(202);
    return made.body.result._id as string;
  };

  beforeAll(async () => {
    // The demo's sales settle two retailers' commissions: money a payout can take.
    await seedDemoSales(ctx.database.db, ctx.ledgerKey);
    ({ secret } = await resetAdmin());
    employee = (await login(ctx.app, EMPLOYEE, DEMO_PASSWORD)).token;
    const retailers = await as(admin, 'GET', 'account/fetch?type=4&limit=100');
    const funded = (retailers.body.result.users as { _id: string; wallet: { balance: number } }[]).sort(
      (a, b) => b.wallet.balance - a.wallet.balance,
    )[0];
    expect(funded.wallet.balance).toBeGreaterThan(2);
    retailerId = funded._id;
  });

  /** The admin's second step again from a clean set-up (this block's own secret). */
  async function resetAdmin() {
    await inTransaction(ctx.database.db, async (tx) => {
      const [row] = (await tx.execute(sql`select id from users where user_name = ${ADMIN.userName}`))
        .rows as { id: string }[];
      await clearSecondStep(tx, row.id);
    });
    const { token } = await login(ctx.app, ADMIN.userName, ADMIN.password);
    const setup = await as(token, 'POST', 'account/mfa/setup');
    const fresh = setup.body.result.secret as string;
    const enabled = await as(token, 'POST', 'account/mfa/enable', { otp: freshCode(ADMIN.userName, fresh) });
    expect(enabled.status).toBe(200);
    const signedIn = await signIn(ADMIN.userName, { otp: freshCode(ADMIN.userName, fresh) });
    expect(signedIn.status).toBe(200);
    admin = signedIn.body.result.token;
    return { secret: fresh };
  }

  it('approve: without a code, with a wrong one or a used one it is a 400 about otp and nothing runs; with the code it runs', async () => {
    const id = await pendingPayout();
    const missing = await as(admin, 'POST', `approvals/approve/${id}`, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      message: MFA_MSG.codeRequired,
      errors: [{ msg: MFA_MSG.codeRequired, param: 'otp' }],
    });
    const wrong = await as(admin, 'POST', `approvals/approve/${id}`, { otp: codeAt(secret, step + 4) });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      message: MFA_MSG.wrongCode,
      errors: [{ msg: MFA_MSG.wrongCode, param: 'otp' }],
    });
    const used = await as(admin, 'POST', `approvals/approve/${id}`, {
      otp: codeAt(secret, spent.get(ADMIN.userName)!),
    });
    expect(used.status).toBe(400);
    expect(used.body).toEqual({
      message: MFA_MSG.usedCode,
      errors: [{ msg: MFA_MSG.usedCode, param: 'otp' }],
    });
    const list = await as(admin, 'GET', 'approvals/fetch?status=PENDING&limit=100');
    expect((list.body.result.approvals as { _id: string }[]).some((c) => c._id === id)).toBe(true);
    const approved = await as(admin, 'POST', `approvals/approve/${id}`, {
      otp: freshCode(ADMIN.userName, secret),
    });
    expect(approved.status).toBe(200);
    expect(approved.body.message).toBe(SALES_MSG.commandApproved);
    expect(approved.body.result.status).toBe('APPROVED');
  });

  it('reject: the same, beside the reason', async () => {
    const id = await pendingPayout();
    const missing = await as(admin, 'POST', `approvals/reject/${id}`, { reason: 'Not this week' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      message: MFA_MSG.codeRequired,
      errors: [{ msg: MFA_MSG.codeRequired, param: 'otp' }],
    });
    const wrong = await as(admin, 'POST', `approvals/reject/${id}`, {
      reason: 'Not this week',
      otp: codeAt(secret, step + 4),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      message: MFA_MSG.wrongCode,
      errors: [{ msg: MFA_MSG.wrongCode, param: 'otp' }],
    });
    const rejected = await as(admin, 'POST', `approvals/reject/${id}`, {
      reason: 'Not this week',
      otp: freshCode(ADMIN.userName, secret),
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body.message).toBe(SALES_MSG.commandRejected);
    expect(rejected.body.result.status).toBe('REJECTED');
  });

  it('a checker without a second step is asked nothing', async () => {
    const id = await pendingPayout();
    const off = await as(admin, 'POST', 'account/mfa/disable', { otp: freshCode(ADMIN.userName, secret) });
    expect(off.status).toBe(200);
    const rejected = await as(admin, 'POST', `approvals/reject/${id}`, { reason: 'No second step' });
    expect(rejected.status).toBe(200);
  });
});

describe('a second step that must be set up first', () => {
  let required: TestContext;
  beforeAll(async () => {
    required = await makeTestContext({ config: { mfaRequiredFor: [0] } });
  });
  afterAll(() => required?.close());
  const on = (token: string, method: 'GET' | 'POST', path: string, body?: unknown) =>
    call(required.app, method, path, { token, body });

  it('MFA_REQUIRED_FOR: an admin signs in with its password, then may only set it up, read itself, change its password and sign out', async () => {
    const { token, user } = await login(required.app, ADMIN.userName, ADMIN.password);
    expect(user).toMatchObject({ mfaEnabled: false, mfaSetupRequired: true });
    for (const [method, path] of [
      ['GET', 'report/userCounts'],
      ['GET', 'account/fetch?type=4'],
      ['GET', 'account/sessions'],
      ['GET', 'approvals/fetch'],
    ] as const) {
      const refused = await on(token, method, path);
      expect(refused.status, path).toBe(403);
      expect(refused.body, path).toEqual({ message: MFA_MSG.setupRequired });
    }
    const self = await on(token, 'GET', `account/fetch?_id=${user._id}`);
    expect(self.status).toBe(200);
    expect(self.body.result.users[0]).toMatchObject({ mfaEnabled: false, mfaSetupRequired: true });
    const password = await on(token, 'POST', 'account/resetPassword', {
      oldPassword: ADMIN.password,
      newPassword: 'Second@2026',
      confirmPassword: 'Second@2026',
    });
    expect(password.status).toBe(200);
    const setup = await on(token, 'POST', 'account/mfa/setup');
    expect(setup.status).toBe(200);
    const enabled = await on(token, 'POST', 'account/mfa/enable', {
      otp: freshCode('required-admin', setup.body.result.secret),
    });
    expect(enabled.status).toBe(200);
    const counts = await on(token, 'GET', 'report/userCounts');
    expect(counts.status).toBe(200);
    // Required: it cannot be switched off.
    const off = await on(token, 'POST', 'account/mfa/disable', {
      otp: freshCode('required-admin', setup.body.result.secret),
    });
    expect(off.status).toBe(403);
    expect(off.body).toEqual({ message: MFA_MSG.requiredForYou });
    const logout = await on(token, 'POST', 'account/logout');
    expect(logout.status).toBe(200);
    // Other types are not required.
    const employee = await login(required.app, EMPLOYEE, DEMO_PASSWORD);
    expect(employee.user).toMatchObject({ mfaEnabled: false, mfaSetupRequired: false });
    expect((await on(employee.token, 'GET', 'report/userCounts')).status).toBe(200);
  });

  it('the initial password comes first: its set-up waits for the password change', async () => {
    const { token } = await login(ctx.app, NEW_EMPLOYEE, INITIAL_PASSWORD);
    const setup = await as(token, 'POST', 'account/mfa/setup');
    expect(setup.status).toBe(403);
    expect(setup.body).toEqual({ message: MSG.passwordChangeRequired });
  });

  it('a person marked for it (clearSecondStep) must set one up again, whatever MFA_REQUIRED_FOR says; once on, the mark is gone', async () => {
    const { token: before, secret } = await withSecondStep(EMPLOYEE);
    const [row] = (await ctx.database.db.execute(sql`select id from users where user_name = ${EMPLOYEE}`))
      .rows as { id: string }[];
    await inTransaction(ctx.database.db, (tx) => clearSecondStep(tx, row.id));
    // The old secret is gone: a password alone signs in, into the set-up only.
    const stale = await as(before, 'GET', 'report/userCounts');
    expect(stale.status).toBe(403);
    expect(stale.body).toEqual({ message: MFA_MSG.setupRequired });
    const signedIn = await signIn(EMPLOYEE);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.result.user).toMatchObject({ mfaEnabled: false, mfaSetupRequired: true });
    const token = signedIn.body.result.token;
    // The old secret is gone: a code is neither asked for nor checked.
    const oldCode = await signIn(EMPLOYEE, { otp: freshCode(EMPLOYEE, secret) });
    expect(oldCode.status).toBe(200);
    expect(oldCode.body.result.user.mfaEnabled).toBe(false);
    const setup = await as(token, 'POST', 'account/mfa/setup');
    const enabled = await as(token, 'POST', 'account/mfa/enable', {
      otp: freshCode(EMPLOYEE, setup.body.result.secret),
    });
    expect(enabled.status).toBe(200);
    expect((await as(token, 'GET', 'report/userCounts')).status).toBe(200);
    const off = await as(token, 'POST', 'account/mfa/disable', {
      otp: freshCode(EMPLOYEE, setup.body.result.secret),
    });
    expect(off.status).toBe(200);
    const plain = await signIn(EMPLOYEE);
    expect(plain.body.result.user).toMatchObject({ mfaEnabled: false, mfaSetupRequired: false });
  });
});

describe('sessions', () => {
  const USER = '9300000004';
  /** Signs in with a browser's User-Agent from an address; the token. */
  const signInFrom = async (userAgent: string, ip: string) => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/account/login',
      headers: { 'user-agent': userAgent, cookie: 'XSRF-TOKEN=x', 'x-xsrf-token': 'x' },
      remoteAddress: ip,
      payload: { userName: USER, password: DEMO_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    return res.json().result.token as string;
  };
  it('lists one’s own sessions with when, where and which browser, marking the current one', async () => {
    const phone = await signInFrom('Mozilla/5.0 (Linux; Android 14) Mobile Safari', '10.77.0.1');
    const laptop = await signInFrom('Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0', '10.77.0.2');
    const listed = await as(laptop, 'GET', 'account/sessions');
    expect(listed.status).toBe(200);
    const sessions = listed.body.result.sessions as Record<string, unknown>[];
    expect(listed.body.result.totalCounts).toBe(sessions.length);
    expect(sessions).toEqual(
      expect.arrayContaining([
        {
          _id: expect.any(String),
          createdAt: expect.any(String),
          lastSeenAt: expect.any(String),
          ip: '10.77.0.2',
          userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
          current: true,
        },
        expect.objectContaining({
          ip: '10.77.0.1',
          userAgent: 'Mozilla/5.0 (Linux; Android 14) Mobile Safari',
          current: false,
        }),
      ]),
    );
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(laptop);
    // Another person sees only its own.
    const other = await login(ctx.app, '9300000005', DEMO_PASSWORD);
    const theirs = await as(other.token, 'GET', 'account/sessions');
    expect(theirs.body.result.sessions).toHaveLength(1);
    expect(await as(phone, 'GET', 'account/sessions')).toMatchObject({ status: 200 });
  });

  it('"last seen" and its address move once a minute has passed since they last moved, not on every call', async () => {
    const token = await signInFrom('Mozilla/5.0 Test', '10.77.0.3');
    const currentOf = async (ip: string) =>
      (
        (await call(ctx.app, 'GET', 'account/sessions', { token, ip })).body.result.sessions as {
          current: boolean;
          createdAt: string;
          lastSeenAt: string;
          ip: string;
        }[]
      ).find((s) => s.current)!;
    // Within the minute: the row is not written, so the address stays the sign-in's.
    expect((await currentOf('10.77.0.8')).ip).toBe('10.77.0.3');
    await ctx.database.db.execute(
      sql`update sessions set last_seen_at = now() - interval '2 minutes' where ip = '10.77.0.3'`,
    );
    const moved = await currentOf('10.77.0.9');
    expect(moved.ip).toBe('10.77.0.9');
    expect(Date.parse(moved.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(moved.createdAt));
  });

  it('ends one of one’s own sessions; another person’s is not found', async () => {
    const first = await signInFrom('Browser One', '10.77.0.4');
    const second = await signInFrom('Browser Two', '10.77.0.5');
    const list = (await as(second, 'GET', 'account/sessions')).body.result.sessions as {
      _id: string;
      userAgent: string;
    }[];
    const firstId = list.find((s) => s.userAgent === 'Browser One')!._id;
    const other = await login(ctx.app, '9300000005', DEMO_PASSWORD);
    const notTheirs = await as(other.token, 'POST', `account/sessions/revoke/${firstId}`);
    expect(notTheirs.status).toBe(404);
    expect(notTheirs.body).toEqual({ message: MFA_MSG.sessionNotFound });
    expect((await as(first, 'GET', 'account/sessions')).status).toBe(200);
    const malformed = await as(second, 'POST', 'account/sessions/revoke/not-an-id');
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors).toEqual([{ msg: 'Invalid id', param: 'id' }]);
    const ended = await as(second, 'POST', `account/sessions/revoke/${firstId}`);
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ result: true, message: MFA_MSG.sessionEnded });
    const gone = await as(first, 'GET', 'account/sessions');
    expect(gone.status).toBe(401);
    expect(gone.body).toEqual({ message: MSG.invalidSession });
    const again = await as(second, 'POST', `account/sessions/revoke/${firstId}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: MFA_MSG.sessionNotFound });
  });

  it('a password change ends every other session of the person', async () => {
    const other = await signInFrom('Browser Three', '10.77.0.6');
    const changer = await signInFrom('Browser Four', '10.77.0.7');
    const changed = await as(changer, 'POST', 'account/resetPassword', {
      oldPassword: DEMO_PASSWORD,
      newPassword: 'Fresh@2026',
      confirmPassword: 'Fresh@2026',
    });
    expect(changed.status).toBe(200);
    const sessions = (await as(changer, 'GET', 'account/sessions')).body.result.sessions as {
      current: boolean;
    }[];
    expect(sessions).toEqual([expect.objectContaining({ current: true, userAgent: 'Browser Four' })]);
    const ended = await as(other, 'GET', 'account/sessions');
    expect(ended.status).toBe(401);
    expect(ended.body).toEqual({ message: MSG.invalidSession });
  });
});
