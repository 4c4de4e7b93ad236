import { eq, like, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { STAFF_TYPES, UserType } from '../../../shared/enums';
import { users } from '../../db/schema';
import type { UserRow } from '../../http/session-token';

/** The scope id of the whole network (staff see it). */
export const WHOLE_NETWORK = '00000000-0000-0000-0000-000000000000';

/** The networks a user at `path` counts in: the whole network and every user on its path, itself included. */
export const scopesOf = (path: string) => [WHOLE_NETWORK, ...path.split('/').filter(Boolean)];

/**
 * The networks a subtree leaves and joins when it moves from under `oldParentPath` to under `newParentPath`
 * (null: the root): the ones only the old parents head, and the ones only the new parents head.
 */
export function networksOfMove(oldParentPath: string | null, newParentPath: string | null) {
  const left = new Set(scopesOf(oldParentPath ?? '/'));
  const joined = new Set(scopesOf(newParentPath ?? '/'));
  return {
    gone: [...left].filter((s) => !joined.has(s)),
    added: [...joined].filter((s) => !left.has(s)),
  };
}

/**
 * The one place that decides whose records a caller may see (Apache Fineract's hierarchy scoping).
 * Staff see the whole network; a tier user its own subtree by hierarchy path prefix; anyone else itself.
 * Returns a condition on `users` (or on the record's own copy of a hierarchy path, such as a sale's), or
 * undefined for "no restriction". Every module joins through it.
 */
export function networkScope(
  viewer: Pick<UserRow, 'id' | 'type' | 'path'>,
  on: {
    path: AnyPgColumn;
    id?: AnyPgColumn;
    /** A column naming the record's tier user, said instead of the path for that viewer type (indexed). */
    byViewerType?: Partial<Record<number, AnyPgColumn>>;
  } = { path: users.path, id: users.id },
): SQL | undefined {
  if (STAFF_TYPES.includes(viewer.type as UserType)) return undefined;
  const column = on.byViewerType?.[viewer.type];
  if (column) return eq(column, viewer.id);
  if (scopedByPath(viewer, on.byViewerType)) return like(on.path, `${viewer.path}%`);
  return on.id ? eq(on.id, viewer.id) : sql`false`;
}

/**
 * Whether networkScope bounds this viewer's records by its path prefix (a LIKE): a list so bounded is planned
 * with its values on every call (not prepared: db/list.ts), the prefix's index serving only a known prefix.
 */
export const scopedByPath = (
  viewer: Pick<UserRow, 'type' | 'path'>,
  byViewerType?: Partial<Record<number, AnyPgColumn>>,
) => !STAFF_TYPES.includes(viewer.type as UserType) && !byViewerType?.[viewer.type] && Boolean(viewer.path);

/**
 * networkScope for a list of one user type, said through the parent columns so an index serves it: a tier
 * user's network holds itself and, below it, the users whose master distributor / distributor / retailer it is.
 * The same set as the path prefix (a move rewrites a subtree's paths and parent columns in one transaction).
 */
export function networkScopeOfType(
  viewer: Pick<UserRow, 'id' | 'type' | 'path'>,
  type: UserType,
): SQL | undefined {
  if (STAFF_TYPES.includes(viewer.type as UserType)) return undefined;
  if (type === viewer.type) return eq(users.id, viewer.id);
  const below: Partial<Record<number, { types: readonly UserType[]; parent: AnyPgColumn }>> = {
    [UserType.MASTER_DISTRIBUTOR]: {
      types: [UserType.DISTRIBUTOR, UserType.RETAILER, UserType.CUSTOMER],
      parent: users.masterDistributorId,
    },
    [UserType.DISTRIBUTOR]: { types: [UserType.RETAILER, UserType.CUSTOMER], parent: users.distributorId },
    [UserType.RETAILER]: { types: [UserType.CUSTOMER], parent: users.retailerId },
  };
  const rule = below[viewer.type];
  if (!rule?.types.includes(type)) return sql`false`;
  return eq(rule.parent, viewer.id);
}

/**
 * The network a caller sees, as the id its counter rows are kept under (modules/account/counts.ts): the whole
 * network for staff, the caller's own subtree for anyone else. The same boundary as networkScope.
 */
export const networkScopeId = (viewer: Pick<UserRow, 'id' | 'type'>) =>
  STAFF_TYPES.includes(viewer.type as UserType) ? WHOLE_NETWORK : viewer.id;

/** The path of a user's parent (null for roots): '/a/b/c/' -> '/a/b/'. */
export const parentPathOf = (path: string) => {
  const parent = path.slice(0, path.slice(0, -1).lastIndexOf('/') + 1);
  return parent === '/' ? null : parent;
};

/** Hierarchy path of a new user under the given parent ('/' for roots). */
export const childPath = (parentPath: string | null, id: string) => `${parentPath ?? '/'}${id}/`;
