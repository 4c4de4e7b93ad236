import { and, inArray, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { UserType } from '../../../shared/enums';
import { MSG } from '../../../shared/messages';
import {
  IMPORT_MSG,
  IMPORT_PARENT_NAME,
  IMPORT_USER_TYPE,
  type ImportKind,
  type ImportRowError,
  MASKED_AADHAR,
} from '../../../shared/schemas/imports';
import { districtSchema, stateSchema, tehsilSchema } from '../../../shared/schemas/locations';
import { USER_MSG, userCreateSchemas } from '../../../shared/schemas/users';
import type { Queryable } from '../../db/open';
import { districts, states, tehsils, users } from '../../db/schema';
import type { PersonalDataCipher } from '../../security/personal-data';
import type { PersonDraft } from '../account/index';
import type { CsvRow } from './file';

/** Stands in for a parent the file names but the database lacks (its own row error says so), so zod judges the rest. */
const ABSENT = '00000000-0000-4000-8000-000000000000';

/** A location row to create or rename, judged. */
export interface LocationDraft {
  name: string;
  stateId?: string;
  districtId?: string;
  /** An existing row of the same key with another spelling: renamed only with mode=update. */
  existingId?: string;
}

/** What one row of a batch comes to. */
export type Judged =
  | { row: number; outcome: 'refused'; errors: ImportRowError[] }
  | { row: number; outcome: 'unchanged' }
  | { row: number; outcome: 'conflict'; errors: ImportRowError[]; update: Update }
  | { row: number; outcome: 'create'; create: Create };

type Create = { person: PersonDraft } | { location: LocationDraft };
/** What mode=update changes: a person through the dialog's own update, a location by renaming it. */
export type Update = { personId: string; body: Record<string, unknown> } | { location: LocationDraft };

const lower = (s: string) => s.trim().toLowerCase();
const uniq = (values: string[]) => [...new Set(values.filter((v) => v !== ''))];

/** The zod issues of a row as row errors, each under the CSV column it came from. */
function zodErrors(row: number, error: z.ZodError, columnOf: (path: string) => string, skip: Set<string>) {
  const out: ImportRowError[] = [];
  for (const issue of error.issues) {
    const column = columnOf(issue.path.join('.'));
    if (skip.has(column)) continue;
    out.push({ row, column, message: issue.message });
  }
  return out;
}

/**
 * Finds rows that repeat a key of an earlier row of the same file, naming that row: called with each row in the
 * file's order, it remembers each row's keys (never the row). For people, mobile numbers and user names are one
 * namespace (sign-in takes either): a row's own user name may be its mobile.
 */
export function duplicateFinder(kind: ImportKind): (row: CsvRow) => ImportRowError | undefined {
  const seen = new Map<string, number>();
  const people = IMPORT_USER_TYPE[kind] !== undefined;
  return ({ row, cells }) => {
    const keys: [string, string][] = people
      ? [
          ['mobile', cells.mobile.trim()],
          ['userName', lower(cells.userName)],
        ]
      : [
          [
            'name',
            [cells.state, cells.district, cells.name]
              .filter((v) => v !== undefined)
              .map(lower)
              .join('|'),
          ],
        ];
    const mine = new Set<string>();
    let duplicate: ImportRowError | undefined;
    for (const [column, key] of keys) {
      if (key === '' || mine.has(key)) continue;
      mine.add(key);
      const first = seen.get(key);
      if (first !== undefined && !duplicate)
        duplicate = { row, column, message: IMPORT_MSG.sameAsRow(first) };
    }
    if (!duplicate) for (const key of mine) seen.set(key, row);
    return duplicate;
  };
}

/** Locations named by a batch, found by name (ignoring case), share-locked inside a transaction. */
async function findLocations(
  q: Queryable,
  rows: CsvRow[],
  lock: boolean,
  withDistricts: boolean,
  withTehsils: boolean,
) {
  const stateNames = uniq(rows.map((r) => lower(r.cells.state ?? '')));
  const stateRows = stateNames.length
    ? await withLock<{ id: string; name: string }>(
        q
          .select({ id: states.id, name: states.name })
          .from(states)
          .where(inArray(sql`lower(${states.name})`, stateNames)),
        lock,
      )
    : [];
  const stateByName = new Map(stateRows.map((s) => [lower(s.name), s]));
  const districtByKey = new Map<string, { id: string; name: string; stateId: string }>();
  if (withDistricts && stateRows.length) {
    const names = uniq(rows.map((r) => lower(r.cells.district ?? '')));
    const found = names.length
      ? await withLock<{ id: string; name: string; stateId: string }>(
          q
            .select({ id: districts.id, name: districts.name, stateId: districts.stateId })
            .from(districts)
            .where(
              and(
                inArray(
                  districts.stateId,
                  stateRows.map((s) => s.id),
                ),
                inArray(sql`lower(${districts.name})`, names),
              ),
            ),
          lock,
        )
      : [];
    for (const d of found) districtByKey.set(`${d.stateId}|${lower(d.name)}`, d);
  }
  const tehsilByKey = new Map<string, { id: string; name: string }>();
  if (withTehsils && districtByKey.size) {
    const names = uniq(rows.map((r) => lower(r.cells.tehsil ?? '')));
    const found = names.length
      ? await withLock<{ id: string; name: string; districtId: string }>(
          q
            .select({ id: tehsils.id, name: tehsils.name, districtId: tehsils.districtId })
            .from(tehsils)
            .where(
              and(
                inArray(
                  tehsils.districtId,
                  [...districtByKey.values()].map((d) => d.id),
                ),
                inArray(sql`lower(${tehsils.name})`, names),
              ),
            ),
          lock,
        )
      : [];
    for (const t of found) tehsilByKey.set(`${t.districtId}|${lower(t.name)}`, t);
  }
  return { stateByName, districtByKey, tehsilByKey };
}

// biome-ignore lint/suspicious/noExplicitAny: drizzle's select builders share no public type with `.for`
const withLock = <T>(query: any, lock: boolean): Promise<T[]> => (lock ? query.for('share') : query);

/** Judges a batch of a location kind against the database (nothing is written here). */
export async function judgeLocations(
  q: Queryable,
  kind: 'states' | 'districts' | 'tehsils',
  rows: CsvRow[],
  lock: boolean,
): Promise<Judged[]> {
  const found = await findLocations(q, rows, lock, kind !== 'states', false);
  const { stateByName, districtByKey } = found;
  const out: Judged[] = [];
  // What already exists under each key: the row's parent id and the name, lower-cased.
  const existing = new Map<string, { id: string; name: string }>();
  const table = kind === 'states' ? states : kind === 'districts' ? districts : tehsils;
  const names = uniq(rows.map((r) => lower(r.cells.name)));
  const parentIds =
    kind === 'districts'
      ? [...stateByName.values()].map((s) => s.id)
      : [...districtByKey.values()].map((d) => d.id);
  if (names.length && (kind === 'states' || parentIds.length)) {
    const t = table as typeof tehsils;
    const parentColumn = kind === 'districts' ? districts.stateId : tehsils.districtId;
    const rowsFound = (await withLock(
      q
        .select({
          id: t.id,
          name: t.name,
          parent: kind === 'states' ? sql<string>`''` : parentColumn,
        })
        .from(t)
        .where(
          and(
            inArray(sql`lower(${t.name})`, names),
            kind === 'states' ? undefined : inArray(parentColumn, parentIds),
          ),
        ),
      lock,
    )) as { id: string; name: string; parent: string }[];
    for (const r of rowsFound) existing.set(`${r.parent}|${lower(r.name)}`, r);
  }
  for (const { row, cells } of rows) {
    const errors: ImportRowError[] = [];
    const skip = new Set<string>();
    let stateId: string | undefined;
    let districtId: string | undefined;
    if (kind !== 'states') {
      const state = stateByName.get(lower(cells.state));
      if (cells.state.trim() && !state) {
        errors.push({ row, column: 'state', message: IMPORT_MSG.stateMissing(cells.state.trim()) });
        skip.add('state');
      }
      stateId = state?.id;
      if (kind === 'tehsils') {
        const district = state ? districtByKey.get(`${state.id}|${lower(cells.district)}`) : undefined;
        if (state && cells.district.trim() && !district) {
          errors.push({
            row,
            column: 'district',
            message: IMPORT_MSG.districtMissing(cells.district.trim(), state.name),
          });
        }
        if (!district) skip.add('district');
        districtId = district?.id;
      }
    }
    const columnOf = (path: string) =>
      path === 'stateId' ? 'state' : path === 'districtId' ? 'district' : path;
    const parsed =
      kind === 'states'
        ? stateSchema.safeParse({ name: cells.name })
        : kind === 'districts'
          ? districtSchema.safeParse({
              name: cells.name,
              stateId: cells.state.trim() ? (stateId ?? ABSENT) : '',
            })
          : tehsilSchema.safeParse({
              name: cells.name,
              stateId: cells.state.trim() ? (stateId ?? ABSENT) : '',
              districtId: cells.district.trim() ? (districtId ?? ABSENT) : '',
            });
    if (!parsed.success) errors.push(...zodErrors(row, parsed.error, columnOf, skip));
    if (errors.length || !parsed.success) {
      out.push({ row, outcome: 'refused', errors });
      continue;
    }
    const name = parsed.data.name;
    const parent = kind === 'states' ? '' : kind === 'districts' ? stateId! : districtId!;
    const draft: LocationDraft = { name, stateId, districtId };
    const held = existing.get(`${parent}|${lower(name)}`);
    if (!held) out.push({ row, outcome: 'create', create: { location: draft } });
    else if (held.name === name) out.push({ row, outcome: 'unchanged' });
    else
      out.push({
        row,
        outcome: 'conflict',
        errors: [{ row, column: 'name', message: IMPORT_MSG.conflict(['name']) }],
        update: { location: { ...draft, existingId: held.id } },
      });
  }
  return out;
}

/** The CSV column each field of a dialog's body comes from. */
const PERSON_COLUMN: Record<string, string> = {
  districtId: 'district',
  tehsilId: 'tehsil',
  'distributor.masterDistributorId': 'masterDistributorMobile',
  'retailer.distributorId': 'distributorMobile',
  'customer.aadharId': 'aadharId',
  'customer.panId': 'panId',
  'customer.retailerId': 'retailerMobile',
};

type UserFound = typeof users.$inferSelect;

/** Judges a batch of a people kind with the dialogs' own zod schema and uniqueness rules (nothing is written). */
export async function judgePeople(
  q: Queryable,
  kind: ImportKind,
  rows: CsvRow[],
  lock: boolean,
  cipher: PersonalDataCipher,
): Promise<Judged[]> {
  const type = IMPORT_USER_TYPE[kind]!;
  const { stateByName, districtByKey, tehsilByKey } = await findLocations(q, rows, lock, true, true);
  const parentColumn =
    type === UserType.DISTRIBUTOR
      ? 'masterDistributorMobile'
      : type === UserType.RETAILER
        ? 'distributorMobile'
        : type === UserType.CUSTOMER
          ? 'retailerMobile'
          : undefined;
  const parentType =
    type === UserType.DISTRIBUTOR
      ? UserType.MASTER_DISTRIBUTOR
      : type === UserType.RETAILER
        ? UserType.DISTRIBUTOR
        : UserType.RETAILER;
  const parentMobiles = parentColumn ? uniq(rows.map((r) => r.cells[parentColumn].trim())) : [];
  const parents = parentMobiles.length
    ? await withLock<UserFound>(
        q
          .select()
          .from(users)
          .where(inArray(users.mobile, parentMobiles))
          .orderBy(sql`length(${users.path})`, users.id),
        lock,
      )
    : [];
  const parentByMobile = new Map(parents.map((p) => [p.mobile!, p]));
  const mobiles = uniq(rows.map((r) => r.cells.mobile.trim()));
  const names = uniq([...rows.map((r) => lower(r.cells.userName)), ...mobiles]);
  const holders =
    mobiles.length || names.length
      ? await q
          .select()
          .from(users)
          .where(
            or(
              mobiles.length ? inArray(users.mobile, mobiles) : undefined,
              names.length ? inArray(sql`lower(${users.userName})`, names) : undefined,
              names.length ? inArray(users.mobile, names) : undefined,
            ),
          )
      : [];
  const byMobile = new Map(holders.filter((h) => h.mobile).map((h) => [h.mobile!, h]));
  const byUserName = new Map(holders.map((h) => [h.userName.toLowerCase(), h]));

  const out: Judged[] = [];
  for (const { row, cells } of rows) {
    const errors: ImportRowError[] = [];
    const skip = new Set<string>();
    // Locations by name: state, then its district, then the district's tehsil.
    const state = stateByName.get(lower(cells.state));
    const district = state ? districtByKey.get(`${state.id}|${lower(cells.district)}`) : undefined;
    const tehsil = district ? tehsilByKey.get(`${district.id}|${lower(cells.tehsil)}`) : undefined;
    if (cells.state.trim() && !state) {
      errors.push({ row, column: 'state', message: IMPORT_MSG.stateMissing(cells.state.trim()) });
      skip.add('district').add('tehsil');
    } else if (!cells.state.trim()) {
      errors.push({ row, column: 'state', message: MSG.required });
      skip.add('district').add('tehsil');
    } else if (cells.district.trim() && !district) {
      errors.push({
        row,
        column: 'district',
        message: IMPORT_MSG.districtMissing(cells.district.trim(), state!.name),
      });
      skip.add('district').add('tehsil');
    } else if (cells.tehsil.trim() && !tehsil && district) {
      errors.push({
        row,
        column: 'tehsil',
        message: IMPORT_MSG.tehsilMissing(cells.tehsil.trim(), district.name),
      });
      skip.add('tehsil');
    }
    // The parent by its mobile number, of the kind's parent type.
    let parent: UserFound | undefined;
    if (parentColumn) {
      const mobile = cells[parentColumn].trim();
      parent = mobile ? parentByMobile.get(mobile) : undefined;
      if (parent && parent.type !== parentType) parent = undefined;
      if (mobile && !parent) {
        errors.push({
          row,
          column: parentColumn,
          message: IMPORT_MSG.parentMissing(
            IMPORT_PARENT_NAME[parentColumn as keyof typeof IMPORT_PARENT_NAME],
            mobile,
          ),
        });
        skip.add(parentColumn);
      }
    }
    // A masked number (a list's, a non-admin's export) is not the customer's: said as such, not as invalid.
    if (type === UserType.CUSTOMER && MASKED_AADHAR.test((cells.aadharId ?? '').trim())) {
      errors.push({ row, column: 'aadharId', message: IMPORT_MSG.maskedAadhar });
      skip.add('aadharId');
    }
    const parentId = (mobileCell: string) => (cells[mobileCell]?.trim() ? (parent?.id ?? ABSENT) : '');
    const body: Record<string, unknown> = {
      type,
      name: cells.name,
      email: cells.email,
      mobile: cells.mobile,
      userName: cells.userName,
      districtId: cells.district.trim() ? (district?.id ?? ABSENT) : '',
      tehsilId: cells.tehsil.trim() ? (tehsil?.id ?? ABSENT) : '',
    };
    if (type === UserType.DISTRIBUTOR)
      body.distributor = { masterDistributorId: parentId('masterDistributorMobile') };
    if (type === UserType.RETAILER) {
      body.distributor = { masterDistributorId: parent?.masterDistributorId ?? ABSENT };
      body.retailer = { distributorId: parentId('distributorMobile') };
    }
    if (type === UserType.CUSTOMER)
      body.customer = { aadharId: cells.aadharId, panId: cells.panId, retailerId: parent?.id ?? null };
    const parsed = userCreateSchemas[type as keyof typeof userCreateSchemas].safeParse(body);
    if (!parsed.success)
      errors.push(...zodErrors(row, parsed.error, (path) => PERSON_COLUMN[path] ?? path, skip));
    if (errors.length || !parsed.success) {
      out.push({ row, outcome: 'refused', errors });
      continue;
    }
    const input = parsed.data as Record<string, unknown> & {
      name: string;
      email: string;
      mobile: string;
      userName: string;
      districtId: string;
      tehsilId: string;
      customer?: { aadharId: string; panId: string };
    };
    const held = byMobile.get(input.mobile);
    if (held) {
      if (held.type !== type) {
        out.push({
          row,
          outcome: 'refused',
          errors: [{ row, column: 'mobile', message: IMPORT_MSG.otherType }],
        });
        continue;
      }
      const differs: string[] = [];
      if (held.name !== input.name) differs.push('name');
      if (held.email !== input.email) differs.push('email');
      if (held.userName !== input.userName) differs.push('userName');
      if (held.districtId !== input.districtId) differs.push('district');
      if (held.tehsilId !== input.tehsilId) differs.push('tehsil');
      if (parentColumn) {
        const heldParent =
          type === UserType.DISTRIBUTOR
            ? held.masterDistributorId
            : type === UserType.RETAILER
              ? held.distributorId
              : held.retailerId;
        if ((heldParent ?? null) !== (parent?.id ?? null)) differs.push(parentColumn);
      }
      if (input.customer) {
        if (held.panId !== input.customer.panId) differs.push('panId');
        if (held.aadharHash !== cipher.searchHash(input.customer.aadharId)) differs.push('aadharId');
      }
      if (differs.length === 0) out.push({ row, outcome: 'unchanged' });
      else
        out.push({
          row,
          outcome: 'conflict',
          errors: [{ row, column: differs[0], message: IMPORT_MSG.conflict(differs) }],
          update: { personId: held.id, body },
        });
      continue;
    }
    // The namespace of sign-in: the dialog's own messages, in its order (people.ts, checkUnique).
    const clash = byUserName.get(input.mobile)
      ? { column: 'mobile', message: USER_MSG.mobileIsUserName }
      : byUserName.get(input.userName.toLowerCase())
        ? { column: 'userName', message: USER_MSG.userNameTaken }
        : byMobile.get(input.userName.toLowerCase())
          ? { column: 'userName', message: USER_MSG.userNameIsMobile }
          : undefined;
    if (clash) {
      out.push({ row, outcome: 'refused', errors: [{ row, ...clash }] });
      continue;
    }
    out.push({
      row,
      outcome: 'create',
      create: {
        person: {
          type,
          name: input.name,
          email: input.email,
          mobile: input.mobile,
          userName: input.userName,
          districtId: input.districtId,
          tehsilId: input.tehsilId,
          parent: parent
            ? {
                path: parent.path,
                masterDistributorId:
                  type === UserType.DISTRIBUTOR ? parent.id : (parent.masterDistributorId ?? null),
                distributorId: type === UserType.RETAILER ? parent.id : (parent.distributorId ?? null),
                retailerId: type === UserType.CUSTOMER ? parent.id : null,
              }
            : null,
          ...(input.customer
            ? { customer: { aadharId: input.customer.aadharId, panId: input.customer.panId } }
            : {}),
        },
      },
    });
  }
  return out;
}
