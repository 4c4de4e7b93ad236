import { defaultExporter, type Exporter, type RaRecord } from 'react-admin';
import { formatDate, titleCase } from '../../shared/format';
import { en } from '../providers/en';

export interface CsvColumn<R extends RaRecord = RaRecord> {
  /** Header text */
  label: string;
  value: (record: R) => unknown;
}

/**
 * An exporter that writes the given readable columns (names, not ids) through react-admin's default CSV
 * writer (jsonexport + downloadCSV); ExportButton hands it the rows of the current filter and sort.
 */
export const csvExporter =
  <R extends RaRecord = RaRecord>(columns: CsvColumn<R>[]): Exporter<R> =>
  (records, fetchRelated, dataProvider, resource) =>
    defaultExporter(
      records.map((record) =>
        Object.fromEntries(columns.map(({ label, value }) => [label, value(record) ?? ''])),
      ),
      fetchRelated,
      dataProvider,
      resource,
    );

type Fields = Record<string, string>;
const fieldLabel = (resource: keyof typeof en.resources, field: string): string =>
  (en.resources[resource].fields as Fields)[field] ?? field;

/** Column helpers reading the header from the i18n catalogue. */
export const csv = {
  name: <R extends RaRecord>(
    resource: keyof typeof en.resources,
    field: string,
    pick: (r: R) => unknown,
  ) => ({
    label: fieldLabel(resource, field),
    value: (record: R) => titleCase(pick(record)),
  }),
  date: <R extends RaRecord>(resource: keyof typeof en.resources, field = 'createdAt') => ({
    label: fieldLabel(resource, field),
    value: (record: R) => formatDate(record[field]),
  }),
  raw: <R extends RaRecord>(resource: keyof typeof en.resources, field: string) => ({
    label: fieldLabel(resource, field),
    value: (record: R) => record[field],
  }),
};
