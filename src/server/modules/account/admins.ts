import { randomBytes, randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { APPROVAL_MSG } from '../../../shared/constants/approvals';
import { UserStatus, UserType } from '../../../shared/enums';
import type { Queryable, Tx } from '../../db/open';
import { users } from '../../db/schema';
import { badRequest, notFound } from '../../http/errors';
import type { AuditRecorder } from '../audit/index';
import { openWallet } from '../ledger/index';
import { checkLocationChain } from '../locations/index';
import { childPath, scopesOf } from '../network/index';
import { notify } from '../notifications/index';
import { adjustCounts, countNewUser } from './counts';
import { hashPassword } from './passwords';
import { checkUnique, guardUniqueUser, userView } from './people';
import { clearSecondStep } from './second-step';
import { revokeAllSessions } from './sessions';

/**
 * Admins (issue 51: power needs two people). An admin is made, promoted or reset only by a command another admin
 * approves (the approvals module runs these functions in the approval's transaction), or, for the very first extra
 * admin, from the server console (`npm run admin -- create`, src/server/admin.ts). Every new admin is born through
 * markNewAdmin.
 */

/** A new admin as its maker describes it: no password (the checker receives a one-time password). */
export interface AdminDraft {
  name: string;
  userName: string;
  email: string | null;
  mobile: string | null;
  districtId: string | null;
  tehsilId: string | null;
}

/**
 * A one-time password: 16 characters from 96 random bits, shown once (to the checker who approved, or on the
 * console) and stored only as its hash. Its holder must replace it at the first sign-in.
 */
export const oneTimePassword = () => randomBytes(12).toString('base64url');

/**
 * The one place a new admin is born: an admin created from the console or through approval, an employee promoted,
 * an admin whose second step was reset. It must choose its own password at its next sign-in (no password-set
 * marker), then set up its second step (mfa_setup_required), before anything else.
 */
export async function markNewAdmin(tx: Queryable, userId: string) {
  await tx.update(users).set({ passwordUpdatedAt: null, mfaSetupRequired: true }).where(eq(users.id, userId));
}

/**
 * An approved reset of another admin's second step: its secret and recovery codes go, its sessions end, and it is a
 * new admin again (markNewAdmin).
 */
export async function resetSecondStep(tx: Tx, userId: string) {
  await clearSecondStep(tx, userId);
  await revokeAllSessions(tx, userId);
  await markNewAdmin(tx, userId);
}

/**
 * An approved reset of another admin's password: a new one-time password (hashed by the caller, outside the
 * transaction), to be replaced at the next sign-in; every session of that admin ends.
 */
export async function resetAdminPassword(tx: Tx, userId: string, passwordHash: string) {
  await tx.update(users).set({ passwordHash, passwordUpdatedAt: null }).where(eq(users.id, userId));
  await revokeAllSessions(tx, userId);
}

/** How many admins the network has (an admin's status never changes, so all of them can decide). */
export async function adminCount(q: Queryable): Promise<number> {
  const [row] = await q.select({ admins: count() }).from(users).where(eq(users.type, UserType.ADMIN));
  return row?.admins ?? 0;
}

/** The admin `id`, row-locked for a change; 404 for anyone else. */
export async function lockedAdmin(tx: Tx, id: string) {
  const [row] = await tx
    .select()
    .from(users)
    .where(and(eq(users.id, id), eq(users.type, UserType.ADMIN)))
    .for('no key update');
  if (!row) throw notFound(APPROVAL_MSG.adminNotFound);
  return row;
}

/** The employee `id` that may become an admin (an active one), row-locked; 404 for anyone else. */
export async function lockedEmployee(tx: Tx, id: string) {
  const [row] = await tx
    .select()
    .from(users)
    .where(and(eq(users.id, id), eq(users.type, UserType.EMPLOYEE)))
    .for('no key update');
  if (!row) throw notFound(APPROVAL_MSG.employeeNotFound);
  if (row.status !== UserStatus.ACTIVE) throw badRequest(APPROVAL_MSG.inactiveEmployee);
  return row;
}

/**
 * What making `draft` needs now: its district and tehsil (when given) exist and chain, share-locked, and its user
 * name and mobile are free. Checked when the command is made (so the maker hears of a clash at once) and again when
 * it is approved.
 */
export async function checkAdminDraft(tx: Tx, draft: AdminDraft) {
  if (draft.districtId)
    await checkLocationChain(
      tx,
      {
        district: { id: draft.districtId, param: 'districtId' },
        ...(draft.tehsilId ? { tehsil: { id: draft.tehsilId, param: 'tehsilId' } } : {}),
      },
      { lock: true },
    );
  await checkUnique(tx, draft);
}

/**
 * Creates the admin `draft` with `passwordHash` (a one-time password's), as a new admin (markNewAdmin); its
 * wallet and counts with it. `audit` records it in the same transaction. Answers its id.
 */
export async function createAdmin(tx: Tx, draft: AdminDraft, passwordHash: string, audit?: AuditRecorder) {
  await checkAdminDraft(tx, draft);
  const id = randomUUID();
  const path = childPath(null, id);
  const row = {
    id,
    type: UserType.ADMIN,
    name: draft.name,
    userName: draft.userName,
    email: draft.email,
    mobile: draft.mobile,
    districtId: draft.districtId,
    tehsilId: draft.tehsilId,
    passwordHash,
    passwordUpdatedAt: null,
    path,
    status: UserStatus.ACTIVE,
  };
  await guardUniqueUser(() => tx.insert(users).values(row));
  await openWallet(tx, id);
  await countNewUser(tx, { path, type: UserType.ADMIN, status: UserStatus.ACTIVE });
  await markNewAdmin(tx, id);
  await audit?.(tx, { entityId: id, after: userView(row) });
  await notify(tx, 'user.created', {
    webhook: { userId: id, type: row.type, createdAt: new Date().toISOString() },
  });
  return id;
}

/**
 * An approved promotion: the active employee `id` becomes an admin, counted as one, a new admin (markNewAdmin) whose
 * sessions end, so it signs in again and meets the new admin's first steps.
 */
export async function promoteToAdmin(tx: Tx, id: string, audit?: AuditRecorder) {
  const employee = await lockedEmployee(tx, id);
  await tx.update(users).set({ type: UserType.ADMIN }).where(eq(users.id, id));
  const scopes = scopesOf(employee.path);
  await adjustCounts(tx, [
    { scopes, type: UserType.EMPLOYEE, total: -1, active: -1 },
    { scopes, type: UserType.ADMIN, total: 1, active: 1 },
  ]);
  await markNewAdmin(tx, id);
  await revokeAllSessions(tx, id);
  await audit?.(tx, { entityId: id, before: { type: UserType.EMPLOYEE }, after: { type: UserType.ADMIN } });
}

/** A one-time password and its hash (hashed before any row is locked). */
export async function newOneTimePassword() {
  const password = oneTimePassword();
  return { password, passwordHash: await hashPassword(password) };
}
