// Benchmark: a CSV of customers imported through the API (issue 45: 100,000 in at most 3 minutes on PostgreSQL,
// PGlite within 2x), on each engine, fresh: the demo network's locations and retailers as the parents, the file
// posted as the panel posts it, the job followed through import/fetch until it is DONE. Prints rows/s per engine
// and checks that every row was created and the counter rows equal a recount.
//   npm run bench:import [-- --rows 100000] [-- --engine pglite|postgres]
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildApp } from '../../src/server/app';
import { readConfig } from '../../src/server/config';
import { seedDemoNetwork } from '../../src/server/demo/network';
import { ensureBootstrapAdmin } from '../../src/server/modules/account/index';
import { PersonalDataCipher } from '../../src/server/security/personal-data';
import { verhoeffDigit } from '../../src/shared/identity';
import { IMPORT_POLL_MS } from '../../src/shared/schemas/imports';
import { ENGINES, readOptions, refuseCommandLine } from './command-line';
import { openEngine } from './engines';

const USAGE = 'npm run bench:import [-- --rows N] [-- --engine pglite|postgres]';
const XSRF = 'bench-xsrf';
const BOUNDARY = '----tierdesk-import-bench';
const RETAILERS = ['9300000001', '9300000002', '9300000003', '9300000004', '9300000005', '9300000006'];
const PLACES = [
  ['Rajasthan', 'Jaipur', 'Sanganer'],
  ['Maharashtra', 'Pune', 'Haveli'],
  ['Uttar Pradesh', 'Lucknow', 'Malihabad'],
];

/** The customers file: every row valid, spread over the demo retailers and places, a few with no retailer. */
export function customersCsv(rows: number) {
  const lines = ['name,email,mobile,userName,state,district,tehsil,retailerMobile,aadharId,panId'];
  for (let i = 0; i < rows; i++) {
    const mobile = String(8_000_000_000 + i);
    const base = `6${String(i).padStart(10, '0')}`;
    const [state, district, tehsil] = PLACES[i % PLACES.length];
    const retailer = i % 50 === 0 ? '' : RETAILERS[i % RETAILERS.length];
    lines.push(
      `Customer ${i},c${i}@example.com,${mobile},cust${i},${state},${district},${tehsil},${retailer},${base}${verhoeffDigit(base)},ABCDE${String(i % 10000).padStart(4, '0')}F`,
    );
  }
  return `${lines.join('\n')}\n`;
}

async function benchEngine(engine: (typeof ENGINES)[number], rows: number, csv: Buffer) {
  const { database, close } = await openEngine(engine, { pgPort: '55472' });
  // The server's DATA_DIR: where it receives the file before storing it.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-bench-import-'));
  try {
    const config = { ...readConfig({}), dataDir, logLevel: 'silent' as const, settlementIntervalMs: 0 };
    const cipher = new PersonalDataCipher(randomBytes(32));
    await ensureBootstrapAdmin(database.db, config);
    await seedDemoNetwork(database.db, config, cipher);
    const app = await buildApp({
      config,
      db: database.db,
      cipher,
      ledgerKey: randomBytes(32),
      webhookSecret: 'bench',
      logger: false,
    });
    await app.ready();
    const headers = { cookie: `XSRF-TOKEN=${XSRF}`, 'x-xsrf-token': XSRF };
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/v1/account/login',
      headers,
      payload: { userName: config.adminUsername, password: config.adminPassword },
    });
    const token = signIn.json().result.token;
    const auth = { ...headers, 'x-auth-token': `bearer ${token}` };
    const body = Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="dryRun"\r\n\r\nfalse\r\n`),
      Buffer.from(
        `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="customers.csv"\r\ncontent-type: text/csv\r\n\r\n`,
      ),
      csv,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
    const started = performance.now();
    const answer = await app.inject({
      method: 'POST',
      url: '/api/v1/import/customers',
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: body,
    });
    if (answer.statusCode !== 200) throw new Error(`import refused: ${answer.body}`);
    const id = answer.json().result._id;
    let job: { status: string; counts: Record<string, number> };
    // Followed as the panel follows it: asked again at the panel's pace (IMPORT_POLL_MS).
    for (;;) {
      job = (await app.inject({ method: 'GET', url: `/api/v1/import/fetch/${id}`, headers: auth })).json()
        .result;
      if (job.status !== 'RUNNING') break;
      await new Promise((resolve) => setTimeout(resolve, IMPORT_POLL_MS));
    }
    const seconds = (performance.now() - started) / 1000;
    await app.close();
    if (job.status !== 'DONE' || job.counts.created !== rows)
      throw new Error(`the import ended ${job.status} with ${JSON.stringify(job.counts)}`);
    const { rows: drift } = await database.pool.query(`
      with recount as (
        select s.scope_id, u.type, count(*)::bigint as total
        from users u cross join lateral (
          select '00000000-0000-0000-0000-000000000000'::uuid as scope_id
          union all select p::uuid from unnest(string_to_array(trim(both '/' from u.path), '/')) as p) s
        group by 1, 2)
      select * from recount r full join network_counts n using (scope_id, type)
      where coalesce(r.total, 0) <> coalesce(n.total, 0)`);
    if (drift.length) throw new Error(`the counter rows drifted: ${JSON.stringify(drift.slice(0, 3))}`);
    return { engine, rows, seconds, rowsPerSecond: Math.round(rows / seconds) };
  } finally {
    await close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  let rows = 100_000;
  let only: (typeof ENGINES)[number] | undefined;
  try {
    const values = readOptions(process.argv.slice(2), {
      rows: { type: 'string' },
      engine: { type: 'string' },
    });
    if (values.rows !== undefined) {
      rows = Number(values.rows);
      if (!Number.isInteger(rows) || rows < 1) throw new Error(`--rows must be a positive whole number`);
    }
    only = ENGINES.find((e) => e === values.engine);
    if (values.engine !== undefined && !only) throw new Error(`--engine must be pglite or postgres`);
  } catch (error) {
    refuseCommandLine(error, USAGE);
  }
  const csv = Buffer.from(customersCsv(rows));
  console.log(`import of ${rows.toLocaleString('en')} customers (${(csv.length / 1048576).toFixed(1)} MB)`);
  const results: Awaited<ReturnType<typeof benchEngine>>[] = [];
  for (const engine of only ? [only] : ENGINES) {
    const result = await benchEngine(engine, rows, csv);
    results.push(result);
    console.log(
      `${engine.padEnd(9)} ${result.seconds.toFixed(1).padStart(7)} s  ${String(result.rowsPerSecond).padStart(7)} rows/s`,
    );
  }
  const [pgResult, pgliteResult] = ['postgres', 'pglite'].map((e) => results.find((r) => r.engine === e));
  if (pgResult && pgliteResult)
    console.log(`PGlite takes ${(pgliteResult.seconds / pgResult.seconds).toFixed(2)}x PostgreSQL's time`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
