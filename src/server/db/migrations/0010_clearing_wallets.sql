-- The wallets holding money in clearing (a day's commissions: about 1,800 of 100,000 at scale), with the amount:
-- the dashboard's clearing tile sums them from this index alone, where it read every wallet (staff: 10 ms -> 0.5 ms;
-- a master distributor's network: 9 -> 1.8 ms). A commission's wallet updates are no longer HOT (the indexed balance
-- changes); the ledger bench, run with and without the index in turn, measured no cost (README, Performance).
CREATE INDEX "wallets_clearing_idx" ON "wallets" USING btree ("user_id","clearing_balance_paise") WHERE "wallets"."clearing_balance_paise" <> 0;
