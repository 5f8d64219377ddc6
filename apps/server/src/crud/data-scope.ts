import { and, eq, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { depts, roleDepts, roles, userRoles } from '../db/schema';
import type { Caller } from './context';

/** How an entity's rows relate to departments and owners; either may be missing. */
export type ScopeColumns = { dept?: AnyPgColumn; self?: (caller: Caller) => SQL | undefined };

/** Ids of a department and everything below it, as a subquery (uses the `ancestors` id path); the ids may be placeholders. */
export function deptAndBelow(tenantId: number, deptId: number) {
  return sql`(select ${depts.id} from ${depts} where ${depts.tenantId} = ${tenantId} and (${depts.id} = ${deptId} or ${depts.ancestors} @> jsonb_build_array(${deptId}::bigint)))`;
}

/**
 * `column` is one of the ids a subquery answers, the subquery run once into an array. As `IN (subquery)`
 * PostgreSQL joined every row it walked in list order with every department of the subtree (a nested
 * loop: 381 memberships × 27 departments, 1.1 ms for a page); against the array it is one comparison
 * loop per row (0.3 ms).
 */
export const inIds = (column: AnyPgColumn, ids: SQL) => sql`${column} = any(array${ids})`;

/**
 * The row filter for the caller's data scope: '1' all, '2' the custom departments of their roles,
 * '3' their department, '4' their department and below, '5' their own rows. `undefined` means no filter.
 * A scope an entity cannot express (no dept column) falls back to `self`, then to nothing visible.
 */
export function dataScopeFilter(caller: Caller, columns: ScopeColumns): SQL | undefined {
  if (caller.superAdmin || caller.dataScope === '1') return undefined;
  const self = columns.self?.(caller);
  const none = sql`false`;
  const dept = columns.dept;
  switch (caller.dataScope) {
    case '2': {
      if (!dept || caller.userId === null) return self ?? none;
      const custom = sql`(select ${roleDepts.deptId} from ${roleDepts}
        join ${userRoles} on ${userRoles.tenantId} = ${roleDepts.tenantId} and ${userRoles.roleId} = ${roleDepts.roleId}
        join ${roles} on ${roles.tenantId} = ${roleDepts.tenantId} and ${roles.id} = ${roleDepts.roleId}
        where ${userRoles.userId} = ${caller.userId} and ${roles.status} = '0')`;
      return or(inIds(dept, custom), self);
    }
    case '3':
      if (!dept || caller.deptId === null) return self ?? none;
      return or(eq(dept, caller.deptId), self);
    case '4':
      if (!dept || caller.deptId === null) return self ?? none;
      return or(inIds(dept, deptAndBelow(caller.tenantId, caller.deptId)), self);
    default:
      return self ?? none;
  }
}

export const allOf = (...conditions: (SQL | undefined)[]) => and(...conditions.filter((c): c is SQL => c !== undefined));
