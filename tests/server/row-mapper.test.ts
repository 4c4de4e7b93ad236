// The lists' rows are mapped by a mapper made once per statement (src/server/db/row-mapper.ts) instead of
// drizzle's per-cell mapping: the same statement run both ways must give the same objects, nested fields,
// decoded values (dates, mapWith numbers) and a left-joined table's object null when it found no row. Runs on
// PGlite and, with DATABASE_URL, on PostgreSQL.
import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PreparedSelect, withCompiledRowMapper } from '../../src/server/db/row-mapper';
import { districts, users, wallets } from '../../src/server/db/schema';
import { UserType } from '../../src/shared/enums';
import { makeTestContext, type TestContext } from './helpers';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await makeTestContext({ demo: true });
});

afterAll(async () => {
  await ctx?.close();
});

type Prepared = PreparedSelect & { execute(): Promise<Record<string, unknown>[]> };

/** Every user, with its wallet if a retailer (left join: the others find none), its master distributor, a count. */
function usersWithWallets() {
  const parent = alias(users, 'parent');
  return ctx.database.db
    .select({
      total: sql<number>`count(*) over ()`.mapWith(Number).as('total'),
      user: { id: users.id, type: users.type, name: users.name, createdAt: users.createdAt },
      wallet: { balance: wallets.balancePaise, clearing: wallets.clearingBalancePaise },
      districtName: sql<
        string | null
      >`(select ${districts.name} from ${districts} where ${districts.id} = ${users.districtId})`,
      parent: { id: parent.id, name: parent.name },
    })
    .from(users)
    .leftJoin(wallets, and(eq(wallets.userId, users.id), eq(users.type, UserType.RETAILER)))
    .leftJoin(parent, eq(parent.id, users.masterDistributorId))
    .orderBy(sql`${users.createdAt} desc`, users.id);
}

const prepare = () => (usersWithWallets() as unknown as { _prepare(): Prepared })._prepare();

describe('compiled row mapper', () => {
  it("maps a statement's rows as drizzle does, with a left join that found nothing", async () => {
    const byDrizzle = await prepare().execute();
    const compiled = withCompiledRowMapper(prepare());
    expect(compiled.customResultMapper).toBeTypeOf('function');
    const byCompiled = await compiled.execute();
    expect(byCompiled).toEqual(byDrizzle);
    // The rows hold both cases the mapping decides on: a wallet found and none, a parent found and none.
    expect(byCompiled.some((r) => r.wallet === null)).toBe(true);
    expect(byCompiled.some((r) => r.wallet !== null)).toBe(true);
    expect(byCompiled.some((r) => r.parent === null)).toBe(true);
    expect(byCompiled.some((r) => r.parent !== null)).toBe(true);
    const first = byCompiled[0] as { total: unknown; user: { createdAt: unknown } };
    expect(first.total).toBe(byCompiled.length);
    expect(first.user.createdAt).toBeInstanceOf(Date);
  });

  it('leaves a statement that already has its own mapper alone', async () => {
    const own = (rows: unknown[][]) => rows.map(() => ({ own: true }));
    const statement = prepare();
    statement.customResultMapper = own;
    expect(withCompiledRowMapper(statement).customResultMapper).toBe(own);
  });
});
