/**
 * The Hindi words the panel's catalogue (src/web/i18n/hi.ts) and the server's documents (a receipt, a statement, a
 * TDS certificate: src/server/modules/documents/texts.ts) both print, kept once, so a document reads as the screen
 * it was downloaded from. Here because the server may not import src/web. English differs between the two (the
 * panel shows the codes themselves, as the seed writes them), so only the Hindi is shared.
 */
export const HINDI = {
  /** User types by code (0 admin .. 5 employee). */
  userTypes: {
    0: 'एडमिन',
    1: 'ग्राहक',
    2: 'मास्टर डिस्ट्रीब्यूटर',
    3: 'डिस्ट्रीब्यूटर',
    4: 'रिटेलर',
    5: 'कर्मचारी',
  } as Record<number, string>,
  /** What a posting is (PostingKind). */
  postingKinds: {
    COMMISSION: 'कमीशन',
    SETTLEMENT: 'निपटान',
    REVERSAL: 'वापसी',
    PAYOUT: 'भुगतान',
    TDS: 'टीडीएस',
    ADJUSTMENT: 'समायोजन',
  } as Record<string, string>,
  /** Which balance a posting moved (WalletBalance). */
  walletBalances: { CLEARING: 'क्लियरिंग', AVAILABLE: 'उपलब्ध' } as Record<string, string>,
  saleStatuses: { PENDING: 'लंबित', CONFIRMED: 'पुष्ट', FAILED: 'विफल', REVERSED: 'वापस लिया गया' },
  /** A product's account type (the partner's codes). */
  accountTypes: {
    'PAYUSPRINT-SAVING': 'PAYUSPRINT बचत',
    'PAYUSPRINT-CURRENT': 'PAYUSPRINT चालू',
    'PAYUSPRINT-SOLE-PROPRIETOR': 'PAYUSPRINT एकल स्वामित्व',
  } as Record<string, string>,
  /** A financial year's quarters, by name alone (the panel's TDS screen adds the months). */
  quarters: { Q1: 'पहली तिमाही', Q2: 'दूसरी तिमाही', Q3: 'तीसरी तिमाही', Q4: 'चौथी तिमाही' } as Record<
    string,
    string
  >,
  statement: {
    opening: 'प्रारंभिक शेष',
    closing: 'अंतिम शेष',
    empty: 'इस महीने कोई प्रविष्टि नहीं',
    /** The columns of a statement's lines. */
    columns: {
      date: 'तिथि और समय',
      kind: 'प्रकार',
      balanceType: 'शेष',
      reference: 'बिक्री या भुगतान',
      product: 'उत्पाद',
      customer: 'ग्राहक',
      credit: 'जमा',
      debit: 'नामे',
      tax: 'कर (टीडीएस)',
      balance: 'उपलब्ध शेष',
      clearingBalance: 'क्लियरिंग शेष',
    },
  },
  tds: {
    /** Where a deductee's PAN would be, without one. */
    noPan: 'नहीं दिया गया',
    /** A rate not reached yet: no tax withheld. */
    noTax: 'अभी कर नहीं',
  },
};
