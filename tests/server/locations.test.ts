import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, call, DEMO_PASSWORD, login, makeTestContext, type TestContext } from './helpers';

let ctx: TestContext;
let admin: string;
let employee: string;
let masterDistributor: string;
beforeAll(async () => {
  ctx = await makeTestContext();
  admin = (await login(ctx.app, ADMIN.userName, ADMIN.password)).token;
  employee = (await login(ctx.app, '9000000001', DEMO_PASSWORD)).token;
  masterDistributor = (await login(ctx.app, '9100000001', DEMO_PASSWORD)).token;
});
afterAll(async () => {
  await ctx?.close();
});

const post = (path: string, body: unknown, token = admin) => call(ctx.app, 'POST', path, { token, body });
/** `token: null` calls anonymously. */
const get = (path: string, query: Record<string, string> = {}, token: string | null = admin) =>
  call(ctx.app, 'GET', path, { token: token ?? undefined, query });

const MISSING = '00000000-0000-4000-8000-000000000000';

describe('states', () => {
  it('creates, lists, searches case-insensitively and updates a state', async () => {
    const created = await post('state/create', { name: 'Gujarat' });
    expect(created.status).toBe(200);
    expect(created.body.message).toBe('State Created Successfully!');
    const id = created.body.result._id;
    const found = await get('state/fetch', { searchText: 'gUJ' });
    expect(found.status).toBe(200);
    expect(found.body.result.state.map((s: { name: string }) => s.name)).toEqual(['Gujarat']);
    expect(found.body.result.totalCounts).toBe(1);
    expect(found.body.result.state[0].createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const updated = await post(`state/update/${id}`, { name: 'Gujarat State' });
    expect(updated.status).toBe(200);
    expect(updated.body.message).toBe('State Updated Successfully!');
    // Keeping its own name is not a duplicate.
    expect((await post(`state/update/${id}`, { name: 'GUJARAT STATE' })).status).toBe(200);
  });

  it('refuses a missing name with the seed message', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }]) {
      const res = await post('state/create', body);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ msg: 'State name is required!', param: 'name' }]);
    }
  });

  it('refuses a duplicate name in any case with 409', async () => {
    const res = await post('state/create', { name: 'rajasthan' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A state named "rajasthan" already exists');
    const other = (await post('state/create', { name: 'Kerala' })).body.result._id;
    const rename = await post(`state/update/${other}`, { name: 'MAHARASHTRA' });
    expect(rename.status).toBe(409);
    expect(rename.body.message).toBe('A state named "MAHARASHTRA" already exists');
  });

  it('answers 404 for an unknown state and 400 for a malformed id', async () => {
    const res = await post(`state/update/${MISSING}`, { name: 'Nowhere' });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('State not found');
    const bad = await post('state/update/abc', { name: 'Nowhere' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toEqual({ msg: 'Invalid id', param: 'id' });
  });

  it('lets employees write, refuses tier users with 403 and anonymous callers with 401', async () => {
    expect((await post('state/create', { name: 'Goa' }, employee)).status).toBe(200);
    const md = await post('state/create', { name: 'Assam' }, masterDistributor);
    expect(md.status).toBe(403);
    expect(md.body.message).toBe('You do not have permission to do this');
    const anon = await call(ctx.app, 'POST', 'state/create', { body: { name: 'Assam' } });
    expect(anon.status).toBe(401);
    expect(anon.body.message).toBe('Authentication required');
    expect((await get('state/fetch', { searchText: 'Assam' })).body.result.totalCounts).toBe(0);
  });

  it('pages on the server with totals, and caps public lookups at 10 rows', async () => {
    for (let i = 1; i <= 12; i++)
      await post('state/create', { name: `Paging State ${String(i).padStart(2, '0')}` });
    const page1 = await get('state/fetch', {
      searchText: 'paging state',
      page: '1',
      limit: '5',
      sort: 'name',
      order: 'ASC',
    });
    const page3 = await get('state/fetch', {
      searchText: 'paging state',
      page: '3',
      limit: '5',
      sort: 'name',
      order: 'ASC',
    });
    expect(page1.body.result.totalCounts).toBe(12);
    expect(page1.body.result.state.map((s: { name: string }) => s.name)).toEqual([
      'Paging State 01',
      'Paging State 02',
      'Paging State 03',
      'Paging State 04',
      'Paging State 05',
    ]);
    expect(page3.body.result.state.map((s: { name: string }) => s.name)).toEqual([
      'Paging State 11',
      'Paging State 12',
    ]);
    const anonymous = await get('state/fetch', { limit: '50' }, null);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.result.state).toHaveLength(10);
    expect(anonymous.body.result.totalCounts).toBeGreaterThan(15);
    const staff = await get('state/fetch', { limit: '50' });
    expect(staff.body.result.state.length).toBe(staff.body.result.totalCounts);
  });

  it('fetches one record by _id and refuses a malformed one', async () => {
    const id = (await post('state/create', { name: 'Tripura' })).body.result._id;
    const one = await get('state/fetch', { _id: id }, null);
    expect(one.body.result.state.map((s: { _id: string }) => s._id)).toEqual([id]);
    expect(one.body.result.totalCounts).toBe(1);
    const bad = await get('state/fetch', { _id: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toEqual({ msg: 'Invalid id', param: '_id' });
  });

  it('refuses bad paging values and treats search wildcards literally', async () => {
    const res = await get('state/fetch', { limit: '500' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toEqual({ msg: 'limit must be at most 100', param: 'limit' });
    const page = await get('state/fetch', { page: '0' });
    expect(page.status).toBe(400);
    expect(page.body.errors[0]).toEqual({ msg: 'page must be at least 1', param: 'page' });
    expect((await get('state/fetch', { searchText: '%' })).body.result.totalCounts).toBe(0);
  });
});

describe('districts', () => {
  let stateId: string;
  let otherStateId: string;
  beforeAll(async () => {
    stateId = (await post('state/create', { name: 'Punjab' })).body.result._id;
    otherStateId = (await post('state/create', { name: 'Haryana' })).body.result._id;
  });

  it('creates a district in a state and lists it with the state name, filtered by stateId', async () => {
    const res = await post('districts/create', { name: 'Ludhiana', stateId });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('District Created Successfully!');
    const list = await get('districts/fetch', { stateId });
    expect(list.body.result.totalCounts).toBe(1);
    expect(list.body.result.districts[0]).toMatchObject({
      name: 'Ludhiana',
      stateId: { _id: stateId, name: 'Punjab' },
    });
    const other = await get('districts/fetch', { stateId: otherStateId });
    expect(other.body.result.totalCounts).toBe(0);
  });

  it('refuses a missing name, a missing, malformed or unknown state', async () => {
    const noName = await post('districts/create', { stateId });
    expect(noName.status).toBe(400);
    expect(noName.body.errors).toEqual([{ msg: 'District name is required!', param: 'name' }]);
    const noState = await post('districts/create', { name: 'Amritsar' });
    expect(noState.body.errors).toEqual([{ msg: 'This field is required', param: 'stateId' }]);
    const bad = await post('districts/create', { name: 'Amritsar', stateId: 'xyz' });
    expect(bad.body.errors).toEqual([{ msg: 'Invalid state id', param: 'stateId' }]);
    const unknown = await post('districts/create', { name: 'Amritsar', stateId: MISSING });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('Selected state does not exist');
  });

  it('refuses a duplicate in the same state but allows the name in another state', async () => {
    await post('districts/create', { name: 'Patiala', stateId });
    const dup = await post('districts/create', { name: 'PATIALA', stateId });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('A district named "PATIALA" already exists in this state');
    expect((await post('districts/create', { name: 'Patiala', stateId: otherStateId })).status).toBe(200);
  });

  it('updates a district and refuses an unknown one', async () => {
    const id = (await post('districts/create', { name: 'Jalandhar', stateId })).body.result._id;
    const res = await post(`districts/update/${id}`, { name: 'Jalandhar City', stateId });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('District Updated Successfully!');
    const missing = await post(`districts/update/${MISSING}`, { name: 'X', stateId });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('District not found');
    expect((await post('districts/create', { name: 'Mohali', stateId }, masterDistributor)).status).toBe(403);
  });

  it('fetches one district by _id, however many there are', async () => {
    const ids: string[] = [];
    for (let i = 1; i <= 12; i++)
      ids.push((await post('districts/create', { name: `Filler ${i}`, stateId })).body.result._id);
    const res = await get('districts/fetch', { _id: ids[0] }, null);
    expect(res.body.result.districts.map((d: { _id: string }) => d._id)).toEqual([ids[0]]);
    expect(res.body.result.totalCounts).toBe(1);
  });

  it('is readable without a token for the onboarding form', async () => {
    const res = await get('districts/fetch', { stateId, searchText: 'lud' }, null);
    expect(res.status).toBe(200);
    expect(res.body.result.districts.map((d: { name: string }) => d.name)).toEqual(['Ludhiana']);
  });
});

describe('tehsils', () => {
  let stateId: string;
  let districtId: string;
  let foreignDistrictId: string;
  beforeAll(async () => {
    stateId = (await post('state/create', { name: 'Bihar' })).body.result._id;
    districtId = (await post('districts/create', { name: 'Patna', stateId })).body.result._id;
    const other = (await post('state/create', { name: 'Odisha' })).body.result._id;
    foreignDistrictId = (await post('districts/create', { name: 'Cuttack', stateId: other })).body.result._id;
  });

  it('creates a tehsil and lists it with state and district names, filtered by districtId', async () => {
    const res = await post('tehsil/create', { name: 'Danapur', districtId, stateId });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Tehsil Created Successfully!');
    const list = await get('tehsil/fetch', { districtId });
    expect(list.body.result.totalCounts).toBe(1);
    expect(list.body.result.tehsil[0]).toMatchObject({
      name: 'Danapur',
      districtId: { _id: districtId, name: 'Patna' },
      stateId: { _id: stateId, name: 'Bihar' },
    });
  });

  it('refuses a district that is not in the chosen state, unknown parents and missing fields', async () => {
    const foreign = await post('tehsil/create', { name: 'Barabati', districtId: foreignDistrictId, stateId });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors).toEqual([
      { msg: 'Selected district does not belong to the selected state', param: 'districtId' },
    ]);
    const unknownDistrict = await post('tehsil/create', { name: 'X', districtId: MISSING, stateId });
    expect(unknownDistrict.body.message).toBe('Selected district does not exist');
    const unknownState = await post('tehsil/create', { name: 'X', districtId, stateId: MISSING });
    expect(unknownState.body.message).toBe('Selected state does not exist');
    const empty = await post('tehsil/create', {});
    expect(empty.status).toBe(400);
    expect(empty.body.errors.map((e: { param: string }) => e.param).sort()).toEqual([
      'districtId',
      'name',
      'stateId',
    ]);
    expect(empty.body.errors.find((e: { param: string }) => e.param === 'name').msg).toBe(
      'Tehsil name is required!',
    );
  });

  it('refuses a duplicate in the same district, updates, and refuses tier users', async () => {
    const dup = await post('tehsil/create', { name: 'danapur', districtId, stateId });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('A tehsil named "danapur" already exists in this district');
    const id = (await post('tehsil/create', { name: 'Phulwari', districtId, stateId })).body.result._id;
    const updated = await post(`tehsil/update/${id}`, { name: 'Phulwari Sharif', districtId, stateId });
    expect(updated.status).toBe(200);
    expect(updated.body.message).toBe('Tehsil Updated Successfully!');
    const missing = await post(`tehsil/update/${MISSING}`, { name: 'X', districtId, stateId });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Tehsil not found');
    expect((await post('tehsil/create', { name: 'Y', districtId, stateId }, masterDistributor)).status).toBe(
      403,
    );
  });

  it('fetches one tehsil by _id', async () => {
    const id = (await post('tehsil/create', { name: 'Bakhtiyarpur', districtId, stateId })).body.result._id;
    const res = await get('tehsil/fetch', { _id: id }, null);
    expect(res.body.result.tehsil.map((t: { _id: string }) => t._id)).toEqual([id]);
  });

  it('moves tehsils along when their district moves to another state', async () => {
    const newState = (await post('state/create', { name: 'Jharkhand' })).body.result._id;
    const res = await post(`districts/update/${districtId}`, { name: 'Patna', stateId: newState });
    expect(res.status).toBe(200);
    const list = await get('tehsil/fetch', { districtId });
    expect(
      list.body.result.tehsil.every((t: { stateId: { _id: string } }) => t.stateId._id === newState),
    ).toBe(true);
  });
});

describe('every write needs a token and a staff role', () => {
  const writes = ['state/create', 'districts/create', 'tehsil/create', 'providers/create', 'products/create'];
  const updates = [
    'state/update',
    'districts/update',
    'tehsil/update',
    'providers/update',
    'products/update',
  ];
  it('answers 401 without a token and 403 to a tier user, on every create and update', async () => {
    for (const path of [...writes, ...updates.map((u) => `${u}/${MISSING}`)]) {
      const anon = await call(ctx.app, 'POST', path, { body: { name: 'X' } });
      expect(anon.status, path).toBe(401);
      expect(anon.body.message, path).toBe('Authentication required');
      const tier = await post(path, { name: 'X' }, masterDistributor);
      expect(tier.status, path).toBe(403);
      expect(tier.body.message, path).toBe('You do not have permission to do this');
    }
  });

  it('answers 401 and 403 on the staff-only reads', async () => {
    for (const path of ['providers/fetch', 'products/fetch']) {
      const anon = await get(path, {}, null);
      expect(anon.status, path).toBe(401);
      expect(anon.body.message).toBe('Authentication required');
      const tier = await get(path, {}, masterDistributor);
      expect(tier.status, path).toBe(403);
      expect(tier.body.message).toBe('You do not have permission to do this');
    }
  });
});
