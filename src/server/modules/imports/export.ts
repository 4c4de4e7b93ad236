import { and, asc, eq, sql } from 'drizzle-orm';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import { UserType } from '../../../shared/enums';
import { maskAadhar } from '../../../shared/identity';
import { IMPORT_COLUMNS, IMPORT_USER_TYPE, type ImportKind } from '../../../shared/schemas/imports';
import type { Queryable } from '../../db/open';
import { districts, states, tehsils, users } from '../../db/schema';
import type { PersonalDataCipher } from '../../security/personal-data';
import type { SessionUser } from '../account/index';
import { networkScopeOfType } from '../network/index';

/** The parent column each people kind's template names, and the users column it comes from. */
const PARENT_OF: Partial<Record<UserType, { column: string; id: AnyPgColumn }>> = {
  [UserType.DISTRIBUTOR]: { column: 'masterDistributorMobile', id: users.masterDistributorId },
  [UserType.RETAILER]: { column: 'distributorMobile', id: users.distributorId },
  [UserType.CUSTOMER]: { column: 'retailerMobile', id: users.retailerId },
};

/**
 * A list as its import template has it (issue 45, the round trip): the template's header and one row per record
 * the viewer's list holds (its network, from the session), oldest first, every cell as stored (names as typed,
 * not title-cased). A person's parent is its mobile number, a location's parents their names. A customer's
 * Aadhar number is whole only when `wholeAadhar` (an admin's export, audited by the route); otherwise masked as
 * the panel shows it (`XXXXXXXX1234`), which an import refuses as a row error.
 */
export async function exportRows(
  q: Queryable,
  viewer: SessionUser,
  kind: ImportKind,
  cipher: PersonalDataCipher,
  wholeAadhar: boolean,
): Promise<string[][]> {
  const columns = [...IMPORT_COLUMNS[kind]];
  const type = IMPORT_USER_TYPE[kind];
  if (type === undefined) return [columns, ...(await locationRows(q, kind))];
  const district = alias(districts, 'export_district');
  const state = alias(states, 'export_state');
  const tehsil = alias(tehsils, 'export_tehsil');
  const parent = alias(users, 'export_parent');
  const parentOf = PARENT_OF[type];
  const found = await q
    .select({
      name: users.name,
      email: users.email,
      mobile: users.mobile,
      userName: users.userName,
      state: state.name,
      district: district.name,
      tehsil: tehsil.name,
      parentMobile: parentOf ? parent.mobile : sql<string | null>`null`,
      aadharCipher: users.aadharCipher,
      aadharLast4: users.aadharLast4,
      panId: users.panId,
    })
    .from(users)
    .leftJoin(district, eq(district.id, users.districtId))
    .leftJoin(state, eq(state.id, district.stateId))
    .leftJoin(tehsil, eq(tehsil.id, users.tehsilId))
    .leftJoin(parent, parentOf ? eq(parent.id, parentOf.id) : sql`false`)
    .where(and(eq(users.type, type), networkScopeOfType(viewer, type)))
    .orderBy(asc(users.createdAt), asc(users.id));
  const rows = found.map((u) => {
    const cells: Record<string, string> = {
      name: u.name,
      email: u.email ?? '',
      mobile: u.mobile ?? '',
      userName: u.userName,
      state: u.state ?? '',
      district: u.district ?? '',
      tehsil: u.tehsil ?? '',
    };
    if (parentOf) cells[parentOf.column] = u.parentMobile ?? '';
    if (type === UserType.CUSTOMER) {
      cells.aadharId =
        wholeAadhar && u.aadharCipher
          ? cipher.decrypt(u.aadharCipher)
          : u.aadharLast4
            ? maskAadhar(u.aadharLast4)
            : '';
      cells.panId = u.panId ?? '';
    }
    return columns.map((c) => cells[c] ?? '');
  });
  return [columns, ...rows];
}

/** States, districts or tehsils with their parents' names, oldest first. */
async function locationRows(q: Queryable, kind: ImportKind): Promise<string[][]> {
  if (kind === 'states') {
    const found = await q
      .select({ name: states.name })
      .from(states)
      .orderBy(asc(states.createdAt), asc(states.id));
    return found.map((s) => [s.name]);
  }
  if (kind === 'districts') {
    const found = await q
      .select({ state: states.name, name: districts.name })
      .from(districts)
      .innerJoin(states, eq(states.id, districts.stateId))
      .orderBy(asc(districts.createdAt), asc(districts.id));
    return found.map((d) => [d.state, d.name]);
  }
  const found = await q
    .select({ state: states.name, district: districts.name, name: tehsils.name })
    .from(tehsils)
    .innerJoin(districts, eq(districts.id, tehsils.districtId))
    .innerJoin(states, eq(states.id, districts.stateId))
    .orderBy(asc(tehsils.createdAt), asc(tehsils.id));
  return found.map((t) => [t.state, t.district, t.name]);
}
