import { fillPlaceholders, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Queryable } from './open';
import { runStatement } from './statements';

/**
 * A one-row select sent inside a read-only call's statement instead of on its own: the call's session look-up
 * (http/session.ts), so the call costs one round trip and one database backend instead of two (README,
 * Performance). A JSON page carries it (db/list.ts, listPageJson), and so does any one-row statement (runRiding).
 */
export interface Rider {
  /** Names what it looks up: a statement with a rider is kept apart from one without, by this name. */
  name: string;
  /** At most one row; its values bound by name in `values`, its columns named other than the statement's. */
  select: SQL;
  values: Record<string, unknown>;
  /** Its row from the statement's answer, or undefined when the select found none. */
  deliver(row: Record<string, unknown> | undefined): void;
  /** The statement failed or answered no row: the look-up must go on its own. */
  fail(): void;
}

/** Hands out its rider at most once, right before a statement goes out; undefined once it went its own way. */
export interface RiderSource {
  rider(): Rider | undefined;
}

/** A riding statement's row split into the statement's own columns and the rider's, handed to the rider. */
export function deliverRider<Row extends Record<string, unknown>>(
  rider: Rider,
  row: Row | undefined,
  own: string[],
) {
  if (!row) {
    rider.fail();
    return undefined;
  }
  const mine: Record<string, unknown> = {};
  const ridden: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (own.includes(key)) mine[key] = value;
    else if (key !== 'rider_found') ridden[key] = value;
  }
  rider.deliver(row.rider_found ? ridden : undefined);
  return mine as Row;
}

const dialect = new PgDialect();

/**
 * A statement of one row (its text, parameters $1 to $`count`) with the rider's row left-joined to it, so the
 * answer has one row whether the rider found one or not; and the rider's parameters (placeholders of its
 * `values`), to follow the statement's.
 */
export function withRider(text: string, count: number, rider: Rider) {
  const { sql: riderText, params } = dialect.sqlToQuery(rider.select);
  const shifted = riderText.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + count}`);
  return {
    text: `select own.*, rider.* from (${text}) own
      left join (select true as rider_found, ridden.* from (${shifted}) ridden) rider on true`,
    params,
  };
}

/**
 * runStatement for a hand-written statement of one row (columns `own`), carrying a rider when `riders` has one
 * to give.
 */
export async function runRiding<Row extends Record<string, unknown>>(
  db: Queryable,
  text: string,
  values: unknown[],
  own: (keyof Row & string)[],
  riders: RiderSource | null | undefined,
): Promise<Row | undefined> {
  const rider = riders?.rider();
  if (!rider) return (await runStatement<Row>(db, text, values))[0];
  try {
    const riding = withRider(text, values.length, rider);
    const [row] = await runStatement<Row>(db, riding.text, [
      ...values,
      ...fillPlaceholders(riding.params, rider.values),
    ]);
    return deliverRider(rider, row, own);
  } catch (error) {
    rider.fail();
    throw error;
  }
}
