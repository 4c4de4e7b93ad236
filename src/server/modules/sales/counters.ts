import { sql } from 'drizzle-orm';
import { SaleStatus } from '../../../shared/enums';
import type { Queryable, Tx } from '../../db/open';
import { runStatement } from '../../db/statements';
import { businessDayOf } from '../ledger/index';
import { scopesOf, WHOLE_NETWORK } from '../network/index';
import type { SaleRow } from './queries';

/**
 * The sales each network counts per day and product (schema.ts, saleDays: the dashboard's charts), kept in the
 * transaction that records a sale or changes its status. A sale counts on the day it was recorded, under its status
 * now: `sales` every one, `confirmed` and `failed` those CONFIRMED or FAILED now (a reversal takes one out of
 * `confirmed`). Its networks are the whole network and the tier users on its frozen path (the customer, last on it,
 * heads none), so they never move.
 */

/** The delta a sale adds to its networks' row: sales, confirmed, failed. */
type SaleCounts = [sales: number, confirmed: number, failed: number];

/** 1 when `status` is `counted`, else 0. */
const is = (status: string, counted: SaleStatus) => (status === counted ? 1 : 0);

/** Adds $5..$7 to the row of each network $1 on the day of $2 (a time) and product $3, in key order. */
const ADD_SALE = `insert into sale_days as t (scope_id, day, product_id, sales, confirmed, failed)
    select s.scope_id, ${businessDayOf('$2::timestamptz')}, $3::uuid, $4::int, $5::int, $6::int
    from unnest($1::uuid[]) as s(scope_id)
    order by 1
    on conflict (scope_id, day, product_id) do update set
      sales = t.sales + excluded.sales, confirmed = t.confirmed + excluded.confirmed, failed = t.failed + excluded.failed`;

async function addToSaleDays(
  tx: Tx,
  sale: Pick<SaleRow, 'path' | 'createdAt' | 'productId'>,
  counts: SaleCounts,
) {
  if (counts.every((n) => n === 0)) return;
  // scopesOf: the whole network, then every id on the path; the last is the customer's own.
  const scopes = scopesOf(sale.path).slice(0, -1);
  await runStatement(tx, ADD_SALE, [scopes, sale.createdAt, sale.productId, ...counts]);
}

/** A sale just recorded (PENDING) counts in its networks' day. */
export const countNewSale = (tx: Tx, sale: SaleRow) => addToSaleDays(tx, sale, [1, 0, 0]);

/** A sale's status changed from `from` to `to`: it leaves the one's count and joins the other's. */
export const countStatusChange = (tx: Tx, sale: SaleRow, from: string, to: string) =>
  addToSaleDays(tx, sale, [
    0,
    is(to, SaleStatus.CONFIRMED) - is(from, SaleStatus.CONFIRMED),
    is(to, SaleStatus.FAILED) - is(from, SaleStatus.FAILED),
  ]);

/**
 * Every network's sales per day and product, counted from the sales: what sale_days holds. A bulk load (seed:scale)
 * writes its sales without counting them, and sums them here once, after.
 */
export async function rebuildSaleDays(q: Queryable) {
  await q.execute(sql.raw('delete from sale_days'));
  await q.execute(
    sql.raw(`insert into sale_days (scope_id, day, product_id, sales, confirmed, failed)
      select s.scope_id, ${businessDayOf('b.created_at')}, b.product_id, count(*),
        count(*) filter (where b.status = '${SaleStatus.CONFIRMED}'),
        count(*) filter (where b.status = '${SaleStatus.FAILED}')
      from bought_products b
      cross join lateral (select ids from string_to_array(trim(both '/' from b.path), '/') as a(ids)) as p
      cross join lateral (select '${WHOLE_NETWORK}'::uuid
        union all select unnest(p.ids[1:cardinality(p.ids) - 1])::uuid) as s(scope_id)
      group by 1, 2, 3`),
  );
}
