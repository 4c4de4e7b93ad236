import type { RaRecord } from 'react-admin';
import { TIER_TYPES, UserType } from '../../shared/enums';
import type { DistributorInfo, NamedRef, WireUser } from '../../shared/wire';

/**
 * Users (master distributors, distributors, retailers, customers, employees) share account/*; the wire keeps the
 * seed's nested shape (docs/api.md, Conventions). This is the one place that flattens a wire user into the
 * record lists and forms use, and builds the create/update body back from a record.
 *
 * Record: `{ id, name, email, mobile, userName, type, status, districtId, district: { id, name }, tehsilId,
 * tehsil, balance, clearingBalance, passwordUpdatedAt, createdAt }` plus, by type,
 * - master distributor: isMaster, distributorCode, masterDistributorCommission
 * - distributor: masterDistributorId, masterDistributor
 * - retailer: masterDistributorId, masterDistributor, distributorId, distributor
 * - customer: aadharId (masked), panId, retailerId, retailer
 * - tier users (master distributors, distributors, retailers): panId (optional)
 * where a named parent is `{ id, name }` beside its id field, as the catalogue records keep theirs.
 */
export interface UserRecord extends RaRecord {
  name: string;
  email: string;
  mobile: string;
  userName: string;
  type: UserType;
  status: string;
  districtId: string | null;
  tehsilId: string | null;
  district?: NamedRecord;
  tehsil?: NamedRecord;
  balance: number;
  clearingBalance: number;
  createdAt: string;
}

export interface NamedRecord {
  id: string;
  name: string;
}

const named = (refs: unknown): NamedRecord | undefined => {
  const first = Array.isArray(refs) ? (refs[0] as NamedRef | undefined) : undefined;
  return first ? { id: first._id, name: first.name } : undefined;
};

const subObject = <T>(value: unknown): Partial<T> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Partial<T>) : {};

/** A wire user -> the flat record of lists and forms. */
export function userToRecord(item: unknown): UserRecord {
  const wire = item as Partial<WireUser>;
  const record: UserRecord = {
    id: (wire._id ?? (item as RaRecord).id) as string,
    name: wire.name ?? '',
    email: wire.email?.address ?? '',
    mobile: wire.mobile?.number ?? '',
    userName: wire.userName?.id ?? '',
    type: wire.type as UserType,
    status: wire.status ?? '',
    districtId: wire.districtId ?? null,
    district: named(wire.district),
    tehsilId: wire.tehsilId ?? null,
    tehsil: named(wire.tehsil),
    balance: wire.wallet?.balance ?? 0,
    clearingBalance: wire.wallet?.clearingBalance ?? 0,
    passwordUpdatedAt: wire.passwordUpdatedAt ?? null,
    createdAt: wire.createdAt ?? '',
  };
  if (wire.type !== undefined && TIER_TYPES.includes(wire.type)) record.panId = wire.panId ?? '';
  switch (wire.type) {
    case UserType.MASTER_DISTRIBUTOR: {
      const info = subObject<DistributorInfo>(wire.distributor);
      record.isMaster = info.isMaster ?? true;
      record.distributorCode = info.distributorCode ?? null;
      record.masterDistributorCommission = info.masterDistributorCommission ?? null;
      break;
    }
    case UserType.DISTRIBUTOR:
      record.masterDistributorId = subObject<DistributorInfo>(wire.distributor).masterDistributorId ?? null;
      record.masterDistributor = named(wire.master_distributor);
      break;
    case UserType.RETAILER: {
      const info = subObject<{ distributorId: string | null; masterDistributorId: string | null }>(
        wire.retailer,
      );
      record.masterDistributorId = info.masterDistributorId ?? null;
      record.masterDistributor = named(wire.master_distributor);
      record.distributorId = info.distributorId ?? null;
      record.distributor = named(wire.distributor);
      break;
    }
    case UserType.CUSTOMER:
      record.aadharId = wire.customer?.aadharId ?? '';
      record.panId = wire.customer?.panId ?? '';
      record.retailerId = wire.customer?.retailerId ?? null;
      record.retailer = named(wire.retailer);
      break;
  }
  return record;
}

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value).trim());

/**
 * The type an Employees form creates: another admin when an admin chose that role (`role`, issue 43), else an
 * employee. An update keeps the employee's type (admins are not listed, so none is edited here).
 */
export const staffTypeOf = (data: Record<string, unknown>, action: 'create' | 'update'): UserType =>
  action === 'create' && String(data.role) === String(UserType.ADMIN) ? UserType.ADMIN : UserType.EMPLOYEE;

/** Whether `data` is the Update Status call: `{ status }` alone (the server reads such a body the same way). */
export const isStatusChange = (data: Record<string, unknown>) =>
  Object.keys(data).length === 1 && 'status' in data;

/**
 * A record (or form values) -> the account/create or account/update/{id} body (seed section 7): flat strings
 * for the shared fields, the parents in their sub-objects, the employee's passwords on create only.
 * `{ status }` alone is sent as it is (Update Status). Names, looked-up parents and wallets are never sent.
 */
export function userToBody(
  type: UserType,
  data: Record<string, unknown>,
  action: 'create' | 'update',
): Record<string, unknown> {
  if (action === 'update' && isStatusChange(data)) return { status: data.status };
  const body: Record<string, unknown> = {
    type,
    name: text(data.name),
    email: text(data.email),
    mobile: text(data.mobile),
    userName: text(data.userName),
    districtId: text(data.districtId),
    tehsilId: text(data.tehsilId),
  };
  // Tier users' PAN is optional: blank clears it (issue 43).
  if (TIER_TYPES.includes(type)) body.panId = text(data.panId).toUpperCase() || null;
  switch (type) {
    case UserType.DISTRIBUTOR:
      body.distributor = { masterDistributorId: text(data.masterDistributorId) };
      break;
    case UserType.RETAILER:
      body.distributor = { masterDistributorId: text(data.masterDistributorId) };
      body.retailer = { distributorId: text(data.distributorId) };
      break;
    case UserType.CUSTOMER:
      body.customer = {
        aadharId: text(data.aadharId).replace(/\s+/g, ''),
        panId: text(data.panId).toUpperCase(),
        retailerId: text(data.retailerId) || null,
      };
      break;
    // An admin's first password is never its maker's to choose: the approving admin receives a one-time one.
    case UserType.EMPLOYEE:
      if (action === 'create') {
        body.password = data.password ?? '';
        body.confirmPassword = data.confirmPassword ?? '';
      }
      break;
  }
  return body;
}
