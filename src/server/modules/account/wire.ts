import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { TIER_TYPES, type UserStatus, UserType } from '../../../shared/enums';
import { maskAadhar } from '../../../shared/identity';
import { paiseToRupees } from '../../../shared/money';
import type { NamedRef, WireUser } from '../../../shared/wire';
import { jsonHundredths, jsonNamedRefs, jsonObject, jsonTime } from '../../db/json';
import { districts, tehsils, users, wallets } from '../../db/schema';
import type { UserRow } from './sessions';

type Ref = { _id: string | null; name: string | null } | null | undefined;

export interface UserLookups {
  /** The user's wallet in paise (from the wallets table); none yet reads as zero. */
  wallet?: { balance: number | null; clearing: number | null } | null;
  district?: Ref;
  tehsil?: Ref;
  masterDistributor?: Ref;
  distributor?: Ref;
  retailer?: Ref;
}

const refs = (ref: Ref): NamedRef[] =>
  ref?._id && ref.name !== null ? [{ _id: ref._id, name: ref.name }] : [];

/** The seed's nested user shape. Secrets (password hash, Aadhar) never leave through here unmasked. */
/** The columns a wire user is made of (lists select exactly these: no secrets). */
export type WireUserSource = Omit<
  UserRow,
  'passwordHash' | 'aadharCipher' | 'aadharHash' | 'path' | 'search'
>;

export function toWireUser(row: WireUserSource, lookups: UserLookups = {}): WireUser {
  const wire: WireUser = {
    _id: row.id,
    name: row.name,
    email: { address: row.email },
    mobile: { number: row.mobile },
    userName: { id: row.userName },
    type: row.type as UserType,
    status: row.status as UserStatus,
    districtId: row.districtId,
    tehsilId: row.tehsilId,
    district: refs(lookups.district),
    tehsil: refs(lookups.tehsil),
    wallet: {
      balance: paiseToRupees(lookups.wallet?.balance ?? 0),
      clearingBalance: paiseToRupees(lookups.wallet?.clearing ?? 0),
    },
    passwordUpdatedAt: row.passwordUpdatedAt ? row.passwordUpdatedAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  };
  if ((TIER_TYPES as number[]).includes(row.type)) wire.panId = row.panId;
  switch (row.type) {
    case UserType.MASTER_DISTRIBUTOR:
      wire.distributor = {
        isMaster: row.isMaster ?? true,
        distributorCode: row.distributorCode,
        masterDistributorCommission: row.masterDistributorCommission,
      };
      break;
    case UserType.DISTRIBUTOR:
      wire.distributor = { isMaster: false, masterDistributorId: row.masterDistributorId };
      wire.master_distributor = refs(lookups.masterDistributor);
      break;
    case UserType.RETAILER:
      wire.retailer = { distributorId: row.distributorId, masterDistributorId: row.masterDistributorId };
      wire.distributor = refs(lookups.distributor);
      wire.master_distributor = refs(lookups.masterDistributor);
      break;
    case UserType.CUSTOMER:
      wire.customer = {
        aadharId: row.aadharLast4 ? maskAadhar(row.aadharLast4) : null,
        panId: row.panId,
        retailerId: row.retailerId,
      };
      wire.retailer = refs(lookups.retailer);
      break;
  }
  return wire;
}

/** A district's or tehsil's `[{ _id, name }]` by its id (refs above). */
const locationJson = (table: typeof districts | typeof tehsils, id: AnyPgColumn) =>
  jsonNamedRefs(
    sql`select json_build_array(json_build_object('_id', ${table.id}, 'name', ${table.name})) from ${table} where ${table.id} = ${id}`,
  );

/** A parent's `[{ _id, name }]` by its id, read through an alias of users (as userNameOf). */
const parentJson = (id: AnyPgColumn) =>
  jsonNamedRefs(
    sql`select json_build_array(json_build_object('_id', parent.id, 'name', parent.name)) from ${users} as parent where parent.id = ${id}`,
  );

/**
 * toWireUser of a users row joined to its wallet (left join), written by the database for a list of one `type`
 * (modules/account/users.ts, listWireUsersJson): the same fields in the wire schema's order, and only the parents
 * the type shows are looked up.
 */
export function wireUserJson(type: UserType): SQL {
  const byType: Record<string, SQL> = {};
  switch (type) {
    case UserType.MASTER_DISTRIBUTOR:
      byType.distributor = jsonObject({
        isMaster: sql`coalesce(${users.isMaster}, true)`,
        distributorCode: users.distributorCode,
        masterDistributorCommission: users.masterDistributorCommission,
      });
      break;
    case UserType.DISTRIBUTOR:
      byType.distributor = jsonObject({
        isMaster: sql`false`,
        masterDistributorId: users.masterDistributorId,
      });
      byType.master_distributor = parentJson(users.masterDistributorId);
      break;
    case UserType.RETAILER:
      byType.distributor = parentJson(users.distributorId);
      byType.retailer = jsonObject({
        distributorId: users.distributorId,
        masterDistributorId: users.masterDistributorId,
      });
      byType.master_distributor = parentJson(users.masterDistributorId);
      break;
    case UserType.CUSTOMER:
      byType.retailer = parentJson(users.retailerId);
      byType.customer = jsonObject({
        aadharId: sql`case when ${users.aadharLast4} <> '' then ${sql.raw(`'${maskAadhar('')}'`)} || ${users.aadharLast4} end`,
        panId: users.panId,
        retailerId: users.retailerId,
      });
      break;
  }
  return jsonObject({
    _id: users.id,
    name: users.name,
    email: jsonObject({ address: users.email }),
    mobile: jsonObject({ number: users.mobile }),
    userName: jsonObject({ id: users.userName }),
    type: users.type,
    status: users.status,
    districtId: users.districtId,
    tehsilId: users.tehsilId,
    district: locationJson(districts, users.districtId),
    tehsil: locationJson(tehsils, users.tehsilId),
    wallet: jsonObject({
      balance: jsonHundredths(sql`coalesce(${wallets.balancePaise}, 0)`),
      clearingBalance: jsonHundredths(sql`coalesce(${wallets.clearingBalancePaise}, 0)`),
    }),
    passwordUpdatedAt: jsonTime(users.passwordUpdatedAt),
    createdAt: jsonTime(users.createdAt),
    ...((TIER_TYPES as number[]).includes(type) ? { panId: users.panId } : {}),
    // In the schema's order: distributor, retailer, customer, master_distributor.
    ...Object.fromEntries(
      ['distributor', 'retailer', 'customer', 'master_distributor'].flatMap((key) =>
        byType[key] ? [[key, byType[key]]] : [],
      ),
    ),
  });
}
