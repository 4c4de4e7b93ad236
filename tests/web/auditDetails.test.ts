import { AUDIT_ACTIONS } from '../../src/shared/audit';
import { formatCount, formatDate, formatRupees } from '../../src/shared/format';
import { en } from '../../src/web/i18n/en';
import { hi } from '../../src/web/i18n/hi';
import { i18nProvider } from '../../src/web/i18n/i18n';
import { auditDetails, detailsKey } from '../../src/web/resources/audit/details';

// Issue 53: an audit row's details are a sentence of the catalogue, in English and Hindi, naming what was done with
// the row's values by their names (kinds, statuses, labels), never the server's field names or codes.

const formatIn = (locale: 'en' | 'hi') => ({
  rupees: (value: unknown) => formatRupees(value, locale),
  count: (value: number) => formatCount(value, locale),
  date: (value: unknown) => formatDate(value, { locale }),
});

const IMPORT_ROW = {
  action: 'import.run',
  before: null,
  after: {
    jobId: 'j-1',
    kind: 'customers',
    fileName: 'customers.csv',
    dryRun: true,
    mode: 'create',
    status: 'DONE',
    counts: { read: 70, created: 0, updated: 0, unchanged: 0, conflicts: 0, refused: 3 },
    errorsTotal: 3,
  },
};
const TDS_ROW = {
  action: 'tds.deposit',
  before: null,
  after: { bsrCode: '0510002', challanSerial: '00042', date: '2026-11-07', amountPaise: 1234567 },
};
const UPDATE_ROW = {
  action: 'product.update',
  before: { amount: 500, adminCommission: 40 },
  after: { amount: 600, adminCommission: 40.5 },
};

/** The server's field names and codes that must never show in a sentence. */
const CODES =
  /\b(kind|mode|counts|dryRun|status|DONE|FAILED|bsrCode|amountPaise|challanSerial|adminCommission|customers)\b|[{}"]/;

async function inLanguage<T>(locale: 'en' | 'hi', work: () => T): Promise<T> {
  await i18nProvider.changeLocale(locale);
  try {
    return work();
  } finally {
    await i18nProvider.changeLocale('en');
  }
}

describe('audit details as sentences (issue 53)', () => {
  it('has a sentence for every action, in English and Hindi', () => {
    const keys = [...AUDIT_ACTIONS, 'import.check'].map(
      (action) => detailsKey(action).split('.').pop() as string,
    );
    for (const key of keys) {
      expect(en.app.audit.details, key).toHaveProperty([key]);
      expect(hi.app.audit.details[key as keyof typeof hi.app.audit.details], key).toMatch(/[\u0900-\u097F]/);
    }
  });

  it("writes an import's check as a sentence with its kind and counts, never its codes", async () => {
    const english = auditDetails(IMPORT_ROW, i18nProvider.translate, formatIn('en'));
    expect(english).toBe(
      'Checked a file of Customers (nothing written): 70 rows read, 3 refused, 3 errors. Finished.',
    );
    const hindi = await inLanguage('hi', () =>
      auditDetails(IMPORT_ROW, i18nProvider.translate, formatIn('hi')),
    );
    expect(hindi).toBe('ग्राहक की फ़ाइल जाँची (कुछ नहीं लिखा गया): 70 पंक्तियाँ पढ़ी गईं, 3 अस्वीकृत, 3 त्रुटियाँ। पूरा हुआ।');
    for (const text of [english, hindi]) expect(text).not.toMatch(CODES);
  });

  it('writes a TDS deposit with its amount in rupees, its challan and its day', async () => {
    expect(auditDetails(TDS_ROW, i18nProvider.translate, formatIn('en'))).toBe(
      'Recorded a TDS deposit of ₹12,345.67: BSR code 0510002, challan serial 00042, deposited on Nov 7, 2026.',
    );
    const hindi = await inLanguage('hi', () => auditDetails(TDS_ROW, i18nProvider.translate, formatIn('hi')));
    expect(hindi).toContain('₹12,345.67');
    expect(hindi).toContain(formatDate('2026-11-07', { locale: 'hi' }));
    expect(hindi).not.toMatch(CODES);
  });

  it("names an update's fields by their labels, with their values before and after", async () => {
    expect(auditDetails(UPDATE_ROW, i18nProvider.translate, formatIn('en'))).toBe(
      'Changed the product. Amount: 500 → 600; Admin Commission: 40 → 40.5',
    );
    const hindi = await inLanguage('hi', () =>
      auditDetails(UPDATE_ROW, i18nProvider.translate, formatIn('hi')),
    );
    expect(hindi).toBe('उत्पाद बदला। राशि: 500 → 600; एडमिन कमीशन: 40 → 40.5');
  });

  it("shows a refusal's message in the reader's language", async () => {
    const row = {
      action: 'access.denied',
      before: null,
      after: { message: 'You do not have permission to do this' },
    };
    expect(auditDetails(row, i18nProvider.translate, formatIn('en'))).toBe(
      'Refused: You do not have permission to do this',
    );
    const hindi = await inLanguage('hi', () => auditDetails(row, i18nProvider.translate, formatIn('hi')));
    expect(hindi).toBe('अस्वीकार किया गया: आपको यह करने की अनुमति नहीं है');
  });
});
