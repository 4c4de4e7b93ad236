import { UserType } from '../../src/shared/enums';
import type { WireSale, WireTransaction } from '../../src/shared/wire';

/** Ids are UUIDs: the panel checks some of them with the server's schemas. */
export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const IDS = {
  admin: uuid(1),
  master: uuid(2),
  distributor: uuid(3),
  retailer: uuid(4),
  customer: uuid(5),
  provider: uuid(6),
  saving: uuid(7),
  current: uuid(8),
  sole: uuid(9),
  sale: uuid(10),
  otherProvider: uuid(11),
};

const person = (id: string, name: string, type: UserType, mobile: string) => ({
  _id: id,
  name,
  email: { address: `${mobile}@demo.tierdesk.in` },
  mobile: { number: mobile },
  type,
});

export const PEOPLE = {
  admin: person(IDS.admin, 'tierdesk admin', UserType.ADMIN, '9999999999'),
  master: person(IDS.master, 'suresh traders', UserType.MASTER_DISTRIBUTOR, '9100000001'),
  distributor: person(IDS.distributor, 'jaipur digital seva', UserType.DISTRIBUTOR, '9200000001'),
  retailer: person(IDS.retailer, 'ganesh mobile store', UserType.RETAILER, '9300000001'),
  customer: person(IDS.customer, 'ramesh kumar', UserType.CUSTOMER, '9400000001'),
};

/** A commission posting of the demo Saving Account sale (₹500: 40/15/15/20/10). */
export const wirePosting = (
  n: number,
  who: keyof typeof PEOPLE,
  amount: number,
  overrides: Partial<WireTransaction> = {},
): WireTransaction => ({
  _id: uuid(100 + n),
  userId: PEOPLE[who],
  amount,
  transactionType: 'CREDIT',
  balanceType: 'CLEARING',
  kind: 'COMMISSION',
  status: 'CLEARING',
  balance: 0,
  clearingBalance: amount,
  tier: (
    {
      admin: 'ADMIN',
      master: 'MASTER_DISTRIBUTOR',
      distributor: 'DISTRIBUTOR',
      retailer: 'RETAILER',
      customer: 'CUSTOMER',
    } as const
  )[who],
  boughtProductId: IDS.sale,
  refPostingId: null,
  reference: null,
  createdAt: '2026-11-22T09:30:00.000Z',
  ...overrides,
});

export const SALE_POSTINGS: WireTransaction[] = [
  wirePosting(1, 'admin', 200),
  wirePosting(2, 'master', 75),
  wirePosting(3, 'distributor', 75),
  wirePosting(4, 'retailer', 100),
  wirePosting(5, 'customer', 50),
];

export const wireSale = (overrides: Partial<WireSale> = {}): WireSale => ({
  _id: IDS.sale,
  status: 'CONFIRMED',
  utmCode: 'UTM12345',
  merchantCode: 'MERCHANT-7',
  accountType: 'PAYUSPRINT-SAVING',
  amount: 500,
  split: [
    { tier: 'ADMIN', percent: 40, amount: 200, user: { _id: IDS.admin, name: 'tierdesk admin' } },
    {
      tier: 'MASTER_DISTRIBUTOR',
      percent: 15,
      amount: 75,
      user: { _id: IDS.master, name: 'suresh traders' },
    },
    {
      tier: 'DISTRIBUTOR',
      percent: 15,
      amount: 75,
      user: { _id: IDS.distributor, name: 'jaipur digital seva' },
    },
    { tier: 'RETAILER', percent: 20, amount: 100, user: { _id: IDS.retailer, name: 'ganesh mobile store' } },
    { tier: 'CUSTOMER', percent: 10, amount: 50, user: { _id: IDS.customer, name: 'ramesh kumar' } },
  ],
  customerId: { _id: IDS.customer, name: 'ramesh kumar' },
  retailerId: { _id: IDS.retailer, name: 'ganesh mobile store' },
  productId: {
    _id: IDS.saving,
    name: 'saving account',
    providerId: { _id: IDS.provider, name: 'PayU Sprint Bank' },
  },
  soldBy: { _id: IDS.retailer, name: 'ganesh mobile store' },
  createdAt: '2026-11-22T09:00:00.000Z',
  confirmedAt: '2026-11-22T09:30:00.000Z',
  failedAt: null,
  reversedAt: null,
  ...overrides,
});

/** The catalogue as `providers/fetch` and `products/fetch` answer it (WireProduct). */
export const PROVIDERS = [
  { _id: IDS.provider, name: 'PayU Sprint Bank', createdAt: '2026-11-20T10:00:00.000Z' },
  { _id: IDS.otherProvider, name: 'NSDL Payments Bank', createdAt: '2026-11-20T10:00:00.000Z' },
];
const product = (id: string, name: string, providerIndex: number, data: string, amount: number) => ({
  _id: id,
  name,
  providerId: { _id: PROVIDERS[providerIndex]._id, name: PROVIDERS[providerIndex].name },
  amount,
  adminCommission: 40,
  masterDistributorCommission: 15,
  distributorCommission: 15,
  retailerCommission: 20,
  customerCommission: 10,
  url: 'https://partner.example/open',
  urlParams: { reqType: 'POST', data },
  createdAt: '2026-11-20T10:00:00.000Z',
});
export const PRODUCTS = [
  product(IDS.saving, 'Saving Account', 0, 'PAYUSPRINT-SAVING', 500),
  product(IDS.current, 'Current Account', 0, 'PAYUSPRINT-CURRENT', 750.5),
  product(IDS.sole, 'Sole Proprietor Account', 1, 'PAYUSPRINT-SOLE-PROPRIETOR', 1000),
];
