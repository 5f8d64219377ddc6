import type { SortOrder } from '@atrium/contracts';
import { asc, desc, ilike, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `%text%` with the user's `%`, `_` and `\` taken literally. */
export function contains(column: AnyPgColumn, text: string | undefined): SQL | undefined {
  if (!text) return undefined;
  return ilike(column, `%${escapeLike(text)}%`);
}

/**
 * Starts with `text`, case-insensitively: `lower(column) like 'text%'`, which a
 * `lower(column) text_pattern_ops` index serves — the search for large tables, where `%text%` would
 * read every row. `caseless: false` for columns without letters (phone numbers), indexed as they are.
 */
export function startsWith(column: AnyPgColumn, text: string | undefined, { caseless = true } = {}): SQL | undefined {
  if (!text) return undefined;
  return caseless ? sql`lower(${column}) like ${`${escapeLike(text.toLowerCase())}%`}` : sql`${column} like ${`${escapeLike(text)}%`}`;
}

/**
 * ORDER BY from an allow-listed sort (the contract already refused anything else) plus a unique
 * tiebreaker, so paging is stable and the order can be served by a (column, id) index.
 */
export function orderOf<C extends string>(sort: SortOrder<C>, columns: Record<C, AnyPgColumn>, tiebreaker: AnyPgColumn): SQL[] {
  const dir = sort.direction === 'desc' ? desc : asc;
  return [dir(columns[sort.column]), dir(tiebreaker)];
}

export const pageOffset = (q: { pageNum: number; pageSize: number }) => ({ limit: q.pageSize, offset: (q.pageNum - 1) * q.pageSize });

type Isoed<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };

/** Rows leave the repository with ISO date strings, as the contracts describe them. */
export function isoDates<T extends object>(row: T): Isoed<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) out[key] = value instanceof Date ? value.toISOString() : value;
  return out as Isoed<T>;
}
