// Crash test (not part of npm test): a bounded write load at concurrency 10 against a real server, kill -9 of
// the server in the middle, a restart on the same data, then a check that every acknowledged write is
// there and nothing is half-written. Embedded PGlite by default; with DATABASE_URL a throw-away database on
// that PostgreSQL server. Prints the figures and writes tests/bench/results/crash-<engine>.json.
//
//   node --import tsx tests/bench/crash.ts                       # PGlite
//   DATABASE_URL=postgres://... node --import tsx tests/bench/crash.ts
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildServer } from '../compiled-server';
import { applicantAadhar, applicationForm } from '../server/application';
import { startServer } from '../spawn-server';
import { throwAwayDatabase } from '../throwaway-database';

const TOTAL_WRITES = 400;
const CONCURRENCY = 10;
const KILL_AFTER_ACKS = TOTAL_WRITES / 2;
const XSRF = 'crash-test-xsrf';
/** The server on `dataDir` (and `databaseUrl`, else the embedded database), with its API's base address. */
async function startOn(dataDir: string, databaseUrl: string | undefined) {
  const server = await startServer({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    // The load sends each application from its own address through this "proxy" (the per-address limit).
    TRUST_PROXY: '1',
  });
  return { ...server, base: `${server.origin}/api/v1` };
}

const jsonHeaders = (token?: string) => ({
  'content-type': 'application/json',
  cookie: `XSRF-TOKEN=${XSRF}`,
  'x-xsrf-token': XSRF,
  ...(token ? { 'x-auth-token': `bearer ${token}` } : {}),
});

async function api(base: string, method: string, url: string, token?: string, body?: unknown) {
  const res = await fetch(`${base}/${url}`, {
    method,
    headers: jsonHeaders(token),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { result?: never; message?: string } };
}

type Kind = 'provider' | 'customer' | 'move' | 'lead';
interface Write {
  kind: Kind;
  key: string;
  state: 'sent' | 'acknowledged' | 'refused' | 'unanswered';
}

async function main() {
  // The server as `npm start` runs it: compiled, built here when its sources changed.
  buildServer();
  const serverUrl = process.env.DATABASE_URL || undefined;
  const engine = serverUrl ? 'postgres' : 'pglite';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tierdesk-crash-'));
  const database = serverUrl ? await throwAwayDatabase(serverUrl, 'tierdesk_crash') : undefined;
  const databaseUrl = database?.url;

  let server = await startOn(dataDir, databaseUrl);
  const login = await api(server.base, 'POST', 'account/login', undefined, {
    userName: '9999999999',
    password: 'Admin@1234',
  });
  const token = (login.body.result as unknown as { token: string }).token;
  const list = async (type: number) =>
    (await api(server.base, 'GET', `account/fetch?type=${type}&limit=100`, token)).body.result as unknown as {
      users: {
        _id: string;
        name: string;
        email: { address: string };
        mobile: { number: string };
        userName: { id: string };
        districtId: string;
        tehsilId: string;
      }[];
    };
  const mds = (await list(2)).users;
  const distributors = (await list(3)).users;
  const retailers = (await list(4)).users;
  const tehsil = (
    (await api(server.base, 'GET', 'tehsil/fetch?limit=1')).body.result as unknown as {
      tehsil: { _id: string; districtId: { _id: string }; stateId: { _id: string } }[];
    }
  ).tehsil[0];
  const place = { stateId: tehsil.stateId._id, districtId: tehsil.districtId._id, tehsilId: tehsil._id };
  const run = randomBytes(3).toString('hex');

  const writes: Write[] = [];
  let acknowledged = 0;
  let killed = false;
  let killedAt = 0;
  const started = Date.now();

  const send = async (n: number): Promise<void> => {
    const kind: Kind = (['provider', 'customer', 'move', 'lead'] as const)[n % 4];
    const write: Write = { kind, key: '', state: 'sent' };
    writes.push(write);
    try {
      let status: number;
      if (kind === 'provider') {
        write.key = `crash-${run}-provider-${n}`;
        status = (await api(server.base, 'POST', 'providers/create', token, { name: write.key })).status;
      } else if (kind === 'customer') {
        write.key = `7${String(n).padStart(4, '0')}${run.slice(0, 5).replace(/\D/g, '0').padEnd(5, '0')}`;
        const retailer = retailers[n % retailers.length];
        status = (
          await api(server.base, 'POST', 'account/create', token, {
            type: 1,
            name: `Crash Customer ${n}`,
            email: `crash${n}@example.in`,
            mobile: write.key,
            userName: `crash-${run}-${n}`,
            districtId: retailer.districtId,
            tehsilId: retailer.tehsilId,
            customer: { aadharId: applicantAadhar(n + 1000), panId: 'ABCDE1234F', retailerId: retailer._id },
          })
        ).status;
      } else if (kind === 'move') {
        const d = distributors[n % distributors.length];
        write.key = d._id;
        status = (
          await api(server.base, 'POST', `account/update/${d._id}`, token, {
            type: 3,
            name: d.name,
            email: d.email.address,
            mobile: d.mobile.number,
            userName: d.userName.id,
            districtId: d.districtId,
            tehsilId: d.tehsilId,
            distributor: { masterDistributorId: mds[n % mds.length]._id },
          })
        ).status;
      } else {
        write.key = `Crash Applicant ${run} ${n}`;
        const form = applicationForm(place, {
          applicantInfo: { name: write.key },
          businessInfo: { establishmentName: `Crash Point ${n}` },
          otherBusinessInfo: { aadharNumber: applicantAadhar(n) },
        });
        const res = await fetch(`${server.base}/leads/create`, {
          method: 'POST',
          headers: {
            cookie: `XSRF-TOKEN=${XSRF}`,
            'x-xsrf-token': XSRF,
            'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
          },
          body: form,
        });
        status = res.status;
      }
      write.state = status === 200 ? 'acknowledged' : 'refused';
      if (status === 200) acknowledged++;
    } catch {
      write.state = 'unanswered';
    }
    if (!killed && acknowledged >= KILL_AFTER_ACKS) {
      killed = true;
      killedAt = Date.now() - started;
      server.child.kill('SIGKILL');
    }
  };

  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < TOTAL_WRITES && !killed) await send(next++);
    }),
  );
  await server.exited;
  const inFlightAtKill = writes.filter((w) => w.state === 'unanswered');

  const restartStarted = Date.now();
  server = await startOn(dataDir, databaseUrl);
  const restartMs = Date.now() - restartStarted;

  // Read the data directly, as the restarted server stores it.
  const db = new pg.Client(
    databaseUrl
      ? { connectionString: databaseUrl }
      : { host: dataDir, user: 'postgres', database: 'postgres' },
  );
  await db.connect();
  const providers = new Set(
    (await db.query<{ name: string }>("select name from providers where name like 'crash-%'")).rows.map(
      (r) => r.name,
    ),
  );
  const customers = new Set(
    (await db.query<{ mobile: string }>('select mobile from users where type = 1')).rows.map((r) => r.mobile),
  );
  const leadRows = (await db.query<{ applicant_name: string }>('select applicant_name from leads')).rows;
  const leadsByName = new Set(leadRows.map((r) => r.applicant_name));
  const present = (w: Write) =>
    w.kind === 'provider'
      ? providers.has(w.key)
      : w.kind === 'customer'
        ? customers.has(w.key)
        : w.kind === 'lead'
          ? leadsByName.has(w.key)
          : true;

  // Tree: every path is its parent's path plus its own id (no half-moved subtree, no half-created user).
  const users = (
    await db.query<{
      id: string;
      type: number;
      path: string;
      master_distributor_id: string | null;
      distributor_id: string | null;
      retailer_id: string | null;
    }>('select id, type, path, master_distributor_id, distributor_id, retailer_id from users')
  ).rows;
  const byId = new Map(users.map((u) => [u.id, u]));
  let treeProblems = 0;
  for (const u of users) {
    const parentId =
      u.type === 1
        ? u.retailer_id
        : u.type === 4
          ? u.distributor_id
          : u.type === 3
            ? u.master_distributor_id
            : null;
    const parent = parentId ? byId.get(parentId) : undefined;
    if (u.path !== `${parent ? parent.path : '/'}${u.id}/`) treeProblems++;
    if (u.type === 4 && parent && u.master_distributor_id !== parent.master_distributor_id) treeProblems++;
  }
  // Files: every stored lead has both files in the database, whole (its chunks add up to its size); no temporary
  // upload survived the restart; no stored file belongs to no application (its transaction was undone).
  const count = async (text: string) => Number((await db.query<{ n: string }>(text)).rows[0].n);
  const leadFilesMissing = await count(
    `select count(*) as n from leads l
      cross join lateral (values (l.picture_file, l.picture_size), (l.document_file, l.document_size)) f (name, size)
      where not exists (select 1 from stored_files s where s.id = f.name and s.size = f.size
        and s.size = (select coalesce(sum(length(c.bytes)), 0) from stored_file_chunks c where c.file_id = s.id))`,
  );
  const uploads = path.join(dataDir, 'uploads');
  const temporaryUploads = fs.existsSync(uploads) ? fs.readdirSync(uploads).length : 0;
  const unreferencedFiles = await count(
    `select count(*) as n from stored_files s
      where not exists (select 1 from leads l where l.picture_file = s.id or l.document_file = s.id)`,
  );
  await db.end();

  const acked = writes.filter((w) => w.state === 'acknowledged');
  const results = {
    date: new Date().toISOString(),
    engine,
    load: {
      concurrency: CONCURRENCY,
      writesSent: writes.length,
      acknowledged: acked.length,
      refused: writes.filter((w) => w.state === 'refused').length,
      unansweredAtKill: inFlightAtKill.length,
      killedAfterMs: killedAt,
      mix: 'providers/create, account/create (customer), account/update (distributor move), leads/create (multipart)',
    },
    afterRestart: {
      restartMs,
      acknowledgedPresent: acked.filter(present).length,
      acknowledgedMissing: acked.filter((w) => !present(w)).length,
      unansweredCommitted: inFlightAtKill.filter((w) => w.kind !== 'move' && present(w)).length,
      unansweredAbsent: inFlightAtKill.filter((w) => w.kind !== 'move' && !present(w)).length,
      unansweredMoves: inFlightAtKill.filter((w) => w.kind === 'move').length,
      treeProblems,
      leadFilesMissing,
      temporaryUploadsLeft: temporaryUploads,
      unreferencedFiles,
    },
  };
  server.child.kill('SIGTERM');
  await server.exited;
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });

  console.log(JSON.stringify(results, null, 2));
  const out = path.join('tests', 'bench', 'results');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, `crash-${engine}.json`), `${JSON.stringify(results, null, 2)}\n`);
  const ok =
    results.afterRestart.acknowledgedMissing === 0 &&
    results.afterRestart.treeProblems === 0 &&
    results.afterRestart.leadFilesMissing === 0 &&
    results.afterRestart.temporaryUploadsLeft === 0 &&
    results.afterRestart.unreferencedFiles === 0;
  console.log(
    ok ? 'crash test: every acknowledged write survived, nothing half-written' : 'crash test: FAILED',
  );
  process.exit(ok ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
