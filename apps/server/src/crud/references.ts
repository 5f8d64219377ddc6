import { and, count, eq, inArray } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { tenantColumnOf } from '../db/tenant-join';
import { invalidField, refusedAll } from './conflict';
import type { Ctx } from './context';

/** A tenant table as a body's reference points at it: its tenant and id columns. */
export type TenantTable = PgTable & { tenantId: AnyPgColumn; id: AnyPgColumn };

/**
 * Every id a body carries must name a row of the caller's tenant: row-level security hides other tenants'
 * rows from reads, but a bare id column without a tenant foreign key stores whatever it is given. One
 * statement per reference; a missing one is a 400 naming the field (`ref.missing`), as if it did not exist.
 */
export async function assertReferences(ctx: Ctx, refs: { field: string; table: TenantTable; ids: number | number[] | null | undefined }[]) {
  for (const ref of refs) {
    const ids = [...new Set((Array.isArray(ref.ids) ? ref.ids : [ref.ids]).filter((id): id is number => typeof id === 'number'))];
    if (!ids.length) continue;
    const found = await ctx.tx
      .select({ id: ref.table.id })
      .from(ref.table)
      .where(and(eq(ref.table.tenantId, ctx.caller.tenantId), inArray(ref.table.id, ids)));
    if (found.length !== ids.length) throw invalidField(ref.field, 'exists', 'ref.missing');
  }
}

/**
 * Rows that keep a row from being deleted: the column naming it (its table's rows are counted in the
 * caller's tenant, by that table's `tenant_id`), the conflict reason and rule (default `inUse`).
 */
export type Reference = { column: AnyPgColumn; reason: string; rule?: string };

/**
 * Before a delete: locks the row, then refuses it (409) while other rows refer to it, naming every reference
 * that keeps it at once ("1 process…; 2 tasks…"), not one per try. Locked first: a row being made that refers
 * to this one reads it `for key share`, so it has either committed and is counted here, or waits and then
 * finds this row gone. Answers whether the row is there.
 */
export async function refuseIfReferenced(
  ctx: Ctx,
  table: PgTable & { id: AnyPgColumn },
  rowId: number,
  references: readonly Reference[],
): Promise<boolean> {
  const [row] = await ctx.tx.select({ id: table.id }).from(table).where(eq(table.id, rowId)).for('update');
  if (!row) return false;
  const blockers: { rule: string; reason: string; count: number }[] = [];
  for (const ref of references) {
    const [used] = await ctx.tx
      .select({ n: count() })
      .from(ref.column.table)
      .where(and(eq(tenantColumnOf(ref.column), ctx.caller.tenantId), eq(ref.column, rowId)));
    const n = used?.n ?? 0;
    if (n > 0) blockers.push({ rule: ref.rule ?? 'inUse', reason: ref.reason, count: n });
  }
  if (blockers.length) throw refusedAll('id', blockers, ctx.request.lang);
  return true;
}
