/** One changed field of an audit row: its name and its values before and after (masked by the server). */
export interface FieldChange {
  field: string;
  before: string;
  after: string;
}

const show = (value: unknown) =>
  value === undefined || value === null ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

/** The changed fields of an audit row, in the order the server recorded them. */
export function fieldChanges(record: Record<string, unknown>): FieldChange[] {
  const before = (record.before ?? {}) as Record<string, unknown>;
  const after = (record.after ?? {}) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields.map((field) => ({ field, before: show(before[field]), after: show(after[field]) }));
}

/** The compact text of a row's changes: `name: Old → New; status: NEW → APPROVED` (a create shows `name: New`). */
export function changesText(record: Record<string, unknown>): string {
  const created = record.before === null || record.before === undefined;
  return fieldChanges(record)
    .map(({ field, before, after }) => (created ? `${field}: ${after}` : `${field}: ${before} → ${after}`))
    .join('; ');
}
