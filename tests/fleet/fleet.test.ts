// npm run fleet:test: a fleet (PostgreSQL primary + replica delayed by 2 s, three servers, HAProxy) started with
// scripts/fleet.sh in a temporary directory, and through HAProxy: sign-ins and lock-outs across servers, the
// per-address limits, an upload read through another server, then a callback storm of at least 1,000 sales with
// replays, during which one server is killed with kill -9 (the one holding the settlement lease: the storm goes on
// until it is seen taking it) and the replica is stopped, while a person creates customers and lists them at once.
// At the end: npm run reconcile on the primary, every event posted once, no 5xx outside the kill window, every
// acknowledged write present. Prints req/s for one server and for three (not asserted). Exits 0 only when every check holds; stops the fleet in every case, within 5 minutes.
//
//   npm run fleet:test                    (FLEET_TEST_SALES=200 for a shorter storm)
//   npm run fleet:test -- --pgbouncer     the same with PgBouncer between the servers and the primary
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { DEFAULTS } from '../../src/server/config';
import { DEMO_PASSWORD } from '../../src/server/demo/network';
import { signCallback } from '../../src/server/modules/partner/signature';
import { LEAD_MSG } from '../../src/shared/constants/leads';
import { SALES_MSG } from '../../src/shared/constants/sales';
import { MSG } from '../../src/shared/messages';
import { applicantAadhar, applicationForm, PDF, PNG } from '../server/application';
import { Fleet, run, SERVER_NAMES, type ServerName } from './fleet';
import { type Answer, Client, closeAgents, formBytes, Journal } from './http';

const STARTED = Date.now();
/** The whole run, the fleet's stop included. */
const LIMIT_MS = 300_000;
/** Left for stopping the fleet when the time is up. */
const STOP_MS = 40_000;
const SALES = Number(process.env.FLEET_TEST_SALES || 1000);
const STORM_CONCURRENCY = 12;
const SIGN_INS_PER_ADDRESS = 10;
const SETTLE_WITHIN_MS = 30_000;
/** How long to wait for a server to take the settlement lease (each runs the job every minute). */
const LEASE_WAIT_MS = 75_000;
/** The storm goes on this long after the kill, so HAProxy is seen routing around the dead server. */
const AFTER_KILL_MS = 5_000;
const STORM_MAX_MS = 150_000;
const flags = process.argv.slice(2).filter((arg) => arg === '--pgbouncer');

const API = '/api/v1';
const RUN = randomBytes(3).toString('hex');
const adminName = process.env.ADMIN_USERNAME || DEFAULTS.adminUsername;
const adminPassword = process.env.ADMIN_PASSWORD || DEFAULTS.adminPassword;

// ---- the checks and their report ----------------------------------------------------------------------------
const outcomes: { name: string; ok: boolean }[] = [];
function check(name: string, ok: boolean, detail?: unknown) {
  outcomes.push({ name, ok });
  const more =
    detail === undefined ? '' : `: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`;
  console.log(`${ok ? 'ok    ' : 'FAILED'} ${name}${ok ? '' : more}`);
}
const note = (text: string) => console.log(`       ${text}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
let phase = 'starting the fleet';
const setPhase = (name: string) => {
  phase = name;
  console.log(`\n== ${name} (${seconds(Date.now() - STARTED)})`);
};
/** Checks a condition again until it holds or `timeoutMs` passes: what a person would wait for. */
async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number, everyMs = 100) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > until) return undefined;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
/** A message function's text with its number left open (Try again in N minutes). */
const messagePattern = (make: (n: number) => string) =>
  new RegExp(
    `^${make(987_654)
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace('987654', '\\d+')}$`,
  );

// ---- the fleet --------------------------------------------------------------------------------------------------
const fleet = new Fleet({
  DEMO_DATA: '1',
  PROVIDER_MODE: 'sandbox',
  // Every commission is due at once, so the settlement job has work while the storm runs.
  SETTLEMENT_DELAY_HOURS: '0',
  LOG_LEVEL: 'warn',
  SIGN_INS_PER_ADDRESS: String(SIGN_INS_PER_ADDRESS),
  FLEET_REPLICA_DELAY: '2s',
  FLEET_START_WAIT_SECONDS: '120',
});
const journal = new Journal();

let finishing = false;
async function finish(failure?: unknown) {
  if (finishing) return;
  finishing = true;
  clearTimeout(guard);
  if (failure !== undefined) {
    check(
      `the run got through "${phase}"`,
      false,
      failure instanceof Error ? failure.message : String(failure),
    );
    if (failure instanceof Error && failure.stack)
      note(failure.stack.split('\n').slice(1, 4).join('\n       '));
  }
  if (outcomes.some((o) => !o.ok) && fleet.state) {
    for (const file of ['s1.log', 's2.log', 's3.log', 'haproxy.log'])
      console.log(`\n-- ${file} (its end)\n${fleet.tail(file)}`);
  }
  closeAgents();
  const started = fleet.state ? fleet.processes() : {};
  setPhase('npm run fleet -- stop');
  const stopped = await fleet.stop(Math.max(10_000, Math.min(STOP_MS, LIMIT_MS - (Date.now() - STARTED))));
  // A process that has just exited may linger a moment as a zombie until it is reaped: that counts as stopped.
  const left =
    (await waitFor(async () => {
      const alive = Object.entries(started).filter(([, pid]) => running(pid));
      return alive.length === 0 ? alive : undefined;
    }, 5_000)) ?? Object.entries(started).filter(([, pid]) => running(pid));
  check(
    'npm run fleet -- stop stops every process the fleet started (servers, HAProxy, PostgreSQL, PgBouncer)',
    stopped.code === 0 && left.length === 0,
    `${stopped.output.slice(-1000)} still running: ${JSON.stringify(left)}`,
  );
  if (stopped.code === 0) {
    const twice = await fleet.stop(10_000);
    check(
      'stopping again finds nothing to stop',
      twice.code === 0 && /nothing to stop/.test(twice.output),
      twice.output,
    );
    fleet.removeDir();
  } else note(`the fleet's files stay in ${fleet.dir}`);
  const passed = outcomes.filter((o) => o.ok).length;
  const failed = outcomes.length - passed;
  console.log(`\nfleet:test took ${seconds(Date.now() - STARTED)}`);
  console.log(`fleet: ${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}
/** Whether a process is alive (not gone, and not a zombie waiting to be reaped). */
const running = (pid: number) => {
  try {
    return !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
};
const guard = setTimeout(
  () => void finish(new Error(`out of time: the run must end within ${LIMIT_MS / 1000} s`)),
  LIMIT_MS - STOP_MS,
);

// ---- the scenario -----------------------------------------------------------------------------------------------
interface Retailer {
  mobile: string;
  token: string;
  client: Client;
  customers: string[];
}

async function main() {
  setPhase(`starting a fleet with scripts/fleet.sh start --no-panel ${flags.join(' ')}`.trim());
  const started = await fleet.start(['--no-panel', ...flags], 150_000, (line) => note(line));
  check(
    'npm run fleet -- start starts the fleet; its last line is HAProxy’s URL',
    started.code === 0,
    started.output.slice(-2000),
  );
  if (started.code !== 0) throw new Error('the fleet did not start');
  const state = fleet.state!;
  const status = await fleet.status();
  check(
    'npm run fleet -- status names each server’s URL as up, HAProxy’s URL and the replica’s lag',
    status.code === 0 &&
      SERVER_NAMES.every((name) => status.output.includes(`${state.serverUrls[name]} up`)) &&
      status.output.includes(state.haproxyUrl) &&
      /replica .* up lag=/.test(status.output),
    status.output,
  );
  const hp = state.haproxyUrl;
  /** Rows from the replica, on a connection of their own. */
  const onReplica = async (sql: string) => {
    const replica = new pg.Client({ connectionString: state.replicaUrl, application_name: 'fleet-test' });
    replica.on('error', () => {});
    await replica.connect();
    try {
      return (await replica.query(sql)).rows;
    } finally {
      await replica.end();
    }
  };
  const db = fleet.primary();
  await db.connect();
  // Which server writes the settlement lease: a trigger in this throw-away database notes each writer's
  // application_name (the fleet gives each server PGAPPNAME=tierdesk-<name>), and tells the test at once when a
  // server takes or renews it (NOTIFY).
  await db.query(`
    create table fleet_test_lease_writers (holder text, app text, expires_at timestamptz, at timestamptz default clock_timestamp());
    create function fleet_test_lease_writer() returns trigger language plpgsql as $$
      begin
        insert into fleet_test_lease_writers (holder, app, expires_at)
          values (new.holder, current_setting('application_name'), new.expires_at);
        if new.expires_at > now() then
          perform pg_notify('fleet_test_lease', current_setting('application_name'));
        end if;
        return new;
      end $$;
    create trigger fleet_test_lease_writer after insert or update on job_leases
      for each row execute function fleet_test_lease_writer();`);

  // ---- people -------------------------------------------------------------------------------------------------
  setPhase('signing in');
  const admin = new Client(hp, '127.0.0.2', journal);
  const adminLogin = await admin.post(`${API}/account/login`, {
    json: { userName: adminName, password: adminPassword },
  });
  check(
    'the admin signs in through HAProxy (ADMIN_USERNAME/ADMIN_PASSWORD reached the servers)',
    adminLogin.status === 200,
    adminLogin.body,
  );
  if (adminLogin.status !== 200) throw new Error('no admin session');
  const adminToken: string = adminLogin.body.result.token;
  const products = await admin.get(`${API}/products/fetch?searchText=Saving`, { token: adminToken });
  const product = products.body?.result?.products?.[0];
  if (!product) throw new Error(`no saving product: ${products.status} ${JSON.stringify(products.body)}`);
  const accountType: string = product.urlParams.data;
  const openingPath = accountType === 'PAYUSPRINT-SAVING' ? 'saving_account' : 'current_account';
  const retailerRows = (await admin.get(`${API}/account/fetch?type=4&limit=100`, { token: adminToken })).body
    .result.users as { _id: string; mobile: { number: string }; districtId: string; tehsilId: string }[];
  const retailers: Retailer[] = [];
  for (const mobile of ['9300000001', '9300000002', '9300000003', '9300000004']) {
    const client = new Client(hp, `127.0.1.${retailers.length + 1}`, journal);
    const login = await client.post(`${API}/account/login`, {
      json: { userName: mobile, password: DEMO_PASSWORD },
    });
    if (login.status !== 200) throw new Error(`retailer ${mobile} cannot sign in: ${login.status}`);
    const token: string = login.body.result.token;
    const customers = (
      await client.get(`${API}/account/fetch?type=1&limit=100`, { token })
    ).body.result.users.map((u: { _id: string }) => u._id) as string[];
    if (customers.length === 0) throw new Error(`retailer ${mobile} has no customers`);
    retailers.push({ mobile, token, client, customers });
  }

  // ---- req/s ----------------------------------------------------------------------------------------------------
  setPhase('req/s: one server, then three through HAProxy (printed, not asserted)');
  const rate = async (client: Client, count: number, concurrency: number) => {
    let next = 0;
    const begun = Date.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next++ < count)
          await client.get(`${API}/account/fetch?type=4&limit=10`, { token: adminToken });
      }),
    );
    return count / ((Date.now() - begun) / 1000);
  };
  const direct = await rate(admin.to(state.serverUrls.s1), 300, 8);
  const balanced = await rate(admin, 300, 8);
  note(
    `req/s: one server (s1 directly) ${direct.toFixed(0)}; three servers through HAProxy ${balanced.toFixed(0)}`,
  );
  note(
    '(GET account/fetch?type=4 as the admin, 300 requests, 8 at a time; on 2 cores three servers need not be faster)',
  );
  // Those lists were read from the replica: each server's replica pool connects there (PGAPPNAME names it).
  const readers = await onReplica(
    `select distinct application_name as app from pg_stat_activity where application_name like 'tierdesk-%'`,
  );
  check(
    'the servers read the lists from the replica (their connections are there)',
    readers.length >= 2,
    readers.map((r) => r.app),
  );

  // ---- sign-ins and lock-outs across servers --------------------------------------------------------------------
  setPhase('sign-ins and lock-outs across servers');
  const login = (client: Client, userName: string, password: string) =>
    client.post(`${API}/account/login`, { json: { userName, password } });
  const guesser = new Client(hp, '127.0.2.1', journal);
  const wrong: Answer[] = [];
  for (let i = 0; i < 5; i++) wrong.push(await login(guesser, '9300000007', 'Wrong@1234'));
  const wrongServers = new Set(wrong.map((a) => a.server));
  check(
    'five wrong passwords from one address, spread over the servers, are each refused 401',
    wrong.every((a) => a.status === 401 && a.body?.message === MSG.invalidCredentials) &&
      wrongServers.size >= 2,
    wrong.map((a) => [a.server, a.status, a.body?.message]),
  );
  const locked = await login(guesser, '9300000007', DEMO_PASSWORD);
  check(
    'then the right password from that address is refused on the next server: 429 with the lock’s message',
    locked.status === 429 && messagePattern(MSG.tooManyAttempts).test(locked.body?.message ?? ''),
    [locked.server, locked.status, locked.body?.message],
  );
  const elsewhere = await login(new Client(hp, '127.0.2.2', journal), '9300000007', DEMO_PASSWORD);
  check('the same account still signs in from another address', elsewhere.status === 200, elsewhere.body);

  const sprayer = new Client(hp, '127.0.2.3', journal);
  const sprayed: Answer[] = [];
  for (let i = 0; i <= SIGN_INS_PER_ADDRESS; i++)
    sprayed.push(await login(sprayer, `nobody-${RUN}-${i}`, 'Wrong@1234'));
  const heard = sprayed.slice(0, SIGN_INS_PER_ADDRESS);
  const over = sprayed[SIGN_INS_PER_ADDRESS];
  check(
    `${SIGN_INS_PER_ADDRESS} sign-ins from one address spread over the servers are heard; the next is refused 429 (SIGN_INS_PER_ADDRESS holds across servers)`,
    heard.every((a) => a.status === 401) &&
      new Set(heard.map((a) => a.server)).size >= 2 &&
      over.status === 429 &&
      messagePattern(MSG.tooManyAddressAttempts).test(over.body?.message ?? ''),
    sprayed.map((a) => [a.server, a.status]),
  );

  const s1Person = new Client(state.serverUrls.s1, '127.0.2.4', journal);
  const session = await login(s1Person, adminName, adminPassword);
  const loggedOut = await s1Person
    .to(state.serverUrls.s2)
    .post(`${API}/account/logout`, { token: session.body?.result?.token });
  const afterLogout = await s1Person
    .to(state.serverUrls.s3)
    .get(`${API}/account/fetch?type=4&limit=1`, { token: session.body?.result?.token });
  check(
    'a session started on s1 and ended on s2 is refused on s3 (401)',
    session.status === 200 && loggedOut.status === 200 && afterLogout.status === 401,
    [session.status, loggedOut.status, afterLogout.status, afterLogout.body?.message],
  );

  // ---- applications: the limit across servers, an upload read through another server ---------------------------
  setPhase('applications: the per-address limit across servers; an upload read through another server');
  const tehsil = (await admin.get(`${API}/tehsil/fetch?limit=1`)).body.result.tehsil[0];
  const place = { stateId: tehsil.stateId._id, districtId: tehsil.districtId._id, tehsilId: tehsil._id };
  const leadsAcknowledged: string[] = [];
  const apply = async (client: Client, n: number) => {
    const name = `Fleet Applicant ${RUN} ${n}`;
    const form = applicationForm(place, {
      applicantInfo: { name },
      businessInfo: { establishmentName: `Fleet Point ${n}` },
      otherBusinessInfo: { aadharNumber: applicantAadhar(70_000 + n) },
    });
    const answer = await client.post(`${API}/leads/create`, { raw: await formBytes(form) });
    if (answer.status === 200) leadsAcknowledged.push(answer.body.result._id);
    return answer;
  };
  const applicant = new Client(hp, '127.0.2.5', journal);
  const applications: Answer[] = [];
  for (let n = 0; n < 11; n++) applications.push(await apply(applicant, n));
  check(
    'ten applications from one address spread over the servers are taken; the eleventh is refused 429',
    applications.slice(0, 10).every((a) => a.status === 200) &&
      new Set(applications.slice(0, 10).map((a) => a.server)).size >= 2 &&
      applications[10].status === 429 &&
      applications[10].body?.message === LEAD_MSG.rateLimited,
    applications.map((a) => [a.server, a.status]),
  );
  const taken = await apply(new Client(state.serverUrls.s1, '127.0.2.6', journal), 100);
  const files: [string, number, boolean][] = [];
  for (const name of ['s2', 's3'] as const) {
    const reader = admin.to(state.serverUrls[name]);
    for (const [field, bytes] of [
      ['picture', PNG],
      ['document', PDF],
    ] as const) {
      const file = await reader.get(`${API}/leads/${taken.body?.result?._id}/${field}`, {
        token: adminToken,
      });
      files.push([`${name} ${field}`, file.status, file.status === 200 && file.raw.equals(bytes)]);
    }
  }
  check(
    'an application’s picture and document taken by s1 are served, byte for byte, by s2 and s3',
    taken.status === 200 && files.every(([, status, same]) => status === 200 && same),
    [taken.status, files],
  );

  // ---- the storm --------------------------------------------------------------------------------------------------
  setPhase(`the storm: ${SALES} sales and their callbacks with replays, through HAProxy`);
  const partner = new Client(hp, '127.0.3.1', journal);
  const acknowledged = {
    openings: [] as string[],
    sales: [] as string[],
    events: [] as { eventId: string; saleId: string }[],
  };
  const problems: string[] = [];
  let confirmed = 0;
  let stormOver = false;
  /** The partner and the panel send again after a failed delivery (5xx or no answer), as real clients do. */
  const again = async (send: () => Promise<Answer>, tries = 8): Promise<Answer> => {
    for (let attempt = 1; ; attempt++) {
      const answer = await send().catch(
        (error: Error) => ({ status: 0, body: { message: error.message } }) as Answer,
      );
      if ((answer.status !== 0 && answer.status < 500) || attempt === tries) return answer;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  };
  const deliver = (raw: string) =>
    again(() =>
      partner.post(`${API}/bought_products/callback`, {
        raw: { bytes: Buffer.from(raw), contentType: 'application/json' },
        headers: { 'x-provider-signature': signCallback(fleet.webhookSecret, raw) },
      }),
    );

  // The kill: once a fifth of the sales are confirmed, the server holding the settlement lease, killed the moment it
  // is seen taking it (each server runs the job every minute: the storm goes on until the kill has happened).
  let killAt = 0;
  let windowEnd = Number.POSITIVE_INFINITY;
  let victim: ServerName | undefined;
  let leaseHolderSeen = false;
  let killing: Promise<void> | undefined;
  let onLeaseTaken: ((name: ServerName) => void) | undefined;
  const leaseWatch = fleet.primary();
  await leaseWatch.connect();
  leaseWatch.on('notification', (message) => {
    const match = /^tierdesk-(s[123])$/.exec(message.payload ?? '');
    if (match) onLeaseTaken?.(match[1] as ServerName);
  });
  await leaseWatch.query('listen fleet_test_lease');
  const killLeaseHolder = async () => {
    const killed = await new Promise<ServerName | undefined>((resolve) => {
      const timer = setTimeout(() => {
        onLeaseTaken = undefined;
        resolve(undefined);
      }, LEASE_WAIT_MS);
      onLeaseTaken = (name) => {
        onLeaseTaken = undefined;
        clearTimeout(timer);
        fleet.kill(name);
        killAt = Date.now();
        resolve(name);
      };
      // Held already (a run under way): its holder now.
      leaseWatch
        .query<{ app: string }>(
          `select w.app from job_leases l
             join lateral (select app from fleet_test_lease_writers w where w.holder = l.holder order by at desc limit 1) w on true
            where l.name = 'settlement' and l.expires_at > now()`,
        )
        .then(
          ({ rows }) => {
            const match = /^tierdesk-(s[123])$/.exec(rows[0]?.app ?? '');
            if (match) onLeaseTaken?.(match[1] as ServerName);
          },
          () => {},
        );
    });
    leaseHolderSeen = killed !== undefined;
    victim = killed ?? 's2';
    if (!killed) {
      fleet.kill(victim);
      killAt = Date.now();
    }
    note(
      `kill -9 ${victim}${leaseHolderSeen ? ', which held the settlement lease,' : ''} after ${confirmed} confirmed sales`,
    );
    const down = await waitFor(
      async () => ((await fleet.balancerView())[victim!]?.startsWith('DOWN') ? Date.now() : undefined),
      15_000,
    );
    windowEnd = (down ?? Date.now()) + 1_000;
    check(
      `HAProxy took ${victim} out of the rotation within seconds of the kill`,
      down !== undefined,
      down === undefined ? 'still not DOWN after 15 s' : undefined,
    );
    if (down !== undefined) note(`${victim} marked DOWN ${seconds(down - killAt)} after the kill`);
  };
  let replicaStoppedAt = 0;
  let replicaStopping: Promise<void> | undefined;
  const stopReplica = async () => {
    const stopped = await fleet.cluster('replica-stop');
    replicaStoppedAt = Date.now();
    check(
      'scripts/pg-cluster.sh replica-stop stops the replica mid-storm',
      stopped.code === 0,
      stopped.output,
    );
    note(`replica stopped after ${confirmed} confirmed sales`);
  };

  const sellOne = async (i: number) => {
    const retailer = retailers[i % retailers.length];
    const customerId = retailer.customers[Math.floor(i / retailers.length) % retailer.customers.length];
    const { client, token } = retailer;
    const opened = await again(() =>
      client.post(`${API}/payusprint/${openingPath}`, {
        token,
        json: { accountType, productId: product._id, customerId },
      }),
    );
    if (opened.status !== 200)
      return problems.push(`sale ${i}: opening ${opened.status} ${opened.body?.message}`);
    const link: string = opened.body.result.result.data;
    const utmCode = link.slice(link.lastIndexOf('=') + 1);
    const merchantCode: string = opened.body.result.merchantCode;
    acknowledged.openings.push(utmCode);
    const recorded = await again(() =>
      client.post(`${API}/bought_products/create`, {
        token,
        json: { customerId, retailerId: null, productId: product._id, utmCode, merchantCode },
        headers: { 'idempotency-key': `fleet-${RUN}-${i}` },
      }),
    );
    if (recorded.status !== 200)
      return problems.push(`sale ${i}: record ${recorded.status} ${recorded.body?.message}`);
    const saleId: string = recorded.body.result._id;
    acknowledged.sales.push(saleId);
    const eventId = randomUUID();
    const raw = JSON.stringify({ eventId, event: 'account.opened', utmCode, merchantCode });
    const first = await deliver(raw);
    if (
      first.status !== 200 ||
      first.body?.result?.status !== 'CONFIRMED' ||
      first.body?.result?.boughtProductId !== saleId
    )
      return problems.push(`sale ${i}: callback ${first.status} ${JSON.stringify(first.body)}`);
    acknowledged.events.push({ eventId, saleId });
    confirmed++;
    // The partner's replays: every tenth event three times at once, the others once.
    const replays = await Promise.all(Array.from({ length: i % 10 === 0 ? 3 : 1 }, () => deliver(raw)));
    for (const replay of replays)
      if (
        replay.status !== 200 ||
        replay.body?.message !== SALES_MSG.eventReplayed ||
        !isDeepStrictEqual(replay.body?.result, first.body.result)
      )
        problems.push(`sale ${i}: replay ${replay.status} ${JSON.stringify(replay.body)}`);
    if (!killing && confirmed >= SALES * 0.2) killing = killLeaseHolder();
    if (!replicaStopping && confirmed >= SALES * 0.6) replicaStopping = stopReplica();
  };

  // The person: creates a customer and lists customers at once, again and again while the storm runs.
  const customersAcknowledged: { mobile: string; name: string }[] = [];
  const sightings: { at: number; seen: boolean; listStatus: number; server?: string }[] = [];
  let personTries = 0;
  const createAndList = async (k: number) => {
    const retailer = retailerRows[k % retailerRows.length];
    const name = `Fleet Person ${RUN} ${k}`;
    const mobile = `6${String(Number.parseInt(RUN, 16) % 100_000).padStart(5, '0')}${String(k).padStart(4, '0')}`;
    // A create whose answer was lost (the kill) may or may not have happened: this person moves on to the next.
    const created = await admin
      .post(`${API}/account/create`, {
        token: adminToken,
        json: {
          type: 1,
          name,
          email: `fleet${k}@example.in`,
          mobile,
          userName: `fleet-${RUN}-${k}`,
          districtId: retailer.districtId,
          tehsilId: retailer.tehsilId,
          customer: { aadharId: applicantAadhar(80_000 + k), panId: 'ABCDE1234F', retailerId: retailer._id },
        },
      })
      .catch(() => undefined);
    if (created?.status !== 200) return;
    customersAcknowledged.push({ mobile, name });
    // The list, asked again after a failure as a browser would (each failure stays in the journal's 5xx checks).
    const listed = await again(() =>
      admin.get(`${API}/account/fetch?type=1&limit=10&searchText=${encodeURIComponent(name)}`, {
        token: adminToken,
      }),
    );
    const seen =
      listed.status === 200 && (listed.body.result.users as { name: string }[]).some((u) => u.name === name);
    sightings.push({ at: Date.now(), seen, listStatus: listed.status, server: listed.server });
  };
  const person = (async () => {
    while (!stormOver && personTries < 400) await createAndList(personTries++);
  })();

  const stormStarted = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: STORM_CONCURRENCY }, async () => {
      // The kill comes within LEASE_WAIT_MS of its start, so this ends; STORM_MAX_MS is only a net under that.
      while (
        (next < SALES || killAt === 0 || Date.now() - killAt < AFTER_KILL_MS) &&
        Date.now() - stormStarted < STORM_MAX_MS
      )
        await sellOne(next++);
    }),
  );
  const stormEnded = Date.now();
  stormOver = true;
  await person;
  await killing;
  await replicaStopping;
  await leaseWatch.end();
  note(
    `${confirmed} sales confirmed in ${seconds(stormEnded - stormStarted)} (${(confirmed / ((stormEnded - stormStarted) / 1000)).toFixed(1)} sales/s)`,
  );
  check(
    `all ${next} sales opened, recorded and confirmed (${SALES} asked, more while the kill was awaited), every replay answered as the first delivery`,
    next >= SALES && confirmed === next && problems.length === 0,
    problems.slice(0, 10),
  );
  check('the kill came mid-storm', killAt > 0 && killAt < stormEnded, {
    killAt: killAt - stormStarted,
    stormEnded: stormEnded - stormStarted,
  });
  check('the replica was stopped mid-storm', replicaStoppedAt > 0 && replicaStoppedAt < stormEnded);
  check(
    'a person who creates a customer and lists customers at once sees the new customer every time, through HAProxy',
    sightings.length >= 10 && sightings.every((s) => s.seen),
    sightings.filter((s) => !s.seen).slice(0, 5),
  );
  const whileReplicaDown = sightings.filter((s) => replicaStoppedAt > 0 && s.at > replicaStoppedAt);
  check(
    'with the replica stopped, the reads are still right',
    whileReplicaDown.length >= 3 && whileReplicaDown.every((s) => s.seen),
    `${whileReplicaDown.length} create-and-list rounds after the replica stopped`,
  );
  note(
    `${sightings.length} create-and-list rounds (${new Set(sightings.map((s) => s.server)).size} servers answered the lists)`,
  );

  // ---- the settlement lease ----------------------------------------------------------------------------------------
  setPhase('the settlement lease after the kill');
  check(
    'a server was seen holding the settlement lease, and that one was killed',
    leaseHolderSeen,
    `killed ${victim} instead`,
  );
  // When the last commission credited before the kill was settled: its settlement postings carry their time.
  const dueAtKill = async () => {
    const { rows } = await db.query<{ unsettled: string; last: Date | null }>(
      `select count(*) filter (where s.id is null) as unsettled, max(s.created_at) as last
         from postings c left join postings s on s.ref_posting_id = c.id and s.kind in ('SETTLEMENT', 'REVERSAL')
        where c.kind = 'COMMISSION' and c.created_at < $1`,
      [new Date(killAt)],
    );
    return { unsettled: Number(rows[0].unsettled), last: rows[0].last ? rows[0].last.getTime() : undefined };
  };
  await waitFor(
    async () => ((await dueAtKill()).unsettled === 0 ? true : undefined),
    Math.max(0, killAt + SETTLE_WITHIN_MS + 2_000 - Date.now()),
    250,
  );
  const due = await dueAtKill();
  const takers = (
    await db.query<{ app: string }>(
      `select distinct app from fleet_test_lease_writers where at > $1 and expires_at > at`,
      [new Date(killAt)],
    )
  ).rows.map((r) => r.app);
  const settledAfter = due.last === undefined ? undefined : due.last - killAt;
  check(
    `every commission due at the kill is settled within ${SETTLE_WITHIN_MS / 1000} s of it, the lease taken by a live server`,
    due.unsettled === 0 &&
      settledAfter !== undefined &&
      settledAfter <= SETTLE_WITHIN_MS &&
      takers.length > 0 &&
      !takers.includes(`tierdesk-${victim}`),
    `${due.unsettled} unsettled ${seconds(Date.now() - killAt)} after the kill; the last settled ${settledAfter === undefined ? '-' : seconds(settledAfter)} after it; lease taken since by ${takers.join(', ') || 'nobody'}`,
  );
  if (due.unsettled === 0 && settledAfter !== undefined)
    note(
      `the last settled ${seconds(settledAfter)} after the kill; lease taken since by ${takers.join(', ')}`,
    );

  // ---- the replica back ---------------------------------------------------------------------------------------------
  setPhase('the replica started again');
  const restarted = await fleet.cluster('replica-start');
  check(
    'scripts/pg-cluster.sh replica-start brings the replica back streaming',
    restarted.code === 0,
    restarted.output,
  );
  const before = sightings.length;
  for (let k = 0; k < 3; k++) await createAndList(personTries++);
  check(
    'after it, creating and listing at once still shows the new customer',
    sightings.slice(before).length === 3 && sightings.slice(before).every((s) => s.seen),
  );
  // A person who wrote nothing reads from the replica once it has caught up: the same as the primary holds.
  const written = (await db.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn')).rows[0].lsn;
  const caughtUp = await waitFor(
    async () => {
      const replica = new pg.Client({ connectionString: state.replicaUrl });
      replica.on('error', () => {});
      await replica.connect();
      try {
        const { rows } = await replica.query<{ ok: boolean }>(
          'select pg_last_wal_replay_lsn() >= $1::pg_lsn as ok',
          [written],
        );
        return rows[0].ok ? true : undefined;
      } finally {
        await replica.end();
      }
    },
    30_000,
    250,
  );
  const counts: [string, number, number][] = [];
  for (const retailer of retailers) {
    const listed = await retailer.client.get(`${API}/account/fetch?type=1&limit=1`, {
      token: retailer.token,
    });
    const { rows } = await db.query<{ n: string }>(
      `select count(*) as n from users c join users r on r.id = c.retailer_id where c.type = 1 and r.mobile = $1`,
      [retailer.mobile],
    );
    counts.push([retailer.mobile, listed.body?.result?.totalCounts, Number(rows[0].n)]);
  }
  check(
    'retailers who wrote nothing read their customers’ count as the primary holds it',
    caughtUp === true && counts.every(([, listed, held]) => listed === held),
    counts,
  );

  // ---- the end ---------------------------------------------------------------------------------------------------
  setPhase(
    'the end: reconcile, posted once, no 5xx outside the kill window, every acknowledged write present',
  );
  const reconcile = await run('npm', ['run', '--silent', 'reconcile'], fleet.commandEnv(), 60_000);
  check(
    'npm run reconcile against the primary is ok',
    reconcile.code === 0 && reconcile.output.includes('Reconciliation OK'),
    reconcile.output,
  );
  note(reconcile.output.trim());

  const eventIds = acknowledged.events.map((e) => e.eventId);
  const saleIds = acknowledged.events.map((e) => e.saleId);
  const events = await db.query<{ event_id: string; bought_product_id: string }>(
    'select event_id, bought_product_id from provider_events where event_id = any($1)',
    [eventIds],
  );
  const commissions = await db.query<{ sale: string; n: string; tiers: string }>(
    `select bought_product_id as sale, count(*) as n, count(distinct tier) as tiers from postings
      where kind = 'COMMISSION' and bought_product_id = any($1) group by bought_product_id`,
    [saleIds],
  );
  const perSale = new Set(commissions.rows.map((r) => r.n));
  check(
    'every callback event is recorded once and posted once: each sale has one commission per tier',
    events.rows.length === eventIds.length &&
      events.rows.every((r) =>
        acknowledged.events.some((e) => e.eventId === r.event_id && e.saleId === r.bought_product_id),
      ) &&
      commissions.rows.length === saleIds.length &&
      perSale.size === 1 &&
      commissions.rows.every((r) => r.n === r.tiers && Number(r.n) > 0),
    {
      events: events.rows.length,
      sent: eventIds.length,
      salesWithCommissions: commissions.rows.length,
      commissionsPerSale: [...perSale],
    },
  );

  const present = async (sql: string, values: string[]) =>
    values.length === 0 ? 0 : Number((await db.query<{ n: string }>(sql, [values])).rows[0].n);
  const missing = {
    openings:
      acknowledged.openings.length -
      (await present(
        'select count(*) as n from account_openings where utm_code = any($1)',
        acknowledged.openings,
      )),
    sales:
      acknowledged.sales.length -
      (await present(
        'select count(*) as n from bought_products where id = any($1::uuid[])',
        acknowledged.sales,
      )),
    confirmed:
      saleIds.length -
      (await present(
        `select count(*) as n from bought_products where status = 'CONFIRMED' and id = any($1::uuid[])`,
        saleIds,
      )),
    customers:
      customersAcknowledged.length -
      (await present(
        'select count(*) as n from users where type = 1 and mobile = any($1)',
        customersAcknowledged.map((c) => c.mobile),
      )),
    leads:
      leadsAcknowledged.length -
      (await present('select count(*) as n from leads where id = any($1::uuid[])', leadsAcknowledged)),
  };
  check(
    'every acknowledged write is there (openings, sales, confirmations, customers, applications)',
    Object.values(missing).every((n) => n === 0),
    missing,
  );

  const failedAnswers = journal.exchanges.filter((x) => x.status === 0 || x.status >= 500);
  const inWindow = (x: (typeof failedAnswers)[number]) =>
    killAt > 0 && x.ended >= killAt && x.started <= windowEnd;
  const outside = failedAnswers.filter((x) => !inWindow(x));
  check(
    'no 5xx (and no unanswered request) reached a client outside the kill window',
    outside.length === 0,
    outside
      .slice(0, 10)
      .map(
        (x) =>
          `${x.method} ${x.path} ${x.status} ${x.server ?? ''} ${x.error ?? ''} at ${seconds(x.started - STARTED)}`,
      ),
  );
  note(
    `${journal.exchanges.length} requests; ${failedAnswers.length - outside.length} answered 5xx or unanswered inside the kill window (${killAt ? seconds(windowEnd - killAt) : '-'} long)`,
  );
  // HAProxy resends what the dead server held only when sending it twice does nothing twice (scripts/fleet.sh).
  const resendable = (x: (typeof failedAnswers)[number]) =>
    x.method === 'GET' ||
    x.path.endsWith('/bought_products/callback') ||
    x.path.endsWith('/bought_products/create');
  const inside = failedAnswers.filter(inWindow);
  check(
    'inside the kill window only requests HAProxy must not resend failed: reads, callbacks and keyed sales were resent',
    inside.every((x) => !resendable(x)),
    inside.map((x) => `${x.method} ${x.path} ${x.status}`),
  );
  if (inside.length > 0)
    note(`answered 5xx in the window: ${inside.map((x) => `${x.method} ${x.path}`).join(', ')}`);
  await db.end();
}

// Whatever goes wrong, the fleet is stopped and the run ends with its count.
process.on('unhandledRejection', (error) => void finish(error));
process.on('uncaughtException', (error) => void finish(error));
main().then(
  () => finish(),
  (error) => finish(error),
);
