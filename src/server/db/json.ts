import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * JSON the database writes for a list's page (db/list.ts, listPageJson): the same values the server's own writers
 * give for the same rows (the server tests compare the two), built where the rows are, so a page is not read,
 * mapped and written again in JavaScript. PostgreSQL writes `{"a" : 1}`; only the spacing differs.
 */

type JsonValue = SQL | AnyPgColumn;

/** `json_build_object` of the fields in their order: the wire schema's order, which the answer keeps. */
export function jsonObject(fields: Record<string, JsonValue>): SQL {
  return sql`json_build_object(${sql.join(
    Object.entries(fields).map(([key, value]) => {
      if (!/^[A-Za-z_]+$/.test(key)) throw new Error(`a JSON key is a plain name: ${key}`);
      return sql`${sql.raw(`'${key}'`)}, ${value}`;
    }),
    sql`, `,
  )})`;
}

/** A time as Date.toISOString writes it (UTC, milliseconds, cut rather than rounded as JavaScript's Date does). */
export const jsonTime = (time: JsonValue) =>
  sql`to_char(${time} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Hundredths as a JSON number: paise as rupees (paiseToRupees), hundredths of a percent as a percent
 * (fromHundredths). The same double division as JavaScript's `n / 100`, written as the shortest text that reads
 * back as that number, as JSON.stringify writes it.
 */
export const jsonHundredths = (hundredths: JsonValue) => sql`(${hundredths})::float8 / 100`;

/** A one-element array `[{ _id, name }]` from a select of that object's row, or `[]` when it finds none. */
export const jsonNamedRefs = (select: SQL) => sql`coalesce((${select}), '[]'::json)`;
