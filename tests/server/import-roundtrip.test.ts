import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verhoeffDigit } from '../../src/shared/identity';
import { IMPORT_KINDS } from '../../src/shared/schemas/imports';
import { ADMIN, call, DEMO_PASSWORD, login, makeTestContext, type TestContext, XSRF } from './helpers';

/**
 * Issue 45's round trip: a network exported from one Tierdesk (A, the demo network and a few more people) imports
 * into an empty one (B) with the same people, parents and locations, list by list in the templates' order.
 */
let a: TestContext;
let b: TestContext;
let adminA: string;
let adminB: string;
let employeeA: string;
let retailerA: string;
beforeAll(async () => {
  [a, b] = await Promise.all([makeTestContext(), makeTestContext({ demo: false })]);
  adminA = (await login(a.app, ADMIN.userName, ADMIN.password)).token;
  adminB = (await login(b.app, ADMIN.userName, ADMIN.password)).token;
  employeeA = (await login(a.app, '9000000001', DEMO_PASSWORD)).token;
  retailerA = (await login(a.app, '9300000001', DEMO_PASSWORD)).token;
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

const BOUNDARY = '----tierdesk-roundtrip-test';

async function exportOf(ctx: TestContext, kind: string, token: string) {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/import/export/${kind}`,
    headers: { 'x-auth-token': `bearer ${token}`, cookie: `XSRF-TOKEN=${XSRF}`, 'x-xsrf-token': XSRF },
  });
  return { status: response.statusCode, text: response.body, headers: response.headers };
}

type Job = {
  status: string;
  counts: Record<string, number>;
  errors: { row: number; column: string; message: string }[];
  message: string | null;
};

/** Sends a file to `import/<kind>` as the Import screen does, and follows the job until it is no longer RUNNING. */
async function importInto(ctx: TestContext, token: string, kind: string, csv: string, dryRun: boolean) {
  const payload = Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\ncontent-disposition: form-data; name="dryRun"\r\n\r\n${dryRun}\r\n` +
        `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="${kind}.csv"\r\ncontent-type: text/csv\r\n\r\n`,
    ),
    Buffer.from(csv),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  const started = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/import/${kind}`,
    headers: {
      'x-auth-token': `bearer ${token}`,
      cookie: `XSRF-TOKEN=${XSRF}`,
      'x-xsrf-token': XSRF,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    },
    payload,
  });
  expect(started.statusCode, started.body).toBe(200);
  const id = started.json().result._id;
  let job: Job | undefined;
  await expect
    .poll(
      async () => {
        job = (await call(ctx.app, 'GET', `import/fetch/${id}`, { token })).body.result;
        return job?.status;
      },
      { timeout: 60_000 },
    )
    .not.toBe('RUNNING');
  return job!;
}

/** Every person of the import kinds with its parents and places by their natural keys, and its Aadhar number. */
async function network(ctx: TestContext) {
  const { rows } = await ctx.database.pool.query(
    `select u.type, u.name, u.email, u.mobile, u.user_name, u.pan_id, u.aadhar_cipher,
        s.name as state, d.name as district, t.name as tehsil,
        md.mobile as md, dist.mobile as distributor, r.mobile as retailer
      from users u
      left join districts d on d.id = u.district_id
      left join states s on s.id = d.state_id
      left join tehsils t on t.id = u.tehsil_id
      left join users md on md.id = u.master_distributor_id
      left join users dist on dist.id = u.distributor_id
      left join users r on r.id = u.retailer_id
      where u.type in (1, 2, 3, 4)
      order by u.mobile`,
  );
  return rows.map(({ aadhar_cipher, ...row }) => ({
    ...row,
    aadhar: aadhar_cipher ? ctx.cipher.decrypt(aadhar_cipher) : null,
  }));
}

async function places(ctx: TestContext) {
  const { rows } = await ctx.database.pool.query(
    `select 'state' as kind, s.name as state, '' as district, '' as name from states s
     union all select 'district', s.name, '', d.name from districts d join states s on s.id = d.state_id
     union all select 'tehsil', s.name, d.name, t.name from tehsils t
       join districts d on d.id = t.district_id join states s on s.id = d.state_id
     order by 1, 2, 3, 4`,
  );
  return rows;
}

const aadharOf = (seed: number) => {
  const base = `7${String(seed).padStart(10, '0')}`;
  return `${base}${verhoeffDigit(base)}`;
};

/** The parsed CSV rows of an export (no quoted line breaks in these files). */
const linesOf = (text: string) => text.trimEnd().split('\r\n');

describe('round trip: export every list from one Tierdesk, import it into an empty one', () => {
  it('carries the same people, parents, locations and (for an admin) Aadhar numbers', async () => {
    // A's network: the demo seed, plus customers whose cells a spreadsheet would run, one without a retailer.
    const extra = [
      'name,email,mobile,userName,state,district,tehsil,retailerMobile,aadharId,panId',
      `=HYPERLINK(x),f1@example.com,9770000001,u9770000001,Rajasthan,Jaipur,Sanganer,9300000001,${aadharOf(1)},ABCDE1234F`,
      `@sum plus,f2@example.com,9770000002,u9770000002,Rajasthan,Jaipur,Sanganer,,${aadharOf(2)},ABCDE1234G`,
    ].join('\n');
    const seeded = await importInto(a, adminA, 'customers', extra, false);
    expect(seeded.errors).toEqual([]);
    expect(seeded.counts.created).toBe(2);

    for (const kind of IMPORT_KINDS) {
      const file = await exportOf(a, kind, adminA);
      expect(file.status, file.text).toBe(200);
      expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
      const template = await a.app.inject({
        method: 'GET',
        url: `/api/v1/import/template/${kind}`,
        headers: { 'x-auth-token': `bearer ${adminA}` },
      });
      // The export's header is the template's, so the file goes into an import as it is.
      expect(linesOf(file.text)[0]).toBe(linesOf(template.body)[0]);
      const rows = linesOf(file.text).length - 1;
      expect(rows, kind).toBeGreaterThan(0);
      const job = await importInto(b, adminB, kind, file.text, false);
      expect(job.errors, kind).toEqual([]);
      expect(job.status).toBe('DONE');
      expect(job.counts, kind).toMatchObject({ read: rows, created: rows, refused: 0, conflicts: 0 });
      // Exported from B again, the file has A's rows (no cell changed on the way; rows of one batch share a time).
      expect(linesOf((await exportOf(b, kind, adminB)).text).sort(), kind).toEqual(linesOf(file.text).sort());
    }
    expect(await places(b)).toEqual(await places(a));
    const people = await network(a);
    expect(people.length).toBeGreaterThan(30);
    expect(await network(b)).toEqual(people);
    // The formula-like names were written neutralised and stored as the text they are.
    const customers = (await exportOf(a, 'customers', adminA)).text;
    expect(customers).toContain("'=HYPERLINK(x),");
    expect(customers).toContain("'@sum plus,");
    expect(people.map((p) => p.name)).toEqual(expect.arrayContaining(['=HYPERLINK(x)', '@sum plus']));

    // The admin's customers export carried whole Aadhar numbers: the trail says who took how many, never a number.
    const { rows: trail } = await a.database.pool.query(
      `select actor_name, after from audit_log where action = 'import.export' order by created_at`,
    );
    expect(trail.length).toBeGreaterThanOrEqual(2);
    expect(trail[0].after).toEqual({ kind: 'customers', rows: 22 });
    expect(JSON.stringify(trail)).not.toContain(aadharOf(1));
  });

  it("masks Aadhar numbers in anyone else's export, and an import refuses a masked number as such", async () => {
    const before = await a.database.pool.query(
      `select count(*)::int as n from audit_log where action = 'import.export'`,
    );
    for (const token of [employeeA, retailerA]) {
      const file = await exportOf(a, 'customers', token);
      expect(file.status).toBe(200);
      const [header, ...rows] = linesOf(file.text);
      expect(header).toBe('name,email,mobile,userName,state,district,tehsil,retailerMobile,aadharId,panId');
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.split(',')[8]).toMatch(/^XXXXXXXX\d{4}$/);
      const job = await importInto(b, adminB, 'customers', file.text, true);
      expect(job.counts.refused).toBe(rows.length);
      expect(new Set(job.errors.map((e) => `${e.column}: ${e.message}`))).toEqual(
        new Set([
          "aadharId: The Aadhar number is masked: only an admin's export has whole Aadhar numbers. Type the whole number, or export the customers as an admin.",
        ]),
      );
    }
    // A retailer's export is its own customers only.
    const mine = linesOf((await exportOf(a, 'customers', retailerA)).text).slice(1);
    expect(mine.every((row) => row.split(',')[7] === '9300000001')).toBe(true);
    const after = await a.database.pool.query(
      `select count(*)::int as n from audit_log where action = 'import.export'`,
    );
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('refuses a list the caller may not see: 403 with its message', async () => {
    const refused = await exportOf(a, 'states', retailerA);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text).message).toBe('You do not have permission to do this');
    const unknown = await exportOf(a, 'wallets', adminA);
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.text)).toMatchObject({
      message: 'Invalid data!',
      errors: [{ msg: 'There is no import of "wallets"', param: 'kind' }],
    });
  });
});
