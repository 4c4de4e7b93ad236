import { paiseToDecimal, paiseToRupees } from '../../../shared/money';
import type { Statement } from '../../../shared/schemas/statements';
import { csvText } from '../../http/csv';
import type { Balances, MonthStatement } from './queries';

/** The statement on the wire (JSON): money in rupees, as the rest of the API writes it. */
export const toWireStatement = (s: MonthStatement): Statement => {
  const balances = (b: Balances) => ({
    balance: paiseToRupees(b.balance),
    clearingBalance: paiseToRupees(b.clearing),
  });
  return {
    user: { _id: s.user.id, name: s.user.name, type: s.user.type },
    month: s.month,
    from: s.from,
    to: s.to,
    opening: balances(s.opening),
    closing: balances(s.closing),
    lines: s.lines.map((l) => ({
      _id: l.id,
      createdAt: l.createdAt.toISOString(),
      date: l.date,
      time: l.time,
      kind: l.kind,
      transactionType: l.transactionType,
      balanceType: l.balanceType,
      reference: l.reference,
      boughtProductId: l.boughtProductId,
      product: l.product,
      customer: l.customer,
      amount: paiseToRupees(l.amount),
      tax: l.tax === null ? null : paiseToRupees(l.tax),
      balance: paiseToRupees(l.after.balance),
      clearingBalance: paiseToRupees(l.after.clearing),
    })),
  };
};

const CSV_HEADER = [
  'Date',
  'Time',
  'Kind',
  'Credit or debit',
  'Balance moved',
  'Reference',
  'Product',
  'Customer',
  'Customer mobile',
  'Amount',
  'Tax',
  'Available balance',
  'Clearing balance',
];

/**
 * The statement as CSV (the server's CSV writer, formulas neutralised): the opening balances first, a row per
 * line, the closing balances last, in the same columns; money as exact decimal rupees.
 */
export function statementCsv(s: MonthStatement): string {
  const edge = (label: string, day: string, b: Balances) => [
    day,
    '',
    label,
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    paiseToDecimal(b.balance),
    paiseToDecimal(b.clearing),
  ];
  return csvText([
    CSV_HEADER,
    edge('OPENING', s.from, s.opening),
    ...s.lines.map((l) => [
      l.date,
      l.time,
      l.kind,
      l.transactionType,
      l.balanceType,
      l.reference,
      l.product,
      l.customer?.name,
      l.customer?.mobile,
      paiseToDecimal(l.amount),
      l.tax === null ? '' : paiseToDecimal(l.tax),
      paiseToDecimal(l.after.balance),
      paiseToDecimal(l.after.clearing),
    ]),
    edge('CLOSING', s.to, s.closing),
  ]);
}
