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

  it('follows data changes: a new user moves the numbers', async () => {
    const before = await countsFor(ADMIN.userName, ADMIN.password);
    await ctx.database.pool.query(
      `insert into users (id, type, name, user_name, password_hash, path, status)
       values (gen_random_uuid(), 5, 'Temp Employee', 'temp-employee', 'x', '/temp/', 'INACTIVE')`,
    );
    const after = await countsFor(ADMIN.userName, ADMIN.password);
    expect(after.EMPLOYEE).toBe(before.EMPLOYEE + 1);
    expect(after.ACTIVE_EMPLOYEES).toBe(before.ACTIVE_EMPLOYEES);
  });
});
