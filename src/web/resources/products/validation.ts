import { toHundredths } from '../../../shared/decimal';
import { MSG } from '../../../shared/messages';
import { CATALOG_MSG, COMMISSION_FIELDS, commissionTotal, isHttpUrl } from '../../../shared/schemas/catalog';

/** The product form's values as the inputs hold them (numbers as typed text). */
export interface ProductFormValues {
  providerId?: string | null;
  name?: string;
  url?: string;
  amount?: string | number | null;
  adminCommission?: string | number | null;
  masterDistributorCommission?: string | number | null;
  distributorCommission?: string | number | null;
  retailerCommission?: string | number | null;
  customerCommission?: string | number | null;
  urlParams?: { reqType?: string; data?: string };
}

/** The key of the form-level error for the sum of the five commissions (the server's error param too). */
export const COMMISSION_TOTAL_KEY = 'commission';

const blank = (value: unknown) => value === undefined || value === null || String(value).trim() === '';

/**
 * Whether the five commissions add up to exactly 100 %, compared in integer hundredths (shared rule:
 * commissionTotal), so 33.33 + 33.33 + 33.34 passes and 10.1 + 20.2 + 30.3 + 39.4 does not drift.
 * Null while a commission is missing or not a number (its own field reports that).
 */
export const commissionsAddUp = (values: ProductFormValues): boolean | null => {
  const total = commissionTotal(values);
  return total === null ? null : total === 10000;
};

/**
 * Seed section 5, product: provider, name, url and amount required; amount and the five commissions numeric
 * (at most two decimals, commissions 0..100); the commissions total exactly 100 ('Total commission should be 100').
 */
export function validateProduct(values: ProductFormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  if (blank(values.providerId)) errors.providerId = MSG.required;
  if (blank(values.name)) errors.name = MSG.required;
  if (blank(values.url)) errors.url = MSG.required;
  else if (!isHttpUrl(String(values.url).trim())) errors.url = CATALOG_MSG.invalidUrl;

  if (blank(values.amount)) errors.amount = MSG.required;
  else {
    const amount = toHundredths(values.amount);
    if (amount === null) errors.amount = MSG.invalidValue;
    else if (amount <= 0) errors.amount = CATALOG_MSG.amount;
  }

  for (const field of COMMISSION_FIELDS) {
    const value = values[field];
    if (blank(value)) {
      errors[field] = MSG.required;
      continue;
    }
    const share = toHundredths(value);
    if (share === null) errors[field] = MSG.invalidValue;
    else if (share > 10000) errors[field] = CATALOG_MSG.commission;
  }
  if (commissionsAddUp(values) === false) errors[COMMISSION_TOTAL_KEY] = CATALOG_MSG.commissionTotal;
  return errors;
}

/** Form values -> the products/create|update body: numbers as JSON numbers, urlParams as chosen. */
export const toProductBody = (values: ProductFormValues) => {
  const number = (value: unknown) => Number(String(value).trim());
  return {
    providerId: values.providerId,
    name: String(values.name ?? '').trim(),
    url: String(values.url ?? '').trim(),
    amount: number(values.amount),
    ...Object.fromEntries(COMMISSION_FIELDS.map((field) => [field, number(values[field])])),
    urlParams: { reqType: values.urlParams?.reqType, data: values.urlParams?.data },
  };
};
