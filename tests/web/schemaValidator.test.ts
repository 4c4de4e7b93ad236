import { HttpError } from 'react-admin';
import { UserType } from '../../src/shared/enums';
import { MSG } from '../../src/shared/messages';
import { CATALOG_MSG, productSchema } from '../../src/shared/schemas/catalog';
import { LOCATION_MSG, tehsilSchema } from '../../src/shared/schemas/locations';
import { requiredFields, schemaValidator } from '../../src/web/forms/schemaValidator';
import { serverFieldErrors } from '../../src/web/forms/serverErrors';
import { i18nProvider } from '../../src/web/i18n/i18n';
import { userFormValues, userValidator } from '../../src/web/resources/people/validation';

const PROVIDER = '6c0b0a38-5b5e-4c8b-9a0e-8d1b1b7f2a11';
const product = (shares: string[]) => ({
  providerId: PROVIDER,
  name: 'Saving Account',
  url: 'https://partner.example/open',
  amount: '500',
  adminCommission: shares[0],
  masterDistributorCommission: shares[1],
  distributorCommission: shares[2],
  retailerCommission: shares[3],
  customerCommission: shares[4],
  urlParams: { reqType: 'GET', data: 'PAYUSPRINT-SAVING' },
});
/** A field message as the form shows it (react-admin translates the catalogue key). */
const shown = (error: unknown) => i18nProvider.translate(String(error));

describe('schemaValidator: the forms validate with the schemas the server parses with', () => {
  const validateProduct = schemaValidator(productSchema);

  it('refuses commissions that do not make exactly 100, with the shared message, and accepts 33.33 + 33.33 + 33.34', () => {
    const errors = validateProduct(product(['20', '20', '20', '20', '19'])) as Record<string, unknown>;
    expect(shown(errors.commission)).toBe(CATALOG_MSG.commissionTotal);
    expect(validateProduct(product(['33.33', '33.33', '33.34', '0', '0']))).toEqual({});
  });

  it('reports each field once, with its first issue, nested where the form nests', () => {
    const errors = validateProduct({
      ...product(['100', '0', '0', '0', '0']),
      amount: '-1',
      url: 'ftp://x',
      urlParams: { reqType: 'PUT', data: 'PAYUSPRINT-SAVING' },
    }) as Record<string, Record<string, unknown>>;
    expect(shown(errors.amount)).toBe(CATALOG_MSG.amount);
    expect(shown(errors.url)).toBe(CATALOG_MSG.invalidUrl);
    expect(shown(errors.urlParams.reqType)).toBe(CATALOG_MSG.reqType);
  });

  it('user forms: the flat values become the request body, each issue returns to its form field', () => {
    const validate = userValidator(UserType.CUSTOMER, 'create');
    const errors = validate({
      ...userFormValues(UserType.CUSTOMER),
      aadharId: '23456',
      panId: 'abcde1234f',
    }) as Record<string, unknown>;
    expect(shown(errors.aadharId)).toBe(MSG.aadharLength);
    expect(errors.panId).toBeUndefined();
    expect(shown(errors.name)).toBe(MSG.required);
    expect(shown(errors.tehsilId)).toBe(MSG.required);
  });

  it('on update a masked Aadhar number keeps the stored one, and a wrong new one has its own message', () => {
    const validate = userValidator(UserType.CUSTOMER, 'update');
    const base = {
      name: 'Asha',
      email: 'asha@example.com',
      mobile: '9876543210',
      userName: 'asha',
      districtId: PROVIDER,
      tehsilId: PROVIDER,
      panId: 'ABCDE1234F',
      retailerId: null,
    };
    expect(validate({ ...base, aadharId: 'XXXXXXXX1234' })).toEqual({});
    expect(validate({ ...base, aadharId: '' })).toEqual({});
    expect(shown((validate({ ...base, aadharId: '2345' }) as Record<string, unknown>).aadharId)).toBe(
      MSG.aadharLength,
    );
  });

  it('the employee passwords must match: the shared message, as soon as both are typed', () => {
    const errors = userValidator(
      UserType.EMPLOYEE,
      'create',
    )({
      ...userFormValues(UserType.EMPLOYEE),
      password: 'Strong@123',
      confirmPassword: 'Strong@124',
    }) as Record<string, unknown>;
    expect(shown(errors.confirmPassword)).toBe(MSG.passwordMismatch);
  });

  it('the required mark follows the schema: what it refuses when left blank', () => {
    const tehsil = schemaValidator(tehsilSchema);
    expect([...requiredFields(tehsil, { name: '', stateId: null, districtId: null })].sort()).toEqual([
      'districtId',
      'name',
      'stateId',
    ]);
    const customer = userValidator(UserType.CUSTOMER, 'create');
    expect(requiredFields(customer, userFormValues(UserType.CUSTOMER))).not.toContain('retailerId');
    expect(requiredFields(customer, userFormValues(UserType.CUSTOMER))).toContain('aadharId');
  });
});

describe('serverFieldErrors', () => {
  it("puts the server's refusals on the fields they name, first message per field", () => {
    const error = new HttpError('Error: Invalid data!', 400, {
      message: MSG.validationFailed,
      errors: [
        { msg: LOCATION_MSG.tehsilOutsideDistrict, param: 'customer.tehsilId' },
        { msg: 'second', param: 'customer.tehsilId' },
        { msg: 'ignored', param: 'type' },
      ],
    });
    const errors = serverFieldErrors(error, (param) =>
      param === 'type' ? '' : (param.split('.').pop() ?? ''),
    );
    expect(errors).toEqual({ tehsilId: 'app.shared.location.tehsilOutsideDistrict' });
    expect(serverFieldErrors(new Error('x'))).toBeUndefined();
  });
});
