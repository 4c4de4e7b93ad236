import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Queryable } from '../../db/open';
import { signInNameClashes } from '../../db/schema';

/**
 * User names and mobile numbers are one namespace (sign-in takes either): the sign_in_names table, kept by a
 * trigger on users (migration 0014), refuses a name another user holds. Clashes older than that table were kept
 * as they were, with the name left to the older user, and listed in sign_in_name_clashes until the newer user is
 * given another name; this lists them.
 */
export const listSignInNameClashes = (db: Queryable) =>
  db
    .select({
      userId: signInNameClashes.userId,
      name: signInNameClashes.name,
      heldBy: signInNameClashes.heldBy,
    })
    .from(signInNameClashes)
    .orderBy(signInNameClashes.userId, signInNameClashes.name);

/** At every start, a warning naming each user whose user name or mobile another user holds for sign-in. */
export const signInNameClashWarning = fp(
  async (app: FastifyInstance) => {
    app.addHook('onReady', async () => {
      const clashes = await listSignInNameClashes(app.db);
      if (clashes.length > 0)
        app.log.warn(
          { clashes },
          `${clashes.length} sign-in name clash(es) left from before user names and mobile numbers shared one ` +
            'namespace: such a name signs in the user whose user name it is, so the other cannot sign in by it. ' +
            'Give each listed user (userId) a user name or mobile number no other user holds.',
        );
    });
  },
  { name: 'sign-in-name-clash-warning' },
);
