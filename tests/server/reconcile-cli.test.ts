import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/open';
import { seedDemoNetwork } from '../../src/server/demo/network';
import { seedDemoSales } from '../../src/server/demo/sales';
import { ensureBootstrapAdmin } from '../../src/server/modules/account/bootstrap';
import { loadServerKeys } from '../../src/server/security/personal-data';
import { runScript } from '../spawn-server';

/** `npm run reconcile` on an embedded database in a DATA_DIR, as an operator runs it. */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-reconcile-'));
const env = {
  DATA_DIR: dataDir,
  DATA_KEY: randomBytes(32).toString('hex'),
  DATABASE_URL: '',
};

const run = () => runScript('reconcile', [], env);

const withDatabase = async (work: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<void>) => {
  const database = await openDatabase({ dataDir });
  try {
    await work(database);
  } finally {
    await database.close();
  }
};

beforeAll(async () => {
  const config = readConfig({ ...process.env, ...env });
  const keys = loadServerKeys(config);
  await withDatabase(async ({ db }) => {
    await ensureBootstrapAdmin(db, config);
    await seedDemoNetwork(db, config, keys.cipher);
    await seedDemoSales(db, keys.ledgerKey);
  });
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('npm run reconcile', () => {
  it('prints a summary and exits 0 when the ledger holds', () => {
    const result = run();
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(
      /^Reconciliation OK: 5 confirmed and 1 reversed sales, \d+ postings in \d+ wallets; ₹[\d,.]+ available, ₹[\d,.]+ in clearing\.\n$/,
    );
    expect(result.status).toBe(0);
  });

  it('names each break and exits 1 when a posting was changed', async () => {
    await withDatabase(async ({ pool }) => {
      await pool.query('alter table postings disable trigger postings_no_update');
      await pool.query(
        `update postings set amount_paise = amount_paise + 1 where id = (select id from postings order by created_at limit 1)`,
      );
      await pool.query('alter table postings enable trigger postings_no_update');
    });
    const result = run();
    expect(result.stdout).toMatch(/^Reconciliation FAILED with \d+ break\(s\)/);
    expect(result.stdout).toMatch(
      /\[chain\] wallet [0-9a-f-]+: posting [0-9a-f-]+ records balances that do not follow/,
    );
    expect(result.status).toBe(1);
  });

  it("refuses another data key than the server's in one line, exit 2, rather than report every seal broken", () => {
    const other = runScript('reconcile', [], { ...env, DATA_KEY: randomBytes(32).toString('hex') });
    expect(other.stderr).toBe(
      "DATA_KEY does not open the data this database holds (its ledger's seals and Aadhar numbers): start the server with the key that sealed them\n",
    );
    expect(other.stdout).toBe('');
    expect(other.status).toBe(2);
  });
});

describe('npm run seed:scale, then npm run reconcile', () => {
  const scaleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-scale-'));
  afterAll(() => fs.rmSync(scaleDir, { recursive: true, force: true }));

  // Two commands, each opening the embedded database (and the seeder migrating it): more than one test's time.
  it('reconciles what the scale seeder wrote: every posting chained and sealed, every network sum kept', () => {
    const scaleEnv = { ...env, DATA_DIR: path.join(scaleDir, 'data') };
    const seeded = spawnSync(
      'npm',
      ['run', '--silent', 'seed:scale', '--', '--users', '100', '--postings', '300'],
      {
        env: { ...process.env, ...scaleEnv },
        encoding: 'utf8',
      },
    );
    expect(seeded.stdout).toMatch(/^Seeding 100 users and about 300 postings\.\.\.\n/);
    expect(seeded.status).toBe(0);
    const postings = Number(/"postings": (\d+)/.exec(seeded.stdout)?.[1]);
    expect(postings).toBeGreaterThanOrEqual(300);

    const checked = runScript('reconcile', [], scaleEnv);
    expect(checked.stderr).toBe('');
    expect(checked.stdout).toMatch(
      new RegExp(
        `^Reconciliation OK: \\d+ confirmed and \\d+ reversed sales, ${postings} postings in \\d+ wallets;`,
      ),
    );
    expect(checked.status).toBe(0);
  }, 120_000);
});
