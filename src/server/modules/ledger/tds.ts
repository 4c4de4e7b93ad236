import { and, eq, inArray, sql } from 'drizzle-orm';
import type { TdsConfig } from '../../config';
import type { Tx } from '../../db/open';
import { ledgerAccounts, postings, tdsEntries, users } from '../../db/schema';
import { type LockedWallet, type PostingDraft, type PostingRow, writePostings } from './ledger';

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

interface WithholdContext {
  ledgerKey: Buffer;
  createdBy?: string | null;
  now: Date;
  tds: TdsConfig;
}

/**
 * After a settlement of `userId`'s commissions (in the same transaction, its wallet locked): withholds what the
 * rule above says, if anything. Returns the tax withheld in paise.
 */
export async function withholdTds(
  tx: Tx,
  locked: Map<string, LockedWallet>,
  userId: string,
  context: WithholdContext,
): Promise<bigint> {
  const wallet = locked.get(userId);
  if (!wallet || !context.tds.deducteeTypes.includes(wallet.userType)) return 0n;
  const { from, to } = periodOf(fyStartYearOf(context.now));
  // The year's settled commission, not reversed since; and which of it is not taxed yet.
  const settledInYear = sql`from ${postings} s
      where s.user_id = ${userId} and s.kind = 'SETTLEMENT' and s.balance_type = 'AVAILABLE'
        and s.created_at >= ${from.toISOString()} and s.created_at < ${to.toISOString()}
        and not exists (select 1 from ${postings} r where r.ref_posting_id = s.ref_posting_id and r.kind = 'REVERSAL')`;
  const [year] = (
    await tx.execute(sql`select coalesce(sum(s.amount_paise), 0)::text as total ${settledInYear}`)
  ).rows as { total: string }[];
  if (BigInt(year.total) <= BigInt(context.tds.thresholdPaise)) return 0n;
  const untaxed = (
    await tx.execute(
      sql`select s.ref_posting_id as "commissionId", s.amount_paise::text as "amount",
            s.bought_product_id as "boughtProductId", s.tier ${settledInYear}
          and not exists (select 1 from ${postings} t where t.ref_posting_id = s.ref_posting_id and t.kind = 'TDS')
          order by s.wallet_seq`,
    )
  ).rows as { commissionId: string; amount: string; boughtProductId: string | null; tier: string | null }[];
  if (untaxed.length === 0) return 0n;
  const [{ panId }] = await tx.select({ panId: users.panId }).from(users).where(eq(users.id, userId));
  const rate = panId ? context.tds.rateBasisPoints : context.tds.noPanRateBasisPoints;
  const taxed = untaxed
    .map((c) => ({ ...c, credited: BigInt(c.amount), tax: taxOf(BigInt(c.amount), rate) }))
    .filter((c) => c.tax > 0n);
  if (taxed.length === 0) return 0n;
  const rows = await writePostings(
    tx,
    locked,
    taxed.map(
      (c): PostingDraft => ({
        userId,
        kind: 'TDS',
        transactionType: 'DEBIT',
        balanceType: 'AVAILABLE',
        status: 'WITHHELD',
        amountPaise: Number(c.tax),
        boughtProductId: c.boughtProductId,
        tier: c.tier as PostingDraft['tier'],
        refPostingId: c.commissionId,
      }),
    ),
    { ledgerKey: context.ledgerKey, createdBy: context.createdBy, now: context.now },
  );
  await tx.insert(tdsEntries).values(
    rows.map((row, i) => ({
      kind: 'WITHHELD',
      postingId: row.id,
      userId,
      commissionId: taxed[i].commissionId,
      amountPaise: row.amountPaise,
      creditedPaise: Number(taxed[i].credited),
      rateBasisPoints: rate,
      panId,
      createdBy: context.createdBy ?? null,
      createdAt: context.now,
    })),
  );
  const total = taxed.reduce((sum, c) => sum + c.tax, 0n);
  await moveTdsPayable(tx, total, rows.length);
  return total;
}

/**
 * The TDS postings that give back the tax withheld on `commissionIds` (being reversed, their wallets locked):
 * one CREDIT of the available balance per tax withheld and not yet given back. Write them with the reversal's
 * postings, then call returnedTdsEntries with the rows written.
 */
export async function tdsReturnDrafts(tx: Tx, commissionIds: string[]): Promise<PostingDraft[]> {
  if (commissionIds.length === 0) return [];
  const withheld = await tx
    .select()
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
  return withheld.map((t) => ({
    userId: t.userId,
    kind: 'TDS',
    transactionType: 'CREDIT',
    balanceType: 'AVAILABLE',
    status: 'REVERSED',
    amountPaise: t.amountPaise,
    boughtProductId: t.boughtProductId,
    tier: t.tier as PostingDraft['tier'],
    refPostingId: t.refPostingId,
  }));
}

/** TDS payable's side of the tax given back by `rows` (TDS credits just written). */
export async function recordReturnedTds(tx: Tx, rows: PostingRow[], now: Date) {
  const returned = rows.filter((r) => r.kind === 'TDS' && r.transactionType === 'CREDIT');
  if (returned.length === 0) return;
  await tx.insert(tdsEntries).values(
    returned.map((row) => ({
      kind: 'RETURNED',
      postingId: row.id,
      userId: row.userId,
      commissionId: row.refPostingId,
      amountPaise: row.amountPaise,
      createdAt: now,
    })),
  );
  const total = returned.reduce((sum, r) => sum + BigInt(r.amountPaise), 0n);
  await moveTdsPayable(tx, -total, returned.length);
}
