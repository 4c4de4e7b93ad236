import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { signCallback } from '../../src/server/security/signature';
import { runScript, runScriptAsync, type ServerProcess, startServer } from '../spawn-server';
import { ADMIN, DEMO_PASSWORD } from './helpers';

/**
 * `npm run backup` and `npm run restore` on the embedded database (issue 54), as an operator runs them: a backup taken
 * through the running server while it takes sales, restored into an empty DATA_DIR, reconciled, and served with
 * every sale acknowledged before the backup began; a backup of a stopped server's DATA_DIR with its keys, restored
 * to the same lists; and each refusal, one line and a non-zero exit, leaving nothing behind. The embedded database
 * only (DATABASE_URL is emptied for every process), on either run of the suite.
 */

type Env = Record<string, string>;
/** Whatever the suite runs on, these commands and servers use the embedded database. */
const EMBEDDED: Env = { DATABASE_URL: '', DATA_KEY: '', PROVIDER_WEBHOOK_SECRET: '' };
/** Long enough for a loaded 2-core machine; the waits end as soon as what they wait for is there. */
const WAIT = { timeout: 60_000, interval: 100 };
const XSRF = 'backup-test-xsrf';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-backup-'));
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  fs.rmSync(root, { recursive: true, force: true });
});
const inRoot = (name: string) => path.join(root, name);

async function serverOn(env: Env) {
  const server = await startServer({ ...EMBEDDED, ...env });
  servers.push(server);
  return server;
}

async function api(
  server: ServerProcess,
  method: 'GET' | 'POST',
  url: string,
  opts: { token?: string; json?: unknown; raw?: string; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${server.origin}/api/v1/${url}`, {
    method,
    headers: {
      cookie: `XSRF-TOKEN=${XSRF}`,
      'x-xsrf-token': XSRF,
      ...(opts.json !== undefined || opts.raw !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(opts.token ? { 'x-auth-token': `bearer ${opts.token}` } : {}),
      ...opts.headers,
    },
    body: opts.raw ?? (opts.json === undefined ? undefined : JSON.stringify(opts.json)),
  });
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
  return { status: res.status, body: (await res.json()) as any };
}

async function signIn(server: ServerProcess, userName: string, password: string) {
  const res = await api(server, 'POST', 'account/login', { json: { userName, password } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.token as string;
}

/** What an admin sees: the sales, the postings and the customers, first page of each. */
async function listsOf(server: ServerProcess) {
  const token = await signIn(server, ADMIN.userName, ADMIN.password);
  const lists: Record<string, unknown> = {};
  for (const url of [
    'bought_products/fetch?limit=100',
    'transactions/fetch?limit=100',
    'account/fetch?type=1&limit=100',
  ]) {
    const res = await api(server, 'GET', url, { token });
    expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
    lists[url] = res.body.result;
  }
  return lists;
}

const backup = (env: Env, args: string[]) => runScript('backup', args, { ...EMBEDDED, ...env });
const restore = (env: Env, args: string[]) => runScript('restore', args, { ...EMBEDDED, ...env });
const reconcile = (env: Env) => runScript('reconcile', [], { ...EMBEDDED, ...env });
/** `text` as a regular expression matching it literally. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const secretIn = (dataDir: string, file: string) => fs.readFileSync(path.join(dataDir, file), 'utf8').trim();

const RECONCILED = /^Reconciliation OK: \d+ confirmed and \d+ reversed sales/;
const KEYS_APART =
  'The data key and the webhook secret are not in the file: keep DATA_DIR/data.key and DATA_DIR/webhook.secret (or DATA_KEY and PROVIDER_WEBHOOK_SECRET) separately.';

/** Written by the first test, refused or restored by the later ones. */
const source = inRoot('source');
const underLoad = inRoot('under-load.backup');
const withKeys = inRoot('with-keys.backup');

interface Sale {
  id: string;
  recordedAt: number;
  confirmedAt?: number;
}

describe('npm run backup under write load, and npm run restore', () => {
  it('copies one moment of the database while the server takes sales; the restore holds every sale acknowledged before it began and reconciles', async () => {
    const server = await serverOn({ DATA_DIR: source });
    const webhookSecret = secretIn(source, 'webhook.secret');
    const retailer = await signIn(server, '9300000001', DEMO_PASSWORD);
    const product = (await api(server, 'GET', 'products/fetch?searchText=Saving', { token: retailer })).body
      .result.products[0];
    const customers: string[] = (
      await api(server, 'GET', 'account/fetch?type=1&limit=100', { token: retailer })
    ).body.result.users.map((u: { _id: string }) => u._id);
    expect(customers.length).toBeGreaterThan(0);

    // The write load: sellers opening, recording and confirming sales (the partner's signed callback) until told
    // to stop, each acknowledgement noted with its time.
    const sales: Sale[] = [];
    const problems: string[] = [];
    let stop = false;
    const sellOne = async (n: number) => {
      const customerId = customers[n % customers.length];
      const opened = await api(server, 'POST', 'payusprint/saving_account', {
        token: retailer,
        json: { accountType: product.urlParams.data, productId: product._id, customerId },
      });
      if (opened.status !== 200) return problems.push(`opening ${opened.status} ${opened.body?.message}`);
      const link: string = opened.body.result.result.data;
      const utmCode = link.slice(link.lastIndexOf('=') + 1);
      const merchantCode: string = opened.body.result.merchantCode;
      const recorded = await api(server, 'POST', 'bought_products/create', {
        token: retailer,
        json: { customerId, retailerId: null, productId: product._id, utmCode, merchantCode },
        headers: { 'idempotency-key': `backup-${n}-${randomUUID()}` },
      });
      if (recorded.status !== 200)
        return problems.push(`record ${recorded.status} ${recorded.body?.message}`);
      const sale: Sale = { id: recorded.body.result._id, recordedAt: Date.now() };
      sales.push(sale);
      const raw = JSON.stringify({ eventId: randomUUID(), event: 'account.opened', utmCode, merchantCode });
      const confirmed = await api(server, 'POST', 'bought_products/callback', {
        raw,
        headers: { 'x-provider-signature': signCallback(webhookSecret, raw) },
      });
      if (confirmed.status !== 200 || confirmed.body.result?.status !== 'CONFIRMED')
        return problems.push(`callback ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
      sale.confirmedAt = Date.now();
    };
    let next = 0;
    const load = Promise.all(
      Array.from({ length: 3 }, async () => {
        while (!stop) await sellOne(next++);
      }),
    );

    await vi.waitFor(() => expect(sales.filter((s) => s.confirmedAt).length).toBeGreaterThanOrEqual(6), WAIT);
    const began = Date.now();
    const taken = await runScriptAsync('backup', ['--out', underLoad], { ...EMBEDDED, DATA_DIR: source });
    const ended = Date.now();
    // And the load goes on after it: the server is still taking sales.
    const atEnd = sales.length;
    await vi.waitFor(() => expect(sales.length).toBeGreaterThan(atEnd + 2), WAIT);
    stop = true;
    await load;

    expect(taken.stderr).toBe('');
    expect(taken.stdout).toMatch(
      new RegExp(
        `^${literal(`Backed up the database of ${source} to ${underLoad}`)} \\(\\d+\\.\\d MB\\)\\. The server's requests waited \\d+ ms for the copy\\.\\n${literal(KEYS_APART)}\\n$`,
      ),
    );
    expect(taken.status).toBe(0);
    expect(problems).toEqual([]);
    // The server took sales while the command ran.
    expect(sales.filter((s) => s.recordedAt > began && s.recordedAt < ended).length).toBeGreaterThan(0);
    // Created readable by its owner only, with or without the keys (the database holds personal data).
    expect(fs.statSync(underLoad).mode & 0o777).toBe(0o600);

    const sourceLists = await listsOf(server);
    await server.stop();

    // With the server stopped, the command opens DATA_DIR itself; --with-keys carries the key and the secret.
    const offline = backup({ DATA_DIR: source }, ['--out', withKeys, '--with-keys']);
    expect(offline.stderr).toBe('');
    expect(offline.stdout).toMatch(
      new RegExp(
        `^${literal(`Backed up the database of ${source} to ${withKeys}`)} \\(\\d+\\.\\d MB\\)\\.\\n${literal('The file holds the data key and the webhook secret: keep it as safe as they are.')}\\n$`,
      ),
    );
    expect(offline.status).toBe(0);
    expect(fs.statSync(withKeys).mode & 0o777).toBe(0o600);

    // The backup under load, into a DATA_DIR that does not exist yet, with the data key kept apart from it.
    const restored = inRoot('restored');
    const dataKey = secretIn(source, 'data.key');
    const filled = restore({ DATA_DIR: restored, DATA_KEY: dataKey }, ['--from', underLoad]);
    expect(filled.stderr).toBe('');
    expect(filled.stdout).toMatch(
      new RegExp(
        `^${literal(`Restored ${underLoad}`)} \\(taken \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\) into ${literal(restored)}\\.\\n`,
      ),
    );
    expect(filled.status).toBe(0);
    const check = reconcile({ DATA_DIR: restored, DATA_KEY: dataKey });
    expect(check.stderr).toBe('');
    expect(check.stdout).toMatch(RECONCILED);
    expect(check.status).toBe(0);

    const again = await serverOn({
      DATA_DIR: restored,
      DATA_KEY: dataKey,
      PROVIDER_WEBHOOK_SECRET: webhookSecret,
    });
    const admin = await signIn(again, ADMIN.userName, ADMIN.password);
    const before = sales.filter((s) => s.recordedAt < began);
    expect(before.length).toBeGreaterThanOrEqual(6);
    for (const sale of before) {
      const found = await api(again, 'GET', `bought_products/fetch?_id=${sale.id}`, { token: admin });
      expect(found.status, `sale ${sale.id}`).toBe(200);
      if (sale.confirmedAt !== undefined && sale.confirmedAt < began)
        expect(found.body.result.boughtProducts[0].status, `sale ${sale.id}`).toBe('CONFIRMED');
    }
    await again.stop();

    // The copy with its keys, into an empty DATA_DIR: the same lists as the server it was taken from.
    const withItsKeys = inRoot('with-its-keys');
    fs.mkdirSync(withItsKeys);
    const keyed = restore({ DATA_DIR: withItsKeys }, ['--from', withKeys]);
    expect(keyed.stderr).toBe('');
    expect(keyed.status).toBe(0);
    for (const file of ['data.key', 'webhook.secret']) {
      expect(secretIn(withItsKeys, file)).toBe(secretIn(source, file));
      expect(fs.statSync(path.join(withItsKeys, file)).mode & 0o777).toBe(0o600);
    }
    const keyedCheck = reconcile({ DATA_DIR: withItsKeys });
    expect(keyedCheck.stdout).toMatch(RECONCILED);
    expect(keyedCheck.status).toBe(0);
    const copy = await serverOn({ DATA_DIR: withItsKeys });
    expect(await listsOf(copy)).toEqual(sourceLists);
    await copy.stop();
  }, 300_000);
});

describe('refusals, each one line and a non-zero exit, leaving nothing behind', () => {
  it('restore refuses a DATA_DIR that is not empty, and leaves it as it was', () => {
    const occupied = inRoot('occupied');
    fs.mkdirSync(occupied);
    fs.writeFileSync(path.join(occupied, 'notes.txt'), 'mine');
    const refused = restore({ DATA_DIR: occupied, DATA_KEY: secretIn(source, 'data.key') }, [
      '--from',
      underLoad,
    ]);
    expect(refused.stderr).toBe(`${occupied} is not empty: restore into an empty or new DATA_DIR\n`);
    expect(refused.stdout).toBe('');
    expect(refused.status).toBe(1);
    expect(fs.readdirSync(occupied)).toEqual(['notes.txt']);
  }, 60_000);

  it('restore refuses a data key that did not seal the database, and leaves DATA_DIR empty', () => {
    const empty = inRoot('wrong-key');
    fs.mkdirSync(empty);
    const refused = restore({ DATA_DIR: empty, DATA_KEY: randomBytes(32).toString('hex') }, [
      '--from',
      underLoad,
    ]);
    expect(refused.stderr).toBe(
      'DATA_KEY differs from the key this database was sealed with: start every server with the same DATA_KEY\n',
    );
    expect(refused.stdout).toBe('');
    expect(refused.status).toBe(1);
    expect(fs.readdirSync(empty)).toEqual([]);
    // A DATA_DIR the command would have made is not left behind either.
    const fresh = inRoot('wrong-key-new');
    const again = restore({ DATA_DIR: fresh, DATA_KEY: randomBytes(32).toString('hex') }, [
      '--from',
      underLoad,
    ]);
    expect(again.status).toBe(1);
    expect(fs.existsSync(fresh)).toBe(false);
  }, 120_000);

  it('restore refuses a missing file, a cut or foreign one, DATABASE_URL, and a backup without its key when DATA_KEY is not set', () => {
    const target = { DATA_DIR: inRoot('never') };
    const missing = inRoot('no-such.backup');
    const absent = restore(target, ['--from', missing]);
    expect(absent.stderr).toBe(`${missing} does not exist\n`);
    expect(absent.status).toBe(1);

    const cut = inRoot('cut.backup');
    const whole = fs.readFileSync(underLoad);
    fs.writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    const short = restore(target, ['--from', cut]);
    expect(short.stderr).toBe(
      `${cut} is not whole: it was cut short or changed after npm run backup wrote it\n`,
    );
    expect(short.status).toBe(1);

    const foreign = inRoot('foreign.backup');
    fs.writeFileSync(foreign, '{"format":"something else"}\nbytes');
    const notOurs = restore(target, ['--from', foreign]);
    expect(notOurs.stderr).toBe(`${foreign} is not a backup written by npm run backup\n`);
    expect(notOurs.status).toBe(1);

    const onPostgres = restore({ ...target, DATABASE_URL: 'postgres://127.0.0.1:1/none' }, [
      '--from',
      underLoad,
    ]);
    expect(onPostgres.stderr).toBe(
      'npm run restore fills the embedded database in DATA_DIR; unset DATABASE_URL (PostgreSQL is restored with its own tools)\n',
    );
    expect(onPostgres.status).toBe(1);

    const keyless = restore(target, ['--from', underLoad]);
    expect(keyless.stderr).toBe(
      `${underLoad} does not hold the data key: set DATA_KEY to the key that sealed its database (the data.key kept apart from it)\n`,
    );
    expect(keyless.status).toBe(1);
    expect(fs.existsSync(target.DATA_DIR)).toBe(false);

    const usage = restore(target, []);
    expect(usage.stderr).toBe(
      'Name the backup to restore with --from\nUsage: npm run restore -- --from <file>\n',
    );
    expect(usage.status).toBe(2);
  }, 120_000);

  it('backup refuses to replace a file, a DATA_DIR without a database, DATABASE_URL, and asks for --out', () => {
    const before = fs.readFileSync(withKeys);
    const replaced = backup({ DATA_DIR: source }, ['--out', withKeys]);
    expect(replaced.stderr).toBe(`${withKeys} exists already: name a new file\n`);
    expect(replaced.status).toBe(1);
    expect(fs.readFileSync(withKeys).equals(before)).toBe(true);

    const nothing = inRoot('nothing-here');
    const noDatabase = backup({ DATA_DIR: nothing }, ['--out', inRoot('nothing.backup')]);
    expect(noDatabase.stderr).toBe(
      `${nothing} holds no Tierdesk database: set DATA_DIR to the server's data directory, or DATABASE_URL to its database\n`,
    );
    expect(noDatabase.status).toBe(1);
    expect(fs.existsSync(nothing)).toBe(false);

    const onPostgres = backup({ DATA_DIR: source, DATABASE_URL: 'postgres://127.0.0.1:1/none' }, [
      '--out',
      inRoot('postgres.backup'),
    ]);
    expect(onPostgres.stderr).toBe(
      'npm run backup copies the embedded database in DATA_DIR; with DATABASE_URL back up PostgreSQL with its own tools (docs/operations.md, Backups)\n',
    );
    expect(onPostgres.status).toBe(1);

    const usage = backup({ DATA_DIR: source }, []);
    expect(usage.stderr).toBe(
      'Name the file to write with --out\nUsage: npm run backup -- --out <file> [--with-keys]\n',
    );
    expect(usage.status).toBe(2);
  }, 60_000);
});
