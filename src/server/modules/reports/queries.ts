import { paiseToRupees } from '../../../shared/money';
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
