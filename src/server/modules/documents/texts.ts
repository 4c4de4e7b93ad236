import type { DocumentLanguage } from '../../../shared/constants/documents';
import { TDS_SECTION } from '../../../shared/constants/tds';
import { HINDI } from '../../../shared/i18n/hindi';

/**
 * Every word the documents (a sale's receipt, a month's statement, a TDS certificate) print, in English and Hindi:
 * the one place they are kept. The Hindi words the panel's catalogue prints too (the statement's columns, kinds,
 * balances, user types, sale statuses, account types, quarters) come from src/shared/i18n/hindi.ts, which both
 * read, so a document reads as the screen it was downloaded from.
 */
const en = {
  /** The time zone's word in a time's label: documents give India's time. */
  zone: 'IST',
  userTypes: { 2: 'Master distributor', 3: 'Distributor', 4: 'Retailer' } as Record<number, string>,
  receipt: {
    title: 'Sale receipt',
    document: 'Receipt',
    status: {
      PENDING: { label: 'Pending: the account opening is not finished yet', at: '' },
      CONFIRMED: { label: 'Confirmed', at: 'Confirmed at' },
      FAILED: { label: 'Failed: the account was not opened', at: 'Failed at' },
      REVERSED: { label: 'Reversed', at: 'Reversed at' },
    },
    labels: {
      reference: 'Reference',
      status: 'Status',
      amount: 'Amount',
      product: 'Product',
      provider: 'Provider',
      accountType: 'Account type',
      customer: 'Customer',
      mobile: 'Customer mobile',
      retailer: 'Retailer',
      merchantCode: 'Merchant code',
      recordedAt: 'Recorded at',
    },
    /** Account types as the receipt names them (the codes themselves, as the seed writes them). */
    accountTypes: {} as Record<string, string>,
    footer: 'Keep this receipt: quote the reference for any question about this sale.',
  },
  statement: {
    title: (name: string) => `Statement of ${name}`,
    period: (type: string, from: string, to: string) => `${type}, ${from} to ${to}`,
    balances: (label: string, available: string, clearing: string) =>
      `${label}: available ${available}, clearing ${clearing}`,
    opening: 'Opening balance',
    closing: 'Closing balance',
    empty: 'No postings in this month',
    columns: {
      date: 'Date and time',
      kind: 'Kind',
      balanceType: 'Balance',
      reference: 'Reference',
      product: 'Product',
      customer: 'Customer',
      credit: 'Credit',
      debit: 'Debit',
      tax: 'Tax',
      balance: 'Available',
      clearingBalance: 'Clearing',
    },
    kinds: {
      COMMISSION: 'Commission',
      SETTLEMENT: 'Settlement',
      REVERSAL: 'Reversal',
      PAYOUT: 'Payout',
      TDS: 'Tds',
      ADJUSTMENT: 'Adjustment',
    } as Record<string, string>,
    balanceTypes: { CLEARING: 'Clearing', AVAILABLE: 'Available' } as Record<string, string>,
  },
  certificate: {
    /** The file's title, before the deductee, year and quarter. */
    name: 'TDS certificate',
    title: 'Certificate of tax deducted at source (Form 16A data)',
    section: `Section ${TDS_SECTION}: commission or brokerage`,
    deductor: 'Deductor',
    deductee: 'Deductee',
    panNow: 'PAN of the deductee now',
    /** Form 26Q's word for a deductee without a PAN. */
    noPan: 'PANNOTAVBL',
    period: (fy: string, quarter: string, from: string, to: string) =>
      `Financial year ${fy}, quarter ${quarter}: ${from} to ${to}`,
    quarters: { Q1: 'Q1', Q2: 'Q2', Q3: 'Q3', Q4: 'Q4' } as Record<string, string>,
    credited: 'Amount paid or credited',
    tds: 'Tax deducted',
    byRate: 'By rate and PAN',
    rateHeading: ['PAN used', 'Rate', 'Amount credited', 'Tax'],
    noTax: 'no tax',
    lineHeading: ['Date', 'Entry', 'PAN used', 'Amount credited', 'Rate', 'Tax'],
    entries: { WITHHELD: 'withheld', RETURNED: 'returned' },
  },
};

export type DocumentTexts = typeof en;

const hi: DocumentTexts = {
  zone: 'भारतीय समय',
  userTypes: HINDI.userTypes,
  receipt: {
    title: 'बिक्री की रसीद',
    document: 'रसीद',
    status: {
      PENDING: { label: 'लंबित: खाता खुलना अभी पूरा नहीं हुआ', at: '' },
      CONFIRMED: { label: HINDI.saleStatuses.CONFIRMED, at: 'पुष्टि का समय' },
      FAILED: { label: 'विफल: खाता नहीं खुला', at: 'विफल होने का समय' },
      REVERSED: { label: HINDI.saleStatuses.REVERSED, at: 'वापस लेने का समय' },
    },
    labels: {
      reference: 'संदर्भ',
      status: 'स्थिति',
      amount: 'राशि',
      product: 'उत्पाद',
      provider: 'प्रोवाइडर',
      accountType: 'खाते का प्रकार',
      customer: 'ग्राहक',
      mobile: 'ग्राहक का मोबाइल',
      retailer: 'रिटेलर',
      merchantCode: 'मर्चेंट कोड',
      recordedAt: 'दर्ज करने का समय',
    },
    accountTypes: HINDI.accountTypes,
    footer: 'यह रसीद रखें: इस बिक्री के किसी भी प्रश्न के लिए संदर्भ बताएँ।',
  },
  statement: {
    title: (name) => `${name} का विवरण`,
    period: (type, from, to) => `${type}, ${from} से ${to}`,
    balances: (label, available, clearing) => `${label}: उपलब्ध ${available}, क्लियरिंग ${clearing}`,
    ...HINDI.statement,
    kinds: HINDI.postingKinds,
    balanceTypes: HINDI.walletBalances,
  },
  certificate: {
    name: 'टीडीएस प्रमाणपत्र',
    title: 'स्रोत पर काटे गए कर का प्रमाणपत्र (फ़ॉर्म 16A का डेटा)',
    section: `धारा ${TDS_SECTION}: कमीशन या दलाली`,
    deductor: 'कटौतीकर्ता',
    deductee: 'जिसका कर कटा',
    panNow: 'अभी का पैन',
    noPan: HINDI.tds.noPan,
    period: (fy, quarter, from, to) => `वित्तीय वर्ष ${fy}, ${quarter}: ${from} से ${to}`,
    quarters: HINDI.quarters,
    credited: 'भुगतान या जमा राशि',
    tds: 'काटा गया कर',
    byRate: 'दर और पैन के अनुसार',
    rateHeading: ['इस्तेमाल हुआ पैन', 'दर', 'जमा राशि', 'कर'],
    noTax: HINDI.tds.noTax,
    lineHeading: ['तारीख', 'प्रविष्टि', 'इस्तेमाल हुआ पैन', 'जमा राशि', 'दर', 'कर'],
    entries: { WITHHELD: 'काटा गया', RETURNED: 'लौटाया गया' },
  },
};

export const DOCUMENT_TEXTS: Record<DocumentLanguage, DocumentTexts> = { en, hi };
