// The catalog constants both sides use, without zod so the sign-in page can import them (schemas re-export them).
import { MSG } from '../messages';

/** Which provider endpoint a product's account opening calls (seed section 3, account types). */
export const URL_DATA_IDENTIFIERS = [
  'PAYUSPRINT-SAVING',
  'PAYUSPRINT-CURRENT',
  'PAYUSPRINT-SOLE-PROPRIETOR',
] as const;

export const REQUEST_METHODS = ['GET', 'POST'] as const;

export const COMMISSION_FIELDS = [
  'adminCommission',
  'masterDistributorCommission',
  'distributorCommission',
  'retailerCommission',
  'customerCommission',
] as const;

export type CommissionField = (typeof COMMISSION_FIELDS)[number];

export const CATALOG_MSG = {
  providerNameRequired: 'Provider name is required!',
  productNameRequired: 'Product name is required!',
  providerRequired: MSG.required,
  invalidProvider: 'Invalid provider id',
  providerMissing: 'Selected provider does not exist',
  providerNotFound: 'Provider not found',
  productNotFound: 'Product not found',
  duplicateProvider: (name: string) => `A provider named "${name}" already exists`,
  duplicateProduct: (name: string) => `A product named "${name}" already exists for this provider`,
  urlRequired: MSG.required,
  invalidUrl: 'URL must be a valid http:// or https:// address',
  amount: 'Amount must be greater than 0 with at most 2 decimals',
  amountAboveBound: (bound: string) => `Amount must be at most ${bound}`,
  commission: 'Commission must be a number from 0 to 100 with at most 2 decimals',
  commissionTotal: 'Total commission should be 100',
  reqType: 'Request method must be GET or POST',
  urlData: `Request data identifier must be one of ${URL_DATA_IDENTIFIERS.join(', ')}`,
  providerCreated: 'Provider Created Successfully!',
  providerUpdated: 'Provider Updated Successfully!',
  productCreated: 'Product Created Successfully!',
  productUpdated: 'Product Updated Successfully!',
} as const;
