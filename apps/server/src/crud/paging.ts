import type { SortOrder } from '@atrium/contracts';
import { asc, desc, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable, SelectedFields } from 'drizzle-orm/pg-core';
import type { Tx } from '../db/client';
import { invalidField } from './conflict';
import type { Ctx } from './context';
import { allOf } from './data-scope';
import { orderOf } from './query';
import { scopeKey } from './totals';

// Paging, in one place: a page by number (LIMIT and OFFSET), by keyset (after or before a row), and a
// deep page by number read from a row a page near it remembered (the marks kept with the list's totals).

/** Page offsets from which a list remembers where its pages start (below it OFFSET costs next to nothing). */
export const MARKS_FROM = 100;

/**
 * A list query that may page by keyset: the id of the row to start after, or to end before; `from`, a
 * row the page starts at (a remembered row near a deep page number, `pageMarks`).
 */
export type KeysetQuery<C extends string> = { sort: SortOrder<C>; after?: number; before?: number; from?: number };

/**
 * Keyset paging: the page after (or before) the row `after` (`before`) in the list's order, as a
 * condition `(sort column, id) > (the row's sort value, its id)` that the (…, column, id) index
 * answers by seeking, where OFFSET reads and drops every row before the page. `boundaryValue` selects
 * the row's sort value (one scalar subquery on the primary key, within the tenant), `id` is the row id
 * as the statement should hold it (a value, or a placeholder in a cached statement).
 *
 * `order` is the order to read in: reversed for `before`, whose rows the caller puts back in list
 * order (`backwards`). A row id that is gone, or not the tenant's, matches nothing; when the page
 * comes back empty the caller looks the id up and answers a 400 naming the parameter if it is unknown.
 * Lists sorted on a column that may be NULL cannot page this way (a 400 naming `after`/`before`).
 */
export function keysetPage<C extends string>(
  q: KeysetQuery<C>,
  columns: Record<C, AnyPgColumn>,
  tiebreaker: AnyPgColumn,
  boundaryValue: (id: unknown) => SQL,
  id: unknown = q.after ?? q.before ?? q.from,
): { where: SQL | undefined; order: SQL[]; backwards: boolean } {
  if (q.after !== undefined && q.before !== undefined) throw invalidField('before', 'keyset', 'page.cursorBoth');
  const backwards = q.before !== undefined;
  const from = q.from !== undefined && q.after === undefined && !backwards;
  if (q.after === undefined && !backwards && !from) return { where: undefined, order: orderOf(q.sort, columns, tiebreaker), backwards };
  const column = columns[q.sort.column];
  // (`pageMarks` offers no `from` on such a column)
  if (!column.notNull) throw invalidField(backwards ? 'before' : 'after', 'keyset', 'page.cursorSort');
  const ascending = (q.sort.direction === 'asc') !== backwards;
  const dir = ascending ? asc : desc;
  const bound = column === tiebreaker ? sql`${id}` : sql`(${boundaryValue(id)})`;
  const op = (ascending ? '>' : '<') + (from ? '=' : '');
  return {
    where: sql`(${column}, ${tiebreaker}) ${sql.raw(op)} (${bound}, ${id})`,
    order: [dir(column), dir(tiebreaker)],
    backwards,
  };
}

/**
 * A page of a list as a statement to build once per shape (statementCache): the rows of `table` that
 * match `where` and lie past the keyset's bound, in its order, `limit` of them, after as many as the
 * `offset` placeholder says when the page skips any (`skip`).
 */
export const pageStatement =
  (
    selection: SelectedFields,
    table: PgTable,
    where: SQL | undefined,
    keyset: { where: SQL | undefined; order: SQL[] },
    limit: number,
    skip: number,
  ) =>
  (tx: Tx) =>
    tx
      .select(selection)
      .from(table)
      .where(allOf(where, keyset.where))
      .orderBy(...keyset.order)
      .limit(limit)
      .offset(skip > 0 ? (sql.placeholder('offset') as unknown as number) : 0);

/**
 * LIMIT and OFFSET of a page. The page size goes into the statement's text (a bounded integer the
 * contract checked), not a parameter: with an unknown LIMIT PostgreSQL cannot cost a generic plan and
 * re-plans the statement on every execution, which for a list under row-level security took longer
 * than running it. The offset stays a parameter. Typed as a number for the query builders, which put
 * an SQL fragment in as it is.
 */
export const pageOffset = (q: { pageNum: number; pageSize: number }) => ({
  limit: sql.raw(String(Math.trunc(q.pageSize))) as unknown as number,
  offset: (q.pageNum - 1) * q.pageSize,
});

/**
 * Deep pages by number start from a row seen there before. OFFSET reads and drops every row before
 * the page (40,000 index entries for page 2,000); a list remembers the first and last row of each page
 * it served from MARKS_FROM on, and a later page reads by keyset from the nearest such row at or
 * before it, skipping only the rows in between. The marks go with the list's kept totals (per tenant,
 * data scope, filters, and here the sort): a write in the tenant drops them, and once they are older
 * than TOTALS_TTL_MS one request reads by OFFSET to make them afresh (TotalsCache.nearest). Null
 * where the list keeps no totals for this caller, before MARKS_FROM, or on a sort column that may be
 * NULL (no keyset there).
 */
export function pageMarks(ctx: Ctx, sort: { column: string; direction: string }, offset: number, sortColumn: { notNull: boolean }) {
  const scope = scopeKey(ctx.caller);
  if (!ctx.totals || scope === null || offset < MARKS_FROM || !sortColumn.notNull) return null;
  const { cache, resource, filters } = ctx.totals;
  const tenantId = ctx.caller.tenantId;
  const key = `${resource}|${scope}|${filters}|${sort.column}:${sort.direction}`;
  const generation = cache.generation(tenantId);
  const from = cache.nearest(tenantId, key, offset);
  // read from aged marks: what it sees is no check of them, and must not make them look fresh
  const unchecked = from !== null && cache.aged(tenantId, key);
  return {
    /** The row to start from and how many rows after it to skip, or null: read by OFFSET. */
    from: from && { id: from.id, skip: offset - from.position },
    /** The page as read, in list order. */
    saw(ids: number[]) {
      if (ids.length > 0 && !unchecked)
        cache.remember(tenantId, key, generation, [
          [offset, ids[0] as number],
          [offset + ids.length - 1, ids.at(-1) as number],
        ]);
    },
    forget: () => cache.forget(tenantId, key),
  };
}

/**
 * Reads a page by number through its list's marks: `read(start)` from the remembered row (or by
 * OFFSET for null); a remembered row that is gone (nothing read from it) is forgotten and the page read
 * by OFFSET. The rows read are remembered.
 */
export async function readMarked<R>(
  marks: ReturnType<typeof pageMarks>,
  read: (start: { id: number; skip: number } | null) => Promise<R>,
  ids: (result: R) => number[],
): Promise<R> {
  const start = marks?.from ?? null;
  let result = await read(start);
  if (start && ids(result).length === 0) {
    marks?.forget();
    result = await read(null);
  }
  marks?.saw(ids(result));
  return result;
}
