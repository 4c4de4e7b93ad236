import type { UserStatus, UserType } from '../../../shared/enums';
import type { NamedRef, WireUser } from '../../../shared/wire';
import type { UserRow } from './sessions';

export interface UserLookups {
  district?: NamedRef | null;
  tehsil?: NamedRef | null;
}

const paiseToRupees = (paise: number) => paise / 100;
const maskAadhar = (last4: string | null) => (last4 ? `XXXXXXXX${last4}` : null);

/** The seed's nested user shape. Secrets (password hash, Aadhar) never leave through here unmasked. */
export function toWireUser(row: UserRow, lookups: UserLookups = {}): WireUser {
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
    district: lookups.district ? [lookups.district] : [],
    tehsil: lookups.tehsil ? [lookups.tehsil] : [],
    wallet: {
      balance: paiseToRupees(row.balancePaise),
      clearingBalance: paiseToRupees(row.clearingBalancePaise),
    },
    passwordUpdatedAt: row.passwordUpdatedAt ? row.passwordUpdatedAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  };
  if (row.isMaster !== null || row.masterDistributorId) {
    wire.distributor = {
      isMaster: row.isMaster ?? false,
      distributorCode: row.distributorCode,
      masterDistributorCommission: row.masterDistributorCommission,
      masterDistributorId: row.masterDistributorId,
    };
  }
  if (row.distributorId && row.type !== 1) wire.retailer = { distributorId: row.distributorId };
  if (row.type === 1) {
    wire.customer = { aadharId: maskAadhar(row.aadharLast4), panId: row.panId, retailerId: row.retailerId };
  }
  return wire;
}
