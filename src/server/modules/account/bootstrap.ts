import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { UserType } from '../../../shared/enums';
import type { Config } from '../../config';
import type { Db } from '../../db/open';
import { users } from '../../db/schema';
import { openWallet } from '../ledger/index';
import { childPath } from '../network/index';
import { countNewUser } from './counts';
import { hashPassword } from './passwords';

/** Creates the bootstrap admin from ADMIN_USERNAME/ADMIN_PASSWORD when the database has no admin. */
export async function ensureBootstrapAdmin(db: Db, config: Pick<Config, 'adminUsername' | 'adminPassword'>) {
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.type, UserType.ADMIN))
    .limit(1);
  if (existing) return false;
  const id = randomUUID();
  await db.insert(users).values({
    id,
    type: UserType.ADMIN,
    name: 'Administrator',
    userName: config.adminUsername,
    mobile: /^\d{10}$/.test(config.adminUsername) ? config.adminUsername : null,
    passwordHash: await hashPassword(config.adminPassword),
    // The operator chose this password in the environment, so no forced change.
    passwordUpdatedAt: new Date(),
    path: childPath(null, id),
  });
  await openWallet(db, id);
  await countNewUser(db, { path: childPath(null, id), type: UserType.ADMIN, status: 'ACTIVE' });
  return true;
}
