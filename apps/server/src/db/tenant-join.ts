import { and, eq, getTableColumns, getTableName, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** The `tenant_id` column of the table a column belongs to: every tenant table has one. */
export function tenantColumnOf(column: AnyPgColumn): AnyPgColumn {
  const { tenantId } = getTableColumns(column.table) as { tenantId?: AnyPgColumn };
  if (!tenantId) throw new Error(`${getTableName(column.table)} has no tenant_id column`);
  return tenantId;
}

/**
 * Two tenant tables joined by a reference, as their composite foreign key `(tenant_id, x_id)` says: the
 * same tenant and the id named. `innerJoin(mallPrinters, tenantJoin(mallPrinters.id, mallPrintJobs.printerId))`.
 */
export const tenantJoin = (id: AnyPgColumn, reference: AnyPgColumn): SQL =>
  and(eq(tenantColumnOf(id), tenantColumnOf(reference)), eq(id, reference)) as SQL;
