import { and, eq, inArray, sql } from 'drizzle-orm';
import type { TdsConfig } from '../../config';
import type { Tx } from '../../db/open';
import { ledgerAccounts, postings, tdsEntries, users } from '../../db/schema';

/**
 * TDS under section 194H (issue 43). Tax is withheld when a commission is settled (clearing to available, by the
 * job or by an admin): once a deductee's settled commission in the financial year (April to March, India's
 * calendar) passes the threshold, every commission of that year settled and not yet taxed is taxed, so the
 * settlement that crosses the threshold withholds on the whole year so far (the catch-up) and each later one on
 * its own commissions. The year's settled commission counts what was settled in it and not reversed since.
 *
 * Each commission is taxed on its own: tax = amount x rate, rounded to the nearest paisa, halves up, in bigint
 * (`(amount * basisPoints + 5000) / 10000`); the year's tax is the sum of its commissions' taxes. The rate is the
 * configured one, or the rate without PAN (section 206AA) when the deductee has none at the settlement.
 *
 * The tax is a posting (kind TDS, status WITHHELD) debiting the deductee's available balance, pointing at the
 * commission, and an entry crediting TDS payable (ledger_accounts, tds_entries), in the settlement's own
 * transaction. It may leave the wallet owing (a catch-up larger than what is left after payouts), as a reversal
 * may. A reversal of a settled commission gives its tax back: a TDS posting (REVERSED) crediting the deductee and
 * an entry debiting TDS payable. Challan deposits debit TDS payable.
 *
 * This file holds the rule (taxDue, taxToReturn) and TDS payable's side (recordWithheld, recordReturned); the
 * postings are the ledger's, written by its settlement and its reversals (modules/ledger/withholding.ts).
 */

export const TDS_PAYABLE = 'TDS_PAYABLE';

/** 1 April 00:00 in India (UTC+05:30 all year): where a financial year starts. */
const IST_OFFSET_MS = 330 * 60_000;

/** A financial year as `2026-27`. */
export const fyLabel = (startYear: number) =>
  `${startYear}-${String((startYear + 1) % 100).padStart(2, '0')}`;

/** The financial year a moment falls in (India's calendar): its first year, e.g. 2026 for 2026-27. */
export function fyStartYearOf(at: Date): number {
  const local = new Date(at.getTime() + IST_OFFSET_MS);
  return local.getUTCMonth() >= 3 ? local.getUTCFullYear() : local.getUTCFullYear() - 1;
}

/** Midnight in India of a calendar day (month 0-based, may run past 11). */
const indiaMidnight = (year: number, month: number) => new Date(Date.UTC(year, month, 1) - IST_OFFSET_MS);

/** [from, to) of a financial year (`startYear`) or one of its quarters (1: April to June ... 4: January to March). */
export function periodOf(startYear: number, quarter?: 1 | 2 | 3 | 4): { from: Date; to: Date } {
  if (!quarter) return { from: indiaMidnight(startYear, 3), to: indiaMidnight(startYear + 1, 3) };
  const firstMonth = 3 + (quarter - 1) * 3;
  return { from: indiaMidnight(startYear, firstMonth), to: indiaMidnight(startYear, firstMonth + 3) };
}

/** The tax on an amount at a rate in basis points: to the nearest paisa, halves up, exact (bigint). */
export const taxOf = (amountPaise: bigint, basisPoints: number) =>
  (amountPaise * BigInt(basisPoints) + 5_000n) / 10_000n;

/** TDS payable's balance moves by `delta` over `entries` new entries (locked after the wallets: the ledger's order). */
async function moveTdsPayable(tx: Tx, delta: bigint, entries: number) {
  await tx
    .insert(ledgerAccounts)
    .values({ name: TDS_PAYABLE, balancePaise: sql`${delta.toString()}::bigint`, entryCount: entries })
    .onConflictDoUpdate({
      target: ledgerAccounts.name,
      set: {
        balancePaise: sql`${ledgerAccounts.balancePaise} + ${delta.toString()}::bigint`,
        entryCount: sql`${ledgerAccounts.entryCount} + ${entries}`,
      },
    });
}

/** One commission's tax, as the rule above computes it. */
export interface TaxOnCommission {
  commissionId: string;
  /** The commission credited (settled), in paise. */
  creditedPaise: bigint;
  taxPaise: bigint;
  boughtProductId: string | null;
  tier: string | null;
}

/** What a settlement withholds from one deductee: each commission's tax, at one rate, and the PAN it was taxed under. */
export interface TaxDue {
  rateBasisPoints: number;
  panId: string | null;
  taxes: TaxOnCommission[];
}

/**
 * What a settlement of `userId`'s commissions at `now` must withhold by the rule above, or null when nothing: read
 * after the settlement's own postings, in its transaction, with the wallet locked (the ledger's settlement).
 */
export async function taxDue(
  tx: Tx,
  deductee: { userId: string; userType: number },
  context: { now: Date; tds: TdsConfig },
): Promise<TaxDue | null> {
  const { userId } = deductee;
  if (!context.tds.deducteeTypes.includes(deductee.userType)) return null;
  const { from, to } = periodOf(fyStartYearOf(context.now));
  // The year's settled commission, not reversed since; and which of it is not taxed yet.
  const settledInYear = sql`from ${postings} s
      where s.user_id = ${userId} and s.kind = 'SETTLEMENT' and s.balance_type = 'AVAILABLE'
        and s.created_at >= ${from.toISOString()} and s.created_at < ${to.toISOString()}
        and not exists (select 1 from ${postings} r where r.ref_posting_id = s.ref_posting_id and r.kind = 'REVERSAL')`;
  const [year] = (
    await tx.execute(sql`select coalesce(sum(s.amount_paise), 0)::text as total ${settledInYear}`)
  ).rows as { total: string }[];
  if (BigInt(year.total) <= BigInt(context.tds.thresholdPaise)) return null;
  const untaxed = (
    await tx.execute(
      sql`select s.ref_posting_id as "commissionId", s.amount_paise::text as "amount",
            s.bought_product_id as "boughtProductId", s.tier ${settledInYear}
          and not exists (select 1 from ${postings} t where t.ref_posting_id = s.ref_posting_id and t.kind = 'TDS')
          order by s.wallet_seq`,
    )
  ).rows as { commissionId: string; amount: string; boughtProductId: string | null; tier: string | null }[];
  if (untaxed.length === 0) return null;
  const [{ panId }] = await tx.select({ panId: users.panId }).from(users).where(eq(users.id, userId));
  const rate = panId ? context.tds.rateBasisPoints : context.tds.noPanRateBasisPoints;
  const taxes = untaxed
    .map(({ amount, ...c }) => ({
      ...c,
      creditedPaise: BigInt(amount),
      taxPaise: taxOf(BigInt(amount), rate),
    }))
    .filter((c) => c.taxPaise > 0n);
  return taxes.length === 0 ? null : { rateBasisPoints: rate, panId, taxes };
}

/**
 * TDS payable's side of the tax `due` withheld from `userId`: an entry per TDS posting the settlement wrote for it
 * (`postingIds`, in the order of `due.taxes`), and the account's balance.
 */
export async function recordWithheld(
  tx: Tx,
  userId: string,
  due: TaxDue,
  postingIds: string[],
  context: { createdBy?: string | null; now: Date },
) {
  await tx.insert(tdsEntries).values(
    due.taxes.map((tax, i) => ({
      kind: 'WITHHELD',
      postingId: postingIds[i],
      userId,
      commissionId: tax.commissionId,
      amountPaise: Number(tax.taxPaise),
      creditedPaise: Number(tax.creditedPaise),
      rateBasisPoints: due.rateBasisPoints,
      panId: due.panId,
      createdBy: context.createdBy ?? null,
      createdAt: context.now,
    })),
  );
  const total = due.taxes.reduce((sum, tax) => sum + tax.taxPaise, 0n);
  await moveTdsPayable(tx, total, due.taxes.length);
  return total;
}

/** Tax withheld and not given back yet, to give back: one per TDS debit. */
export interface TaxToReturn {
  userId: string;
  commissionId: string;
  amountPaise: number;
  boughtProductId: string | null;
  tier: string | null;
}

/**
 * The tax withheld on `commissionIds` (being reversed, their wallets locked) and not given back yet: one per TDS
 * debit. The reversal gives each back as a TDS credit, then records it (recordReturned).
 */
export async function taxToReturn(tx: Tx, commissionIds: string[]): Promise<TaxToReturn[]> {
  if (commissionIds.length === 0) return [];
  const withheld = await tx
    .select({
      userId: postings.userId,
      commissionId: postings.refPostingId,
      amountPaise: postings.amountPaise,
      boughtProductId: postings.boughtProductId,
      tier: postings.tier,
    })
    .from(postings)
    .where(
      and(
        inArray(postings.refPostingId, commissionIds),
        eq(postings.kind, 'TDS'),
        eq(postings.transactionType, 'DEBIT'),
        sql`not exists (select 1 from ${postings} back where back.ref_posting_id = ${postings.refPostingId}
          and back.kind = 'TDS' and back.transaction_type = 'CREDIT')`,
      ),
    );
  return withheld.map((t) => ({ ...t, commissionId: t.commissionId! }));
}

/** TDS payable's side of the tax given back: an entry per TDS credit written (`returned`), and the balance. */
export async function recordReturned(
  tx: Tx,
  returned: { postingId: string; userId: string; commissionId: string | null; amountPaise: number }[],
  now: Date,
) {
  if (returned.length === 0) return;
  await tx.insert(tdsEntries).values(returned.map((r) => ({ kind: 'RETURNED', ...r, createdAt: now })));
  const total = returned.reduce((sum, r) => sum + BigInt(r.amountPaise), 0n);
  await moveTdsPayable(tx, -total, returned.length);
}
