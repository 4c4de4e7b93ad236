import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { UserStatus, UserType } from '../../../shared/enums';
import type { UserCountKey, UserCounts } from '../../../shared/wire';
import { users } from '../../db/schema';
import { caller } from '../../http/session';
import { networkScope } from '../account/scope';

const active = eq(users.status, UserStatus.ACTIVE);
const ofType = (type: UserType) => eq(users.type, type);

/** What each dashboard count counts (seed section 3, Dashboard stats). */
const COUNTS: Record<UserCountKey, SQL> = {
  ACTIVE_DISTRIBUTORS: and(ofType(UserType.DISTRIBUTOR), active)!,
  ACTIVE_EMPLOYEES: and(ofType(UserType.EMPLOYEE), active)!,
  ACTIVE_MASTER_DISTRIBUTORS: and(ofType(UserType.MASTER_DISTRIBUTOR), active)!,
  ACTIVE_RETAILERS: and(ofType(UserType.RETAILER), active)!,
  CUSTOMER: ofType(UserType.CUSTOMER),
  DISTRIBUTOR: ofType(UserType.DISTRIBUTOR),
  EMPLOYEE: ofType(UserType.EMPLOYEE),
  MASTER_DISTRIBUTOR: ofType(UserType.MASTER_DISTRIBUTOR),
  RETAILER: ofType(UserType.RETAILER),
};

export default async function reportRoutes(app: FastifyInstance) {
  // Every signed-in panel user lands on /home, so every one of them gets the counts of its own network.
  app.get('/report/userCounts', async (request) => {
    const { user } = caller(request);
    const selection = Object.fromEntries(
      Object.entries(COUNTS).map(([key, condition]) => [
        key,
        sql<number>`(count(*) filter (where ${condition}))::int`,
      ]),
    );
    const [row] = await app.db.select(selection).from(users).where(networkScope(user));
    return { result: { userReport: [row as UserCounts] } };
  });
}
