import type { RaRecord } from 'react-admin';
import type { UserType } from '../../shared/enums';
import type { NamedRef, WireSale, WireShare, WireTransaction } from '../../shared/wire';
import type { NamedRecord } from './users';

/**
 * Sales (bought products) and postings on the wire (src/shared/wire.ts) -> the flat records lists, pages and
 * CSV exports read, as users.ts does for users: a populated reference becomes its id in `<name>Id` and
 * `{ id, name }` beside it. Money stays decimal rupees.
 */

/** A posting: one change of one wallet, with the populated user flattened for the Transactions columns. */
export interface TransactionRecord extends RaRecord {
  userId: string;
  user: NamedRecord;
  name: string;
  email: string;
  mobile: string;
  userType: UserType;
  amount: number;
  transactionType: WireTransaction['transactionType'];
  balanceType: WireTransaction['balanceType'];
  kind: WireTransaction['kind'];
  status: WireTransaction['status'];
  balance: number;
  clearingBalance: number;
  tier: WireTransaction['tier'];
  boughtProductId: string | null;
  refPostingId: string | null;
  reference: string | null;
  /** A sale's posting: the sale's reference (its utmCode), when the list sent it. */
  saleReference: string | null;
  createdAt: string;
}

export interface ShareRecord {
  tier: WireShare['tier'];
  percent: number;
  amount: number;
  user: NamedRecord | undefined;
}

export interface SaleRecord extends RaRecord {
  status: WireSale['status'];
  utmCode: string;
  merchantCode: string;
  accountType: string | null;
  amount: number;
  split: ShareRecord[];
  customerId: string | null;
  customer: NamedRecord | undefined;
  retailerId: string | null;
  retailer: NamedRecord | undefined;
  productId: string | null;
  product: NamedRecord | undefined;
  provider: NamedRecord | undefined;
  soldBy: NamedRecord | undefined;
  createdAt: string;
  confirmedAt: string | null;
  failedAt: string | null;
  reversedAt: string | null;
  /** Only on a sale fetched by id. */
  postings?: TransactionRecord[];
}

const named = (ref: Partial<NamedRef> | null | undefined): NamedRecord | undefined =>
  ref && typeof ref === 'object' && ref._id ? { id: ref._id, name: ref.name ?? '' } : undefined;

export function transactionToRecord(item: unknown): TransactionRecord {
  const wire = item as Partial<WireTransaction> & { id?: string };
  const user = wire.userId;
  return {
    id: (wire._id ?? wire.id) as string,
    userId: user?._id ?? '',
    user: named(user) ?? { id: '', name: '' },
    name: user?.name ?? '',
    email: user?.email?.address ?? '',
    mobile: user?.mobile?.number ?? '',
    userType: user?.type as UserType,
    amount: wire.amount ?? 0,
    transactionType: wire.transactionType as TransactionRecord['transactionType'],
    balanceType: wire.balanceType as TransactionRecord['balanceType'],
    kind: wire.kind as TransactionRecord['kind'],
    status: wire.status as TransactionRecord['status'],
    balance: wire.balance ?? 0,
    clearingBalance: wire.clearingBalance ?? 0,
    tier: wire.tier ?? null,
    boughtProductId: wire.boughtProductId ?? null,
    refPostingId: wire.refPostingId ?? null,
    reference: wire.reference ?? null,
    saleReference: wire.saleReference ?? null,
    createdAt: wire.createdAt ?? '',
  };
}

export function saleToRecord(item: unknown): SaleRecord {
  const wire = item as Partial<WireSale> & { id?: string };
  const record: SaleRecord = {
    id: (wire._id ?? wire.id) as string,
    status: wire.status as SaleRecord['status'],
    utmCode: wire.utmCode ?? '',
    merchantCode: wire.merchantCode ?? '',
    accountType: wire.accountType ?? null,
    amount: wire.amount ?? 0,
    split: (wire.split ?? []).map((share) => ({
      tier: share.tier,
      percent: share.percent,
      amount: share.amount,
      user: named(share.user),
    })),
    customerId: wire.customerId?._id ?? null,
    customer: named(wire.customerId),
    retailerId: wire.retailerId?._id ?? null,
    retailer: named(wire.retailerId),
    productId: wire.productId?._id ?? null,
    product: named(wire.productId),
    provider: named(wire.productId?.providerId),
    soldBy: named(wire.soldBy),
    createdAt: wire.createdAt ?? '',
    confirmedAt: wire.confirmedAt ?? null,
    failedAt: wire.failedAt ?? null,
    reversedAt: wire.reversedAt ?? null,
  };
  if (Array.isArray(wire.postings)) record.postings = wire.postings.map(transactionToRecord);
  return record;
}
