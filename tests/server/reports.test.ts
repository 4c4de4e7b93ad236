import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, call, DEMO_PASSWORD, login, makeTestContext, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

const countsFor = async (userName: string, password: string) => {
  const { token } = await login(ctx.app, userName, password);
  const res = await call(ctx.app, 'GET', 'report/userCounts', { token });
  expect(res.status).toBe(200);
  expect(res.body.result.userReport).toHaveLength(1);
  return res.body.result.userReport[0];
};

// The demo network: 2 master distributors > 2 distributors each > 2 retailers each (retailer 8 inactive),
// customers per retailer 3,3,3,3,2,2,2,2, and 2 employees.
describe('GET report/userCounts', () => {
  it('counts the whole network for ADMIN', async () => {
    expect(await countsFor(ADMIN.userName, ADMIN.password)).toEqual({
      ACTIVE_DISTRIBUTORS: 4,
      ACTIVE_EMPLOYEES: 2,
      ACTIVE_MASTER_DISTRIBUTORS: 2,
      ACTIVE_RETAILERS: 7,
      CUSTOMER: 20,
      DISTRIBUTOR: 4,
      EMPLOYEE: 2,
      MASTER_DISTRIBUTOR: 2,
      RETAILER: 8,
    });
  });

  it('counts the whole network for EMPLOYEE too', async () => {
    expect((await countsFor('9000000001', DEMO_PASSWORD)).CUSTOMER).toBe(20);
  });

  it('counts only its own network for a master distributor', async () => {
    expect(await countsFor('9100000002', DEMO_PASSWORD)).toEqual({
      ACTIVE_DISTRIBUTORS: 2,
      ACTIVE_EMPLOYEES: 0,
      ACTIVE_MASTER_DISTRIBUTORS: 1,
      ACTIVE_RETAILERS: 3,
      CUSTOMER: 8,
      DISTRIBUTOR: 2,
      EMPLOYEE: 0,
      MASTER_DISTRIBUTOR: 1,
      RETAILER: 4,
    });
  });

  it('counts only its own network for a distributor and a retailer', async () => {
    expect(await countsFor('9200000001', DEMO_PASSWORD)).toMatchObject({
      DISTRIBUTOR: 1,
      MASTER_DISTRIBUTOR: 0,
      RETAILER: 2,
      CUSTOMER: 6,
    });
    expect(await countsFor('9300000005', DEMO_PASSWORD)).toMatchObject({
      RETAILER: 1,
      ACTIVE_RETAILERS: 1,
      DISTRIBUTOR: 0,
      CUSTOMER: 2,
    });
  });

  it('follows every change: a new user, a status change and a move move the numbers, for each network', async () => {
    const admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
    const before = await countsFor(ADMIN.userName, ADMIN.password);
    const md1Before = await countsFor('9100000001', DEMO_PASSWORD);
    const md2Before = await countsFor('9100000002', DEMO_PASSWORD);
    const someone = (
      await call(ctx.app, 'GET', 'account/fetch', { token: admin, query: { type: '5', limit: '1' } })
    ).body.result.users[0];
    const created = await call(ctx.app, 'POST', 'account/create', {
      token: admin,
      body: {
        type: 5,
        name: 'Temp Employee',
        email: 'temp@example.com',
        mobile: '9000099999',
        userName: 'temp-employee',
        districtId: someone.districtId,
        tehsilId: someone.tehsilId,
        password: 'Temp@12345',
        confirmPassword: 'Temp@12345',
      },
    });
    expect(created.status).toBe(200);
    let after = await countsFor(ADMIN.userName, ADMIN.password);
    expect(after.EMPLOYEE).toBe(before.EMPLOYEE + 1);
    expect(after.ACTIVE_EMPLOYEES).toBe(before.ACTIVE_EMPLOYEES + 1);
    await call(ctx.app, 'POST', `account/update/${created.body.result._id}`, {
      token: admin,
      body: { status: 'INACTIVE' },
    });
    after = await countsFor(ADMIN.userName, ADMIN.password);
    expect(after.EMPLOYEE).toBe(before.EMPLOYEE + 1);
    expect(after.ACTIVE_EMPLOYEES).toBe(before.ACTIVE_EMPLOYEES);

    // A distributor of MD 1 moves under MD 2, with its retailers and customers.
    const ids = Object.fromEntries(
      (
        await call(ctx.app, 'GET', 'account/fetch', { token: admin, query: { type: '2' } })
      ).body.result.users.map((u: { mobile: { number: string }; _id: string }) => [u.mobile.number, u._id]),
    );
    const distributor = (
      await call(ctx.app, 'GET', 'account/fetch', { token: admin, query: { type: '3', limit: '100' } })
    ).body.result.users.find((u: { mobile: { number: string } }) => u.mobile.number === '9200000001');
    const moved = await call(ctx.app, 'POST', `account/update/${distributor._id}`, {
      token: admin,
      body: {
        type: 3,
        name: distributor.name,
        email: distributor.email.address,
        mobile: distributor.mobile.number,
        userName: distributor.userName.id,
        districtId: distributor.districtId,
        tehsilId: distributor.tehsilId,
        distributor: { masterDistributorId: ids['9100000002'] },
      },
    });
    expect(moved.status).toBe(200);
    const md1After = await countsFor('9100000001', DEMO_PASSWORD);
    const md2After = await countsFor('9100000002', DEMO_PASSWORD);
    // Distributor 1: 2 retailers (both active) and 6 customers.
    expect(md1After).toMatchObject({
      DISTRIBUTOR: md1Before.DISTRIBUTOR - 1,
      RETAILER: md1Before.RETAILER - 2,
      CUSTOMER: md1Before.CUSTOMER - 6,
    });
    expect(md2After).toMatchObject({
      DISTRIBUTOR: md2Before.DISTRIBUTOR + 1,
      RETAILER: md2Before.RETAILER + 2,
      CUSTOMER: md2Before.CUSTOMER + 6,
    });
    // The whole network is the same size.
    expect((await countsFor(ADMIN.userName, ADMIN.password)).CUSTOMER).toBe(before.CUSTOMER);
  });
});
