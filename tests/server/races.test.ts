import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECOUNT_SQL } from '../../src/server/modules/account/counts';
import { verhoeffDigit } from '../../src/shared/identity';
import { ADMIN, call, DEMO_PASSWORD, login, makeTestContext, saveBodyOf, type TestContext } from './helpers';

let ctx: TestContext;
let admin: string;
beforeAll(async () => {
  ctx = await makeTestContext();
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
});
afterAll(async () => {
  await ctx?.close();
});

interface Row {
  id: string;
  type: number;
  path: string;
  master_distributor_id: string | null;
  distributor_id: string | null;
  retailer_id: string | null;
  district_id: string | null;
  tehsil_id: string | null;
}

const rows = async () =>
  (
    await ctx.database.pool.query<Row>(
      'select id, type, path, master_distributor_id, distributor_id, retailer_id, district_id, tehsil_id from users',
    )
  ).rows;

/** Every user's path is its parent's path plus its own id, and its ancestor columns are its parent's. */
async function networkProblems(): Promise<string[]> {
  const all = await rows();
  const byId = new Map(all.map((r) => [r.id, r]));
  const problems: string[] = [];
  for (const u of all) {
    const parentId =
      u.type === 1
        ? u.retailer_id
        : u.type === 4
          ? u.distributor_id
          : u.type === 3
            ? u.master_distributor_id
            : null;
    const parent = parentId ? byId.get(parentId) : undefined;
    if (parentId && !parent) problems.push(`${u.id}: parent ${parentId} missing`);
    const expected = `${parent ? parent.path : '/'}${u.id}/`;
    if (u.path !== expected)
      problems.push(`${u.id} (type ${u.type}): path ${u.path}, parent says ${expected}`);
    if (u.type === 4 && parent && u.master_distributor_id !== parent.master_distributor_id)
      problems.push(`retailer ${u.id}: master distributor ${u.master_distributor_id} != its distributor's`);
    if (u.type === 1 && parent) {
      if (
        u.distributor_id !== parent.distributor_id ||
        u.master_distributor_id !== parent.master_distributor_id
      )
        problems.push(`customer ${u.id}: ancestors differ from its retailer's`);
    }
  }
  return problems;
}

const saveBody = (id: string) => saveBodyOf(ctx.app, admin, id);

const byType = async (type: number) =>
  (await rows()).filter((r) => r.type === type).sort((a, b) => a.id.localeCompare(b.id));

describe('concurrent moves in the network', () => {
  it('keeps every path right through 10 rounds of 10 conflicting moves', async () => {
    const mds = await byType(2);
    const distributors = await byType(3);
    const statuses: Record<string, number> = {};
    const refusals = new Set<string>();
    for (let round = 0; round < 10; round++) {
      const target = distributors[round % distributors.length];
      const retailers = await byType(4);
      const customers = await byType(1);
      const body = await saveBody(target.id);
      const jobs: Promise<{ status: number; body: { message: string } }>[] = [];
      // Six moves of one distributor, to one master distributor and the other.
      for (let i = 0; i < 6; i++)
        jobs.push(
          call(ctx.app, 'POST', `account/update/${target.id}`, {
            token: admin,
            body: { ...body, distributor: { masterDistributorId: mds[i % 2].id } },
          }),
        );
      // Two retailers (one under the moving distributor when it has any) to other distributors.
      const underTarget = retailers.filter((r) => r.distributor_id === target.id);
      for (let i = 0; i < 2; i++) {
        const retailer = underTarget[i] ?? retailers[(round + i) % retailers.length];
        const destination = distributors[(round + i + 1) % distributors.length];
        const fresh = (await rows()).find((r) => r.id === destination.id)!;
        jobs.push(
          call(ctx.app, 'POST', `account/update/${retailer.id}`, {
            token: admin,
            body: {
              ...(await saveBody(retailer.id)),
              distributor: { masterDistributorId: fresh.master_distributor_id },
              retailer: { distributorId: destination.id },
            },
          }),
        );
      }
      // Two customers to other retailers.
      for (let i = 0; i < 2; i++) {
        const customer = customers[(round * 2 + i) % customers.length];
        const destination = retailers[(round + i + 3) % retailers.length];
        const base = await saveBody(customer.id);
        jobs.push(
          call(ctx.app, 'POST', `account/update/${customer.id}`, {
            token: admin,
            body: { ...base, customer: { ...base.customer, retailerId: destination.id } },
          }),
        );
      }
      const results = await Promise.all(jobs);
      for (const r of results) {
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        if (r.status !== 200) refusals.add(`${r.status} ${r.body.message}`);
      }
      // The distributor moves are all valid: each one must land, the last writer winning.
      for (const r of results.slice(0, 6)) expect(r.status, r.body.message).toBe(200);
      expect(await networkProblems(), `round ${round}`).toEqual([]);
    }
    // A retailer sent to a distributor that moved away meanwhile is refused, never half-moved.
    for (const refusal of refusals)
      expect(['400 Selected distributor does not belong to the selected master distributor']).toContain(
        refusal,
      );
    expect(statuses[200]).toBeGreaterThanOrEqual(80);
  });

  it('shows each master distributor exactly its own network afterwards', async () => {
    const all = await rows();
    for (const md of all.filter((r) => r.type === 2)) {
      const { token } = await login(ctx.app, (await saveBody(md.id)).userName, DEMO_PASSWORD);
      const distributors = new Set(
        all.filter((r) => r.type === 3 && r.master_distributor_id === md.id).map((r) => r.id),
      );
      const retailers = all
        .filter((r) => r.type === 4 && distributors.has(r.distributor_id ?? ''))
        .map((r) => r.id);
      const seen = await call(ctx.app, 'GET', 'account/fetch', { token, query: { type: '4', limit: '100' } });
      expect(seen.body.result.users.map((u: { _id: string }) => u._id).sort()).toEqual(retailers.sort());
      for (const u of seen.body.result.users) expect(u.master_distributor[0]._id).toBe(md.id);
    }
  });

  it('lists each tier user the same network by parent columns as its hierarchy path says', async () => {
    // Lists of one type are scoped through the indexed parent columns (networkScopeOfType); the path prefix
    // (networkScope) is the definition. After the moves above, both must still name the same users.
    const tierUsers = (
      await ctx.database.pool.query<{ id: string; type: number; path: string; user_name: string }>(
        `select id, type, path, user_name from users where type in (2, 3, 4) and status = 'ACTIVE'`,
      )
    ).rows;
    let compared = 0;
    for (const viewer of tierUsers) {
      const { token } = await login(ctx.app, viewer.user_name, DEMO_PASSWORD);
      for (const type of [1, 2, 3, 4]) {
        const seen = await call(ctx.app, 'GET', 'account/fetch', {
          token,
          query: { type: String(type), limit: '100' },
        });
        if (seen.status === 403) continue; // a list the role table refuses this viewer
        expect(seen.status).toBe(200);
        const byPath = (
          await ctx.database.pool.query<{ id: string }>(
            'select id from users where type = $1 and path like $2',
            [type, `${viewer.path}%`],
          )
        ).rows.map((r) => r.id);
        const listed = seen.body.result.users.map((u: { _id: string }) => u._id);
        expect(listed.sort(), `${viewer.user_name} type ${type}`).toEqual(byPath.sort());
        expect(seen.body.result.totalCounts).toBe(byPath.length);
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(tierUsers.length * 2);
  });
});

describe('the network counters', () => {
  it('equal a full recount after the concurrent moves, creations and status changes', async () => {
    // More writers at once: new customers under several retailers and status flips, while distributors move.
    const retailers = await byType(4);
    const mds = await byType(2);
    const distributors = await byType(3);
    const someone = await saveBody(retailers[0].id);
    const jobs: Promise<{ status: number }>[] = [];
    for (let i = 0; i < 12; i++) {
      const aadhar = `3${String(70_000 + i).padStart(10, '0')}`;
      jobs.push(
        call(ctx.app, 'POST', 'account/create', {
          token: admin,
          body: {
            type: 1,
            name: `Counter Customer ${i}`,
            email: `counter${i}@example.com`,
            mobile: `94999${String(i).padStart(5, '0')}`,
            userName: `counter-${i}`,
            districtId: someone.districtId,
            tehsilId: someone.tehsilId,
            customer: {
              aadharId: `${aadhar}${verhoeffDigit(aadhar)}`,
              panId: 'ABCDE1234F',
              retailerId: retailers[i % retailers.length].id,
            },
          },
        }),
      );
      const flip = retailers[(i + 1) % retailers.length];
      jobs.push(
        call(ctx.app, 'POST', `account/update/${flip.id}`, {
          token: admin,
          body: { status: i % 2 ? 'ACTIVE' : 'INACTIVE' },
        }),
      );
      const moving = distributors[i % distributors.length];
      jobs.push(
        saveBody(moving.id).then((body) =>
          call(ctx.app, 'POST', `account/update/${moving.id}`, {
            token: admin,
            body: { ...body, distributor: { masterDistributorId: mds[i % 2].id } },
          }),
        ),
      );
    }
    const results = await Promise.all(jobs);
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(30);
    const recount = (await ctx.database.db.execute(RECOUNT_SQL)).rows as {
      scope_id: string;
      type: number;
      total: string;
      active: string;
    }[];
    const kept = (
      await ctx.database.pool.query(
        'select scope_id, type, total, active from network_counts where total <> 0 or active <> 0',
      )
    ).rows as typeof recount;
    const key = (r: (typeof recount)[number]) =>
      `${r.scope_id}/${r.type}: ${Number(r.total)} total, ${Number(r.active)} active`;
    expect(kept.map(key).sort()).toEqual(recount.map(key).sort());
  });
});

describe('concurrent location moves', () => {
  it("keeps every tehsil in its district's state while districts move and tehsils are added", async () => {
    const states = (await call(ctx.app, 'GET', 'state/fetch', {})).body.result.state as { _id: string }[];
    const district = (await call(ctx.app, 'GET', 'districts/fetch', { query: { limit: '1' } })).body.result
      .districts[0] as { _id: string; name: string };
    for (let round = 0; round < 5; round++) {
      const jobs = [];
      for (let i = 0; i < 5; i++)
        jobs.push(
          call(ctx.app, 'POST', `districts/update/${district._id}`, {
            token: admin,
            body: { name: district.name, stateId: states[(round + i) % states.length]._id },
          }),
        );
      // Tehsils added under the district as the form would, naming the state it was in when read.
      const current = (await call(ctx.app, 'GET', 'districts/fetch', { query: { _id: district._id } })).body
        .result.districts[0];
      for (let i = 0; i < 5; i++)
        jobs.push(
          call(ctx.app, 'POST', 'tehsil/create', {
            token: admin,
            body: {
              name: `Race Tehsil ${round}-${i}`,
              districtId: district._id,
              stateId: current.stateId._id,
            },
          }),
        );
      const results = await Promise.all(jobs);
      // A tehsil that names the state its district just left is refused, never saved in the wrong state.
      for (const r of results)
        if (r.status !== 200)
          expect(r.body.message).toBe('Selected district does not belong to the selected state');
      const { rows: bad } = await ctx.database.pool.query(
        'select t.id from tehsils t join districts d on d.id = t.district_id where t.state_id <> d.state_id',
      );
      expect(bad, `round ${round}`).toEqual([]);
    }
  });

  it("moves a tehsil's users with it, so a user's tehsil always lies in the user's district", async () => {
    const districtsList = (
      await call(ctx.app, 'GET', 'districts/fetch', { token: admin, query: { limit: '100' } })
    ).body.result.districts as { _id: string; stateId: { _id: string } }[];
    const user = (await rows()).find((r) => r.type === 4)!;
    const tehsil = (
      await call(ctx.app, 'GET', 'tehsil/fetch', { token: admin, query: { _id: user.tehsil_id! } })
    ).body.result.tehsil[0];
    const other = districtsList.find((d) => d._id !== tehsil.districtId._id)!;
    const moved = await call(ctx.app, 'POST', `tehsil/update/${tehsil._id}`, {
      token: admin,
      body: { name: tehsil.name, districtId: other._id, stateId: other.stateId._id },
    });
    expect(moved.status).toBe(200);
    const { rows: bad } = await ctx.database.pool.query(
      'select u.id from users u join tehsils t on t.id = u.tehsil_id where u.district_id <> t.district_id',
    );
    expect(bad).toEqual([]);
    const after = (await rows()).find((r) => r.id === user.id)!;
    expect(after.district_id).toBe(other._id);
  });
});
