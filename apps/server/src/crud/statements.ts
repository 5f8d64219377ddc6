import { type Column, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import type { statementCache } from '../db/statements';
import type { Caller } from './context';

/**
 * The caller as placeholders, for building a cached statement with the data-scope filter: its tenant,
 * user and department become `scopeTenantId`, `scopeUserId` and `scopeDeptId` (values from
 * `scopeValues`), and `scopeKey` is what of the caller shapes the statement.
 */
export function scopedCaller(caller: Caller): { caller: Caller; key: string; values: Record<string, unknown> } {
  const placeholder = (name: string) => sql.placeholder(name) as unknown as number;
  return {
    caller: {
      ...caller,
      tenantId: placeholder('scopeTenantId'),
      userId: caller.userId === null ? null : placeholder('scopeUserId'),
      deptId: caller.deptId === null ? null : placeholder('scopeDeptId'),
    },
    key: `${caller.superAdmin ? 'super' : caller.dataScope}:${caller.userId === null ? '-' : 'u'}${caller.deptId === null ? '-' : 'd'}`,
    values: { scopeTenantId: caller.tenantId, scopeUserId: caller.userId, scopeDeptId: caller.deptId },
  };
}

type RunStatement = ReturnType<typeof statementCache>;

/** What reading one match through a prefix's index costs next to testing one row of a walk. */
const WALK_FACTOR = 2;

/**
 * Whether a page filtered by a prefix is found sooner by walking the list in its order and testing each
 * row than through the prefix's own index (pageByIds). A page that ends `reach` matches in walks about
 * `reach × rows / matches` of the list's `rows`; the index reads every match and sorts them. With both
 * counts kept (crud/totals.ts) the choice costs nothing, and the walk is one statement whose plan
 * PostgreSQL keeps (`startsWithPlaceholder(…, { walk: true })`): no planning for each prefix, one
 * round trip instead of two. A rare prefix walked would read the whole list.
 */
export const walkPays = ({ matches, rows, reach }: { matches: number; rows: number; reach: number }) =>
  matches > 0 && reach * rows <= WALK_FACTOR * matches * matches;

/**
 * A page read in two statements, for lists filtered by something whose selectivity depends on its
 * value (a prefix, a date range): PostgreSQL plans a statement with such a filter afresh at every
 * execution (a custom plan: an index for a rare prefix, the list's order for a common one), and
 * planning a read that joins several tables took longer than running it. `ids` finds the page's ids
 * from the one table the filters are on, cheap to plan; `rows` reads those rows with their joins
 * (the ids arrive as `idsIn(column)`), a statement whose plan the connection keeps.
 */
export async function pageByIds<Row>(
  run: RunStatement,
  tx: Tx,
  keys: { ids: string; rows: string },
  ids: (tx: Tx) => unknown,
  rows: (tx: Tx, idsIn: (column: Column) => SQL) => unknown,
  values: Record<string, unknown>,
): Promise<Row[]> {
  const found = await run<{ id: number }>(tx, `ids:${keys.ids}`, ids, values);
  if (!found.length) return [];
  const idsIn = (column: Column) => sql`${column} = any(${sql.placeholder('pageIds')})`;
  return run<Row>(tx, `rows:${keys.rows}`, (t) => rows(t, idsIn), { ...values, pageIds: found.map((r) => r.id) });
}
