import path from 'node:path';
import { DEFAULTS, readConfig, SetupError } from './config';
import { DataDirInUseError, lockDataDir } from './data-dir-lock';
import { openDatabase } from './db/open';
import { ensurePanelBuilt } from './panel-build';
import { loadServerKeys } from './security/personal-data';

/**
 * What the server runs once its database is open. Imported while the embedded database starts in its worker
 * thread, so a start loads the two side by side rather than one after the other (docs/performance.md, Start and
 * memory).
 */
const loadServer = () =>
  Promise.all([
    import('./app'),
    import('./data-key-check'),
    import('./demo/network'),
    import('./demo/sales'),
    import('./modules/account/index'),
    import('./modules/leads/index'),
  ]);

/** Reads the environment, migrates, creates the bootstrap admin and demo data, and listens. */
async function main() {
  const config = readConfig();
  // Before anything touches DATA_DIR (the database socket above all): a second server refuses here.
  const lock = lockDataDir(config.dataDir);
  process.once('exit', () => lock.release());
  // `npm start` (--build-panel): rebuild the panel only when its sources changed, and only once this server
  // holds DATA_DIR, so a second start never rebuilds what a running server is serving.
  if (process.argv.includes('--build-panel')) ensurePanelBuilt(process.cwd());
  const keys = loadServerKeys(config);
  const [database, modules] = await Promise.all([
    openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      replicaUrl: config.databaseReplicaUrl,
    }),
    loadServer(),
  ]);
  const [
    { buildApp },
    { checkDataKey },
    { DEMO_PASSWORD, isEmptyNetwork, seedDemoNetwork },
    { seedDemoSales },
    { ensureBootstrapAdmin },
    { bringInUploads, uploadsAtStartLines },
  ] = modules;
  // Before anything is written: a server with another data key than the one that sealed the database refuses.
  try {
    await checkDataKey(database.db, keys);
  } catch (error) {
    await database.close();
    throw error;
  }
  // Applications' files live in the database; what an older version kept in DATA_DIR/uploads is brought in.
  const uploadsDir = path.join(config.dataDir, 'uploads');
  const uploads = uploadsAtStartLines(await bringInUploads(database.db, uploadsDir), uploadsDir);
  for (const line of uploads.info) console.log(line);
  for (const line of uploads.warnings) console.warn(line);
  await ensureBootstrapAdmin(database.db, config);
  const seeded = config.demoData && (await isEmptyNetwork(database.db));
  if (seeded) {
    await seedDemoNetwork(database.db, config, keys.cipher);
    await seedDemoSales(database.db, keys.ledgerKey);
  }

  const app = await buildApp({ config, db: database.db, replica: database.replica, ...keys });
  const shutdown = async () => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // A port another program holds, a HOST this machine does not have: the operator's to put right.
    await app.close();
    await database.close();
    throw new SetupError(`Cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  }
  const where =
    database.engine === 'pglite'
      ? `embedded database in ${config.dataDir}`
      : `PostgreSQL server${database.replica ? ', lists and reports from its read replica' : ''}`;
  console.log(`\nTierdesk is running at ${app.listeningOrigin} (${where})`);
  console.log(
    `  Admin sign-in: ${config.adminUsername} / ${config.adminPassword === DEFAULTS.adminPassword ? config.adminPassword : '(ADMIN_PASSWORD)'}`,
  );
  if (config.demoData) {
    console.log(
      `  Demo sign-ins (password ${DEMO_PASSWORD}): employee 9000000001, master distributor 9100000001,`,
    );
    console.log(
      '    distributor 9200000001, retailer 9300000001; employee 9000000002 still has the initial password.',
    );
  }
  if (seeded) console.log('  Demo network created.');
}

main().catch((error) => {
  if (error instanceof DataDirInUseError) {
    console.error(`${error.message}. Stop that server first, or start this one with another DATA_DIR.`);
  } else if (error instanceof SetupError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
