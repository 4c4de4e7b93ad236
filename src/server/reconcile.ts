import { formatRupees } from '../shared/format';
import { readConfig } from './config';
import { openDatabase } from './db/open';
import { reconcile } from './modules/ledger/reconcile';
import { loadServerKeys } from './security/personal-data';

/**
 * `npm run reconcile`: proves the ledger of the configured database (DATA_DIR or DATABASE_URL, with the same
 * DATA_KEY as the server) and exits non-zero on any break. The same report is `GET /api/v1/ledger/reconcile`.
 */
async function main() {
  const config = readConfig();
  const { ledgerKey } = loadServerKeys(config);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const report = await reconcile(database.db, ledgerKey);
    const summary =
      `${report.sales.confirmed} confirmed and ${report.sales.reversed} reversed sales, ` +
      `${report.postings} postings in ${report.wallets} wallets; ` +
      `${formatRupees(report.totals.balance)} available, ${formatRupees(report.totals.clearingBalance)} in clearing`;
    if (report.ok) {
      console.log(`Reconciliation OK: ${summary}.`);
    } else {
      console.log(`Reconciliation FAILED with ${report.breaks.length} break(s): ${summary}.`);
      for (const b of report.breaks) console.log(`  [${b.check}] ${b.detail}`);
    }
    process.exitCode = report.ok ? 0 : 1;
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(2);
});
