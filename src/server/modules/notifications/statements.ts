import { sql } from 'drizzle-orm';
import { TIER_TYPES } from '../../../shared/enums';
import type { Db } from '../../db/open';
import { notifications, statementNotices, users } from '../../db/schema';
import { inTransaction } from '../../db/transaction';

/** India is at UTC+05:30 all year. */
const IST_OFFSET_MS = 330 * 60_000;

/** The month (`YYYY-MM`) that ended last before `now`, in India's calendar. */
export function lastEndedMonth(now: Date): string {
  const local = new Date(now.getTime() + IST_OFFSET_MS);
  const ended = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() - 1, 1));
  return `${ended.getUTCFullYear()}-${String(ended.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** Midnight in India that begins the month after `month` (`YYYY-MM`): when it ended. */
const monthEnd = (month: string) =>
  new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 1) - IST_OFFSET_MS);

/**
 * Writes the statement-ready notices of the month that ended last before `now` (India's calendar), once: the
 * month's row in statement_notices and an e-mail row for each tier user who existed by the month's end, is active,
 * has an address and takes e-mail (outbox.ts's rule for tier e-mail), in its language, all in one transaction. A
 * month announced already (by this server or another, even at the same moment: the second waits for the first's
 * row and then inserts nothing) writes nothing. Answers how many notices it wrote.
 */
export async function announceStatements(db: Db, now = new Date()): Promise<number> {
  const month = lastEndedMonth(now);
  return inTransaction(db, async (tx) => {
    const claimed = await tx
      .insert(statementNotices)
      .values({ month })
      .onConflictDoNothing()
      .returning({ month: statementNotices.month });
    if (claimed.length === 0) return 0;
    const written = await tx.execute<{ id: string }>(sql`insert into ${notifications}
        (event, channel, user_id, recipient, language, data)
      select 'statement.ready', 'EMAIL', u.id, u.email, u.language, jsonb_build_object('month', ${month}::text)
      from ${users} u
      where u.type in (${sql.join(
        TIER_TYPES.map((type) => sql`${type}`),
        sql`, `,
      )}) and u.status = 'ACTIVE' and u.email is not null and u.notify_email
        and u.created_at < ${monthEnd(month).toISOString()}::timestamptz
      returning id`);
    return written.rows.length;
  });
}
