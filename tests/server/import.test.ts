import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/server/config';
import { MIGRATIONS_DIR } from '../../src/server/db/open';
import { RunnerLocks } from '../../src/server/db/runner-lock';
import { importSettings } from '../../src/server/modules/imports/index';
import { importLock } from '../../src/server/modules/imports/jobs';
import { verhoeffDigit } from '../../src/shared/identity';
import { adminDesk } from './admins';
import {
  ADMIN,
  call,
  DEMO_PASSWORD,
  INITIAL_PASSWORD,
  login,
  makeTestContext,
  type TestContext,
  XSRF,
} from './helpers';

let ctx: TestContext;
let admin: string;
let employee: string;
let retailer: string;
beforeAll(async () => {
  ctx = await makeTestContext();
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  employee = (await login(ctx.app, '9000000001', DEMO_PASSWORD)).token;
  retailer = (await login(ctx.app, '9300000001', DEMO_PASSWORD)).token;
});
afterAll(async () => {
  await ctx?.close();
});
afterEach(() => {
  importSettings.batchSize = 500;
  importSettings.parallel = 2;
  importSettings.afterBatch = undefined;
});

const BOUNDARY = '----tierdesk-import-test';

/** A multipart body as a browser sends it: the file in `file`, then the text fields. */
function multipart(file: Buffer | string | null, fields: Record<string, string>, fileName = 'people.csv') {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  if (file !== null)
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="${fileName}"\r\ncontent-type: text/csv\r\n\r\n`,
      ),
      Buffer.isBuffer(file) ? file : Buffer.from(file),
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

async function upload(
  kind: string,
  file: Buffer | string | null,
  fields: Record<string, string> = {},
  token = admin,
) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/import/${kind}`,
    headers: {
      'x-auth-token': `bearer ${token}`,
      cookie: `XSRF-TOKEN=${XSRF}`,
      'x-xsrf-token': XSRF,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    },
    payload: multipart(file, fields),
  });
  return { status: response.statusCode, body: response.json() };
}

type Job = {
  status: string;
  dryRun: boolean;
  total: number;
  counts: Record<string, number>;
  errors: { row: number; column: string; message: string }[];
  errorsTotal: number;
  errorsKept: number;
  message: string | null;
};

/** Follows a job as the panel does, until it is no longer RUNNING (with a page of its errors, when asked). */
async function finished(id: string, query?: Record<string, string>): Promise<Job> {
  let job: Job | undefined;
  await expect
    .poll(
      async () => {
        const res = await call(ctx.app, 'GET', `import/fetch/${id}`, { token: admin, query });
        job = res.body.result;
        return job?.status;
      },
      { timeout: 60_000 },
    )
    .not.toBe('RUNNING');
  return job!;
}

/** Starts an import and answers the finished job. */
async function run(kind: string, csv: string | Buffer, fields: Record<string, string> = {}, token = admin) {
  const started = await upload(kind, csv, fields, token);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return finished(started.body.result._id);
}
const importFile = (kind: string, csv: string | Buffer, fields: Record<string, string> = {}) =>
  run(kind, csv, { dryRun: 'false', ...fields });

const counts = (c: Partial<Record<string, number>>) => ({
  read: 0,
  created: 0,
  updated: 0,
  unchanged: 0,
  conflicts: 0,
  refused: 0,
  ...c,
});

function aadhar(seed: number) {
  const base = `8${String(seed).padStart(10, '0')}`;
  return `${base}${verhoeffDigit(base)}`;
}
const PEOPLE_HEADER = 'name,email,mobile,userName,state,district,tehsil';
const person = (mobile: string, name = `Person ${mobile}`) =>
  `${name},p${mobile}@example.com,${mobile},u${mobile},Rajasthan,Jaipur,Sanganer`;

const users = async (where: string, params: unknown[] = []) =>
  (await ctx.database.pool.query(`select * from users where ${where}`, params)).rows;

/** The counter rows equal a recount over the users table. */
async function countersExact() {
  const { rows } = await ctx.database.pool.query(`
    with recount as (
      select s.scope_id, u.type, count(*)::bigint as total, (count(*) filter (where u.status = 'ACTIVE'))::bigint as active
      from users u cross join lateral (
        select '00000000-0000-0000-0000-000000000000'::uuid as scope_id
        union all select p::uuid from unnest(string_to_array(trim(both '/' from u.path), '/')) as p) s
      group by 1, 2)
    select * from recount r full join network_counts n using (scope_id, type)
    where r.total is distinct from n.total and coalesce(n.total, 0) <> coalesce(r.total, 0)
       or coalesce(r.active, 0) <> coalesce(n.active, 0)`);
  expect(rows).toEqual([]);
}

/** A second admin, signed in with its own password and second step: another person who imports. */
let secondAdmin: string | undefined;
async function signInSecondAdmin() {
  // A second admin comes from the server console and sets up its own password and second step (issue 51).
  secondAdmin ??= (await adminDesk(ctx).consoleAdmin('import')).token;
  return secondAdmin;
}

describe('each kind: a good file, then the same file again', () => {
  const files: [kind: string, csv: string, rows: number][] = [
    ['states', 'name\nGoa\nKerala\n', 2],
    ['districts', 'state,name\nGoa,North Goa\nGoa,South Goa\nKerala,Kochi\n', 3],
    ['tehsils', 'state,district,name\nGoa,North Goa,Bardez\ngoa,north goa,Pernem\nKerala,Kochi,Aluva\n', 3],
    [
      'master-distributors',
      `${PEOPLE_HEADER}\n${person('9710000001')}\nImported MD 2,md2@example.com,9710000002,9710000002,Goa,North Goa,Bardez\n`,
      2,
    ],
    [
      'distributors',
      `${PEOPLE_HEADER},masterDistributorMobile\n${person('9720000001')},9710000001\n${person('9720000002')},9100000001\n`,
      2,
    ],
    ['retailers', `${PEOPLE_HEADER},distributorMobile\n${person('9730000001')},9720000001\n`, 1],
    [
      'customers',
      `${PEOPLE_HEADER},retailerMobile,aadharId,panId\n${person('9740000001')},9730000001,${aadhar(1)},abcde1234f\n${person('9740000002')},,${aadhar(2)},ABCDE1234G\n`,
      2,
    ],
  ];
  for (const [kind, csv, rows] of files) {
    it(`${kind}: creates every row, then finds them all unchanged`, async () => {
      const dry = await run(kind, csv);
      expect(dry.dryRun).toBe(true);
      expect(dry).toMatchObject({
        status: 'DONE',
        errors: [],
        counts: counts({ read: rows, created: rows }),
      });
      const first = await importFile(kind, csv);
      expect(first).toMatchObject({ status: 'DONE', dryRun: false, total: rows, errors: [] });
      expect(first.counts).toEqual(counts({ read: rows, created: rows }));
      const again = await importFile(kind, csv);
      expect(again.counts).toEqual(counts({ read: rows, unchanged: rows }));
      await countersExact();
    });
  }

  it('places imported people under their parents, with the initial password to change at first sign-in', async () => {
    const [md] = await users(`mobile = '9710000001'`);
    const [d] = await users(`mobile = '9720000001'`);
    const [r] = await users(`mobile = '9730000001'`);
    const [c] = await users(`mobile = '9740000001'`);
    const [alone] = await users(`mobile = '9740000002'`);
    expect(md).toMatchObject({ type: 2, path: `/${md.id}/`, is_master: true, distributor_code: 'abcA12' });
    expect(d).toMatchObject({ type: 3, master_distributor_id: md.id, path: `${md.path}${d.id}/` });
    expect(r).toMatchObject({
      distributor_id: d.id,
      master_distributor_id: md.id,
      path: `${d.path}${r.id}/`,
    });
    expect(c).toMatchObject({ retailer_id: r.id, path: `${r.path}${c.id}/`, pan_id: 'ABCDE1234F' });
    expect(c.aadhar_last4).toBe(aadhar(1).slice(-4));
    expect(alone).toMatchObject({ retailer_id: null, path: `/${alone.id}/` });
    const wallets = await ctx.database.pool.query(
      'select count(*)::int as n from wallets where user_id = any($1)',
      [[md.id, d.id, r.id, c.id]],
    );
    expect(wallets.rows[0].n).toBe(4);
    const session = await login(ctx.app, 'u9730000001', INITIAL_PASSWORD);
    expect(session.user.passwordUpdatedAt).toBeNull();
    const blocked = await call(ctx.app, 'GET', 'account/fetch', {
      token: session.token,
      query: { type: '5' },
    });
    expect(blocked.status).toBe(403);
  });

  it('records each import in the audit trail with its actor, kind, file name, counts and job id', async () => {
    const job = await upload('states', 'name\nSikkim\n', { dryRun: 'false' });
    const done = await finished(job.body.result._id);
    expect(done.counts.created).toBe(1);
    const { rows } = await ctx.database.pool.query(
      `select actor_name, entity_id, after from audit_log where action = 'import.run' and entity_id = $1`,
      [job.body.result._id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].actor_name).toBeTruthy();
    expect(rows[0].after).toMatchObject({
      kind: 'states',
      fileName: 'people.csv',
      jobId: job.body.result._id,
      counts: { created: 1, read: 1 },
    });
  });

  it('answers each template: the header row and one example row that imports', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/import/template/customers',
      headers: { 'x-auth-token': `bearer ${admin}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toContain('customers-template.csv');
    const [header, example] = res.body.trim().split('\r\n');
    expect(header).toBe(`${PEOPLE_HEADER},retailerMobile,aadharId,panId`);
    expect(example.split(',')).toHaveLength(10);
    const template = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/import/template/tehsils',
      headers: { 'x-auth-token': `bearer ${admin}` },
    });
    const dry = await run('tehsils', template.body);
    expect(dry.counts).toEqual(counts({ read: 1, unchanged: 1 }));
  });
});

describe('bad files: one clear message, nothing written', () => {
  const header = `${PEOPLE_HEADER},masterDistributorMobile\n`;
  const good = `${header}${person('9750000001')},9100000001\n`;
  const cases: [what: string, file: Buffer | string | null, message: string][] = [
    ['no file', null, 'Attach the CSV file in the field "file"'],
    ['an empty file', '', 'The file is empty'],
    ['a file of blank lines', '\n\r\n  \n', 'The file is empty'],
    [
      'UTF-16 with its mark',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(good, 'utf16le')]),
      'The file is UTF-16 text. Save it as "CSV UTF-8" and send it again.',
    ],
    [
      'UTF-16 without a mark',
      Buffer.from(good, 'utf16le'),
      'The file is UTF-16 text. Save it as "CSV UTF-8" and send it again.',
    ],
    [
      'a binary file',
      Buffer.from([
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
      ]),
      'The file is not a CSV text file. Save it as "CSV UTF-8" and send it again.',
    ],
    [
      'Latin-1 text',
      Buffer.from(
        `${header}Jos\xe9,a@example.com,9750000001,jose,Rajasthan,Jaipur,Sanganer,9100000001\n`,
        'latin1',
      ),
      'The file is not a CSV text file. Save it as "CSV UTF-8" and send it again.',
    ],
    [
      'semicolons',
      good.replaceAll(',', ';'),
      'The columns are separated by semicolons. Save the file with commas ("CSV UTF-8") and send it again.',
    ],
    [
      'tabs',
      good.replaceAll(',', '\t'),
      'The columns are separated by tabs. Save the file with commas ("CSV UTF-8") and send it again.',
    ],
    ['a missing column', good.replace(',tehsil', ''), 'The header row has no column "tehsil"'],
    [
      'an unknown column',
      good.replace('tehsil,', 'tehsil,password,'),
      'The header row has a column this import does not take: "password"',
    ],
    ['a header only', header, 'The file has a header row but no rows below it'],
    [
      'a broken quote',
      `${header}"Unclosed,a@b.co,9750000001\n`,
      'The file is not valid CSV: a quoted cell is broken near line 2',
    ],
  ];
  for (const [what, file, message] of cases) {
    it(`refuses ${what}`, async () => {
      const before = await ctx.database.pool.query('select count(*)::int as n from import_jobs');
      const res = await upload('distributors', file, { dryRun: 'false' });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
      const after = await ctx.database.pool.query('select count(*)::int as n from import_jobs');
      expect(after.rows[0].n).toBe(before.rows[0].n);
    });
  }

  it('refuses a file over 50 MB', async () => {
    const row = `${person('9750000001')},9100000001\n`;
    const big = Buffer.alloc(50 * 1024 * 1024 + 10, row);
    const res = await upload('distributors', Buffer.concat([Buffer.from(header), big]), { dryRun: 'false' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The file is larger than 50 MB');
  });

  it('accepts UTF-8 with and without a byte-order mark', async () => {
    const plain = await run('states', 'name\nOdisha\n');
    expect(plain.counts).toEqual(counts({ read: 1, created: 1 }));
    const marked = await run(
      'states',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('name\nओडिशा\n')]),
    );
    expect(marked.counts).toEqual(counts({ read: 1, created: 1 }));
  });

  it('refuses an unknown kind, a bad dryRun and a bad mode', async () => {
    const kind = await upload('products', 'name\nx\n');
    expect(kind.status).toBe(400);
    expect(kind.body.errors).toEqual([{ msg: 'There is no import of "products"', param: 'kind' }]);
    const dry = await upload('states', 'name\nx\n', { dryRun: 'yes' });
    expect(dry.status).toBe(400);
    expect(dry.body.message).toBe('dryRun must be true or false');
    const mode = await upload('states', 'name\nx\n', { mode: 'merge' });
    expect(mode.status).toBe(400);
    expect(mode.body.message).toBe('mode must be create or update');
  });
});

describe('row errors', () => {
  it('judges every row with the dialogs’ own messages, masking nothing it does not print', async () => {
    const header = `${PEOPLE_HEADER},retailerMobile,aadharId,panId\n`;
    const rows = [
      // 2: every field empty but the retailer's mobile (a row of empty cells only is skipped: see the last)
      ',,,,,,,9300000001,,',
      // 3: formats
      `Bad Formats,not-an-email,12345,ab,Rajasthan,Jaipur,Sanganer,,123456789012,XYZ`,
      // 4: an Aadhar number that fails its check digit
      `Bad Aadhar,b@example.com,9760000004,u9760000004,Rajasthan,Jaipur,Sanganer,,${aadhar(4).slice(0, 11)}${(Number(aadhar(4).slice(-1)) + 1) % 10},ABCDE1234F`,
      // 5: unknown state, 6: district not in the state, 7: tehsil not in the district
      `Lost,c@example.com,9760000005,u9760000005,Atlantis,Jaipur,Sanganer,,${aadhar(5)},ABCDE1234F`,
      `Lost,c@example.com,9760000006,u9760000006,Maharashtra,Jaipur,Sanganer,,${aadhar(6)},ABCDE1234F`,
      `Lost,c@example.com,9760000007,u9760000007,Rajasthan,Jaipur,Haveli,,${aadhar(7)},ABCDE1234F`,
      // 8: an unknown retailer, 9: a retailer's mobile that is a distributor's
      `Orphan,d@example.com,9760000008,u9760000008,Rajasthan,Jaipur,Sanganer,9399999999,${aadhar(8)},ABCDE1234F`,
      `Orphan,d@example.com,9760000009,u9760000009,Rajasthan,Jaipur,Sanganer,9200000001,${aadhar(9)},ABCDE1234F`,
      // 10: a mobile another user holds (a demo retailer, of another kind); 11: a user name taken
      `Taken,e@example.com,9300000002,u9760000010,Rajasthan,Jaipur,Sanganer,,${aadhar(10)},ABCDE1234F`,
      `Taken,e@example.com,9760000011,9300000003,Rajasthan,Jaipur,Sanganer,,${aadhar(11)},ABCDE1234F`,
      // 12: too few cells
      'Short,f@example.com,9760000012',
      // 13: good, 14: its duplicate mobile, 15: its user name as a mobile
      `Good,g@example.com,9760000013,u9760000013,Rajasthan,Jaipur,Sanganer,,${aadhar(13)},ABCDE1234F`,
      `Twin,g@example.com,9760000013,u9760000014,Rajasthan,Jaipur,Sanganer,,${aadhar(14)},ABCDE1234F`,
      `Twin,g@example.com,9760000015,U9760000013,Rajasthan,Jaipur,Sanganer,,${aadhar(15)},ABCDE1234F`,
      ',,,,,,,,,',
    ];
    const job = await run('customers', `${header}${rows.join('\n')}\n`);
    expect(job.status).toBe('DONE');
    expect(job.counts).toEqual(counts({ read: 14, created: 1, refused: 13 }));
    const at = (row: number) =>
      job.errors.filter((e) => e.row === row).map(({ column, message }) => ({ column, message }));
    expect(at(2)).toEqual(
      expect.arrayContaining([
        { column: 'name', message: 'This field is required' },
        { column: 'email', message: 'This field is required' },
        { column: 'mobile', message: 'This field is required' },
        { column: 'userName', message: 'This field is required' },
        { column: 'state', message: 'This field is required' },
        { column: 'aadharId', message: 'This field is required' },
        { column: 'panId', message: 'This field is required' },
      ]),
    );
    expect(at(3)).toEqual(
      expect.arrayContaining([
        { column: 'email', message: 'Invalid email' },
        { column: 'mobile', message: 'Invalid mobile number' },
        { column: 'userName', message: 'Minimum length not fulfilled' },
        { column: 'aadharId', message: 'Invalid Aadhar number' },
        { column: 'panId', message: 'Invalid value' },
      ]),
    );
    expect(at(4)).toEqual([{ column: 'aadharId', message: 'Invalid Aadhar number' }]);
    expect(at(5)).toEqual([{ column: 'state', message: 'State "Atlantis" does not exist' }]);
    expect(at(6)).toEqual([
      { column: 'district', message: 'District "Jaipur" does not exist in state "Maharashtra"' },
    ]);
    expect(at(7)).toEqual([
      { column: 'tehsil', message: 'Tehsil "Haveli" does not exist in district "Jaipur"' },
    ]);
    expect(at(8)).toEqual([
      { column: 'retailerMobile', message: 'No retailer has the mobile number "9399999999"' },
    ]);
    expect(at(9)).toEqual([
      { column: 'retailerMobile', message: 'No retailer has the mobile number "9200000001"' },
    ]);
    expect(at(10)).toEqual([
      { column: 'mobile', message: 'This mobile number belongs to a user of another kind' },
    ]);
    expect(at(11)).toEqual([{ column: 'userName', message: 'This user name is already taken' }]);
    expect(at(12)).toEqual([{ column: '', message: 'The row has 3 cells; the header has 10' }]);
    expect(at(13)).toEqual([]);
    expect(at(14)).toEqual([{ column: 'mobile', message: 'The same as row 13 of this file' }]);
    expect(at(15)).toEqual([{ column: 'userName', message: 'The same as row 13 of this file' }]);
    expect(at(16)).toEqual([]);
    // No error, and no log line, prints an Aadhar number.
    const text = JSON.stringify(job.errors);
    for (let seed = 1; seed <= 15; seed++) expect(text).not.toContain(aadhar(seed));
    expect(text).not.toContain('123456789012');
    // A dry run wrote nothing.
    expect(await users(`mobile = '9760000013'`)).toEqual([]);
  });

  it('stores cells that start like a formula as the text they are', async () => {
    const csv = `${PEOPLE_HEADER}\n"=HYPERLINK(""x"")",h@example.com,9770000001,@u9770000001,Rajasthan,Jaipur,Sanganer\n'-minus,i@example.com,9770000002,+u9770000002,Rajasthan,Jaipur,Sanganer\n`;
    const job = await importFile('master-distributors', csv);
    expect(job.errors).toEqual([]);
    expect(job.counts.created).toBe(2);
    const [first] = await users(`mobile = '9770000001'`);
    expect(first.name).toBe('=HYPERLINK("x")');
    expect(first.user_name).toBe('@u9770000001');
    // An export neutralises such a cell with a leading apostrophe; the import reads it back as it was.
    const [second] = await users(`mobile = '9770000002'`);
    expect(second.name).toBe('-minus');
  });
});

describe('existing keys: conflicts, or updates with mode=update', () => {
  it('reports a row with other values as a conflict and changes it only with mode=update', async () => {
    const header = `${PEOPLE_HEADER},masterDistributorMobile\n`;
    const original = `${header}${person('9780000001', 'Original Name')},9100000001\n`;
    expect((await importFile('distributors', original)).counts.created).toBe(1);
    const changed = `${header}Changed Name,p9780000001@example.com,9780000001,u9780000001,Rajasthan,Jaipur,Amber,9100000002\n`;
    const conflict = await importFile('distributors', changed);
    expect(conflict.counts).toEqual(counts({ read: 1, conflicts: 1 }));
    expect(conflict.errors).toEqual([
      {
        row: 2,
        column: 'name',
        message:
          'Already exists with other values (name, tehsil, masterDistributorMobile); import with mode "update" to change them',
      },
    ]);
    const [kept] = await users(`mobile = '9780000001'`);
    expect(kept.name).toBe('Original Name');
    const updated = await importFile('distributors', changed, { mode: 'update' });
    expect(updated.counts).toEqual(counts({ read: 1, updated: 1 }));
    const [moved] = await users(`mobile = '9780000001'`);
    const [md2] = await users(`mobile = '9100000002'`);
    expect(moved).toMatchObject({
      name: 'Changed Name',
      master_distributor_id: md2.id,
      path: `${md2.path}${moved.id}/`,
    });
    expect((await importFile('distributors', changed)).counts).toEqual(counts({ read: 1, unchanged: 1 }));
    await countersExact();
  });

  it('renames a location whose spelling differs only with mode=update', async () => {
    expect((await importFile('states', 'name\nGOA\n')).counts).toEqual(counts({ read: 1, conflicts: 1 }));
    expect((await importFile('states', 'name\nGOA\n', { mode: 'update' })).counts).toEqual(
      counts({ read: 1, updated: 1 }),
    );
    const { rows } = await ctx.database.pool.query(`select name from states where lower(name) = 'goa'`);
    expect(rows).toEqual([{ name: 'GOA' }]);
  });
});

describe('batches', () => {
  const file = (from: number, count: number) =>
    `${PEOPLE_HEADER}\n${Array.from({ length: count }, (_, i) => person(String(9790000000 + from + i))).join('\n')}\n`;

  it('leaves whole batches when an import stops, and the same file again completes it', async () => {
    importSettings.batchSize = 4;
    importSettings.afterBatch = (_job, batch) => {
      if (batch === 1) throw new Error('the server stopped');
    };
    const csv = file(0, 10);
    const stopped = await importFile('master-distributors', csv);
    expect(stopped.status).toBe('FAILED');
    expect(stopped.message).toBe(
      'The import stopped before the end. Send the same file again to complete it.',
    );
    // Whole batches only (4, 4 and 2 rows): two run at once, so the batches beside the one that stopped may
    // have finished too, but never part of one.
    const done = stopped.counts.created;
    expect([4, 6, 8, 10]).toContain(done);
    expect(stopped.counts).toEqual(counts({ read: done, created: done }));
    expect(await users(`mobile like '97900000%'`)).toHaveLength(done);
    importSettings.afterBatch = undefined;
    const again = await importFile('master-distributors', csv);
    expect(again.status).toBe('DONE');
    expect(again.counts).toEqual(counts({ read: 10, created: 10 - done, unchanged: done }));
    expect(await users(`mobile like '97900000%'`)).toHaveLength(10);
    await countersExact();
  });

  it('creates each person once when two admins’ overlapping imports run at once', async () => {
    importSettings.batchSize = 3;
    const other = await signInSecondAdmin();
    const [a, b] = await Promise.all([
      upload('master-distributors', file(100, 12), { dryRun: 'false' }),
      upload('master-distributors', file(106, 12), { dryRun: 'false' }, other),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const [jobA, jobB] = await Promise.all([finished(a.body.result._id), finished(b.body.result._id)]);
    expect(jobA.status).toBe('DONE');
    expect(jobB.status).toBe('DONE');
    expect(jobA.counts.created + jobB.counts.created).toBe(18);
    expect(jobA.counts.unchanged + jobB.counts.unchanged).toBe(6);
    const created = await users(`mobile >= '9790000100' and mobile < '9790000200'`);
    expect(created).toHaveLength(18);
    await countersExact();
  });
});

describe('a job whose server died', () => {
  const STOPPED =
    'The import stopped: the server running it stopped before the end. Send the same file again to complete it.';
  /**
   * A job row as a server leaves it when it dies mid-import: RUNNING, its file in the store, and its runner lock
   * given back with the server's database session; by default of a person of its own.
   */
  async function jobLeftBehind(actorId: string = randomUUID()) {
    const { rows } = await ctx.database.pool.query(
      `with file as (insert into stored_files (id, content_type, size) values ($2, 'text/csv', 0) returning id)
        insert into import_jobs (kind, file_name, dry_run, mode, actor_id, file_id, total, read, created)
        select 'master-distributors', 'network.csv', false, 'create', $1, file.id, 1000, 500, 500 from file
        returning id`,
      [actorId, randomUUID().replaceAll('-', '')],
    );
    return rows[0].id as string;
  }
  const fetchJob = async (id: string) =>
    (await call(ctx.app, 'GET', `import/fetch/${id}`, { token: admin })).body;
  const quiet = { info() {}, warn() {} };

  it('answers FAILED, saying the same file completes it, once no server holds its lock', async () => {
    const id = await jobLeftBehind();
    // Another server running it holds the job's lock: it is running.
    const other = new RunnerLocks({ db: ctx.database.db, databaseUrl: ctx.config.databaseUrl, log: quiet });
    try {
      expect(await other.tryTake(importLock(id))).not.toBeNull();
      expect((await fetchJob(id)).result).toMatchObject({ status: 'RUNNING', message: null });
    } finally {
      // That server goes, and its lock with it.
      await other.close();
    }
    expect((await fetchJob(id)).result).toMatchObject({
      status: 'FAILED',
      message: STOPPED,
      counts: counts({ read: 500, created: 500 }),
    });
  });

  it('does not block its person: their next import starts, and the lost job stays FAILED', async () => {
    const [me] = await users('user_name = $1', [ADMIN.userName]);
    const lost = await jobLeftBehind(me.id);
    const next = await run('states', 'name\nMizoram\n');
    expect(next).toMatchObject({ status: 'DONE', counts: counts({ read: 1, created: 1 }) });
    expect((await fetchJob(lost)).result).toMatchObject({ status: 'FAILED', message: STOPPED });
    const { rows } = await ctx.database.pool.query('select status, message from import_jobs where id = $1', [
      lost,
    ]);
    expect(rows).toEqual([{ status: 'FAILED', message: STOPPED }]);
  });

  it('keeps a live job RUNNING while one of its batches takes its time: its server holds its lock', async () => {
    importSettings.batchSize = 1;
    let seen: { status: string; message: string | null } | undefined;
    let refused: { status: number; message: string } | undefined;
    importSettings.afterBatch = async (jobId, batch) => {
      if (batch !== 1) return;
      seen = (await fetchJob(jobId)).result;
      const again = await upload('states', 'name\nHeld State\n');
      refused = { status: again.status, message: again.body.message };
    };
    const job = await importFile(
      'master-distributors',
      `${PEOPLE_HEADER}\n${person('9790000300')}\n${person('9790000301')}\n`,
    );
    expect(seen).toMatchObject({ status: 'RUNNING', message: null });
    expect(refused).toEqual({
      status: 409,
      message: 'You have an import running. Wait until it ends, then send the next file.',
    });
    expect(job.status).toBe('DONE');
  });
});

describe('bounds: a file cannot exhaust the server (issue 51)', () => {
  const jobCount = async () =>
    (await ctx.database.pool.query('select count(*)::int as n from import_jobs')).rows[0].n as number;
  const uploadsDir = () => path.join(ctx.config.dataDir, 'uploads');

  it('reads IMPORT_MAX_ROWS: 200,000 by default, a whole number from 1 to 1,000,000', () => {
    expect(readConfig({}).importMaxRows).toBe(200_000);
    expect(readConfig({ IMPORT_MAX_ROWS: '5' }).importMaxRows).toBe(5);
    expect(readConfig({ IMPORT_MAX_ROWS: ' 1000000 ' }).importMaxRows).toBe(1_000_000);
    for (const bad of ['0', '-1', '1.5', 'many', '1000001'])
      expect(() => readConfig({ IMPORT_MAX_ROWS: bad }), bad).toThrow(
        `IMPORT_MAX_ROWS must be a whole number of rows from 1 to 1000000, got "${bad}"`,
      );
  });

  it('refuses a file of IMPORT_MAX_ROWS + 1 rows with 400 before any row is checked, keeping nothing', async () => {
    expect(ctx.config.importMaxRows).toBe(200_000);
    const names = Array.from({ length: 200_001 }, (_, i) => `Limit State ${i}`);
    const before = await jobCount();
    // This request's own file is what is checked: the directory is every earlier upload's of this file too.
    const filesBefore = fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()) : [];
    const res = await upload('states', `name\n${names.join('\n')}\n`, { dryRun: 'false' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'The file has more than 2,00,000 rows. Split it into smaller files and send each one.',
    );
    // No job, so no row was judged or written; the received file is gone.
    expect(await jobCount()).toBe(before);
    const { rows } = await ctx.database.pool.query(
      `select count(*)::int as n from states where name like 'Limit State %'`,
    );
    expect(rows[0].n).toBe(0);
    expect(fs.readdirSync(uploadsDir())).toEqual(filesBefore);
  });

  it('makes a row of more than 64 cells, or a cell of more than 1,000 characters, a row error', async () => {
    const file = [
      'name',
      Array(65).fill('wide').join(','), // 2: 65 cells
      'y,'.repeat(50_000), // 3: 50,001 cells
      Array(64).fill('x').join(','), // 4: 64 cells, the header's 1
      'L'.repeat(1001), // 5: one cell too long
      'M'.repeat(1000), // 6: 1,000 characters: judged as the dialog judges it
      'Long Cells Pradesh', // 7
      `${'N'.repeat(1001)},two`, // 8: two cells, the first too long
    ].join('\n');
    const job = await run('states', `${file}\n`);
    expect(job.status).toBe('DONE');
    expect(job.counts).toEqual(counts({ read: 7, created: 1, refused: 6 }));
    expect(job.errors).toEqual([
      { row: 2, column: '', message: 'The row has more than 64 cells' },
      { row: 3, column: '', message: 'The row has more than 64 cells' },
      { row: 4, column: '', message: 'The row has 64 cells; the header has 1' },
      { row: 5, column: 'name', message: 'The cell has more than 1,000 characters' },
      { row: 6, column: 'name', message: 'Name must be at most 100 characters' },
      { row: 8, column: '', message: 'The row has 2 cells; the header has 1' },
      { row: 8, column: 'name', message: 'The cell has more than 1,000 characters' },
    ]);
    expect(job.errorsTotal).toBe(7);
    expect(job.errorsKept).toBe(7);
  });

  it('reads a row of millions of cells as one row error, and every row after it as before', async () => {
    const wide = 'y,'.repeat(2_000_000); // 4 MB, 2,000,001 cells
    const csv = `name\r\n${wide}\r\n"Wide ""Quoted"" Pradesh"\r\n${'z,'.repeat(70)}"a\r\nb","c,d"\r\nLast Wide Pradesh\r\n`;
    const job = await run('states', csv);
    expect(job.counts).toEqual(counts({ read: 4, created: 2, refused: 2 }));
    expect(job.errors).toEqual([
      { row: 2, column: '', message: 'The row has more than 64 cells' },
      { row: 4, column: '', message: 'The row has more than 64 cells' },
    ]);
  });

  it('gives the same answer as csv-parse reading the whole file, rows of more than 64 cells cut to 65 (property)', async () => {
    // Cells of every shape csv-parse reads: plain, quoted with separators, escaped quotes and line breaks inside,
    // empty; now and then one that is not valid CSV.
    const cell = fc.oneof(
      {
        weight: 60,
        arbitrary: fc.constantFrom(
          'Goa',
          'Kerala',
          '',
          ' ',
          '"Tamil, Nadu"',
          '"Say ""hi"""',
          '"two\nlines"',
          '"cr\r\nlf"',
          '"lone\rcr"',
        ),
      },
      // Cells past what is passed on whole (8 KB): plain, and quoted with separators, quotes and line breaks.
      {
        weight: 4,
        arbitrary: fc.constantFrom(
          'L'.repeat(9000),
          `"${'ab"",\n'.repeat(2000)}"`,
          `"${'x'.repeat(8190)}\r\n"`,
          `"${'y'.repeat(8191)}"""`,
        ),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom('bad"quote', '"closed"late', '"unclosed', `${'M'.repeat(9000)}"`),
      },
    );
    const record = fc.oneof(
      { weight: 3, arbitrary: fc.array(cell, { minLength: 1, maxLength: 3 }) },
      { weight: 2, arbitrary: fc.array(cell, { minLength: 60, maxLength: 90 }) },
    );
    const file = fc.record({
      records: fc.array(record, { minLength: 1, maxLength: 6 }),
      lineBreak: fc.constantFrom('\n', '\r\n', '\r'),
      finalBreak: fc.boolean(),
    });
    const outcome = async (csv: string) => {
      const started = await upload('states', csv);
      if (started.status !== 200) return { status: started.status, message: started.body.message };
      const job = await finished(started.body.result._id, { errorsLimit: '1000' });
      return { status: 200, counts: job.counts, errors: job.errors };
    };
    await fc.assert(
      fc.asyncProperty(file, async ({ records, lineBreak, finalBreak }) => {
        const csv = `name${lineBreak}${records.map((r) => r.join(',')).join(lineBreak)}${finalBreak ? lineBreak : ''}`;
        let reference: string;
        try {
          const parsed: string[][] = parse(csv, {
            bom: true,
            relax_column_count: true,
            skip_empty_lines: false,
          });
          const quoted = (c: string) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c);
          reference = `${parsed.map((r) => r.slice(0, 65).map(quoted).join(',')).join('\n')}\n`;
        } catch (error) {
          const line = (error as { lines: number }).lines;
          expect(await outcome(csv)).toEqual({
            status: 400,
            message: `The file is not valid CSV: a quoted cell is broken near line ${line}`,
          });
          return;
        }
        expect(await outcome(csv)).toEqual(await outcome(reference));
      }),
      { seed: 20_261_130, numRuns: 120 },
    );
  }, 120_000);

  /** 1,500 rows, each refused with one error: two cells in a file of one column. */
  const badRows = (n: number) =>
    `name\n${Array.from({ length: n }, (_, i) => `Bad State ${i},extra`).join('\n')}\n`;
  const rowsFrom = (first: number, last: number) =>
    Array.from({ length: last - first + 1 }, (_, i) => first + i);
  const CELL_COUNT = 'The row has 2 cells; the header has 1';

  for (const dryRun of ['true', 'false'])
    it(`keeps the first 1,000 row errors in the file's order, counts every one, and pages them (dryRun=${dryRun})`, async () => {
      // Small batches, two at once: batches end out of order, and the kept ones are still the first.
      importSettings.batchSize = 40;
      const started = await upload('states', badRows(1500), { dryRun });
      expect(started.status).toBe(200);
      const id = started.body.result._id as string;
      const job = await finished(id);
      expect(job.counts).toEqual(counts({ read: 1500, refused: 1500 }));
      expect(job.errorsTotal).toBe(1500);
      expect(job.errorsKept).toBe(1000);
      // The first page, of 100 by default.
      expect(job.errors.map((e) => e.row)).toEqual(rowsFrom(2, 101));
      expect(job.errors[0]).toEqual({ row: 2, column: '', message: CELL_COUNT });
      const page = async (query: Record<string, string>) => {
        const res = await call(ctx.app, 'GET', `import/fetch/${id}`, { token: admin, query });
        expect(res.status).toBe(200);
        expect(res.body.result).toMatchObject({ errorsTotal: 1500, errorsKept: 1000 });
        return (res.body.result.errors as Job['errors']).map((e) => e.row);
      };
      expect(await page({ errorsPage: '3', errorsLimit: '250' })).toEqual(rowsFrom(502, 751));
      expect(await page({ errorsPage: '10' })).toEqual(rowsFrom(902, 1001));
      expect(await page({ errorsPage: '11' })).toEqual([]);
      expect(await page({ errorsLimit: '1000' })).toEqual(rowsFrom(2, 1001));

      // The CSV has every kept error: a header and 1,000 lines.
      const csv = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/import/fetch/${id}?format=csv`,
        headers: { 'x-auth-token': `bearer ${admin}` },
      });
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(csv.headers['content-disposition']).toContain('states-errors.csv');
      const lines = csv.body.trimEnd().split('\r\n');
      expect(lines).toHaveLength(1001);
      expect(lines[0]).toBe('row,column,message');
      expect(lines[1]).toBe(`2,,${CELL_COUNT}`);
      expect(lines[1000]).toBe(`1001,,${CELL_COUNT}`);
    });

  it('refuses a bad errorsPage, errorsLimit or format with 400 and its message', async () => {
    const job = await run('states', badRows(3));
    const { rows } = await ctx.database.pool.query(
      'select id from import_jobs order by created_at desc, id limit 1',
    );
    expect(job.errorsTotal).toBe(3);
    const id = rows[0].id as string;
    const PAGE = 'errorsPage must be a whole number from 1 to 1000';
    const LIMIT = 'errorsLimit must be a whole number from 1 to 1000';
    const cases: [param: string, value: string, message: string][] = [
      ['errorsPage', '0', PAGE],
      ['errorsPage', 'second', PAGE],
      ['errorsPage', '1.5', PAGE],
      ['errorsPage', '1001', PAGE],
      ['errorsLimit', '0', LIMIT],
      ['errorsLimit', 'ten', LIMIT],
      ['errorsLimit', '1001', LIMIT],
      ['format', 'xlsx', 'format must be json or csv'],
    ];
    for (const [param, value, message] of cases) {
      const res = await call(ctx.app, 'GET', `import/fetch/${id}`, {
        token: admin,
        query: { [param]: value },
      });
      expect(res.status, `${param}=${value}`).toBe(400);
      expect(res.body, `${param}=${value}`).toEqual({
        message: 'Invalid data!',
        errors: [{ msg: message, param }],
      });
    }
  });

  it('refuses a second import of a person while one runs (409), and lets another person import meanwhile', async () => {
    importSettings.batchSize = 1;
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The first job to end a batch holds on there until the checks below are done.
    let holding: string | undefined;
    importSettings.afterBatch = async (jobId) => {
      holding ??= jobId;
      if (jobId === holding) await held;
    };
    const before = await jobCount();
    // Two at once: the database lets one start.
    const [a, b] = await Promise.all([
      upload('states', 'name\nRace State A\nRace State B\n'),
      upload('states', 'name\nRace State C\n'),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const refused = a.status === 409 ? a : b;
    expect(refused.body.message).toBe(
      'You have an import running. Wait until it ends, then send the next file.',
    );
    expect(await jobCount()).toBe(before + 1);
    // And one after the other, while it runs.
    const again = await upload('states', 'name\nRace State D\n', { dryRun: 'false' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(
      'You have an import running. Wait until it ends, then send the next file.',
    );
    // Another person is not held up.
    const other = await run('states', 'name\nRace State E\n', {}, employee);
    expect(other.status).toBe('DONE');
    release();
    const first = await finished((a.status === 200 ? a : b).body.result._id);
    expect(first.status).toBe('DONE');
    // Once it has ended, the person imports again.
    expect((await run('states', 'name\nRace State F\n')).status).toBe('DONE');
  });
});

describe('authority', () => {
  it('lets an employee run dry runs and refuses its import with the reason', async () => {
    const csv = 'name\nTripura\n';
    const dry = await run('states', csv, {}, employee);
    expect(dry.counts).toEqual(counts({ read: 1, created: 1 }));
    const refused = await upload('states', csv, { dryRun: 'false' }, employee);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Only an admin may import; an employee may run a dry run');
  });

  it('refuses tier users everything, templates and job reads included', async () => {
    const res = await upload('customers', 'name\n', {}, retailer);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('You do not have permission to do this');
    const template = await call(ctx.app, 'GET', 'import/template/states', { token: retailer });
    expect(template.status).toBe(403);
    const job = await run('states', 'name\nManipur\n');
    expect(job.status).toBe('DONE');
    const any = await call(ctx.app, 'GET', `import/fetch/${'0'.repeat(8)}-0000-4000-8000-000000000000`, {
      token: retailer,
    });
    expect(any.status).toBe(403);
  });

  it('answers 404 for an import that does not exist', async () => {
    const res = await call(ctx.app, 'GET', 'import/fetch/00000000-0000-4000-8000-000000000000', {
      token: admin,
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Import not found');
  });
});

describe('the migration that moves import files into the file store (0028 on this branch)', () => {
  /** What it adds dropped and the file column put back: the tables as the migrations before it left them. */
  const UNDO = [
    // What the runner locks' migration dropped (0032 on this branch), the job's heartbeat.
    'alter table import_jobs add column updated_at timestamp with time zone default now() not null',
    'drop index import_jobs_running_actor_key',
    'alter table import_errors drop column id',
    `alter table import_jobs drop column file_id, drop column errors_found,
      add column content bytea not null default ''::bytea`,
  ];
  const q = async (text: string, params: unknown[] = []) =>
    (await ctx.database.pool.query(text, params)).rows;

  it('moves each file into the store, counts every row error and keeps the first 1,000, and ends a person’s extra RUNNING jobs', async () => {
    for (const statement of UNDO) await q(statement);
    const bytes = Buffer.from(Array.from({ length: 600 * 1024 }, (_, i) => (i * 7) % 251));
    const actor = randomUUID();
    const oldJob = async (status: string, content: Buffer, age: string, actorId = randomUUID()) =>
      (
        await q(
          `insert into import_jobs (kind, file_name, dry_run, mode, status, actor_id, content, total, updated_at)
            values ('states', 'old.csv', true, 'create', $1, $2, $3, 1500, now() - $4::interval) returning id`,
          [status, actorId, content, age],
        )
      )[0].id as string;
    const withFile = await oldJob('DONE', bytes, '1 day');
    const empty = await oldJob('DONE', Buffer.alloc(0), '1 day');
    const older = await oldJob('RUNNING', Buffer.from('name\nGoa\n'), '2 minutes', actor);
    const newer = await oldJob('RUNNING', Buffer.from('name\nGoa\n'), '10 seconds', actor);
    await q(
      `insert into import_errors (job_id, row, "column", message)
        select $1, r, 'name', 'Row ' || r from generate_series(1501, 2, -1) as r`,
      [withFile],
    );

    const file = fs.readdirSync(MIGRATIONS_DIR).find((name) => name.endsWith('_import_files.sql'))!;
    for (const statement of fs
      .readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8')
      .split('--> statement-breakpoint'))
      await q(statement);

    const stored = await q(
      `select j.id, f.size, coalesce(array_agg(c.seq order by c.seq) filter (where c.seq is not null), '{}') as seqs,
          string_agg(encode(c.bytes, 'hex'), '' order by c.seq) as hex
        from import_jobs j join stored_files f on f.id = j.file_id left join stored_file_chunks c on c.file_id = f.id
        where j.id = any($1) group by j.id, f.size`,
      [[withFile, empty]],
    );
    const byId = new Map(stored.map((r) => [r.id, r]));
    expect(byId.get(withFile)).toMatchObject({
      size: bytes.length,
      seqs: [0, 1, 2],
      hex: bytes.toString('hex'),
    });
    expect(byId.get(empty)).toMatchObject({ size: 0, seqs: [], hex: null });

    const res = await call(ctx.app, 'GET', `import/fetch/${withFile}`, {
      token: admin,
      query: { errorsLimit: '1000' },
    });
    expect(res.body.result).toMatchObject({ errorsTotal: 1500, errorsKept: 1000 });
    const rows = (res.body.result.errors as Job['errors']).map((e) => e.row);
    expect(rows[0]).toBe(2);
    expect(rows[999]).toBe(1001);

    const STOPPED =
      'The import stopped: the server running it stopped before the end. Send the same file again to complete it.';
    expect(
      await q('select id, status, message from import_jobs where id = any($1) order by updated_at', [
        [older, newer],
      ]),
    ).toEqual([
      { id: older, status: 'FAILED', message: STOPPED },
      { id: newer, status: 'RUNNING', message: null },
    ]);
    // From now on the database refuses a second RUNNING job of a person.
    await expect(
      q(
        `insert into import_jobs (kind, file_name, dry_run, mode, actor_id, file_id)
          select kind, file_name, dry_run, mode, actor_id, file_id from import_jobs where id = $1`,
        [newer],
      ),
    ).rejects.toMatchObject({ code: '23505' });
  });
});
