import { MSG } from '../../src/shared/messages';
import { CATALOG_MSG } from '../../src/shared/schemas/catalog';
import {
  COMMISSION_TOTAL_KEY,
  commissionsAddUp,
  type ProductFormValues,
  toProductBody,
  validateProduct,
} from '../../src/web/resources/products/validation';

const shares = (
  admin: string,
  master: string,
  distributor: string,
  retailer: string,
  customer: string,
): ProductFormValues => ({
  adminCommission: admin,
  masterDistributorCommission: master,
  distributorCommission: distributor,
  retailerCommission: retailer,
  customerCommission: customer,
});

const valid: ProductFormValues = {
  providerId: '6c0b0a38-5b5e-4c8b-9a0e-8d1b1b7f2a11',
  name: 'Saving Account',
  url: 'https://partner.example/open',
  amount: '500',
  ...shares('40', '15', '15', '20', '10'),
  urlParams: { reqType: 'GET', data: 'PAYUSPRINT-SAVING' },
};

describe('commission sum (shared commissionTotal, integer hundredths)', () => {
  it('accepts 33.33 + 33.33 + 33.34 (+ 0 + 0) as exactly 100', () => {
    expect(commissionsAddUp(shares('33.33', '33.33', '33.34', '0', '0'))).toBe(true);
  });

  it('accepts 10.1 + 20.2 + 30.3 + 39.4 (+ 0)', () => {
    expect(commissionsAddUp(shares('10.1', '20.2', '30.3', '39.4', '0'))).toBe(true);
  });

  it('accepts 10.1 + 20.2 + 30.3 + 39.3 + 0.1, which floating point adds up to 99.99999999999999', () => {
    expect(10.1 + 20.2 + 30.3 + 39.3 + 0.1).not.toBe(100);
    expect(commissionsAddUp(shares('10.1', '20.2', '30.3', '39.3', '0.1'))).toBe(true);
    // The same shares as JSON numbers (an edited product's record).
    expect(
      commissionsAddUp({
        adminCommission: 10.1,
        masterDistributorCommission: 20.2,
        distributorCommission: 30.3,
        retailerCommission: 39.3,
        customerCommission: 0.1,
      }),
    ).toBe(true);
  });

  it('refuses 99 and 100.01', () => {
    expect(commissionsAddUp(shares('20', '20', '20', '20', '19'))).toBe(false);
    expect(commissionsAddUp(shares('20', '20', '20', '20', '20.01'))).toBe(false);
  });

  it('has no answer while a share is missing or not a number', () => {
    expect(commissionsAddUp(shares('20', '20', '20', '20', ''))).toBeNull();
    expect(commissionsAddUp(shares('20', '20', '20', '20', 'abc'))).toBeNull();
  });
});

describe('validateProduct (seed section 5)', () => {
  it('accepts a complete product', () => {
    expect(validateProduct(valid)).toEqual({});
  });

  it('reports the total under the commission key when the shares sum to 99', () => {
    expect(validateProduct({ ...valid, ...shares('20', '20', '20', '20', '19') })).toEqual({
      [COMMISSION_TOTAL_KEY]: CATALOG_MSG.commissionTotal,
    });
    expect(validateProduct({ ...valid, ...shares('10.1', '20.2', '30.3', '39.4', '0') })).toEqual({});
  });

  it('requires provider, name, url, amount and the five commissions', () => {
    const errors = validateProduct({ urlParams: { reqType: 'GET', data: 'PAYUSPRINT-SAVING' } });
    expect(errors).toMatchObject({
      providerId: MSG.required,
      name: MSG.required,
      url: MSG.required,
      amount: MSG.required,
      adminCommission: MSG.required,
      customerCommission: MSG.required,
    });
    expect(errors[COMMISSION_TOTAL_KEY]).toBeUndefined();
  });

  it('wants numbers with at most two decimals, commissions up to 100 and a positive amount', () => {
    expect(validateProduct({ ...valid, adminCommission: '4o' }).adminCommission).toBe(MSG.invalidValue);
    expect(validateProduct({ ...valid, adminCommission: '10.555' }).adminCommission).toBe(MSG.invalidValue);
    expect(validateProduct({ ...valid, adminCommission: '100.5' }).adminCommission).toBe(
      CATALOG_MSG.commission,
    );
    expect(validateProduct({ ...valid, amount: '-5' }).amount).toBe(MSG.invalidValue);
    expect(validateProduct({ ...valid, amount: '0' }).amount).toBe(CATALOG_MSG.amount);
    expect(validateProduct({ ...valid, url: 'ftp://x' }).url).toBe(CATALOG_MSG.invalidUrl);
  });
});

describe('toProductBody', () => {
  it('sends amount and commissions as JSON numbers, trimmed texts and the url params', () => {
    expect(toProductBody({ ...valid, name: ' Saving Account ', amount: '750.50' })).toEqual({
      providerId: valid.providerId,
      name: 'Saving Account',
      url: 'https://partner.example/open',
      amount: 750.5,
      adminCommission: 40,
      masterDistributorCommission: 15,
      distributorCommission: 15,
      retailerCommission: 20,
      customerCommission: 10,
      urlParams: { reqType: 'GET', data: 'PAYUSPRINT-SAVING' },
    });
  });
});
