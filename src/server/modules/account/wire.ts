import { TIER_TYPES, type UserStatus, UserType } from '../../../shared/enums';
import { maskAadhar } from '../../../shared/identity';
import { paiseToRupees } from '../../../shared/money';
import type { NamedRef, WireUser } from '../../../shared/wire';
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
  | 'passwordHash'
  | 'aadharCipher'
  | 'aadharHash'
  | 'path'
  | 'search'
  | 'mfaSetupRequired'
  // Notification choices (issue 55): read through notifications/preferences, not the user's record.
  | 'language'
  | 'notifyEmail'
  | 'notifySms'
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
