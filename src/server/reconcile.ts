import { formatRupees } from '../shared/format';
import { readConfig } from './config';
import { DataDirInUseError, lockDataDir } from './data-dir-lock';
import { checkDataKey } from './data-key-check';
import { hasEmbeddedDatabase, noTierdeskDatabase, openDatabase } from './db/open';
import { reconcileAndRecord } from './modules/books/index';
import { loadServerKeys } from './security/personal-data';

/**
 * `npm run reconcile`: proves the ledger of the configured database (DATA_DIR or DATABASE_URL, with the same
 * DATA_KEY as the server) and exits non-zero on any break. The same report is `GET /api/v1/ledger/reconcile`, read
 * from one snapshot (a read-only REPEATABLE READ transaction), so it can run while the server does. Each run is
 * recorded (reconcile_runs), where the Books screen reads the latest.
 */
async function main() {
  const config = readConfig();
  // Nothing is made in a DATA_DIR that holds no database (a mistyped one): no lock, no key file, no tables.
  if (!config.databaseUrl && !hasEmbeddedDatabase(config.dataDir)) throw noTierdeskDatabase(config.dataDir);
  // The embedded database belongs to one process at a time: while the server runs, ask it instead.
  if (!config.databaseUrl) {
    const lock = lockDataDir(config.dataDir);
    process.once('exit', () => lock.release());
  }
  const keys = loadServerKeys(config);
  const { ledgerKey } = keys;
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    mustExist: true,
  });
  try {
    // Another key than the server's would report every seal as broken: refused as the server refuses it.
    await checkDataKey(database.db, keys, { record: false });
    // Recorded like an admin's Run, so the Books screen shows it as the latest result.
    const { report } = await reconcileAndRecord(database.db, ledgerKey, { source: 'CLI' });
    const summary =
      `${report.sales.confirmed} confirmed and ${report.sales.reversed} reversed sales, ` +
      `${report.postings} postings in ${report.wallets} wallets; ` +
      `${formatRupees(report.totals.balance)} available, ${formatRupees(report.totals.clearingBalance)} in clearing` +
      (report.totals.owed > 0
        ? `, ${formatRupees(report.totals.owed)} owed by wallets (reversed after payout)`
        : '');
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
  if (error instanceof DataDirInUseError)
    console.error(`${error.message}: while the server runs, an ADMIN can call GET /api/v1/ledger/reconcile.`);
  else console.error(error instanceof Error ? error.message : error);
  process.exit(2);
});
