import { and, eq, inArray } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { invalidField } from './conflict';
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
