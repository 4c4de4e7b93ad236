import { and, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/open';
import { districts, tehsils, users } from '../../db/schema';
import { networkScope } from './scope';
import type { UserRow } from './sessions';
import { toWireUser } from './wire';

/** The user signing in: by user name (case-insensitive) or, failing that, by mobile number. */
export async function findLoginUser(db: Db, login: string): Promise<UserRow | undefined> {
  const rows = await db
    .select()
    .from(users)
    .where(or(sql`lower(${users.userName}) = lower(${login})`, eq(users.mobile, login)))
    .limit(2);
  return rows.find((u) => u.userName.toLowerCase() === login.toLowerCase()) ?? rows[0];
}

/** Users in the nested wire shape, with district and tehsil names looked up for the list columns. */
export async function selectWireUsers(db: Db, where: ReturnType<typeof and>) {
  const rows = await db
    .select({
      user: users,
      districtName: districts.name,
      tehsilName: tehsils.name,
    })
    .from(users)
    .leftJoin(districts, eq(districts.id, users.districtId))
    .leftJoin(tehsils, eq(tehsils.id, users.tehsilId))
    .where(where)
    .orderBy(sql`${users.createdAt} desc`, users.id);
  return rows.map((r) =>
    toWireUser(r.user, {
      district: r.user.districtId && r.districtName ? { _id: r.user.districtId, name: r.districtName } : null,
      tehsil: r.user.tehsilId && r.tehsilName ? { _id: r.user.tehsilId, name: r.tehsilName } : null,
    }),
  );
}

/** One user by id, only if the viewer's network includes it. */
export const fetchVisibleUser = (db: Db, viewer: UserRow, id: string) =>
  selectWireUsers(db, and(eq(users.id, id), networkScope(viewer)));
