import { randomUUID } from 'node:crypto';
import { UserStatus, UserType } from '../../../shared/enums';
import { MASTER_DISTRIBUTOR_DEFAULTS } from '../../../shared/schemas/users';
import type { Tx } from '../../db/open';
import { users } from '../../db/schema';
import type { PersonalDataCipher } from '../../security/personal-data';
import { openWallets } from '../ledger/index';
import { childPath, scopesOf } from '../network/index';
import { notifyEach } from '../notifications/index';
import { adjustCounts } from './counts';

/** A person to create in bulk, with its parents already found (and share-locked) by the caller. */
export interface PersonDraft {
  type: UserType;
  name: string;
  email: string;
  mobile: string;
  userName: string;
  districtId: string;
  tehsilId: string;
  parent: {
    path: string;
    masterDistributorId: string | null;
    distributorId: string | null;
    retailerId: string | null;
  } | null;
  /** Customers only. */
  customer?: { aadharId: string; panId: string };
}

/**
 * Creates people in bulk (a CSV import's batch) inside the caller's transaction, by the rules of a dialog's
 * create (people.ts): a path under the parent, the master distributor's fixed values, an ACTIVE user with the
 * initial password that must be changed at first sign-in (no passwordUpdatedAt), an open wallet, and the counter
 * rows of every network on the path, all in one statement each. `passwordHash` is INITIAL_PASSWORD's hash: the
 * same password for everyone the batch creates. Each new user raises `user.created` for the webhooks subscribed to it,
 * as a dialog's create does, in the batch's transaction. The unique indexes and the sign-in names' trigger refuse a mobile or
 * user name another user holds. Answers the new ids, in the drafts' order.
 */
export async function createPeople(
  tx: Tx,
  cipher: PersonalDataCipher,
  passwordHash: string,
  drafts: PersonDraft[],
) {
  if (drafts.length === 0) return [];
  const rows = drafts.map((d) => {
    const id = randomUUID();
    return {
      id,
      type: d.type,
      name: d.name,
      email: d.email,
      mobile: d.mobile,
      userName: d.userName,
      districtId: d.districtId,
      tehsilId: d.tehsilId,
      path: childPath(d.parent?.path ?? null, id),
      masterDistributorId: d.parent?.masterDistributorId ?? null,
      distributorId: d.parent?.distributorId ?? null,
      retailerId: d.parent?.retailerId ?? null,
      passwordHash,
      passwordUpdatedAt: null,
      status: UserStatus.ACTIVE,
      ...(d.customer
        ? {
            panId: d.customer.panId,
            aadharCipher: cipher.encrypt(d.customer.aadharId),
            aadharHash: cipher.searchHash(d.customer.aadharId),
            aadharLast4: d.customer.aadharId.slice(-4),
          }
        : {}),
      ...(d.type === UserType.MASTER_DISTRIBUTOR ? MASTER_DISTRIBUTOR_DEFAULTS : {}),
      ...(d.type === UserType.DISTRIBUTOR ? { isMaster: false } : {}),
    };
  });
  await tx.insert(users).values(rows);
  await openWallets(
    tx,
    rows.map((r) => r.id),
  );
  await adjustCounts(
    tx,
    rows.map((r) => ({ scopes: scopesOf(r.path), type: r.type, total: 1, active: 1 })),
  );
  const createdAt = new Date().toISOString();
  await notifyEach(
    tx,
    'user.created',
    rows.map((r) => ({ webhook: { userId: r.id, type: r.type, createdAt } })),
  );
  return rows.map((r) => r.id);
}
