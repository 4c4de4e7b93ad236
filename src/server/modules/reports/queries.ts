import { and, eq, type SQLWrapper, sql } from 'drizzle-orm';
import { UserType } from '../../../shared/enums';
import { paiseToRupees } from '../../../shared/money';
import type { CommissionReport } from '../../../shared/wire';
import type { Queryable } from '../../db/open';
import { commissionMonths, postings, users, wallets } from '../../db/schema';
import { networkScope } from '../account/scope';
import type { UserRow } from '../account/sessions';
import { BUSINESS_TIME_ZONE, commissionMonthOf } from '../ledger/ledger';
import { sumPaise } from '../ledger/queries';

const startOfToday = sql`(date_trunc('day', now() at time zone ${BUSINESS_TIME_ZONE}) at time zone ${BUSINESS_TIME_ZONE})`;
const thisMonth = sql.raw(commissionMonthOf('now()'));

/**
 * The dashboard's money tiles over the viewer's network, in one statement: commissions credited today and this
 * month, and what its wallets hold in clearing. Today's commissions are summed from their own index
 * (postings_commission_created_idx), the month's from the users' month totals the ledger keeps
 * (commission_months, whose key covers the amount), clearing from the index of wallets holding any
 * (wallets_clearing_idx), and a network's members found in the path index, none of them reading a row; staff
 * see the whole network, so theirs join nothing. At 100,000 users and a million postings on PostgreSQL the
 * admin's tiles took 3.0-4.3 ms and a master distributor's 4.6-5.8 ms p50 through HTTP in two runs of the bench
 * (README, Performance), where joining every posting of the month to its user took 170 and 365 ms of SQL.
 */
export async function commissionReportOf(db: Queryable, viewer: UserRow): Promise<CommissionReport> {
  const scope = networkScope(viewer);
  const today = and(eq(postings.kind, 'COMMISSION'), sql`${postings.createdAt} >= ${startOfToday}`);
  const month = sql`${commissionMonths.month} = ${thisMonth}`;
  // Only wallets holding money in clearing (wallets_clearing_idx: a few thousand, where every wallet is
  // 100,000 at scale): staff sum them all, a tier user those of its network's members.
  const inClearing = sql`${wallets.clearingBalancePaise} <> 0`;
  let tiles: { today: number; month: number; clearing: number };
  if (scope && viewer.type === UserType.MASTER_DISTRIBUTOR) {
    // A master distributor's network is large (2,000 members at scale): the three sets of rows go through one
    // join to its members, read from the path index once instead of once per sum (SQL 7.1 -> 5.3 ms p50). A
    // distributor's or a retailer's network is a few to a hundred members, looked up one by one in each sum's
    // index; the union would read all of the day's, month's and clearing rows (retailer 1.3 -> 3.8 ms).
    [tiles] = await db
      .select({ today: tileOf(1), month: tileOf(2), clearing: tileOf(3) })
      .from(
        sql`(select 1 as tile, ${postings.userId} as user_id, ${postings.amountPaise} as paise from ${postings} where ${today}
          union all select 2, ${commissionMonths.userId}, ${commissionMonths.amountPaise} from ${commissionMonths} where ${month}
          union all select 3, ${wallets.userId}, ${wallets.clearingBalancePaise} from ${wallets} where ${inClearing}) as x`,
      )
      .innerJoin(users, sql`${users.id} = x.user_id`)
      .where(scope);
  } else {
    const todaySum = db.select({ paise: sumPaise(postings.amountPaise) }).from(postings);
    const monthSum = db.select({ paise: sumPaise(commissionMonths.amountPaise) }).from(commissionMonths);
    const clearingSum = db.select({ paise: sumPaise(wallets.clearingBalancePaise) }).from(wallets);
    const sums = scope
      ? {
          today: todaySum.innerJoin(users, eq(users.id, postings.userId)).where(and(today, scope)),
          month: monthSum.innerJoin(users, eq(users.id, commissionMonths.userId)).where(and(month, scope)),
          clearing: clearingSum.innerJoin(users, eq(users.id, wallets.userId)).where(and(inClearing, scope)),
        }
      : {
          today: todaySum.where(today),
          month: monthSum.where(month),
          clearing: clearingSum.where(inClearing),
        };
    const inPaise = (sum: SQLWrapper) => sql<number>`(${sum})`.mapWith(Number);
    [tiles] = await db
      .select({ today: inPaise(sums.today), month: inPaise(sums.month), clearing: inPaise(sums.clearing) })
      .from(sql`(select 1) as one`);
  }
  return {
    today: paiseToRupees(tiles.today),
    month: paiseToRupees(tiles.month),
    clearing: paiseToRupees(tiles.clearing),
  };
}

/** One tile's sum over the rows its branch of the union gave (sum skips the other branches' nulls). */
const tileOf = (tile: 1 | 2 | 3) =>
  sumPaise(sql`case when x.tile = ${sql.raw(String(tile))} then x.paise end`);
