import { Column, getTableName, is, SQL, Subquery } from 'drizzle-orm';

/** How a selected value is read back: a column, or the decoder of an SQL field (`mapWith`). */
interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/** One selected field of a drizzle select, as its prepared query lists them: where it goes and what it is. */
export interface SelectedField {
  path: string[];
  field: unknown;
}

/** What a prepared select of drizzle's node-postgres driver holds: its fields in row order and its joins. */
export interface PreparedSelect {
  fields?: SelectedField[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown[];
}

/** An SQL field's decoder (internal to drizzle's types: `mapWith` sets it). */
type Decoded = { decoder: Decoder };

/** The decoder drizzle's mapResultRow picks for a field. */
function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return (field as unknown as Decoded).decoder;
  if (is(field, Subquery)) return (field as unknown as { _: { sql: Decoded } })._.sql.decoder;
  return (field as unknown as { sql: Decoded }).sql.decoder;
}

/**
 * Drizzle's row mapping (mapResultRow in drizzle-orm/utils.js), with each field's decoder, place and table
 * found once per statement rather than for every cell: drizzle tests each cell's field against its entity
 * classes, walking the prototype chain, and that was a list call's largest piece of JavaScript (0.09 ms of a
 * page of ten users, measured in a CPU profile of the server). Same objects: nested by path, a value decoded
 * unless null, and a left-joined table's object null when its first column is null.
 */
export function compiledRowMapper(fields: SelectedField[], joinsNotNullableMap?: Record<string, boolean>) {
  const columns = fields.map(({ path, field }) => ({
    parents: path.slice(0, -1),
    name: path[path.length - 1],
    decoder: decoderOf(field),
    // A joined table's column at the object's first level: what drizzle's nullify test looks at.
    table:
      joinsNotNullableMap && is(field, Column) && path.length === 2 ? getTableName(field.table) : undefined,
    object: path[0],
  }));
  const mapRow = (row: unknown[]) => {
    const result: Record<string, unknown> = {};
    const nullify: Record<string, string | false> = {};
    for (let i = 0; i < columns.length; i++) {
      const column = columns[i];
      let node = result;
      for (const parent of column.parents) {
        if (!(parent in node)) node[parent] = {};
        node = node[parent] as Record<string, unknown>;
      }
      const raw = row[i];
      const value = raw === null ? null : column.decoder.mapFromDriverValue(raw);
      node[column.name] = value;
      if (column.table !== undefined) {
        const seen = nullify[column.object];
        if (seen === undefined) nullify[column.object] = value === null ? column.table : false;
        else if (typeof seen === 'string' && seen !== column.table) nullify[column.object] = false;
      }
    }
    if (joinsNotNullableMap) {
      for (const [object, table] of Object.entries(nullify)) {
        if (typeof table === 'string' && !joinsNotNullableMap[table]) result[object] = null;
      }
    }
    return result;
  };
  return (rows: unknown[][]) => rows.map(mapRow);
}

/** Has a prepared select map its rows with compiledRowMapper: every list's (listPage keeps most, run many times). */
export function withCompiledRowMapper<T extends PreparedSelect>(prepared: T): T {
  if (prepared.fields && !prepared.customResultMapper)
    prepared.customResultMapper = compiledRowMapper(prepared.fields, prepared.joinsNotNullableMap);
  return prepared;
}
