import { z } from 'zod';
import { UserType } from '../enums';
import type { RoleResource } from '../roles';
import { isoTime } from './dates';

/**
 * Bulk import from CSV (issue 45): the kinds, their template columns and the messages, read by the server (which
 * judges the files) and the panel's Import screen (which offers the templates).
 */
export const IMPORT_KINDS = [
  'states',
  'districts',
  'tehsils',
  'master-distributors',
  'distributors',
  'retailers',
  'customers',
] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export const IMPORT_STATUSES = ['RUNNING', 'DONE', 'FAILED'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
export const IMPORT_MODES = ['create', 'update'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

/** How often the Import screen asks for a running job's progress. */
export const IMPORT_POLL_MS = 500;

/** The largest file an import takes. */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;

/** The most cells a row may have, and characters a cell: a row past either is a row error (issue 51). */
export const IMPORT_MAX_CELLS = 64;
export const IMPORT_MAX_CELL_CHARS = 1000;

/** Row errors a job keeps (the first, in the file's order); its count of them stays exact past this. */
export const IMPORT_KEPT_ERRORS = 1000;
/** Row errors `import/fetch/:id` answers a page unless `errorsLimit` says otherwise. */
export const IMPORT_ERRORS_PAGE = 100;

const PEOPLE = ['name', 'email', 'mobile', 'userName', 'state', 'district', 'tehsil'] as const;

/** Each kind's template columns, in the template's order (the contract: docs/api.md). */
export const IMPORT_COLUMNS: Record<ImportKind, readonly string[]> = {
  states: ['name'],
  districts: ['state', 'name'],
  tehsils: ['state', 'district', 'name'],
  'master-distributors': PEOPLE,
  distributors: [...PEOPLE, 'masterDistributorMobile'],
  retailers: [...PEOPLE, 'distributorMobile'],
  customers: [...PEOPLE, 'retailerMobile', 'aadharId', 'panId'],
};

/** The user type each people kind creates. */
export const IMPORT_USER_TYPE: Partial<Record<ImportKind, UserType>> = {
  'master-distributors': UserType.MASTER_DISTRIBUTOR,
  distributors: UserType.DISTRIBUTOR,
  retailers: UserType.RETAILER,
  customers: UserType.CUSTOMER,
};

/** The role-table resource whose `create` right an import of the kind needs (the dialogs' own). */
export const IMPORT_RESOURCE: Record<ImportKind, RoleResource> = {
  states: 'states',
  districts: 'districts',
  tehsils: 'tehsils',
  'master-distributors': 'masterDistributors',
  distributors: 'distributors',
  retailers: 'retailers',
  customers: 'customers',
};

const PERSON_EXAMPLE = {
  email: 'person@example.com',
  state: 'Rajasthan',
  district: 'Jaipur',
  tehsil: 'Sanganer',
};
/** The example row of each template (a valid Aadhar number: the Verhoeff check passes). */
export const IMPORT_EXAMPLES: Record<ImportKind, Record<string, string>> = {
  states: { name: 'Rajasthan' },
  districts: { state: 'Rajasthan', name: 'Jaipur' },
  tehsils: { state: 'Rajasthan', district: 'Jaipur', name: 'Sanganer' },
  'master-distributors': {
    ...PERSON_EXAMPLE,
    name: 'Asha Traders',
    mobile: '9812345670',
    userName: 'ashatraders',
  },
  distributors: {
    ...PERSON_EXAMPLE,
    name: 'Bharat Agencies',
    mobile: '9812345671',
    userName: 'bharatagencies',
    masterDistributorMobile: '9812345670',
  },
  retailers: {
    ...PERSON_EXAMPLE,
    name: 'Chandan Store',
    mobile: '9812345672',
    userName: 'chandanstore',
    distributorMobile: '9812345671',
  },
  customers: {
    ...PERSON_EXAMPLE,
    name: 'Deepa Sharma',
    mobile: '9812345673',
    userName: 'deepasharma',
    retailerMobile: '9812345672',
    aadharId: '234123412346',
    panId: 'ABCDE1234F',
  },
};

export const IMPORT_MSG = {
  unknownKind: (kind: string) => `There is no import of "${kind}"`,
  fileMissing: 'Attach the CSV file in the field "file"',
  empty: 'The file is empty',
  tooLarge: 'The file is larger than 50 MB',
  utf16: 'The file is UTF-16 text. Save it as "CSV UTF-8" and send it again.',
  binary: 'The file is not a CSV text file. Save it as "CSV UTF-8" and send it again.',
  semicolon:
    'The columns are separated by semicolons. Save the file with commas ("CSV UTF-8") and send it again.',
  tab: 'The columns are separated by tabs. Save the file with commas ("CSV UTF-8") and send it again.',
  malformed: (line: number) => `The file is not valid CSV: a quoted cell is broken near line ${line}`,
  missingColumn: (column: string) => `The header row has no column "${column}"`,
  unknownColumn: (column: string) => `The header row has a column this import does not take: "${column}"`,
  repeatedColumn: (column: string) => `The header row names the column "${column}" twice`,
  noRows: 'The file has a header row but no rows below it',
  tooManyRows: (max: number) =>
    `The file has more than ${max.toLocaleString('en-IN')} rows. Split it into smaller files and send each one.`,
  running: 'You have an import running. Wait until it ends, then send the next file.',
  invalidDryRun: 'dryRun must be true or false',
  invalidMode: 'mode must be create or update',
  adminOnly: 'Only an admin may import; an employee may run a dry run',
  jobNotFound: 'Import not found',
  errorsPage: `errorsPage must be a whole number from 1 to ${IMPORT_KEPT_ERRORS}`,
  errorsLimit: `errorsLimit must be a whole number from 1 to ${IMPORT_KEPT_ERRORS}`,
  format: 'format must be json or csv',
  started: 'Import started',
  // Row errors
  cellCount: (cells: number, columns: number) => `The row has ${cells} cells; the header has ${columns}`,
  tooManyCells: `The row has more than ${IMPORT_MAX_CELLS} cells`,
  cellTooLong: `The cell has more than ${IMPORT_MAX_CELL_CHARS.toLocaleString('en-IN')} characters`,
  sameAsRow: (row: number) => `The same as row ${row} of this file`,
  stateMissing: (state: string) => `State "${state}" does not exist`,
  districtMissing: (district: string, state: string) =>
    `District "${district}" does not exist in state "${state}"`,
  tehsilMissing: (tehsil: string, district: string) =>
    `Tehsil "${tehsil}" does not exist in district "${district}"`,
  parentMissing: (who: string, mobile: string) => `No ${who} has the mobile number "${mobile}"`,
  otherType: 'This mobile number belongs to a user of another kind',
  conflict: (columns: string[]) =>
    `Already exists with other values (${columns.join(', ')}); import with mode "update" to change them`,
  maskedAadhar:
    "The Aadhar number is masked: only an admin's export has whole Aadhar numbers. Type the whole number, or export the customers as an admin.",
  interrupted: 'The import stopped before the end. Send the same file again to complete it.',
  stopped:
    'The import stopped: the server running it stopped before the end. Send the same file again to complete it.',
} as const;

/** An Aadhar number as a list or a non-admin's export shows it (`XXXXXXXX1234`, shared/identity.ts maskAadhar). */
export const MASKED_AADHAR = /^x{8}\d{4}$/i;

/** The parent each people kind names, as its message calls it. */
export const IMPORT_PARENT_NAME = {
  masterDistributorMobile: 'master distributor',
  distributorMobile: 'distributor',
  retailerMobile: 'retailer',
} as const;

export const importCountsSchema = z.strictObject({
  read: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  conflicts: z.number().int(),
  refused: z.number().int(),
});
export type ImportCounts = z.infer<typeof importCountsSchema>;

export const importErrorSchema = z.strictObject({
  row: z.number().int(),
  column: z.string(),
  message: z.string(),
});
export type ImportRowError = z.infer<typeof importErrorSchema>;

/**
 * `GET import/fetch/:id?errorsPage&errorsLimit&format`: a page of the job's kept row errors (1-based, 1 to
 * IMPORT_KEPT_ERRORS a page), or `format=csv` for all of them as a file.
 */
export const importFetchQuerySchema = z.object({
  errorsPage: z.coerce
    .number({ error: IMPORT_MSG.errorsPage })
    .int({ error: IMPORT_MSG.errorsPage })
    .min(1, { error: IMPORT_MSG.errorsPage })
    .max(IMPORT_KEPT_ERRORS, { error: IMPORT_MSG.errorsPage })
    .default(1),
  errorsLimit: z.coerce
    .number({ error: IMPORT_MSG.errorsLimit })
    .int({ error: IMPORT_MSG.errorsLimit })
    .min(1, { error: IMPORT_MSG.errorsLimit })
    .max(IMPORT_KEPT_ERRORS, { error: IMPORT_MSG.errorsLimit })
    .default(IMPORT_ERRORS_PAGE),
  format: z.enum(['json', 'csv'], { error: IMPORT_MSG.format }).default('json'),
});
export type ImportFetchQuery = z.infer<typeof importFetchQuerySchema>;

/** `GET import/fetch/:id`'s result. */
export const wireImportJobSchema = z.strictObject({
  _id: z.string(),
  kind: z.enum(IMPORT_KINDS),
  fileName: z.string(),
  status: z.enum(IMPORT_STATUSES),
  dryRun: z.boolean(),
  mode: z.enum(IMPORT_MODES),
  /** Data rows in the file: the progress bar's whole. */
  total: z.number().int(),
  counts: importCountsSchema,
  /** The page of kept row errors asked for (errorsPage, errorsLimit), in the file's order. */
  errors: z.array(importErrorSchema),
  /** Every row error found: exact, however many. */
  errorsTotal: z.number().int(),
  /** The row errors kept, which the pages and the CSV hold: the first IMPORT_KEPT_ERRORS of errorsTotal. */
  errorsKept: z.number().int(),
  message: z.string().nullable(),
  createdAt: isoTime,
});
export type WireImportJob = z.infer<typeof wireImportJobSchema>;
