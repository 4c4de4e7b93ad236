import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { InjectOptions, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSession } from '../../src/server/modules/account/sessions';
import { makeTestContext, type TestContext, XSRF } from './helpers';

/**
 * Fuzzes every route the app has (found through its onRoute hook, so routes added later are covered without
 * touching this file): wrong types, missing and extra fields, huge strings, deep nesting, NUL and control
 * characters, lone surrogates, bad ids, prototype keys, odd numbers, bad JSON, wrong content types and
 * broken multipart, with and without a session, XSRF token or the right method. Each answer must be below
 * 500 with a JSON error body, and a refused request must change no row and leave no file.
 *
 * Fixed seed and count, so a failure reproduces: the message names the request.
 */
const SEED = 20_261_122;
const RUNS = 5_000;

/**
 * Per-route hints, only where generic fuzzing cannot reach a route's real input. Multipart routes get most of
 * their bodies as multipart with their own part names. A route authenticated by a signature over its raw
 * body needs none: without a valid signature every body is refused, which is what is checked.
 */
const HINTS: Record<string, { multipartParts?: string[] }> = {
  '/api/v1/leads/create': {
    multipartParts: [
      'applicantInfo',
      'businessInfo',
      'permanentAddress',
      'otherBusinessInfo',
      'bankInfo',
      'identityProof',
      'leadType',
      'picture',
      'document',
    ],
  },
};

/**
 * Tables whose rows a refused request may write by design: sign-in failures are counted, sessions expire, the
 * audit trail records failed passwords and 403s, and the per-address limits count every request to their routes.
 */
const WRITTEN_BY_REFUSALS = new Set(['login_failures', 'sessions', 'audit_log', 'rate_limit_hits']);

const ROLES = {
  admin: '9999999999',
  employee: '9000000001',
  newEmployee: '9000000002',
  md: '9100000001',
  distributor: '9200000001',
  retailer: '9300000001',
} as const;
type Role = keyof typeof ROLES;

let ctx: TestContext;
const routes: RouteOptions[] = [];
const tokens = {} as Record<Role, string>;
const userIds = {} as Record<Role, string>;
const realIds: string[] = [];

beforeAll(async () => {
  ctx = await makeTestContext({ onRoute: (route) => routes.push(route) });
  // The sandbox partner answers account openings over real HTTP on the server's own address.
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const { rows } = await ctx.database.pool.query<{ id: string; user_name: string }>(
    'select id, user_name from users',
  );
  for (const [role, name] of Object.entries(ROLES) as [Role, string][]) {
    userIds[role] = rows.find((r) => r.user_name === name)!.id;
    tokens[role] = await issueSession(ctx.database.db, userIds[role], 12);
  }
  const ids = await ctx.database.pool.query<{ id: string }>(
    `(select id from users limit 12) union all (select id from states) union all (select id from districts limit 6)
     union all (select id from tehsils limit 6) union all (select id from providers) union all (select id from products)`,
  );
  realIds.push(...ids.rows.map((r) => r.id));
});
afterAll(async () => {
  await ctx?.close();
});

// ---------------------------------------------------------------------------------------------------------
// What a hostile or careless client sends.

const FIELD_NAMES = [
  'name',
  'userName',
  'password',
  'oldPassword',
  'newPassword',
  'confirmPassword',
  'type',
  'status',
  'email',
  'mobile',
  'districtId',
  'tehsilId',
  'stateId',
  'providerId',
  'productId',
  'amount',
  'url',
  'urlParams',
  'adminCommission',
  'masterDistributorCommission',
  'distributorCommission',
  'retailerCommission',
  'customerCommission',
  'distributor',
  'retailer',
  'customer',
  'masterDistributorId',
  'distributorId',
  'retailerId',
  'aadharId',
  'panId',
  'reason',
  'leadType',
  'page',
  'limit',
  'searchText',
  'sort',
  'order',
  '_id',
  'id',
  'wallet',
  'reqType',
  'data',
  'eventId',
  'signature',
];
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

const nasty = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '\u0001\u0002\u001f',
  '\ud800',
  'x\udfffy',
  '\u202e\u200b',
  "' or 1=1 --",
  '%',
  '_%_',
  '\\',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'पैन कार्ड 身份证 😀',
  '',
  ' ',
  'null',
  'true',
);
const text = fc.oneof(
  { arbitrary: fc.string({ maxLength: 40 }), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 3 },
  { arbitrary: nasty, weight: 5 },
  { arbitrary: fc.uuid(), weight: 2 },
  { arbitrary: fc.constantFrom(...FIELD_NAMES), weight: 1 },
  { arbitrary: fc.integer({ min: 6_000_000_000, max: 9_999_999_999 }).map(String), weight: 1 },
  // Long strings, now and then a very long one.
  { arbitrary: fc.nat(99).map((n) => (n === 0 ? 'y'.repeat(120_000) : 'x'.repeat(n * 20))), weight: 1 },
);
// Read when generating, after beforeAll has filled realIds.
const realId = () => fc.nat().map((n) => realIds[n % realIds.length]);
const number = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-1, 0, 1, 2, 3, 4, 5, 6, 100, 101, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, 0.005, 99.999),
);
const key = fc.oneof(
  { arbitrary: fc.constantFrom(...FIELD_NAMES), weight: 6 },
  { arbitrary: fc.constantFrom(...PROTOTYPE_KEYS), weight: 1 },
  { arbitrary: text, weight: 1 },
);

/** A JSON value whose leaves lean towards what breaks servers. */
const value: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown; object: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: text, weight: 5 },
    { arbitrary: number, weight: 2 },
    { arbitrary: fc.boolean(), weight: 1 },
    { arbitrary: fc.constant(null), weight: 1 },
    { arbitrary: realId(), weight: 2 },
    { arbitrary: fc.array(tie('value'), { maxLength: 4 }), weight: 1 },
    { arbitrary: tie('object'), weight: 2 },
  ),
  object: fc.dictionary(key, tie('value'), { maxKeys: 8 }),
})).value;

/**
 * A value that could pass for the field, so a request gets past validation often enough for a hostile value
 * in another field to reach the handler and the database.
 */
const plausible = (field: string): fc.Arbitrary<unknown> => {
  if (/Id$|^_id$|^id$/.test(field))
    return fc.oneof({ arbitrary: realId(), weight: 4 }, { arbitrary: fc.uuid(), weight: 1 });
  switch (field) {
    case 'email':
      return fc.constantFrom('fuzz@example.in', 'a.b@c.co');
    case 'mobile':
    case 'userName':
      return fc.integer({ min: 6_000_000_000, max: 9_999_999_999 }).map(String);
    case 'password':
    case 'oldPassword':
    case 'newPassword':
    case 'confirmPassword':
      return fc.constant('Fuzz@12345');
    case 'type':
      return fc.integer({ min: 0, max: 6 });
    case 'status':
      return fc.constantFrom('ACTIVE', 'INACTIVE', 'NEW');
    case 'leadType':
      return fc.constantFrom('RETAILER', 'DISTRIBUTOR');
    case 'url':
      return fc.constantFrom('https://bank.example/open', 'http://x.example');
    case 'amount':
    case 'adminCommission':
    case 'masterDistributorCommission':
    case 'distributorCommission':
    case 'retailerCommission':
    case 'customerCommission':
      return fc.oneof(fc.integer({ min: 0, max: 100 }), fc.constantFrom('20', '33.33', '0.01'));
    case 'page':
    case 'limit':
      return fc.constantFrom('1', '2', '10', '100');
    case 'sort':
      return fc.constantFrom('name', 'createdAt');
    case 'order':
      return fc.constantFrom('ASC', 'desc');
    case 'aadharId':
      return fc.constantFrom('234123412346', '');
    case 'panId':
      return fc.constantFrom('ABCDE1234F');
    case 'distributor':
    case 'retailer':
    case 'customer':
    case 'urlParams':
      return fc.record(
        {
          masterDistributorId: realId(),
          distributorId: realId(),
          retailerId: realId(),
          panId: fc.constant('ABCDE1234F'),
        },
        { requiredKeys: [] },
      );
    default:
      return fc
        .tuple(fc.constantFrom('Pune', 'Kota', 'Hisar', 'Mysuru', 'Salem'), fc.nat(99_999))
        .map(([place, n]) => `${place} ${n}`);
  }
};

const QUERY_NAMES = [
  'page',
  'limit',
  'searchText',
  'sort',
  'order',
  '_id',
  'type',
  'stateId',
  'districtId',
  'status',
  'leadType',
  'masterDistributorId',
  'retailerId',
  'providerId',
];

/** Each field plausible, or (one in four) hostile; plus a few stray keys. */
const fieldValue = (field: string) =>
  fc.oneof(
    { arbitrary: plausible(field), weight: 6 },
    { arbitrary: value, weight: 1 },
    // Plausible but for one character the database refuses or a terminal misreads.
    {
      arbitrary: fc
        .tuple(plausible(field), fc.constantFrom('\u0000', '\u0007', '\ud800', '\udc00x', '\u001b'), fc.nat())
        .map(([v, bad, at]) => {
          const s = typeof v === 'string' ? v : JSON.stringify(v);
          const i = at % (s.length + 1);
          return `${s.slice(0, i)}${bad}${s.slice(i)}`;
        }),
      weight: 1,
    },
  );
const object = fc
  .tuple(fc.subarray(FIELD_NAMES, { minLength: 1, maxLength: 9 }), fc.dictionary(key, value, { maxKeys: 2 }))
  .chain(([fields, extra]) =>
    fc.tuple(...fields.map(fieldValue)).map((values) => ({
      ...extra,
      ...Object.fromEntries(fields.map((field, i) => [field, values[i]])),
    })),
  );
const queryObject = fc
  .subarray(QUERY_NAMES, { minLength: 1, maxLength: 4 })
  .chain((fields) =>
    fc
      .tuple(...fields.map(fieldValue))
      .map((values) => Object.fromEntries(fields.map((field, i) => [field, values[i]]))),
  );

type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; contentType?: string; payload: string }
  | { kind: 'multipart'; variant: MultipartVariant; parts: Part[] };
type MultipartVariant = 'whole' | 'noBoundary' | 'cutOff' | 'noClosing' | 'wrongBoundary' | 'garbage';
interface Part {
  name: string;
  value: string;
  filename?: string;
}

const deep = fc
  .tuple(fc.integer({ min: 10, max: 100_000 }), fc.constantFrom('[', '{"a":'))
  .map(([depth, open]) => `${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}`);
const badJson = fc.oneof(
  fc.constantFrom(
    '{"a":',
    '{',
    '[1,2',
    '{"__proto__":{"polluted":1}}',
    '{"constructor":{"prototype":{"x":1}}}',
  ),
  fc.constantFrom('null', '"a string"', '123', 'true', '[]', '{"a":NaN}', "{'single':1}", '\u0000'),
  deep,
  text,
);
const contentType = fc.constantFrom(
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'application/octet-stream',
  'application/json; charset=latin1',
  'application/json',
  'image/png',
  'multipart/form-data',
  'multipart/mixed; boundary=x',
);
const part = (names: string[]) =>
  fc.record(
    {
      name: fc.oneof(fc.constantFrom(...names), fc.constantFrom(...PROTOTYPE_KEYS), text),
      value: fc.oneof(
        text,
        value.map((v) => JSON.stringify(v) ?? 'null'),
      ),
      filename: fc.oneof(
        fc.constant(undefined),
        text,
        fc.constantFrom('a.png', 'पैन.pdf', '..\\..\\x', 'a"b'),
      ),
    },
    { requiredKeys: ['name', 'value'] },
  );
const multipart = (names: string[]) =>
  fc.record({
    kind: fc.constant('multipart' as const),
    variant: fc.constantFrom<MultipartVariant>(
      'whole',
      'whole',
      'noBoundary',
      'cutOff',
      'noClosing',
      'wrongBoundary',
      'garbage',
    ),
    parts: fc.array(part(names), { maxLength: 12 }),
  });

const body = (hint: { multipartParts?: string[] } | undefined): fc.Arbitrary<Body> =>
  fc.oneof(
    { arbitrary: fc.constant({ kind: 'none' as const }), weight: 1 },
    { arbitrary: object.map((v) => ({ kind: 'json' as const, value: v })), weight: hint ? 2 : 8 },
    { arbitrary: value.map((v) => ({ kind: 'json' as const, value: v })), weight: 1 },
    {
      arbitrary: fc.record({
        kind: fc.constant('raw' as const),
        contentType: fc.option(contentType, { nil: undefined }),
        payload: badJson,
      }),
      weight: 2,
    },
    { arbitrary: multipart(hint?.multipartParts ?? FIELD_NAMES), weight: hint?.multipartParts ? 10 : 1 },
  );

interface FuzzRequest {
  route: number;
  wrongMethod: boolean;
  spelling: number;
  auth: Role | 'none' | 'garbage';
  xsrf: 'ok' | 'missing' | 'wrong';
  ip: string;
  params: string[];
  query: Record<string, string | string[]>;
  body: Body;
}

/** Query values are text: arrays go as repeated keys, anything else as its JSON. */
const asText = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? 'undefined'));
const asQuery = (o: Record<string, unknown>): Record<string, string | string[]> =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Array.isArray(v) ? v.map(asText) : asText(v)]));

function request(): fc.Arbitrary<FuzzRequest> {
  const api = apiRoutes();
  return fc.nat(api.length - 1).chain((index) =>
    fc.record({
      route: fc.constant(index),
      wrongMethod: fc.oneof(
        { arbitrary: fc.constant(false), weight: 19 },
        { arbitrary: fc.constant(true), weight: 1 },
      ),
      spelling: fc.oneof({ arbitrary: fc.constant(0), weight: 6 }, { arbitrary: fc.nat(3), weight: 1 }),
      auth: fc.oneof(
        {
          // Staff reach most routes, so they are asked most.
          arbitrary: fc.constantFrom<Role>(
            'admin',
            'admin',
            'admin',
            'employee',
            'employee',
            'md',
            'distributor',
            'retailer',
            'newEmployee',
          ),
          weight: 8,
        },
        { arbitrary: fc.constantFrom('none' as const, 'garbage' as const), weight: 2 },
      ),
      xsrf: fc.oneof(
        { arbitrary: fc.constant('ok' as const), weight: 12 },
        { arbitrary: fc.constantFrom('missing' as const, 'wrong' as const), weight: 1 },
      ),
      ip: fc.ipV4(),
      params: fc.array(
        fc.oneof(
          { arbitrary: realId(), weight: 3 },
          { arbitrary: fc.uuid(), weight: 2 },
          { arbitrary: text, weight: 2 },
        ),
        { minLength: 3, maxLength: 3 },
      ),
      query: fc.oneof(
        { arbitrary: queryObject.map(asQuery), weight: 3 },
        {
          arbitrary: fc.dictionary(
            key,
            fc.oneof(text, number.map(String), fc.array(text, { maxLength: 3 })),
            {
              maxKeys: 5,
            },
          ),
          weight: 1,
        },
      ),
      body: body(HINTS[api[index].url]),
    }),
  );
}

/** The event stream answers until its client leaves, so an inject never ends: events.test.ts covers it. */
const STREAMS = new Set(['/api/v1/events']);

function apiRoutes() {
  return routes
    .filter((r) => r.url.startsWith('/api/v1/') && r.method !== 'HEAD' && !STREAMS.has(r.url))
    .map((r) => ({ method: String(r.method), url: r.url }));
}

// ---------------------------------------------------------------------------------------------------------
// Turning a description into a request.

function multipartPayload(body: Extract<Body, { kind: 'multipart' }>) {
  const boundary = 'fuzzBOUNDARY42';
  const chunks = body.parts.map((p) => {
    const disposition = `form-data; name="${p.name.replace(/["\r\n]/g, '')}"${
      p.filename !== undefined ? `; filename="${p.filename.replace(/["\r\n]/g, '')}"` : ''
    }`;
    return `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${
      p.filename !== undefined ? 'Content-Type: application/octet-stream\r\n' : ''
    }\r\n${p.value}\r\n`;
  });
  let payload = `${chunks.join('')}--${boundary}--\r\n`;
  let type = `multipart/form-data; boundary=${boundary}`;
  switch (body.variant) {
    case 'noBoundary':
      type = 'multipart/form-data';
      break;
    case 'cutOff':
      payload = payload.slice(0, Math.floor(payload.length / 2));
      break;
    case 'noClosing':
      payload = payload.slice(0, payload.lastIndexOf(`--${boundary}--`));
      break;
    case 'wrongBoundary':
      type = 'multipart/form-data; boundary=other';
      break;
    case 'garbage':
      payload = `garbage\r\n${payload.split('').reverse().join('')}`;
      break;
  }
  return { payload, type };
}

/** encodeURIComponent, except that a lone surrogate goes out as the (invalid) UTF-8 bytes of its code unit. */
function encode(value: string) {
  try {
    return encodeURIComponent(value);
  } catch {
    return Array.from(value, (ch) => {
      const unit = ch.charCodeAt(0);
      if (ch.length === 1 && unit >= 0xd800 && unit <= 0xdfff)
        return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
          .map((b) => `%${b.toString(16).toUpperCase()}`)
          .join('');
      return encodeURIComponent(ch);
    }).join('');
  }
}

const queryString = (query: FuzzRequest['query']) =>
  Object.entries(query)
    .flatMap(([k, v]) => [v].flat().map((item) => `${encode(k)}=${encode(String(item))}`))
    .join('&');

function spell(url: string, spelling: number) {
  if (spelling === 1) return `${url}/`;
  if (spelling === 2) return url.toUpperCase().replace(/%[0-9A-F]{2}/g, (m) => m);
  if (spelling === 3) return url.replace('/api/v1/', '/api//v1/');
  return url;
}

function toInject(r: FuzzRequest): InjectOptions {
  const route = apiRoutes()[r.route];
  let paramIndex = 0;
  const url = route.url.replace(/:[A-Za-z_]+/g, () => encode(r.params[paramIndex++ % 3]));
  const query = queryString(r.query);
  const headers: Record<string, string> = {};
  if (r.auth === 'garbage') headers['x-auth-token'] = 'bearer not-a-real-token';
  else if (r.auth !== 'none') headers['x-auth-token'] = `bearer ${tokens[r.auth]}`;
  if (r.xsrf !== 'missing') headers.cookie = `XSRF-TOKEN=${XSRF}`;
  if (r.xsrf === 'ok') headers['x-xsrf-token'] = XSRF;
  if (r.xsrf === 'wrong') headers['x-xsrf-token'] = 'forged';
  const method = r.wrongMethod ? (route.method === 'GET' ? 'POST' : 'GET') : route.method;
  const options: InjectOptions = {
    method: method as InjectOptions['method'],
    url: `${spell(url, r.spelling)}${query ? `?${query}` : ''}`,
    headers,
    remoteAddress: r.ip,
  };
  const b = r.body;
  if (method === 'GET' || b.kind === 'none') return options;
  if (b.kind === 'json') {
    headers['content-type'] = 'application/json';
    options.payload = JSON.stringify(b.value) ?? 'null';
  } else if (b.kind === 'raw') {
    if (b.contentType) headers['content-type'] = b.contentType;
    options.payload = b.payload;
  } else {
    const { payload, type } = multipartPayload(b);
    headers['content-type'] = type;
    options.payload = payload;
  }
  return options;
}

// ---------------------------------------------------------------------------------------------------------
// The checks.

/** A cheap fingerprint of every table a refused request must leave alone: row count and a hash of the rows. */
async function fingerprint(): Promise<string> {
  const { rows: tables } = await ctx.database.pool.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
  );
  const parts = tables
    .filter((t) => !WRITTEN_BY_REFUSALS.has(t.name))
    .map(
      (t) =>
        `select '${t.name}' as t, count(*) as n, md5(coalesce(string_agg(x::text, ',' order by x::text), '')) as h from "${t.name}" x`,
    );
  const { rows } = await ctx.database.pool.query(parts.join(' union all '));
  return JSON.stringify(rows);
}

/** Temporary files of uploads in the server's uploads directory (stored files are rows, in the fingerprint). */
const uploadsDir = () => path.join(ctx.config.dataDir, 'uploads');
const uploadCount = () => (fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()).length : 0);

/** Keeps the fuzzer's own sessions usable: a fuzzed logout or deactivation would end them. */
async function repairSessions(role: Role, answer: { statusCode: number; body: string }) {
  if (answer.statusCode !== 401) return false;
  await ctx.database.pool.query("update users set status = 'ACTIVE' where id = $1", [userIds[role]]);
  tokens[role] = await issueSession(ctx.database.db, userIds[role], 12);
  return true;
}

describe('fuzzing every route', () => {
  it(`answers ${RUNS} hostile requests without a 5xx, with JSON errors, changing nothing when refused`, async () => {
    const requests = fc.sample(request(), { seed: SEED, numRuns: RUNS });
    const failures: string[] = [];
    const statuses: Record<number, number> = {};
    let baseline = await fingerprint();
    let sent = 0;
    for (const r of requests) {
      const options = toInject(r);
      const filesBefore = uploadCount();
      const res = await ctx.app.inject(options);
      sent++;
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      const describeRequest = () =>
        `${options.method} ${options.url} ${JSON.stringify({ auth: r.auth, xsrf: r.xsrf, query: r.query, body: r.body }).slice(0, 400)}`;
      if (res.statusCode >= 500)
        failures.push(`${res.statusCode} ${res.body.slice(0, 200)} <- ${describeRequest()}`);
      if (res.statusCode >= 400) {
        let message: unknown;
        try {
          message = res.json().message;
        } catch {
          message = undefined;
        }
        if (
          typeof message !== 'string' ||
          !String(res.headers['content-type']).startsWith('application/json')
        )
          failures.push(
            `not a JSON error body: ${res.statusCode} ${res.body.slice(0, 120)} <- ${describeRequest()}`,
          );
      }
      if (options.method !== 'GET') {
        const now = await fingerprint();
        if (res.statusCode >= 400 && now !== baseline)
          failures.push(`refused ${res.statusCode} but changed rows <- ${describeRequest()}`);
        if (res.statusCode >= 400 && uploadCount() !== filesBefore)
          failures.push(`refused ${res.statusCode} but left a file <- ${describeRequest()}`);
        baseline = now;
      }
      if (r.auth !== 'none' && r.auth !== 'garbage' && (await repairSessions(r.auth, res)))
        baseline = await fingerprint();
      if (failures.length >= 10) break;
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(RUNS);
    // The fuzzer reached past the guards: validation refusals and some successes, not only 401/403.
    expect(statuses[400]).toBeGreaterThan(RUNS / 10);
    expect(statuses[200]).toBeGreaterThan(0);
  }, 600_000);
});
