import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../src/server/db/open';
import {
  listSignInNameClashes,
  signInNameClashWarning,
} from '../../src/server/modules/account/sign-in-names';
import { verhoeffDigit } from '../../src/shared/identity';
import {
  ADMIN,
  call,
  DEMO_PASSWORD,
  INITIAL_PASSWORD,
  login,
  makeTestContext,
  type TestContext,
} from './helpers';

// Issue 41, item 5: user names and mobile numbers are one namespace, since sign-in takes either.
const NAME_IS_MOBILE = "This user name is another user's mobile number";
const MOBILE_IS_NAME = "This mobile number is another user's user name";

let ctx: TestContext;
let admin: string;
let retailer: string;
let retailerId: string;
let place: { districtId: string; tehsilId: string };

let counter = 0;
/** A fresh 10-digit number no demo user has (the demo's start with 9). */
const freshNumber = () => {
  counter++;
  return `7${String(100000000 + counter * 7919 + Math.floor(Math.random() * 7000)).slice(-9)}`;
};
const aadhar = (seed: number) => {
  const base = `6${String(seed).padStart(10, '0')}`;
  return `${base}${verhoeffDigit(base)}`;
};
/** A valid master distributor body with a fresh mobile and user name, or the ones given. */
const master = (extra: { mobile?: string; userName?: string } = {}) => {
  const mobile = extra.mobile ?? freshNumber();
  return {
    type: 2,
    name: `namespace master ${++counter}`,
    email: `ns${counter}@example.in`,
    mobile,
    userName: extra.userName ?? `md.${mobile}`,
    ...place,
  };
};
const create = (token: string, body: Record<string, unknown>) =>
  call(ctx.app, 'POST', 'account/create', { token, body });
const update = (token: string, id: string, body: Record<string, unknown>) =>
  call(ctx.app, 'POST', `account/update/${id}`, { token, body });
const refusal = (res: { status: number; body: { message: string; errors?: unknown } }) => ({
  status: res.status,
  message: res.body.message,
  errors: res.body.errors,
});

beforeAll(async () => {
  ctx = await makeTestContext();
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  const session = await login(ctx.app, '9300000001', DEMO_PASSWORD);
  retailer = session.token;
  retailerId = session.user._id;
  const tehsil = (await call(ctx.app, 'GET', 'tehsil/fetch', { query: { limit: '1' } })).body.result
    .tehsil[0];
  place = { districtId: tehsil.districtId._id, tehsilId: tehsil._id };
});
afterAll(async () => {
  await ctx?.close();
});

describe('user names and mobile numbers share one namespace', () => {
  it("refuses a customer whose user name is an employee's mobile, and the employee still signs in by it", async () => {
    const mobile = freshNumber();
    const employee = await create(admin, {
      type: 5,
      name: 'anita rao',
      email: 'anita.rao@example.in',
      mobile,
      userName: 'anita.rao',
      password: 'Chosen@123',
      confirmPassword: 'Chosen@123',
      ...place,
    });
    expect(employee.status, JSON.stringify(employee.body)).toBe(200);
    const customer = await create(retailer, {
      type: 1,
      name: 'sly customer',
      email: 'sly@example.in',
      mobile: freshNumber(),
      userName: mobile,
      customer: { aadharId: aadhar(1), panId: 'ABCDE1234F', retailerId },
      ...place,
    });
    expect(refusal(customer)).toEqual({
      status: 409,
      message: NAME_IS_MOBILE,
      errors: [{ msg: NAME_IS_MOBILE, param: 'userName' }],
    });
    expect((await login(ctx.app, mobile, 'Chosen@123')).user._id).toBe(employee.body.result._id);
  });

  it("refuses on create a mobile that is another user's user name, and a user name that is another's mobile", async () => {
    const numberName = freshNumber();
    const holder = await create(admin, master({ userName: numberName }));
    expect(holder.status, JSON.stringify(holder.body)).toBe(200);
    expect(refusal(await create(admin, master({ mobile: numberName })))).toEqual({
      status: 409,
      message: MOBILE_IS_NAME,
      errors: [{ msg: MOBILE_IS_NAME, param: 'mobile' }],
    });
    // Case does not matter to a user name; a mobile is digits.
    expect(
      refusal(await create(admin, master({ userName: holder.body.result.mobile.number }))),
    ).toMatchObject({
      status: 409,
      message: NAME_IS_MOBILE,
    });
    // A user's own mobile may be its user name (an approved application's is).
    const own = freshNumber();
    expect((await create(admin, master({ mobile: own, userName: own }))).status).toBe(200);
    expect((await login(ctx.app, own, INITIAL_PASSWORD)).user._id).toBeDefined();
  });

  it('refuses the same on update, and lets a user keep its own names', async () => {
    const a = (await create(admin, master({ userName: freshNumber() }))).body.result;
    const b = (await create(admin, master())).body.result;
    const bodyOf = (user: typeof a, names: { mobile?: string; userName?: string }) => ({
      ...master({ mobile: user.mobile.number, userName: user.userName.id }),
      name: user.name,
      ...names,
    });
    expect(refusal(await update(admin, b._id, bodyOf(b, { userName: a.mobile.number })))).toEqual({
      status: 409,
      message: NAME_IS_MOBILE,
      errors: [{ msg: NAME_IS_MOBILE, param: 'userName' }],
    });
    expect(refusal(await update(admin, b._id, bodyOf(b, { mobile: a.userName.id })))).toMatchObject({
      status: 409,
      message: MOBILE_IS_NAME,
    });
    // Its own mobile as its user name, then back: both its own.
    expect((await update(admin, b._id, bodyOf(b, { userName: b.mobile.number }))).status).toBe(200);
    expect((await update(admin, b._id, bodyOf(b, { userName: `again.${b.mobile.number}` }))).status).toBe(
      200,
    );
    // The user name it gave up is free again; its mobile is still its own.
    expect((await update(admin, a._id, bodyOf(a, { userName: b.userName.id }))).status).toBe(200);
    expect((await update(admin, a._id, bodyOf(a, { userName: b.mobile.number }))).status).toBe(409);
  });

  it('lets the database refuse a clash that skips the checks, naming which name clashed', async () => {
    const a = (await create(admin, master())).body.result;
    const b = (await create(admin, master())).body.result;
    const { pool } = ctx.database;
    await expect(
      pool.query('update users set user_name = $1 where id = $2', [a.mobile.number, b._id]),
    ).rejects.toMatchObject({
      code: '23505',
      constraint: 'sign_in_names_user_name',
    });
    await expect(
      pool.query('update users set mobile = $1 where id = $2', [a.userName.id, b._id]),
    ).rejects.toMatchObject({
      code: '23505',
      constraint: 'sign_in_names_mobile',
    });
    // Nothing changed.
    const { rows } = await pool.query('select user_name, mobile from users where id = $1', [b._id]);
    expect(rows[0]).toEqual({ user_name: b.userName.id, mobile: b.mobile.number });
  });

  it('lets exactly one of two concurrent saves of a clashing pair through', async () => {
    for (let round = 0; round < 6; round++) {
      const shared = freshNumber();
      // One takes the number as its user name, the other as its mobile, at once (in either order).
      const byName = master({ userName: shared });
      const byMobile = master({ mobile: shared });
      const [first, second] = await Promise.all(
        round % 2 === 0
          ? [create(admin, byName), create(admin, byMobile)]
          : [create(admin, byMobile), create(admin, byName)],
      );
      const [nameResult, mobileResult] = round % 2 === 0 ? [first, second] : [second, first];
      const statuses = [nameResult.status, mobileResult.status].sort();
      expect(statuses, JSON.stringify([nameResult.body, mobileResult.body])).toEqual([200, 409]);
      if (nameResult.status === 409) expect(nameResult.body.message).toBe(NAME_IS_MOBILE);
      else expect(mobileResult.body.message).toBe(MOBILE_IS_NAME);
      const { rows } = await ctx.database.pool.query(
        'select count(*)::int as holders from users where mobile = $1 or lower(user_name) = $1',
        [shared],
      );
      expect(rows[0].holders).toBe(1);
    }
  });
});

describe('migration 0014 on users that already clash', () => {
  const statements = fs
    .readFileSync(path.join(MIGRATIONS_DIR, '0014_sign_in_names.sql'), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter(Boolean);
  /** The migration's hand-written part: filling the names, listing the clashes, the trigger. */
  const handWritten = statements.slice(statements.findIndex((s) => s.includes('CREATE VIEW')));

  it('keeps every user as it was, gives the name to the older user, lists the clash and warns at start', async () => {
    const older = (await create(admin, master())).body.result;
    const newer = (await create(admin, master())).body.result;
    const { pool } = ctx.database;
    const client = await pool.connect();
    try {
      // Back to the state before 0014, with a clash made as it could be then: the newer user's user name is the
      // older user's mobile.
      await client.query('begin');
      await client.query('drop trigger users_sign_in_names_insert on users');
      await client.query('drop trigger users_sign_in_names_update on users');
      await client.query('drop function keep_sign_in_names()');
      await client.query('delete from sign_in_name_clashes');
      await client.query('delete from sign_in_names');
      await client.query('update users set user_name = $1 where id = $2', [older.mobile.number, newer._id]);
      for (const statement of handWritten) await client.query(statement);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback');
      throw error;
    } finally {
      client.release();
    }
    const { rows } = await pool.query(
      'select id, user_name, mobile from users where id = any($1) order by created_at',
      [[older._id, newer._id]],
    );
    expect(rows).toEqual([
      { id: older._id, user_name: older.userName.id, mobile: older.mobile.number },
      { id: newer._id, user_name: older.mobile.number, mobile: newer.mobile.number },
    ]);
    const holder = await pool.query('select user_id from sign_in_names where name = $1', [
      older.mobile.number,
    ]);
    expect(holder.rows).toEqual([{ user_id: older._id }]);
    expect(await listSignInNameClashes(ctx.database.db)).toEqual([
      { userId: newer._id, name: older.mobile.number, heldBy: older._id },
    ]);
    // Every user has its names, but for the clash: users x names = rows + clashes.
    const counts = await pool.query(
      `select (select count(*) from users) + (select count(*) from users where mobile is not null and mobile <> lower(user_name)) as names,
              (select count(*) from sign_in_names) + (select count(*) from sign_in_name_clashes) as kept`,
    );
    expect(counts.rows[0].kept).toBe(counts.rows[0].names);

    // The start names the clash.
    const lines: string[] = [];
    const app = Fastify({
      logger: {
        level: 'warn',
        stream: new Writable({
          write(chunk, _encoding, done) {
            lines.push(String(chunk));
            done();
          },
        }),
      },
    });
    app.decorate('db', ctx.database.db);
    await app.register(signInNameClashWarning);
    await app.ready();
    await app.close();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('1 sign-in name clash(es)');
    expect(lines[0]).toContain(newer._id);

    // Given a user name no one holds, the newer user's clash is gone, and it cannot take the older's mobile again.
    const body = {
      ...master({ mobile: newer.mobile.number, userName: `fixed.${newer.mobile.number}` }),
      name: newer.name,
    };
    expect((await update(admin, newer._id, body)).status).toBe(200);
    expect(await listSignInNameClashes(ctx.database.db)).toEqual([]);
    expect(refusal(await update(admin, newer._id, { ...body, userName: older.mobile.number }))).toMatchObject(
      {
        status: 409,
        message: NAME_IS_MOBILE,
      },
    );
  });
});
