import type { Breakpoint } from '@mui/material';
import { type ReactNode, useMemo } from 'react';
import { DataTable, defaultExporter, type Exporter, type RaRecord, useTranslate } from 'react-admin';
import { formatDate, titleCase } from '../../shared/format';
import { type EnumGroup, useEnumText } from '../i18n/enums';
import { DateText, RupeesText } from '../i18n/format';

/**
 * One column of a list, declared once: the table and the CSV export both read it (STYLE.md: "each list declares its
 * columns once"). The label is the field's catalogue entry, `resources.<resource>.fields.<source>`, unless given.
 */
export interface Column<R extends RaRecord = RaRecord> {
  /** The record field (a dotted path for a looked-up name, 'district.name'). */
  source: string;
  /** i18n key of the header when it is not the field's label. */
  label?: string;
  /** The value as read (default: the field), shown in the table and written to the CSV. */
  value?: (record: R) => unknown;
  /** How the table shows it, when it is more than the value (a chip, a link, rupees). */
  render?: (record: R) => ReactNode;
  /** How the CSV writes it, when not as `value` (money as plain rupee numbers); false leaves it out. */
  csv?: ((record: R) => unknown) | false;
  /** A number (money, a percentage): the CSV writes it as it is, never guarded as text (see `csvCell`). */
  numeric?: boolean;
  align?: 'left' | 'right';
  /** The server sorts by it. */
  sortable?: boolean;
  /**
   * Hidden on screens narrower than this breakpoint, so a wide list fits (the CSV keeps it, the record's modal shows
   * it): less important columns collapse first.
   */
  hideBelow?: Breakpoint;
}

/** The value at a dotted path: valueAt(record, 'district.name'). */
export const valueAt = (record: RaRecord, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], record);

type Extra<R extends RaRecord> = Partial<Column<R>>;

/** A code (status, type) in the chosen language. */
const EnumText = ({ group, code }: { group: EnumGroup; code: unknown }) => <>{useEnumText()(group, code)}</>;

/**
 * Column kinds with the seed's display formats (section 2: names in title case, dates in medium format). Dates and
 * money show in the chosen language (Hindi month names, Indian digit grouping); the CSV writes dates in English
 * ('Nov 26, 2026') and money as plain numbers: an export is data, read the same whoever made it.
 */
export const col = {
  text: <R extends RaRecord>(source: string, extra: Extra<R> = {}): Column<R> => ({ source, ...extra }),
  name: <R extends RaRecord>(source: string, extra: Extra<R> = {}): Column<R> => ({
    source,
    value: (record) => titleCase(valueAt(record, source)),
    ...extra,
  }),
  /** A moment in the seed's medium format: 'Nov 26, 2026, 7:43:05 AM' (Hindi '26 नव॰ 2026, 07:43:05'). */
  date: <R extends RaRecord>(source = 'createdAt', extra: Extra<R> = {}): Column<R> => ({
    source,
    value: (record) => formatDate(valueAt(record, source)),
    render: (record) => <DateText value={valueAt(record, source)} />,
    ...extra,
  }),
  /** Decimal rupees: '₹1,000.00' in the table, the plain number in the CSV (a spreadsheet adds it up). */
  money: <R extends RaRecord>(source: string, extra: Extra<R> = {}): Column<R> => ({
    source,
    render: (record) => <RupeesText value={valueAt(record, source)} />,
    align: 'right',
    numeric: true,
    ...extra,
  }),
  /** A code the server sends (ACTIVE, CREDIT), named in the chosen language; the code itself in the CSV. */
  enum: <R extends RaRecord>(source: string, group: EnumGroup, extra: Extra<R> = {}): Column<R> => ({
    source,
    render: (record) => <EnumText group={group} code={valueAt(record, source)} />,
    ...extra,
  }),
  /** A percentage ('20%'; '20' in the CSV). */
  percent: <R extends RaRecord>(source: string, extra: Extra<R> = {}): Column<R> => ({
    source,
    render: (record) => {
      const value = valueAt(record, source);
      return value === null || value === undefined || value === '' ? '' : `${value}%`;
    },
    align: 'right',
    numeric: true,
    ...extra,
  }),
};

/** How a row shows in the column (a table's cell, a phone card's value). */
export const cellText = (column: Column, record: RaRecord): ReactNode => {
  if (column.render) return column.render(record);
  const value = column.value ? column.value(record) : valueAt(record, column.source);
  return value === null || value === undefined ? '' : String(value);
};

/** `display: none` below the column's breakpoint. */
const visibility = (hideBelow?: Breakpoint) =>
  hideBelow ? { display: { xs: 'none', [hideBelow]: 'table-cell' } } : undefined;

/** The declared columns as react-admin DataTable columns. */
export const renderColumns = (columns: Column[]) =>
  columns.map((column) => (
    <DataTable.Col
      key={column.source}
      source={column.source}
      label={column.label}
      disableSort={!column.sortable}
      align={column.align}
      render={(record: RaRecord) => cellText(column, record)}
      sx={visibility(column.hideBelow)}
    />
  ));

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The first characters that make a spreadsheet read a cell as a formula (OWASP, CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A CSV cell that a spreadsheet cannot run: text that starts like a formula (`=`, `+`, `-`, `@`, tab, carriage
 * return) gets a leading `'`, as OWASP advises, so a name such as `=HYPERLINK(...)` opens as the text it is. Numbers
 * stay numbers (an amount of -12.5 is not text), and so do the numeric columns. The stored data is never changed:
 * only the file is.
 */
export const csvCell = (value: unknown, numeric = false): unknown =>
  !numeric && typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : value;

/**
 * The CSV rows of the columns: headers in the chosen language, values as the table reads them (names title-cased,
 * dates in medium format), money as plain rupee numbers, codes as the server sends them, text guarded by `csvCell`.
 * Every list's export comes through here (useColumnsExporter).
 */
export const csvRows = (resource: string, columns: Column[], records: RaRecord[], translate: Translate) =>
  records.map((record) =>
    Object.fromEntries(
      columns
        .filter((column) => column.csv !== false)
        .map((column) => [
          translate(column.label ?? `resources.${resource}.fields.${column.source}`),
          csvCell(
            (column.csv
              ? column.csv(record)
              : column.value
                ? column.value(record)
                : valueAt(record, column.source)) ?? '',
            column.numeric,
          ),
        ]),
    ),
  );

/** The list's CSV exporter from the same columns; react-admin's ExportButton hands it the current filter's rows. */
export const useColumnsExporter = (resource: string, columns: Column[]): Exporter => {
  const translate = useTranslate();
  return useMemo(
    () => (records, fetchRelated, dataProvider, exportedResource) =>
      defaultExporter(
        csvRows(resource, columns, records, translate),
        fetchRelated,
        dataProvider,
        exportedResource,
      ),
    [columns, resource, translate],
  );
};
