-- The wallets holding money in clearing (a day's commissions: about 1,800 of 100,000 at scale), with the amount:
-- the dashboard's clearing tile sums them from this index alone, where it read every wallet (staff: 10 ms -> 0.5 ms;
-- a master distributor's network: 9 -> 1.8 ms). The ledger bench's sales per second did not move (440 at c16).
CREATE INDEX "wallets_clearing_idx" ON "wallets" USING btree ("user_id","clearing_balance_paise") WHERE "wallets"."clearing_balance_paise" <> 0;
