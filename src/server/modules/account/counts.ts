import { sql } from 'drizzle-orm';
import { UserStatus } from '../../../shared/enums';
import type { Queryable } from '../../db/open';
import { networkCounts, users } from '../../db/schema';
import { runStatement } from '../../db/statements';
import { networksOfMove, scopesOf, WHOLE_NETWORK } from '../network/index';
import type { UserRow } from './sessions';

export interface CountChange {
  scopes: string[];
  type: number;
  total: number;
  active: number;
}

/**
 * Adds the changes to the counter rows in one statement, in one order (scope, type), so two writers touching
 * the same rows queue instead of deadlocking. Runs inside the write's transaction, after its row locks.
 */
export async function adjustCounts(q: Queryable, changes: CountChange[]) {
  const rows = new Map<string, { scope: string; type: number; total: number; active: number }>();
  for (const change of changes)
    for (const scope of change.scopes) {
      const key = `${scope}:${change.type}`;
      const row = rows.get(key) ?? { scope, type: change.type, total: 0, active: 0 };
      row.total += change.total;
      row.active += change.active;
      rows.set(key, row);
    }
  const list = [...rows.values()]
    .filter((r) => r.total !== 0 || r.active !== 0)
    .sort((a, b) => a.scope.localeCompare(b.scope) || a.type - b.type);
  if (list.length === 0) return;
  await q.execute(sql`
    insert into ${networkCounts} (scope_id, type, total, active)
    select * from unnest(${sql.param(list.map((r) => r.scope))}::uuid[], ${sql.param(list.map((r) => r.type))}::smallint[],
      ${sql.param(list.map((r) => r.total))}::bigint[], ${sql.param(list.map((r) => r.active))}::bigint[])
    order by 1, 2
    on conflict (scope_id, type) do update set
      total = ${networkCounts}.total + excluded.total, active = ${networkCounts}.active + excluded.active`);
}

/** A new user, counted in every network on its path. */
export const countNewUser = (q: Queryable, user: Pick<UserRow, 'path' | 'type' | 'status'>) =>
  adjustCounts(q, [
    {
      scopes: scopesOf(user.path),
      type: user.type,
      total: 1,
      active: user.status === UserStatus.ACTIVE ? 1 : 0,
    },
  ]);

/** A status change of `user` (from its current status to `status`). */
export const countStatusChange = (
  q: Queryable,
  user: Pick<UserRow, 'path' | 'type' | 'status'>,
  status: string,
) =>
  user.status === status
    ? Promise.resolve()
    : adjustCounts(q, [
        {
          scopes: scopesOf(user.path),
          type: user.type,
          total: 0,
          active: status === UserStatus.ACTIVE ? 1 : -1,
        },
      ]);

/**
 * A subtree moved: its users leave the networks it leaves and join the ones it joins (networksOfMove). Read the
 * subtree's counts with the subtree locked, before its paths change.
 */
export async function countMove(
  q: Queryable,
  subtreePath: string,
  oldParentPath: string | null,
  newParentPath: string | null,
) {
  const { gone, added } = networksOfMove(oldParentPath, newParentPath);
  if (gone.length === 0 && added.length === 0) return;
  const summary = await q
    .select({
      type: users.type,
      total: sql<number>`count(*)::int`,
      active: sql<number>`(count(*) filter (where ${users.status} = 'ACTIVE'))::int`,
    })
    .from(users)
    .where(sql`${users.path} like ${`${subtreePath.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`)
    .groupBy(users.type);
  await adjustCounts(
    q,
    summary.flatMap((s) => [
      { scopes: gone, type: s.type, total: -s.total, active: -s.active },
      { scopes: added, type: s.type, total: s.total, active: s.active },
    ]),
  );
}

/** Counts of a network by type, from the counter rows: `{ [type]: { total, active } }`. */
export async function countsOf(q: Queryable, scopeId: string) {
  const [row] = await runStatement<{ counts: Record<string, [number, number]> | null }>(q, COUNTS_OF_SCOPE, [
    scopeId,
  ]);
  return new Map(
    Object.entries(row?.counts ?? {}).map(([type, [total, active]]) => [Number(type), { total, active }]),
  );
}

/** A network's counters as one row: `{ [type]: [total, active] }`. */
const COUNTS_OF_SCOPE = `select json_object_agg(type, json_build_array(total, active)) as counts
    from network_counts where scope_id = $1`;

/** The counts as a full recount over the users table would give them (rebuilds, and proves, the counters). */
export const RECOUNT_SQL = sql`
  select s.scope_id, u.type, count(*)::bigint as total, (count(*) filter (where u.status = 'ACTIVE'))::bigint as active
  from ${users} u
  cross join lateral (
    select ${WHOLE_NETWORK}::uuid as scope_id
    union all
    select p::uuid from unnest(string_to_array(trim(both '/' from u.path), '/')) as p
  ) s
  group by s.scope_id, u.type`;

/** Rebuilds every counter row from the users table (after a bulk load such as seed:scale). */
export async function rebuildCounts(q: Queryable) {
  await q.execute(sql`delete from ${networkCounts}`);
  await q.execute(sql`insert into ${networkCounts} (scope_id, type, total, active) ${RECOUNT_SQL}`);
}
