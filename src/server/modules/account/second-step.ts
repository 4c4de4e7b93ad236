import { randomInt } from 'node:crypto';
import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import {
  MFA_MSG,
  RECOVERY_CODE_COUNT,
  TOTP_ISSUER,
  TOTP_SETTINGS,
  TOTP_WINDOW,
} from '../../../shared/constants/mfa';
import type { MfaSetupResult } from '../../../shared/wire';
import type { Queryable, Tx } from '../../db/open';
import { recoveryCodes, secondSteps, users } from '../../db/schema';
import { badRequest } from '../../http/errors';
import { caller } from '../../http/session';
import type { PersonalDataCipher } from '../../security/personal-data';
import { actorOf, recordRefusal } from '../audit/index';
import { clearFailures, lockedForMinutes, recordFailure, tooMany } from './throttle';

/**
 * The second step of signing in (TOTP, RFC 6238, through otpauth): its set-up, the check of a code and of a recovery
 * code, and step-up before a decision. The secret is sealed with the data key's personal-data cipher; recovery
 * codes are kept as keyed hashes. docs/security.md, "Two-step sign-in".
 */

/** An authenticator's view of a secret (base32): RFC 6238's SHA-1, 6 digits, 30 s. */
const totpOf = (secret: string, label = 'Tierdesk') =>
  new TOTP({ issuer: TOTP_ISSUER, label, secret, ...TOTP_SETTINGS });

/**
 * The time step whose code `token` is, within one step either way of `now`; undefined when it is none of them.
 * otpauth's `validate` answers the step's distance from now.
 */
function matchedStep(secret: string, token: string, now: number): number | undefined {
  const totp = totpOf(secret);
  const delta = totp.validate({ token, timestamp: now, window: TOTP_WINDOW });
  return delta === null ? undefined : totp.counter({ timestamp: now }) + delta;
}

/** What a code proved: `ok`, `wrong`, or `used` (the code of a step already used, or an earlier one). */
export type CodeCheck = 'ok' | 'wrong' | 'used';

/** Whether the person's second step is on. */
export async function hasSecondStep(db: Queryable, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: secondSteps.userId })
    .from(secondSteps)
    .where(and(eq(secondSteps.userId, userId), isNotNull(secondSteps.enabledAt)));
  return Boolean(row);
}

/**
 * Starts (or starts again) the set-up: a new random secret (160 bits, RFC 4226's recommended length), sealed, not
 * yet on. Undefined when the second step is on already.
 */
export async function startSetUp(
  db: Queryable,
  cipher: PersonalDataCipher,
  userId: string,
): Promise<MfaSetupResult | undefined> {
  const secret = new Secret({ size: 20 }).base32;
  const saved = await db
    .insert(secondSteps)
    .values({ userId, secretCipher: cipher.encrypt(secret) })
    .onConflictDoUpdate({
      target: secondSteps.userId,
      set: { secretCipher: sql`excluded.secret_cipher`, lastStep: null, createdAt: sql`now()` },
      setWhere: isNull(secondSteps.enabledAt),
    })
    .returning({ userId: secondSteps.userId });
  if (saved.length === 0) return undefined;
  const [user] = await db.select({ userName: users.userName }).from(users).where(eq(users.id, userId));
  return { secret, otpauthUri: totpOf(secret, user?.userName).toString() };
}

/** How a person reads recovery codes: lower-case letters and digits that cannot be mistaken for one another. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A recovery code: ten characters (about 49 bits) shown as two groups of five. */
function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/** A recovery code as it is hashed: any case, with or without its dash or spaces. */
const normalisedCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');

export type SwitchOn = { recoveryCodes: string[] } | 'wrong' | 'not-set-up' | 'on';

/**
 * Switches the second step on with a code of the secret the set-up gave: it is on from now, that code's step is
 * spent, a fresh set of recovery codes replaces any older one, and the person's "must set up" mark is cleared. The
 * row is locked, so two attempts at once switch it on once.
 */
export async function switchOn(
  tx: Tx,
  cipher: PersonalDataCipher,
  userId: string,
  otp: string,
  now = Date.now(),
): Promise<SwitchOn> {
  const [row] = await tx.select().from(secondSteps).where(eq(secondSteps.userId, userId)).for('update');
  if (!row) return 'not-set-up';
  if (row.enabledAt) return 'on';
  const step = matchedStep(cipher.decrypt(row.secretCipher), otp, now);
  if (step === undefined) return 'wrong';
  await tx
    .update(secondSteps)
    .set({ enabledAt: sql`now()`, lastStep: step })
    .where(eq(secondSteps.userId, userId));
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx
    .insert(recoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: cipher.secretHash(normalisedCode(code)) })));
  await tx.update(users).set({ mfaSetupRequired: false }).where(eq(users.id, userId));
  return { recoveryCodes: codes };
}

/**
 * Checks a code of the person's second step (on): one step either way of now, and each step's code once. The step
 * is spent by one conditional update, so the same code sent twice at once, to two servers, passes once.
 */
export async function checkCode(
  db: Queryable,
  cipher: PersonalDataCipher,
  userId: string,
  otp: string,
  now = Date.now(),
): Promise<CodeCheck> {
  const [row] = await db
    .select({ secretCipher: secondSteps.secretCipher })
    .from(secondSteps)
    .where(and(eq(secondSteps.userId, userId), isNotNull(secondSteps.enabledAt)));
  if (!row) return 'wrong';
  const step = matchedStep(cipher.decrypt(row.secretCipher), otp, now);
  if (step === undefined) return 'wrong';
  const spent = await db
    .update(secondSteps)
    .set({ lastStep: step })
    .where(
      and(
        eq(secondSteps.userId, userId),
        isNotNull(secondSteps.enabledAt),
        or(isNull(secondSteps.lastStep), lt(secondSteps.lastStep, step)),
      ),
    )
    .returning({ userId: secondSteps.userId });
  return spent.length > 0 ? 'ok' : 'used';
}

/** Uses one of the person's recovery codes: it is deleted as it is accepted, so it works once. */
export async function spendRecoveryCode(
  db: Queryable,
  cipher: PersonalDataCipher,
  userId: string,
  code: string,
): Promise<CodeCheck> {
  const used = await db
    .delete(recoveryCodes)
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, cipher.secretHash(normalisedCode(code))),
      ),
    )
    .returning({ userId: recoveryCodes.userId });
  return used.length > 0 ? 'ok' : 'wrong';
}

/** Switches the second step off: its secret and recovery codes are deleted. */
export async function switchOff(tx: Queryable, userId: string): Promise<void> {
  await tx.delete(secondSteps).where(eq(secondSteps.userId, userId));
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

/**
 * Removes a person's second step (its secret and recovery codes) and marks the person to set one up again before
 * anything else: another admin's approved reset of it, and a new admin's first sign-in. Run inside the caller's
 * transaction; it ends no session itself (a session of the person can then do nothing but the set-up).
 */
export async function clearSecondStep(tx: Tx, userId: string): Promise<void> {
  await switchOff(tx, userId);
  await tx.update(users).set({ mfaSetupRequired: true }).where(eq(users.id, userId));
}

/** The message of a refused code: a recovery code's own, or the code's (wrong, or used already). */
export const codeRefusal = (check: Exclude<CodeCheck, 'ok'>, param: 'otp' | 'recoveryCode') =>
  check === 'used'
    ? MFA_MSG.usedCode
    : param === 'recoveryCode'
      ? MFA_MSG.wrongRecoveryCode
      : MFA_MSG.wrongCode;

/**
 * A signed-in person's code, judged as a password is: refused while the address is locked out of the account
 * (429), a wrong one counted towards the same lock-outs as a wrong password (modules/account/throttle.ts) and
 * recorded in the audit trail, a right one forgiving this address's failures. A refusal is a 400 about the field,
 * never a 401 (which would sign the person out). `check` runs only when the address may try.
 */
export async function judgeCode(
  request: FastifyRequest,
  param: 'otp' | 'recoveryCode',
  check: () => Promise<CodeCheck>,
): Promise<void> {
  const { db } = request.server;
  const { user } = caller(request);
  const refused = (after: Record<string, unknown>) =>
    recordRefusal(db, request.log, actorOf(request), request.ip, {
      action: 'user.mfa.failed',
      entity: 'user',
      entityId: user.id,
      after,
    });
  const lockedMinutes = await lockedForMinutes(db, user.id, request.ip);
  if (lockedMinutes > 0) {
    await refused({ locked: true });
    throw tooMany(MFA_MSG.tooManyCodeAttempts(lockedMinutes), lockedMinutes);
  }
  const result = await check();
  if (result === 'ok') {
    await clearFailures(db, user.id, request.ip);
    return;
  }
  await recordFailure(db, user.id, request.ip);
  await refused({ [param]: result });
  throw badRequest(codeRefusal(result, param), param);
}

/**
 * Step-up before a decision that moves money (approving or rejecting a command): a checker whose second step is on
 * sends its current code as `otp`, judged as judgeCode says; without a second step nothing is asked. Missing is a
 * 400 about `otp` too.
 */
export async function requireStepUp(request: FastifyRequest, otp: string | undefined): Promise<void> {
  const { user } = caller(request);
  if (!user.mfaEnabled) return;
  if (otp === undefined) throw badRequest(MFA_MSG.codeRequired, 'otp');
  const { db, cipher } = request.server;
  await judgeCode(request, 'otp', () => checkCode(db, cipher, user.id, otp));
}
