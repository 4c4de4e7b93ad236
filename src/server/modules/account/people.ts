import { randomUUID } from 'node:crypto';
import { and, eq, like, ne, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { TIER_TYPES, UserStatus, UserType } from '../../../shared/enums';
import { MSG } from '../../../shared/messages';
import { can, USER_TYPE_RESOURCE } from '../../../shared/roles';
import {
  MASTER_DISTRIBUTOR_DEFAULTS,
  statusSchema,
  USER_MSG,
  USER_SAVED_MSG,
  userCreateSchemas,
  userTypeField,
  userUpdateSchemas,
} from '../../../shared/schemas/users';
import type { Config } from '../../config';
import { isUniqueViolation } from '../../db/errors';
import { rowView } from '../../db/named';
import type { Db, Queryable, Tx } from '../../db/open';
import { users } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import { badRequest, conflict, forbidden, notFound, parseInput } from '../../http/errors';
import type { PersonalDataCipher } from '../../security/personal-data';
import type { AuditRecorder } from '../audit/index';
import { followRetailerMoves, holdWallets, openWallet } from '../ledger/index';
import { checkLocationChain } from '../locations/index';
import { childPath, moveNetworkMoney, parentPathOf } from '../network/index';
import { notify } from '../notifications/index';
import { countMove, countNewUser, countStatusChange } from './counts';
import { hashPassword } from './passwords';
import { revokeAllSessions, type SessionUser, type UserRow } from './sessions';
import { findVisibleUser, listWireUsers } from './users';

type NewUser = typeof users.$inferInsert;

interface PeopleDeps {
  db: Db;
  config: Pick<Config, 'initialPassword'>;
  cipher: PersonalDataCipher;
}

/** Where a user hangs in the tree, decided from its validated parents. */
interface Placement {
  parentPath: string | null;
  masterDistributorId: string | null;
  distributorId: string | null;
  retailerId: string | null;
}

type Parsed = Record<string, unknown> & {
  type: number;
  name: string;
  email: string;
  mobile: string;
  userName: string;
  districtId: string;
  tehsilId: string;
  distributor?: { masterDistributorId: string };
  retailer?: { distributorId: string };
  customer?: { aadharId?: string; panId: string; retailerId: string | null };
  /** Tier users: null clears it, absent (an update) keeps it. */
  panId?: string | null;
  password?: string;
};

interface WriteOptions {
  q?: Queryable;
  audit?: AuditRecorder;
}

/** An update is audited as an edit or as a status change, whichever the body turns out to be. */
export interface StatusAwareAudit {
  update: AuditRecorder;
  status: AuditRecorder;
}

/** A user as the audit trail records it (masked there): no hierarchy path, password hash or Aadhar cipher. */
export const userView = (row: Partial<UserRow> | null | undefined) =>
  rowView(row as Record<string, unknown> | null, [
    'path',
    'passwordHash',
    'aadharCipher',
    'aadharLast4',
    'search',
  ]);

/** A JSON object body; anything else (a string, a number, an array) is refused as invalid data. */
function asObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest(MSG.validationFailed);
  return body as Record<string, unknown>;
}

/**
 * User names (case-insensitive) and mobile numbers are one namespace, since sign-in takes either: each must be free
 * as both. The mobile first, so an approved application (whose user name is its mobile) is told about it. The unique
 * indexes and the sign_in_names table decide races (guardUniqueUser, migration 0014).
 */
export async function checkUnique(
  q: Queryable,
  input: { mobile: string | null | undefined; userName: string },
  exceptId?: string,
) {
  const except = exceptId ? ne(users.id, exceptId) : undefined;
  const holder = async (condition: SQL) =>
    (await q.select({ id: users.id }).from(users).where(and(condition, except)).limit(1)).length > 0;
  if (input.mobile) {
    if (await holder(eq(users.mobile, input.mobile))) throw conflict(USER_MSG.mobileTaken, 'mobile');
    if (await holder(sql`lower(${users.userName}) = ${input.mobile}`))
      throw conflict(USER_MSG.mobileIsUserName, 'mobile');
  }
  if (await holder(sql`lower(${users.userName}) = lower(${input.userName})`))
    throw conflict(USER_MSG.userNameTaken, 'userName');
  if (await holder(sql`${users.mobile} = lower(${input.userName})`))
    throw conflict(USER_MSG.userNameIsMobile, 'userName');
}

/**
 * The unique indexes and the sign-in names' primary key (migration 0014) decide races between two saves that both
 * passed checkUnique.
 */
export async function guardUniqueUser<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const text = String((error as { cause?: { constraint?: string } }).cause?.constraint ?? error);
    // The sign-in names' trigger names which of the two clashed with another user's (migration 0014).
    if (text.includes('sign_in_names_user_name')) throw conflict(USER_MSG.userNameIsMobile, 'userName');
    if (text.includes('sign_in_names_mobile')) throw conflict(USER_MSG.mobileIsUserName, 'mobile');
    throw text.includes('mobile')
      ? conflict(USER_MSG.mobileTaken, 'mobile')
      : conflict(USER_MSG.userNameTaken, 'userName');
  }
}

/** Account create/update/status: every rule of seed sections 5 and 6 plus Tierdesk's own, in one place. */
export function peopleService({ db, config, cipher }: PeopleDeps) {
  // Inside the write's transaction, with the district and tehsil share-locked: a concurrent move of either
  // waits for this write, or this write sees the move.
  const checkLocation = (tx: Tx, input: Parsed) =>
    checkLocationChain(
      tx,
      {
        district: { id: input.districtId, param: 'districtId' },
        tehsil: { id: input.tehsilId, param: 'tehsilId' },
      },
      { lock: true },
    );

  /**
   * A parent must exist, be of the right type and lie inside the caller's network. Share-locked, so its path
   * cannot move under the write that hangs a user below it.
   */
  async function visibleParent(
    tx: Tx,
    caller: SessionUser,
    id: string,
    type: UserType,
    message: string,
    param: string,
  ) {
    const row = await findVisibleUser(tx, caller, id, 'share');
    if (!row || row.type !== type) throw badRequest(message, param);
    return row;
  }

  /** Parents are read (and locked) top-down, master distributor first: every write locks in that order. */
  async function placementFor(q: Tx, caller: SessionUser, input: Parsed): Promise<Placement> {
    const none: Placement = {
      parentPath: null,
      masterDistributorId: null,
      distributorId: null,
      retailerId: null,
    };
    const masterOf = () =>
      visibleParent(
        q,
        caller,
        input.distributor!.masterDistributorId,
        UserType.MASTER_DISTRIBUTOR,
        USER_MSG.masterDistributorMissing,
        'distributor.masterDistributorId',
      );
    switch (input.type) {
      case UserType.DISTRIBUTOR: {
        const md = await masterOf();
        return { ...none, parentPath: md.path, masterDistributorId: md.id };
      }
      case UserType.RETAILER: {
        const md = await masterOf();
        const d = await visibleParent(
          q,
          caller,
          input.retailer!.distributorId,
          UserType.DISTRIBUTOR,
          USER_MSG.distributorMissing,
          'retailer.distributorId',
        );
        if (d.masterDistributorId !== md.id)
          throw badRequest(USER_MSG.distributorOutsideMaster, 'retailer.distributorId');
        return { parentPath: d.path, masterDistributorId: md.id, distributorId: d.id, retailerId: null };
      }
      case UserType.CUSTOMER: {
        // A retailer's customer is always its own, whatever the body says.
        const retailerId = caller.type === UserType.RETAILER ? caller.id : input.customer!.retailerId;
        if (!retailerId) return none;
        const r =
          retailerId === caller.id
            ? await lockedSelf(q, caller)
            : await visibleParent(
                q,
                caller,
                retailerId,
                UserType.RETAILER,
                USER_MSG.retailerMissing,
                'customer.retailerId',
              );
        return {
          parentPath: r.path,
          masterDistributorId: r.masterDistributorId,
          distributorId: r.distributorId,
          retailerId: r.id,
        };
      }
      default:
        return none;
    }
  }

  /** The caller's own row, read fresh and share-locked (the session's copy may predate a move). */
  async function lockedSelf(tx: Tx, caller: SessionUser) {
    const [row] = await tx.select().from(users).where(eq(users.id, caller.id)).for('share');
    if (!row) throw notFound(USER_MSG.userNotFound);
    return row;
  }

  /** Columns every save writes; the Aadhar number only when a new one was entered. */
  function commonColumns(input: Parsed): Partial<NewUser> {
    const columns: Partial<NewUser> = {
      name: input.name,
      email: input.email,
      mobile: input.mobile,
      userName: input.userName,
      districtId: input.districtId,
      tehsilId: input.tehsilId,
    };
    if (input.panId !== undefined && (TIER_TYPES as number[]).includes(input.type))
      columns.panId = input.panId;
    if (input.customer) {
      columns.panId = input.customer.panId;
      if (input.customer.aadharId) {
        columns.aadharCipher = cipher.encrypt(input.customer.aadharId);
        columns.aadharHash = cipher.searchHash(input.customer.aadharId);
        columns.aadharLast4 = input.customer.aadharId.slice(-4);
      }
    }
    return columns;
  }

  /**
   * `q` lets a caller run the create inside its own transaction (approving an application does); `audit`
   * writes the command's audit row in the create's transaction.
   */
  async function create(caller: SessionUser, body: unknown, { q = db, audit }: WriteOptions = {}) {
    const raw = asObject(body);
    const { type } = parseInput(z.object({ type: userTypeField }), raw);
    if (!can(caller.type as UserType, USER_TYPE_RESOURCE[type], 'create')) throw forbidden();
    // An admin is made only through a command another admin approves (admins.ts, the approvals module).
    if (type === UserType.ADMIN) throw forbidden();
    const input = parseInput(userCreateSchemas[type], raw) as Parsed;
    // Staff choose an employee's first password; everyone else gets INITIAL_PASSWORD. Either way the user
    // must replace it at first sign-in (no password-set marker). Hashed before any row is locked.
    const passwordHash = await hashPassword(
      type === UserType.EMPLOYEE ? input.password! : config.initialPassword,
    );
    return inTransaction(q, async (tx) => {
      await checkLocation(tx, input);
      const placement = await placementFor(tx, caller, input);
      await checkUnique(tx, input);
      const id = randomUUID();
      const row: NewUser = {
        ...commonColumns(input),
        id,
        type,
        name: input.name,
        userName: input.userName,
        path: childPath(placement.parentPath, id),
        masterDistributorId: placement.masterDistributorId,
        distributorId: placement.distributorId,
        retailerId: placement.retailerId,
        passwordHash,
        passwordUpdatedAt: null,
        status: UserStatus.ACTIVE,
        ...(type === UserType.MASTER_DISTRIBUTOR ? MASTER_DISTRIBUTOR_DEFAULTS : {}),
        ...(type === UserType.DISTRIBUTOR ? { isMaster: false } : {}),
      };
      await guardUniqueUser(() => tx.insert(users).values(row));
      await openWallet(tx, id);
      await countNewUser(tx, { path: row.path, type, status: UserStatus.ACTIVE });
      await audit?.(tx, { entityId: id, after: userView(row) });
      await notify(tx, 'user.created', {
        webhook: { userId: id, type: row.type, createdAt: new Date().toISOString() },
      });
      const [wire] = (await listWireUsers(tx, caller, { id })).users;
      return { result: wire, message: USER_SAVED_MSG[type].created };
    });
  }

  /**
   * Moves a user and everything under it to a new place in the tree, keeping the parent columns right, with its
   * counts and its money (the dashboard's tiles) out of the networks it leaves into the ones it joins. The
   * subtree is locked top-down first (shorter paths first), the order every write locks in, so a concurrent
   * move inside it waits instead of deadlocking.
   */
  async function moveSubtree(tx: Tx, target: UserRow, placement: Placement) {
    const newPath = childPath(placement.parentPath, target.id);
    if (newPath === target.path) return;
    const oldPrefixLength = target.path.length;
    const descendants = and(like(users.path, `${target.path}%`), ne(users.id, target.id));
    const below = await tx
      .select({ id: users.id })
      .from(users)
      .where(descendants)
      .orderBy(sql`length(${users.path})`, users.id)
      .for('no key update');
    // Their wallets too, in the ledger's order: no posting to the subtree is under way while its money moves,
    // and one waiting for a wallet reads the new paths once it has it (ledger.ts, writePostings).
    await holdWallets(tx, [target.id, ...below.map((row) => row.id)]);
    await countMove(tx, target.path, parentPathOf(target.path), placement.parentPath);
    await moveNetworkMoney(tx, target.id, parentPathOf(target.path), placement.parentPath);
    await tx
      .update(users)
      .set({ path: sql`${newPath} || substr(${users.path}, ${oldPrefixLength + 1})` })
      .where(descendants);
    // Descendants inherit the moved user's ancestors.
    const under = and(like(users.path, `${newPath}%`), ne(users.id, target.id));
    if (target.type === UserType.DISTRIBUTOR) {
      await tx.update(users).set({ masterDistributorId: placement.masterDistributorId }).where(under);
    } else if (target.type === UserType.RETAILER) {
      await tx
        .update(users)
        .set({ masterDistributorId: placement.masterDistributorId, distributorId: placement.distributorId })
        .where(under);
    }
  }

  async function update(caller: SessionUser, id: string, body: unknown, audit?: StatusAwareAudit) {
    const raw = asObject(body);
    if ('status' in raw) return changeStatus(caller, id, raw, audit?.status);
    // The type never changes, so it may be read before the transaction; everything else is read inside it.
    const seen = await findVisibleUser(db, caller, id);
    if (!seen || seen.type === UserType.ADMIN) throw notFound(USER_MSG.userNotFound);
    if (raw.type !== undefined && raw.type !== null && Number(raw.type) !== seen.type) {
      throw badRequest(USER_MSG.typeChange, 'type');
    }
    const type = seen.type as keyof typeof userUpdateSchemas;
    if (!can(caller.type as UserType, USER_TYPE_RESOURCE[type], 'edit')) throw forbidden();
    const input = parseInput(userUpdateSchemas[type], { ...raw, type }) as Parsed;
    return inTransaction(db, async (tx) => {
      await checkLocation(tx, input);
      const placement = await placementFor(tx, caller, input);
      // Locked after its new parents (top-down) and read fresh: a move that committed meanwhile is seen.
      const target = await findVisibleUser(tx, caller, id, 'no key update');
      if (!target) throw notFound(USER_MSG.userNotFound);
      if (placement.parentPath?.startsWith(target.path)) {
        throw badRequest('A user cannot be placed under its own network', 'distributor.masterDistributorId');
      }
      await checkUnique(tx, input, id);
      await guardUniqueUser(async () => {
        await moveSubtree(tx, target, placement);
        await tx
          .update(users)
          .set({
            ...commonColumns(input),
            path: childPath(placement.parentPath, target.id),
            masterDistributorId: placement.masterDistributorId,
            distributorId: placement.distributorId,
            retailerId: placement.retailerId,
          })
          .where(eq(users.id, id));
        // Once every moved row has its new parents: the retailers' monthly commissions (the dashboard's top
        // retailers) follow them into their new chain.
        const newPath = childPath(placement.parentPath, target.id);
        if (newPath !== target.path) await followRetailerMoves(tx, newPath);
      });
      if (audit) {
        const [after] = await tx.select().from(users).where(eq(users.id, id));
        await audit.update(tx, { entityId: id, before: userView(target), after: userView(after) });
      }
      const [wire] = (await listWireUsers(tx, caller, { id })).users;
      return { result: wire, message: USER_SAVED_MSG[type].updated };
    });
  }

  async function changeStatus(
    caller: SessionUser,
    id: string,
    raw: Record<string, unknown>,
    audit?: AuditRecorder,
  ) {
    if (!can(caller.type as UserType, 'userStatus', 'edit')) throw forbidden();
    const { status } = parseInput(statusSchema, { status: raw.status });
    return inTransaction(db, async (tx) => {
      const target = await findVisibleUser(tx, caller, id, 'no key update');
      if (!target || target.type === UserType.ADMIN) throw notFound(USER_MSG.userNotFound);
      await countStatusChange(tx, target, status);
      await tx.update(users).set({ status }).where(eq(users.id, id));
      await audit?.(tx, { entityId: id, before: { status: target.status }, after: { status } });
      // A deactivated user is signed out everywhere at once.
      if (status === UserStatus.INACTIVE) await revokeAllSessions(tx, id);
      const [wire] = (await listWireUsers(tx, caller, { id })).users;
      return { result: wire, message: USER_MSG.statusChanged };
    });
  }

  return { create, update };
}
