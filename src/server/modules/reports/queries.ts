import { UserType } from '../../../shared/enums';
import { paiseToRupees } from '../../../shared/money';
import type { ProductSales, TopRetailer, TrendDay } from '../../../shared/schemas/reports';
import type { CommissionReport } from '../../../shared/wire';
import type { Queryable } from '../../db/open';
import { runStatement } from '../../db/statements';
import type { SessionUser } from '../account/index';
import { businessDayOf } from '../ledger/index';
import { networkScopeId, WHOLE_NETWORK } from '../network/index';

const today = businessDayOf('now()');
const thisMonth = `date_trunc('month', ${today})`;
/** Today's and this month's commissions of the network $1, from the day rows the ledger keeps for it. */
const COMMISSIONS = `(select coalesce(sum(amount_paise), 0)::bigint from network_commission_days
        where scope_id = $1 and day = ${today}) as today,
      (select coalesce(sum(amount_paise), 0)::bigint from network_commission_days
        where scope_id = $1 and day >= ${thisMonth}::date and day < (${thisMonth} + interval '1 month')::date) as month`;

/**
 * The dashboard's money tiles, each a few rows the ledger keeps per network (ledger.ts, writePostings): the
 * commissions of today and of this month (India's calendar) from the network's day rows, and what its wallets
 * hold in clearing from its clearing row. Staff see the whole network: its day rows, and the wallets holding
 * money in clearing (wallets_clearing_idx), which no sale has to keep a row for. At 100,000 users and a million
 * postings a master distributor's tiles would otherwise join the money of every member of its network.
 * Hand-written, built once, prepared (db/statements.ts).
 */
const TILES = {
  network: `select ${COMMISSIONS},
      coalesce((select clearing_paise from network_clearing where scope_id = $1), 0)::bigint as clearing`,
  staff: `select ${COMMISSIONS},
      (select coalesce(sum(clearing_balance_paise), 0)::bigint from wallets where clearing_balance_paise <> 0) as clearing`,
};

export async function commissionReportOf(db: Queryable, viewer: SessionUser): Promise<CommissionReport> {
  // The scoping helper decides who sees the whole network; its clearing is summed from the wallets.
  const scopeId = networkScopeId(viewer);
  const [tiles] = await runStatement<{ today: number; month: number; clearing: number }>(
    db,
    scopeId === WHOLE_NETWORK ? TILES.staff : TILES.network,
    [scopeId],
  );
  return {
    today: paiseToRupees(tiles?.today ?? 0),
    month: paiseToRupees(tiles?.month ?? 0),
    clearing: paiseToRupees(tiles?.clearing ?? 0),
  };
}

/**
 * The network's last `days` days ($2), today (India's calendar) the last, every day present: its commissions from
 * the day rows the ledger keeps (the tiles' network_commission_days) and its sales from the day rows sales keeps
 * (sale_days, summed over its products). Two index ranges of at most `days` rows (times the products), whatever the
 * size of the network.
 */
const TRENDS = `select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(c.amount_paise, 0)::bigint as commission,
      coalesce(s.sales, 0)::int as sales, coalesce(s.confirmed, 0)::int as confirmed, coalesce(s.failed, 0)::int as failed
    from (select (${today} - g)::date as day from generate_series(0, $2::int - 1) as g) as d
    left join network_commission_days c on c.scope_id = $1 and c.day = d.day
    left join (select day, sum(sales) as sales, sum(confirmed) as confirmed, sum(failed) as failed
        from sale_days where scope_id = $1 and day > ${today} - $2::int group by day) as s on s.day = d.day
    order by d.day`;

export async function trendsOf(db: Queryable, viewer: SessionUser, days: number): Promise<TrendDay[]> {
  const rows = await runStatement<Omit<TrendDay, 'commission'> & { commission: number }>(db, TRENDS, [
    networkScopeId(viewer),
    days,
  ]);
  return rows.map((row) => ({ ...row, commission: paiseToRupees(row.commission) }));
}

/**
 * The month's ($1, its first day) top $2 retailers by their own commission: ten entries of one index read backwards
 * (schema.ts, retailerCommissionMonths), for the whole network, a master distributor's or a distributor's ($3).
 */
const topOf = (chain: string) => `select m.retailer_id as "_id", u.name, m.amount_paise as commission
    from retailer_commission_months m join users u on u.id = m.retailer_id
    where ${chain} m.month = $1::date
    order by m.amount_paise desc, m.retailer_id desc limit $2`;
const TOP_STAFF = topOf('');
const TOP_OF_CHAIN: Partial<Record<number, string>> = {
  [UserType.MASTER_DISTRIBUTOR]: topOf('m.master_distributor_id = $3 and'),
  [UserType.DISTRIBUTOR]: topOf('m.distributor_id = $3 and'),
};

/** The caller's top retailers of `month` (YYYY-MM); the role table keeps retailers out (topRetailers). */
export async function topRetailersOf(
  db: Queryable,
  viewer: SessionUser,
  month: string,
  limit: number,
): Promise<TopRetailer[]> {
  const ofChain = TOP_OF_CHAIN[viewer.type];
  if (networkScopeId(viewer) !== WHOLE_NETWORK && !ofChain) return [];
  const rows = await runStatement<{ _id: string; name: string; commission: number }>(
    db,
    ofChain ?? TOP_STAFF,
    ofChain ? [`${month}-01`, limit, viewer.id] : [`${month}-01`, limit],
  );
  return rows.map((row) => ({ ...row, commission: paiseToRupees(row.commission) }));
}

/** The network's ($1) sales of the month ($2, its first day) per product, from its day rows (at most 31 per product). */
const PRODUCTS = `select p.id as "_id", p.name, sum(s.sales)::int as sales, sum(s.confirmed)::int as confirmed,
      sum(s.failed)::int as failed
    from sale_days s join products p on p.id = s.product_id
    where s.scope_id = $1 and s.day >= $2::date and s.day < ($2::date + interval '1 month')::date
    group by p.id, p.name
    order by sales desc, p.name, p.id`;

export const productSalesOf = (db: Queryable, viewer: SessionUser, month: string) =>
  runStatement<ProductSales>(db, PRODUCTS, [networkScopeId(viewer), `${month}-01`]);
