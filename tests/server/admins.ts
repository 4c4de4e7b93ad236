import { TOTP } from 'otpauth';
import { expect, vi } from 'vitest';
import { inTransaction } from '../../src/server/db/transaction';
import { createAdmin, newOneTimePassword } from '../../src/server/modules/account/index';
import { call, type TestContext } from './helpers';

const STEP = 30_000;
const STRONG = 'Check@2026';

type SignedIn = {
  token: string;
  user: { _id: string; passwordUpdatedAt: string | null; mfaSetupRequired: boolean };
};

/**
 * Admins beside the bootstrap one, as a network gets them (issue 51): the first from the server console (the function
 * `npm run admin -- create` runs), with a one-time password; at its first sign-in it chooses its own password, then
 * sets up its second step before anything else, and it confirms every decision with a code (step-up).
 *
 * `call` sends the current code with each approve or reject of a person with a second step. Each code works once: a
 * checker deciding again within the same 30 s step sends the next step's code, the clock (Date only) moved on to it
 * as an authenticator app's next code arrives, so a file using this runs `vi.useFakeTimers({ toFake: ['Date'],
 * shouldAdvanceTime: true })`.
 */
export function adminDesk(ctx: TestContext) {
  /** Each person's second step by user name: its secret, and the last step whose code was sent. */
  const secondSteps = new Map<string, { secret: string; spent: number }>();
  /** Whose each token is. */
  const tokenOwner = new Map<string, string>();
  let mobileCounter = 0;

  /** A code of a step nobody has used for `userName`, or undefined when its second step is off. */
  function freshCode(userName: string | undefined) {
    const held = userName ? secondSteps.get(userName) : undefined;
    if (!held) return undefined;
    let step = Math.floor(Date.now() / STEP);
    if (step <= held.spent) {
      vi.setSystemTime((held.spent + 1) * STEP + 1_000);
      step = held.spent + 1;
    }
    held.spent = step;
    return new TOTP({ secret: held.secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate();
  }

  const as = (
    token: string,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    query?: Record<string, string>,
  ) => {
    const otp = /^approvals\/(approve|reject)\//.test(path) ? freshCode(tokenOwner.get(token)) : undefined;
    const sent = otp ? { ...((body as object | undefined) ?? {}), otp } : body;
    return call(ctx.app, method, path, { token, body: sent, query });
  };

  /** Signs in, with the current code when the person's second step is on. */
  async function signIn(userName: string, password: string): Promise<SignedIn> {
    const otp = freshCode(userName);
    const res = await call(ctx.app, 'POST', 'account/login', {
      body: { userName, password, ...(otp ? { otp } : {}) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    tokenOwner.set(res.body.result.token, userName);
    return res.body.result;
  }

  /**
   * A first sign-in with a password someone else set (a one-time or initial password): the person chooses its own,
   * then, when it must (a new admin), sets up its second step before anything else; answers a fresh session.
   */
  async function chooseOwnPassword(userName: string, current: string, next = STRONG) {
    const first = await signIn(userName, current);
    expect(first.user.passwordUpdatedAt).toBeNull();
    const changed = await as(first.token, 'POST', 'account/resetPassword', {
      oldPassword: current,
      newPassword: next,
      confirmPassword: next,
    });
    expect(changed.status).toBe(200);
    const signedIn = await signIn(userName, next);
    if (signedIn.user.mfaSetupRequired) {
      const refused = await as(signedIn.token, 'GET', 'approvals/admins');
      expect([refused.status, refused.body.message]).toEqual([403, 'Set up two-step sign-in first']);
      const setup = await as(signedIn.token, 'POST', 'account/mfa/setup');
      expect(setup.status).toBe(200);
      secondSteps.set(userName, { secret: setup.body.result.secret, spent: 0 });
      const enabled = await as(signedIn.token, 'POST', 'account/mfa/enable', { otp: freshCode(userName) });
      expect(enabled.status).toBe(200);
    }
    return signedIn;
  }

  /** A new mobile number for each admin made here. */
  const nextMobile = () => `98888${String(++mobileCounter).padStart(5, '0')}`;

  /** Another admin from the server console, signed in with its own password and second step. */
  async function consoleAdmin(key: string) {
    const { password, passwordHash } = await newOneTimePassword();
    const userName = `admin.${key}`;
    await inTransaction(ctx.database.db, (tx) =>
      createAdmin(
        tx,
        {
          name: `Admin ${key}`,
          userName,
          email: null,
          mobile: nextMobile(),
          districtId: null,
          tehsilId: null,
        },
        passwordHash,
      ),
    );
    const signedIn = await chooseOwnPassword(userName, password);
    return { token: signedIn.token, id: signedIn.user._id };
  }

  /** A second step reset by another admin: its secret is gone, so the person signs in with a password alone. */
  const forgetSecondStep = (userName: string) => secondSteps.delete(userName);

  return { as, signIn, chooseOwnPassword, consoleAdmin, nextMobile, forgetSecondStep, STRONG };
}
