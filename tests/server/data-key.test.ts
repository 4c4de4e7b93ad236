import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { readConfig } from '../../src/server/config';
import { checkDataKey, keyDiffers } from '../../src/server/data-key-check';
import { type Database, openDatabase } from '../../src/server/db/open';
import { seedDemoNetwork } from '../../src/server/demo/network';
import { seedDemoSales } from '../../src/server/demo/sales';
import { ensureBootstrapAdmin } from '../../src/server/modules/account/index';
import { dataKeyCheckOf, loadServerKeys } from '../../src/server/security/personal-data';
import { runScript } from '../spawn-server';
import { throwAwayDatabase } from '../throwaway-database';

// Several servers share one database, so they must share its data key: the database remembers which key sealed
// it, and a server (or `npm run reconcile`) started with another refuses in one line. On the suite's engine: a
// throw-away database on the PostgreSQL server of DATABASE_URL, or an embedded one in a DATA_DIR.

const serverUrl = process.env.DATABASE_URL;
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/** A new, empty database as a server is pointed at it: its environment, and a way to open it in this process. */
async function newDatabase(
  opts: { inProcessOnly?: boolean } = {},
): Promise<{ env: Record<string, string>; open(): Promise<Database> }> {
  if (!serverUrl && opts.inProcessOnly) {
    // Never started as a server: the suite's ready-made cluster in memory, without a run of initdb.
    const cluster = inject('pgliteCluster');
    return { env: {}, open: () => openDatabase({ databaseUrl: 'memory://', dataDir: '', cluster }) };
  }
  if (!serverUrl) {
    const dataDir = path.join(tempDir('tierdesk-key-'), 'data');
    return { env: { DATABASE_URL: '', DATA_DIR: dataDir }, open: () => openDatabase({ dataDir }) };
  }
  const database = await throwAwayDatabase(serverUrl, 'tierdesk_key');
  cleanups.push(database.drop);
  const databaseUrl = database.url;
  return {
    env: { DATABASE_URL: databaseUrl, DATA_DIR: path.join(tempDir('tierdesk-key-'), 'data') },
    open: () => openDatabase({ databaseUrl, dataDir: '' }),
  };
}

const newKey = () => randomBytes(32).toString('hex');
/** The keys a server loads from this environment (DATA_KEY, or the key file in DATA_DIR). */
const keysOf = (env: Record<string, string>) =>
  loadServerKeys(readConfig({ ...env, DEMO_DATA: '1', PROVIDER_WEBHOOK_SECRET: 'shared-webhook-secret' }));

async function withDatabase<T>(open: () => Promise<Database>, work: (database: Database) => Promise<T>) {
  const database = await open();
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

const recorded = (database: Database) =>
  database.pool.query('select value from data_key_check').then((r) => r.rows.map((row) => row.value));

/** `npm start` or `npm run reconcile` as an operator runs it: a real network's settings, then `env`. */
function run(script: 'main' | 'reconcile', env: Record<string, string>) {
  return runScript(
    script,
    [],
    {
      PORT: '0',
      DEMO_DATA: '0',
      PROVIDER_MODE: 'sandbox',
      PROVIDER_WEBHOOK_SECRET: 'shared-webhook-secret',
      ...env,
    },
    // A server that starts instead of refusing would run until this, and fail the test.
    60_000,
  );
}

describe('the keys a real network on PostgreSQL must be given', () => {
  const nowhere = () => path.join(tempDir('tierdesk-key-'), 'data');
  const unreached = 'postgres://tierdesk@127.0.0.1:9/tierdesk';

  it('refuses DATABASE_URL with DEMO_DATA=0 and no DATA_KEY: one line naming it and why, exit 1, DATA_DIR untouched', () => {
    const dataDir = nowhere();
    const result = run('main', { DATABASE_URL: unreached, DATA_DIR: dataDir, DATA_KEY: '' });
    expect(result.stderr).toBe(
      'DATA_KEY must be set when DATABASE_URL is set and DEMO_DATA=0: every server on the database must seal and read its data with the same key\n',
    );
    expect(result.status).toBe(1);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('refuses it without PROVIDER_WEBHOOK_SECRET the same way', () => {
    const dataDir = nowhere();
    const result = run('main', {
      DATABASE_URL: unreached,
      DATA_DIR: dataDir,
      DATA_KEY: newKey(),
      PROVIDER_WEBHOOK_SECRET: '',
    });
    expect(result.stderr).toBe(
      "PROVIDER_WEBHOOK_SECRET must be set when DATABASE_URL is set and DEMO_DATA=0: every server on the database must verify the partner's callbacks with the same secret\n",
    );
    expect(result.status).toBe(1);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('leaves the key files to the embedded database and to demo data', () => {
    const real = { DEMO_DATA: '0', PROVIDER_MODE: 'http' };
    expect(readConfig({ ...real }).dataKeyEnv).toBeUndefined();
    expect(readConfig({ DATABASE_URL: unreached }).providerWebhookSecretEnv).toBeUndefined();
    const key = newKey();
    expect(
      readConfig({ ...real, DATABASE_URL: unreached, DATA_KEY: key, PROVIDER_WEBHOOK_SECRET: 's' }),
    ).toMatchObject({ dataKeyEnv: key, providerWebhookSecretEnv: 's' });
  });
});

describe('a database sealed with one data key', () => {
  it('refuses a server, and reconcile, started with another key: one line, exit 1 (reconcile 2)', async () => {
    const { env, open } = await newDatabase();
    const sealedWith = { ...env, DATA_KEY: newKey() };
    // The first start records the key.
    await withDatabase(open, async (database) => {
      await checkDataKey(database.db, keysOf(sealedWith));
      expect(await recorded(database)).toEqual([dataKeyCheckOf(Buffer.from(sealedWith.DATA_KEY, 'hex'))]);
    });
    const refusal =
      'DATA_KEY differs from the key this database was sealed with: start every server with the same DATA_KEY\n';
    const server = run('main', { ...env, DATA_KEY: newKey() });
    expect(server.stderr).toBe(refusal);
    expect(server.stdout).toBe('');
    expect(server.status).toBe(1);
    const reconcile = run('reconcile', { ...env, DATA_KEY: newKey() });
    expect(reconcile.stderr).toBe(refusal);
    expect(reconcile.status).toBe(2);
    // A server without DATA_KEY generates a key file of its own in its DATA_DIR: refused, naming the file.
    const fileServer = run('main', { ...env, DATA_KEY: '', DEMO_DATA: '1' });
    expect(fileServer.stderr).toBe(
      `The data key in ${path.join(env.DATA_DIR, 'data.key')} differs from the key this database was sealed with: start every server with the same DATA_KEY\n`,
    );
    expect(fileServer.status).toBe(1);
    // The key that sealed it still opens it, and the record is unchanged.
    await withDatabase(open, async (database) => {
      await checkDataKey(database.db, keysOf(sealedWith));
      expect(await recorded(database)).toEqual([dataKeyCheckOf(Buffer.from(sealedWith.DATA_KEY, 'hex'))]);
    });
  }, 180_000);

  it('is recorded once when servers start on a new database at once; one with another key is refused', async () => {
    const { env, open } = await newDatabase({ inProcessOnly: true });
    const key = keysOf({ ...env, DATA_KEY: newKey() });
    const other = keysOf({ ...env, DATA_KEY: newKey() });
    await withDatabase(open, async (database) => {
      const starts = await Promise.allSettled([
        ...Array.from({ length: 9 }, () => checkDataKey(database.db, key)),
        checkDataKey(database.db, other),
      ]);
      const refused = starts.filter((s) => s.status === 'rejected');
      // Whichever recorded first stands; every start with the other key is refused.
      const winner = (await recorded(database))[0];
      expect(await recorded(database)).toHaveLength(1);
      expect(refused).toHaveLength(winner === key.dataKeyCheck ? 1 : 9);
      for (const r of refused) expect((r as PromiseRejectedResult).reason).toEqual(keyDiffers('DATA_KEY'));
    });
  });
});

describe('a database from before the check, which holds data but no record of its key', () => {
  it('refuses a server and reconcile whose key does not open its data, and records the key that does', async () => {
    const { env, open } = await newDatabase();
    const sealedWith = { ...env, DATA_KEY: newKey() };
    const keys = keysOf(sealedWith);
    const config = readConfig({ ...sealedWith, DEMO_DATA: '1' });
    await withDatabase(open, async (database) => {
      await ensureBootstrapAdmin(database.db, config);
      await seedDemoNetwork(database.db, config, keys.cipher);
      await seedDemoSales(database.db, keys.ledgerKey);
    });
    const refusal =
      "DATA_KEY does not open the data this database holds (its ledger's seals and Aadhar numbers): start the server with the key that sealed them\n";
    const server = run('main', { ...env, DATA_KEY: newKey() });
    expect(server.stderr).toBe(refusal);
    expect(server.status).toBe(1);
    const reconcile = run('reconcile', { ...env, DATA_KEY: newKey() });
    expect(reconcile.stderr).toBe(refusal);
    expect(reconcile.status).toBe(2);
    await withDatabase(open, async (database) => {
      // Nothing was recorded by the refused key, nor by reconcile, which only reads.
      expect(await recorded(database)).toEqual([]);
      await checkDataKey(database.db, keys, { record: false });
      expect(await recorded(database)).toEqual([]);
      // The server with the right key records it at its start.
      await checkDataKey(database.db, keys);
      expect(await recorded(database)).toEqual([keys.dataKeyCheck]);
    });
  }, 180_000);
});
