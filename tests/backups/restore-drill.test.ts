// The restore drill (the vitest project `restore-drill`; CI runs it, docs/operations.md asks an operator for it
// monthly): a PostgreSQL 15 primary and replica archiving their WAL into a pgBackRest repository, started by
// scripts/pg-cluster.sh as the fleet starts them (BACKREST_DIR: a first full backup before any write), and a Tierdesk
// server on it. People write through the API, the time T is noted, they write more, and the fleet's own commands
// take backups and restore T into a separate PostgreSQL: it holds exactly the writes up to T, reconcile is ok on
// it, and the primary runs on untouched. The restore's refusals, and stop, are checked on the same repository.
// The tests run in order, each on what the ones before did.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/demo/network';
import { verhoeffDigit } from '../../src/shared/identity';
import { buildServer, COMPILED_SERVER } from '../compiled-server';
import { run } from '../fleet/fleet';
import { Client, closeAgents, Journal } from '../fleet/http';
import { freePort } from '../free-port';
import { type ServerProcess, startServer } from '../spawn-server';

const API = '/api/v1';
/** Each command's own limit, far above what it takes on a loaded machine: a stuck one fails rather than hangs. */
const COMMAND_MS = 240_000;
const RUN = randomBytes(3).toString('hex');
const DATA_KEY = randomBytes(32).toString('hex');
const WEBHOOK_SECRET = randomBytes(32).toString('hex');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-drill-'));
// The postgres OS user keeps the databases and the repository in here: it must be able to pass through.
fs.chmodSync(dir, 0o711);
const restored = path.join(dir, 'restored');
let clusterEnv: NodeJS.ProcessEnv;
let primaryUrl = '';
let server: ServerProcess | undefined;
let person: Client;
let token = '';
let home: { districtId: string; tehsilId: string };
let primary: pg.Client;
let restoredUrl = '';
let fullLabel = '';
let firstDiffLabel = '';
/** When that differential backup ended, to the second pgBackRest records (its printed "to <ISO time>"). */
let firstDiffEnd = 0;

const note = (text: string) => console.log(`       ${text}`);
const fleetEnv = (fleetDir = dir): NodeJS.ProcessEnv => ({ ...process.env, FLEET_DIR: fleetDir });
const fleet = (args: string[], fleetDir = dir) =>
  run('bash', ['scripts/fleet.sh', ...args], fleetEnv(fleetDir), COMMAND_MS);
const lastLine = (output: string) => output.trimEnd().split('\n').pop() ?? '';

let created = 0;
/** Customers the retailer creates through the API, one at a time, each acknowledged; their names. */
async function createCustomers(batch: string, count: number) {
  const names: string[] = [];
  const run6 = String(Number.parseInt(RUN, 16) % 1_000_000).padStart(6, '0');
  for (let i = 1; i <= count; i++) {
    created += 1;
    const aadharBase = `6${run6}${String(created).padStart(4, '0')}`;
    const name = `Drill ${RUN} ${batch}${i}`;
    const answer = await person.post(`${API}/account/create`, {
      token,
      json: {
        type: 1,
        name,
        email: `drill-${RUN}-${batch}${i}@example.in`,
        mobile: `95${run6}${String(created).padStart(2, '0')}`,
        userName: `drill-${RUN}-${batch}${i}`,
        districtId: home.districtId,
        tehsilId: home.tehsilId,
        customer: { aadharId: `${aadharBase}${verhoeffDigit(aadharBase)}`, panId: 'ABCDE1234F' },
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    names.push(name);
  }
  return names;
}

/** The drill's customers in a database, by name. */
async function drillCustomers(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query('select name from users where name like $1 order by name', [
      `Drill ${RUN} %`,
    ]);
    return rows.map((r) => r.name as string);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  const port = await freePort();
  let replicaPort = await freePort();
  while (replicaPort === port) replicaPort = await freePort();
  clusterEnv = {
    ...process.env,
    PGDIR: path.join(dir, 'pg'),
    PGPORT: String(port),
    REPLICA_PORT: String(replicaPort),
    BACKREST_DIR: dir,
  };
  const started = await run('bash', ['scripts/pg-cluster.sh', 'start'], clusterEnv, COMMAND_MS);
  expect(started.code, started.output).toBe(0);
  note(
    started.output
      .trim()
      .split('\n')
      .find((line) => line.startsWith('Backup ')) ?? '',
  );
  fullLabel = /^Backup (\S+F) \(full\)/m.exec(started.output)?.[1] ?? '';
  expect(fullLabel, started.output).not.toBe('');
  primaryUrl = /^DATABASE_URL=(.*)$/m.exec(started.output)?.[1] ?? '';
  expect(primaryUrl).toMatch(/^postgres:\/\//);

  buildServer();
  server = await startServer(
    {
      DATABASE_URL: primaryUrl,
      DATABASE_REPLICA_URL: '',
      DATA_DIR: path.join(dir, 'server'),
      DATA_KEY,
      PROVIDER_WEBHOOK_SECRET: WEBHOOK_SECRET,
    },
    [],
    COMPILED_SERVER,
  );
  person = new Client(server.origin, '127.0.0.1', new Journal());
  const login = await person.post(`${API}/account/login`, {
    json: { userName: '9300000001', password: DEMO_PASSWORD },
  });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  token = login.body.result.token;
  const self = await person.get(`${API}/account/fetch?_id=${login.body.result.user._id}`, { token });
  home = self.body.result.users[0];
  primary = new pg.Client({ connectionString: primaryUrl });
  await primary.connect();
}, COMMAND_MS * 2);

afterAll(async () => {
  await primary?.end();
  await server?.stop();
  closeAgents();
  await fleet(['stop']);
  if (clusterEnv) await run('bash', ['scripts/pg-cluster.sh', 'stop'], clusterEnv, COMMAND_MS);
  fs.rmSync(dir, { recursive: true, force: true });
}, COMMAND_MS);

describe('the restore drill: write, note T, write more, back up, restore T', () => {
  let before: string[] = [];
  let after: string[] = [];
  let target = '';

  it('the primary archives its WAL with pgBackRest, and a full backup was taken before any write', async () => {
    const { rows } = await primary.query(
      "select current_setting('archive_mode') as mode, current_setting('archive_command') as command",
    );
    expect(rows[0].mode).toBe('on');
    expect(rows[0].command).toContain('archive-push %p');
    expect(fullLabel).toMatch(/^\d{8}-\d{6}F$/);
  });

  it('npm run fleet -- backup takes a differential backup on the full one and prints it', async () => {
    before = await createCustomers('A', 3);
    const backup = await fleet(['backup']);
    note(backup.output.trim());
    expect(backup.code, backup.output).toBe(0);
    const took = new RegExp(`^Backup (${fullLabel}_\\d{8}-\\d{6}D) \\(diff on ${fullLabel}\\): `, 'm').exec(
      backup.output,
    );
    expect(took, backup.output).not.toBeNull();
    firstDiffLabel = took?.[1] ?? '';
    firstDiffEnd = Date.parse(/ to (\S+Z), WAL /.exec(backup.output)?.[1] ?? '');
    expect(firstDiffEnd, backup.output).not.toBeNaN();
  });

  it('more writes, T noted (the primary clock), more writes, and a backup', async () => {
    before.push(...(await createCustomers('B', 3)));
    // A set counts for a restore once the whole second recorded as its end has passed (scripts/lib/backrest.sh): T
    // is noted after it, as an operator's moment to go back to would be, so the restore takes that set.
    await expect
      .poll(
        async () =>
          (await primary.query('select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms')).rows[0]
            .ms,
        { timeout: 10_000 },
      )
      .toBeGreaterThanOrEqual(firstDiffEnd + 1000);
    const { rows } = await primary.query(
      `select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as now`,
    );
    target = rows[0].now;
    after = await createCustomers('C', 3);
    const backup = await fleet(['backup']);
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toMatch(/^Backup \S+D \(diff on /m);
    expect(await drillCustomers(primaryUrl)).toEqual([...before, ...after].sort());
  });

  it('npm run fleet -- restore --to T restores exactly the writes up to T, from the backup taken before T', async () => {
    const restore = await fleet(['restore', '--to', target, '--into', restored]);
    note(restore.output.trim());
    expect(restore.code, restore.output).toBe(0);
    expect(restore.output).toContain(`from backup ${firstDiffLabel} (diff on ${fullLabel})`);
    restoredUrl = lastLine(restore.output);
    expect(restoredUrl).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
    expect(await drillCustomers(restoredUrl)).toEqual([...before].sort());
  });

  it('npm run reconcile against the restored copy is ok', async () => {
    const reconcile = await run(
      'npm',
      ['run', '--silent', 'reconcile'],
      {
        ...process.env,
        DATABASE_URL: restoredUrl,
        DATABASE_REPLICA_URL: '',
        DATA_DIR: path.join(dir, 'reconcile'),
        DATA_KEY,
        PROVIDER_WEBHOOK_SECRET: WEBHOOK_SECRET,
      },
      COMMAND_MS,
    );
    note(reconcile.output.trim());
    expect(reconcile.code, reconcile.output).toBe(0);
    expect(reconcile.output).toContain('Reconciliation OK');
  });

  it('the primary and its server run on with every write', async () => {
    const { rows } = await primary.query('select pg_is_in_recovery() as recovering');
    expect(rows[0].recovering).toBe(false);
    expect(await drillCustomers(primaryUrl)).toEqual([...before, ...after].sort());
    const health = await person.get('/healthz');
    expect(health.status).toBe(200);
  });

  describe('restore refuses, in one line', () => {
    it('a directory that is not empty', async () => {
      const refused = await fleet(['restore', '--to', target, '--into', restored]);
      expect(refused.code).toBe(1);
      expect(refused.output.trim()).toBe(
        `fleet: --into ${restored} is not empty: restore into a new or empty directory`,
      );
    });

    it('a time before the first backup', async () => {
      const refused = await fleet([
        'restore',
        '--to',
        '2020-01-01T00:00:00Z',
        '--into',
        path.join(dir, 'early'),
      ]);
      expect(refused.code).toBe(1);
      expect(refused.output.trim()).toMatch(
        /^fleet: --to 2020-01-01T00:00:00Z is before the first backup \(it finished at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\): nothing to restore it from$/,
      );
      expect(fs.existsSync(path.join(dir, 'early'))).toBe(false);
    });

    it('a FLEET_DIR with no repository', async () => {
      const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-drill-empty-'));
      try {
        const refused = await fleet(['restore', '--to', target, '--into', path.join(empty, 'r')], empty);
        expect(refused.code).toBe(1);
        expect(refused.output.trim()).toBe(
          `fleet: no pgBackRest repository in ${empty}/backup: npm run fleet -- start makes one`,
        );
        const backup = await fleet(['backup'], empty);
        expect(backup.code).toBe(1);
        expect(backup.output.trim()).toBe(
          `fleet: no pgBackRest repository in ${empty}/backup: npm run fleet -- start makes one`,
        );
      } finally {
        fs.rmSync(empty, { recursive: true, force: true });
      }
    });
  });

  it('npm run fleet -- stop stops the restored copy and keeps its directory', async () => {
    const stopped = await fleet(['stop']);
    expect(stopped.code, stopped.output).toBe(0);
    expect(stopped.output).toContain(`Restored copy in ${restored}`);
    const client = new pg.Client({ connectionString: restoredUrl });
    client.on('error', () => {});
    await expect(client.connect()).rejects.toThrow();
    expect(fs.existsSync(path.join(restored, 'PG_VERSION'))).toBe(true);
  });
});
