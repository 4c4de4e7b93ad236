import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/open';
import { networkClearing, networkCommissionDays } from '../../db/schema';
import { networksOfMove } from './scope';

/**
 * A subtree rooted at `rootId` moved from under `oldParentPath` to under `newParentPath` (null: the root): the
 * money its networks count of it (schema.ts, networkCommissionDays and networkClearing) leaves the networks it
 * leaves and joins the ones it joins. Its root's rows are the subtree's own totals, so they are what moves: every
 * day's commissions and the clearing balance, subtracted from each network left and added to each joined, in key
 * order as every writer of those rows adds. Run with the subtree's wallets locked (the ledger's holdWallets), so
 * no posting to one of its users is under way and the root's rows hold still.
 */
export async function moveNetworkMoney(
  tx: Tx,
  rootId: string,
  oldParentPath: string | null,
  newParentPath: string | null,
) {
  const { gone, added } = networksOfMove(oldParentPath, newParentPath);
  if (gone.length === 0 && added.length === 0) return;
  const scopes = sql.param([...gone, ...added]);
  const signs = sql.param([...gone.map(() => -1), ...added.map(() => 1)]);
  await tx.execute(sql`
    insert into ${networkCommissionDays} as d (scope_id, day, amount_paise)
    select s.scope_id, r.day, r.amount_paise * s.sign
    from ${networkCommissionDays} r cross join unnest(${scopes}::uuid[], ${signs}::int[]) as s(scope_id, sign)
    where r.scope_id = ${rootId} and r.amount_paise <> 0
    order by 1, 2
    on conflict (scope_id, day) do update set amount_paise = d.amount_paise + excluded.amount_paise`);
  await tx.execute(sql`
    insert into ${networkClearing} as c (scope_id, clearing_paise)
    select s.scope_id, r.clearing_paise * s.sign
    from ${networkClearing} r cross join unnest(${scopes}::uuid[], ${signs}::int[]) as s(scope_id, sign)
    where r.scope_id = ${rootId} and r.clearing_paise <> 0
    order by 1
    on conflict (scope_id) do update set clearing_paise = c.clearing_paise + excluded.clearing_paise`);
}
