import { and, asc, eq, gte, lt, lte, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { TDS_MSG, TDS_SECTION, type TdsQuarter } from '../../../shared/constants/tds';
import { BUSINESS_TIME_ZONE } from '../../../shared/dates';
import { formatRupees } from '../../../shared/format';
import { paiseToRupees } from '../../../shared/money';
import type {
  TdsCertificate,
  TdsDepositInput,
  TdsDepositsResult,
  TdsFetchResult,
  TdsQuartersResult,
} from '../../../shared/schemas/tds';
import type { TdsConfig } from '../../config';
import { isUniqueViolation } from '../../db/errors';
import type { Db, Queryable } from '../../db/open';
import { ledgerAccounts, tdsEntries, users } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import { csvText } from '../../http/csv';
import { conflict, notFound } from '../../http/errors';
import type { AuditRecorder } from '../audit/index';
import { fyLabel, periodOf, TDS_PAYABLE } from './tds';

/** Who deducts, as the certificate names it. */
export const DEDUCTOR_NAME = 'Tierdesk';

const quarterNumber = (quarter: TdsQuarter) => Number(quarter.slice(1)) as 1 | 2 | 3 | 4;
const percentOf = (basisPoints: number) => basisPoints / 100;
/** India's calendar day of a moment, as YYYY-MM-DD. */
const indiaDay = (at: Date) => new Date(at.getTime() + 330 * 60_000).toISOString().slice(0, 10);
/** The period's bounds as India's days: the first day and the last. */
function periodDays(fy: string, quarter: TdsQuarter) {
  const { from, to } = periodOf(Number(fy.slice(0, 4)), quarterNumber(quarter));
  return { from, to, fromDay: indiaDay(from), toDay: indiaDay(new Date(to.getTime() - 1)) };
}

/**
 * `tds/deposit`: a challan paid against TDS payable. The account row is locked first (no wallet is involved), so
 * two deposits cannot both pass the balance check, nor record one challan twice. The same challan again (its serial
 * with or without leading zeros) with the same amount answers the first deposit (a repeated command changes
 * nothing); with another amount it is refused.
 */
export async function recordTdsDeposit(
  db: Db,
  adminId: string,
  input: TdsDepositInput,
  audit?: AuditRecorder,
) {
  const prior = async (q: Queryable) =>
    (
      await q
        .select()
        .from(tdsEntries)
        .where(
          and(
            eq(tdsEntries.kind, 'DEPOSIT'),
            eq(tdsEntries.bsrCode, input.bsrCode),
            // Deposits recorded before issue 51 kept the serial as typed: compared padded, as the key does.
            eq(sql`lpad(${tdsEntries.challanSerial}, 5, '0')`, input.challanSerial),
            eq(tdsEntries.depositedOn, input.date),
          ),
        )
        // The first recorded, where one challan was recorded twice before issue 51.
        .orderBy(asc(tdsEntries.createdAt), asc(tdsEntries.id))
        .limit(1)
    )[0];
  const replayOf = async (q: Queryable, entry: typeof tdsEntries.$inferSelect) => {
    if (entry.amountPaise !== input.amount) throw conflict(TDS_MSG.challanUsed, 'challanSerial');
    return { entry, payable: await tdsPayable(q), replay: true };
  };
  try {
    return await inTransaction(db, async (tx) => {
      await tx.insert(ledgerAccounts).values({ name: TDS_PAYABLE }).onConflictDoNothing();
      const [account] = await tx
        .select({ balance: sql<string>`${ledgerAccounts.balancePaise}::text` })
        .from(ledgerAccounts)
        .where(eq(ledgerAccounts.name, TDS_PAYABLE))
        .for('update');
      const before = await prior(tx);
      if (before) return replayOf(tx, before);
      const payable = BigInt(account.balance);
      if (BigInt(input.amount) > payable)
        throw conflict(
          TDS_MSG.aboveTdsPayable(formatRupees(paiseToRupees(payable < 0n ? 0n : payable))),
          'amount',
        );
      const [entry] = await tx
        .insert(tdsEntries)
        .values({
          kind: 'DEPOSIT',
          amountPaise: input.amount,
          bsrCode: input.bsrCode,
          challanSerial: input.challanSerial,
          depositedOn: input.date,
          createdBy: adminId,
          createdAt: new Date(),
        })
        .returning();
      await tx
        .update(ledgerAccounts)
        .set({
          balancePaise: sql`${ledgerAccounts.balancePaise} - ${input.amount}`,
          entryCount: sql`${ledgerAccounts.entryCount} + 1`,
        })
        .where(eq(ledgerAccounts.name, TDS_PAYABLE));
      await audit?.(tx, {
        entityId: entry.id,
        after: {
          bsrCode: input.bsrCode,
          challanSerial: input.challanSerial,
          date: input.date,
          amountPaise: input.amount,
        },
      });
      return { entry, payable: payable - BigInt(input.amount), replay: false };
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const entry = await prior(db);
    if (!entry) throw error;
    return replayOf(db, entry);
  }
}

/** TDS payable now, in paise. */
export async function tdsPayable(q: Queryable): Promise<bigint> {
  const [row] = await q
    .select({ balance: sql<string>`${ledgerAccounts.balancePaise}::text` })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.name, TDS_PAYABLE));
  return BigInt(row?.balance ?? '0');
}

/** `tds/deposits`: the challans dated in the quarter (India's days), oldest first, and TDS payable now. */
export async function tdsDeposits(
  db: Queryable,
  fy: string,
  quarter: TdsQuarter,
): Promise<TdsDepositsResult> {
  const { fromDay, toDay } = periodDays(fy, quarter);
  const rows = await db
    .select()
    .from(tdsEntries)
    .where(
      and(
        eq(tdsEntries.kind, 'DEPOSIT'),
        gte(tdsEntries.depositedOn, fromDay),
        lte(tdsEntries.depositedOn, toDay),
      ),
    )
    .orderBy(asc(tdsEntries.depositedOn), asc(tdsEntries.createdAt), asc(tdsEntries.id));
  const total = rows.reduce((sum, r) => sum + BigInt(r.amountPaise), 0n);
  return {
    fy,
    quarter,
    from: fromDay,
    to: toDay,
    deposits: rows.map((r) => ({
      _id: r.id,
      bsrCode: r.bsrCode ?? '',
      challanSerial: r.challanSerial ?? '',
      date: r.depositedOn ?? '',
      amount: paiseToRupees(r.amountPaise),
      createdAt: r.createdAt.toISOString(),
    })),
    total: paiseToRupees(total),
    tdsPayable: paiseToRupees(await tdsPayable(db)),
  };
}

interface DeducteeRow {
  user_id: string;
  name: string;
  pan_id: string | null;
  rate: number | null;
  credited: string;
  tds: string;
  last_credit: Date | string | null;
  last_deduction: Date | string | null;
}

const asDate = (value: Date | string | null) => (value === null ? null : new Date(value));

/**
 * The quarter's deductees, one row per deductee, rate and PAN: what each commission's tax was withheld at, as the
 * withholding recorded it (tds_entries), not the deductee's PAN now. A commission counts under its withholding when
 * that came before the quarter's end (a commission settled in June and taxed by July's catch-up stays untaxed in the
 * first quarter, so a quarter's figures never change afterwards); commission with no such withholding makes the row
 * without a rate, under the deductee's PAN now. A return counts under the withholding it gives back. `userId`: one
 * deductee's rows only (its certificate).
 */
async function deducteeRows(
  db: Queryable,
  tds: TdsConfig,
  period: { from: Date; to: Date },
  userId?: string,
): Promise<DeducteeRow[]> {
  const from = period.from.toISOString();
  const to = period.to.toISOString();
  const types = sql.raw(tds.deducteeTypes.length ? tds.deducteeTypes.join(', ') : 'null');
  const postingsOf = userId ? sql`and p.user_id = ${userId}` : sql``;
  const entriesOf = userId ? sql`and e.user_id = ${userId}` : sql``;
  return (
    await db.execute(sql`
      with c as (
        select p.user_id, w.id is not null as taxed, w.rate_basis_points as rate, w.pan_id,
          sum(case when p.kind = 'SETTLEMENT' then p.amount_paise else -p.amount_paise end) as credited,
          min(p.created_at) as first_at,
          max(p.created_at) filter (where p.kind = 'SETTLEMENT') as last_credit
        from postings p
        left join tds_entries w on w.kind = 'WITHHELD' and w.commission_id = p.ref_posting_id and w.created_at < ${to}
        where p.created_at >= ${from} and p.created_at < ${to} ${postingsOf}
          and p.user_type in (${types}) and p.balance_type = 'AVAILABLE' and p.kind in ('SETTLEMENT', 'REVERSAL')
        group by 1, 2, 3, 4
      ), t as (
        select e.user_id, true as taxed, w.rate_basis_points as rate, w.pan_id,
          sum(case e.kind when 'WITHHELD' then e.amount_paise else -e.amount_paise end) as tds,
          min(e.created_at) as first_at,
          max(e.created_at) filter (where e.kind = 'WITHHELD') as last_deduction
        from tds_entries e
        join tds_entries w on w.kind = 'WITHHELD' and w.commission_id = e.commission_id
        where e.kind in ('WITHHELD', 'RETURNED') and e.created_at >= ${from} and e.created_at < ${to} ${entriesOf}
        group by 1, 2, 3, 4
      ), k as (
        select user_id, taxed, rate, pan_id from c union select user_id, taxed, rate, pan_id from t
      )
      select u.id as user_id, u.name, case when k.taxed then k.pan_id else u.pan_id end as pan_id, k.rate,
        coalesce(c.credited, 0)::text as credited, coalesce(t.tds, 0)::text as tds, c.last_credit, t.last_deduction
      from k
      join users u on u.id = k.user_id
      left join c on c.user_id = k.user_id and c.taxed = k.taxed and c.rate is not distinct from k.rate
        and c.pan_id is not distinct from k.pan_id
      left join t on t.user_id = k.user_id and t.taxed = k.taxed and t.rate is not distinct from k.rate
        and t.pan_id is not distinct from k.pan_id
      order by lower(u.name), u.id, least(c.first_at, t.first_at), k.rate, k.pan_id`)
  ).rows as unknown as DeducteeRow[];
}

/** A row as the wire says it: rupees, percent and India's days. */
const deducteeFiguresOf = (r: DeducteeRow) => {
  const lastCredit = asDate(r.last_credit);
  const lastDeduction = asDate(r.last_deduction);
  return {
    panId: r.pan_id,
    credited: paiseToRupees(BigInt(r.credited)),
    tds: paiseToRupees(BigInt(r.tds)),
    rate: r.rate === null ? null : percentOf(r.rate),
    creditedOn: lastCredit ? indiaDay(lastCredit) : null,
    deductedOn: lastDeduction ? indiaDay(lastDeduction) : null,
  };
};

const sums = (rows: DeducteeRow[]) => ({
  credited: paiseToRupees(rows.reduce((sum, r) => sum + BigInt(r.credited), 0n)),
  tds: paiseToRupees(rows.reduce((sum, r) => sum + BigInt(r.tds), 0n)),
});

/**
 * `tds/fetch`: every deductee with commission credited or tax withheld in the quarter (Form 26Q's deductee
 * details), a row per rate and PAN (deducteeRows). Credited: commission made available in the quarter (settled) less
 * settled commission reversed in it; tds: tax withheld in it less tax given back in it; both in exact sums of paise.
 */
export async function tdsQuarter(
  db: Queryable,
  tds: TdsConfig,
  fy: string,
  quarter: TdsQuarter,
): Promise<TdsFetchResult> {
  const { from, to, fromDay, toDay } = periodDays(fy, quarter);
  const rows = await deducteeRows(db, tds, { from, to });
  return {
    fy,
    quarter,
    from: fromDay,
    to: toDay,
    section: TDS_SECTION,
    deductees: rows.map((r) => ({ userId: r.user_id, name: r.name, ...deducteeFiguresOf(r) })),
    totals: sums(rows),
  };
}

/** The quarter as CSV with Form 26Q's deductee columns (not the official upload file). */
export function tdsQuarterCsv(report: TdsFetchResult): string {
  const header = [
    'Deductee PAN',
    'Deductee name',
    'Section code',
    'Amount paid or credited',
    'Date of payment or credit',
    'TDS deducted',
    'Date of deduction',
    'Rate (%)',
    'Deductee id',
  ];
  const lines = report.deductees.map((d) => [
    d.panId ?? 'PANNOTAVBL',
    d.name,
    report.section,
    d.credited,
    d.creditedOn,
    d.tds,
    d.deductedOn,
    d.rate,
    d.userId,
  ]);
  return csvText([header, ...lines]);
}

/** A deductee by id: 404 for no such user, and for a user whose type is not taxed (TDS_DEDUCTEE_TYPES). */
async function deducteeOf(db: Queryable, userId: string, config: TdsConfig) {
  const [user] = await db
    .select({ id: users.id, name: users.name, panId: users.panId, type: users.type })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw notFound(TDS_MSG.userNotFound);
  if (!config.deducteeTypes.includes(user.type)) throw notFound(TDS_MSG.notDeductee);
  return user;
}

/**
 * `tds/quarters`: every quarter of India's financial years in which the deductee had commission settled or reversed,
 * or tax withheld or given back, newest first, with the sums its certificate has (the same postings and entries as
 * deducteeRows, by quarter).
 */
export async function tdsQuarters(
  db: Queryable,
  userId: string,
  config: TdsConfig,
): Promise<TdsQuartersResult> {
  const user = await deducteeOf(db, userId, config);
  const quarterOf = (column: SQL) =>
    sql`to_char(date_trunc('quarter', ${column} at time zone ${sql.raw(`'${BUSINESS_TIME_ZONE}'`)}), 'YYYY-MM')`;
  const rows = (
    await db.execute(sql`
      select q.start, sum(q.credited)::text as credited, sum(q.tds)::text as tds
      from (
        select ${quarterOf(sql`p.created_at`)} as start,
          case when p.kind = 'SETTLEMENT' then p.amount_paise else -p.amount_paise end as credited, 0 as tds
        from postings p
        where p.user_id = ${userId} and p.balance_type = 'AVAILABLE' and p.kind in ('SETTLEMENT', 'REVERSAL')
        union all
        select ${quarterOf(sql`e.created_at`)}, 0,
          case e.kind when 'WITHHELD' then e.amount_paise else -e.amount_paise end
        from tds_entries e
        where e.user_id = ${userId} and e.kind in ('WITHHELD', 'RETURNED')
      ) q
      group by q.start
      order by q.start desc`)
  ).rows as { start: string; credited: string; tds: string }[];
  return {
    user: { _id: user.id, name: user.name, panId: user.panId },
    quarters: rows.map((r) => {
      // A calendar quarter's first month: April starts Q1 of its year's financial year, January Q4 of the last.
      const year = Number(r.start.slice(0, 4));
      const month = Number(r.start.slice(5, 7));
      const fy = fyLabel(month >= 4 ? year : year - 1);
      const quarter = `Q${month >= 4 ? (month - 1) / 3 : 4}` as TdsQuarter;
      const { fromDay, toDay } = periodDays(fy, quarter);
      return {
        fy,
        quarter,
        from: fromDay,
        to: toDay,
        credited: paiseToRupees(BigInt(r.credited)),
        tds: paiseToRupees(BigInt(r.tds)),
      };
    }),
  };
}

/**
 * Form 16A's data: one deductee's rows of the quarter (one per rate and PAN, as tds/fetch has them) and its
 * withholdings and returns, each with the rate and PAN the tax was withheld at.
 */
export async function tdsCertificate(
  db: Queryable,
  userId: string,
  fy: string,
  quarter: TdsQuarter,
  config: TdsConfig,
): Promise<TdsCertificate> {
  const user = await deducteeOf(db, userId, config);
  const { from, to, fromDay, toDay } = periodDays(fy, quarter);
  const rows = await deducteeRows(db, config, { from, to }, userId);
  // A return's rate and PAN are its withholding's.
  const withheld = alias(tdsEntries, 'withheld');
  const entries = await db
    .select({
      kind: tdsEntries.kind,
      createdAt: tdsEntries.createdAt,
      amountPaise: tdsEntries.amountPaise,
      creditedPaise: tdsEntries.creditedPaise,
      rateBasisPoints: withheld.rateBasisPoints,
      panId: withheld.panId,
    })
    .from(tdsEntries)
    .innerJoin(
      withheld,
      and(eq(withheld.kind, 'WITHHELD'), eq(withheld.commissionId, tdsEntries.commissionId)),
    )
    .where(and(eq(tdsEntries.userId, userId), gte(tdsEntries.createdAt, from), lt(tdsEntries.createdAt, to)))
    .orderBy(tdsEntries.createdAt, tdsEntries.id);
  return {
    deductor: { name: DEDUCTOR_NAME },
    deductee: { userId: user.id, name: user.name, panId: user.panId },
    fy,
    quarter,
    from: fromDay,
    to: toDay,
    section: TDS_SECTION,
    ...sums(rows),
    rows: rows.map(deducteeFiguresOf),
    lines: entries.map((e) => ({
      date: indiaDay(e.createdAt),
      kind: e.kind as 'WITHHELD' | 'RETURNED',
      credited: e.kind === 'WITHHELD' && e.creditedPaise !== null ? paiseToRupees(e.creditedPaise) : null,
      rate: percentOf(e.rateBasisPoints ?? 0),
      panId: e.panId,
      tds: paiseToRupees(e.kind === 'WITHHELD' ? e.amountPaise : -e.amountPaise),
    })),
  };
}
