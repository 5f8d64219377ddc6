import type { SortOrder } from '@atrium/contracts';
import { asc, desc, ilike, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const isAscii = (text: string) => /^[\x20-\x7e]+$/.test(text);
/** The first string after every string that starts with `text` (its last character moved one on). */
const pastPrefix = (text: string) => text.slice(0, -1) + String.fromCharCode(text.charCodeAt(text.length - 1) + 1);

/** `%text%` with the user's `%`, `_` and `\` taken literally. */
export function contains(column: AnyPgColumn, text: string | undefined): SQL | undefined {
  if (!text) return undefined;
  return ilike(column, containsPattern(text));
}

/** The ILIKE pattern of `contains`, for a statement that takes it as a placeholder. */
export const containsPattern = (text: string) => `%${escapeLike(text)}%`;

/** `contains` with the pattern as the placeholder `name` (its value from `containsPattern`). */
export const containsPlaceholder = (column: AnyPgColumn, name: string): SQL => ilike(column, sql.placeholder(name) as unknown as string);

/**
 * Starts with `text`, case-insensitively: `lower(column) like 'text%'`, which a
 * `lower(column) text_pattern_ops` index serves — the search for large tables, where `%text%` would
 * read every row. `caseless: false` for columns without letters (phone numbers), indexed as they are.
 */
export function startsWith(column: AnyPgColumn, text: string | undefined, { caseless = true } = {}): SQL | undefined {
  if (!text) return undefined;
  if (caseless) return sql`lower(${column}) like ${prefixPattern(text)}`;
  // An ASCII prefix as the byte range it spans: row-level security keeps LIKE (not leakproof) from
  // being used as an index condition on a tenant table, the pattern operators (leakproof) are, so a
  // `column text_pattern_ops` index seeks to the prefix instead of the list scanning for it.
  if (isAscii(text)) return sql`(${column} ~>=~ ${text} and ${column} ~<~ ${pastPrefix(text)})`;
  return sql`${column} like ${prefixPattern(text, { caseless })}`;
}

/**
 * `startsWith` for a statement built once (`statementCache`): the condition with placeholders named
 * after `name`, their values, and `form`, which belongs in the statement's key (an ASCII prefix of a
 * case-sensitive column is a range, anything else a LIKE).
 */
export function startsWithParts(column: AnyPgColumn, name: string, text: string, { caseless = true } = {}) {
  const p = (suffix: string) => sql.placeholder(`${name}${suffix}`);
  if (!caseless && isAscii(text)) {
    return {
      form: 'range',
      where: sql`(${column} ~>=~ ${p('From')} and ${column} ~<~ ${p('To')})`,
      values: { [`${name}From`]: text, [`${name}To`]: pastPrefix(text) },
    };
  }
  return { form: 'like', where: startsWithPlaceholder(column, name, { caseless }), values: { [name]: prefixPattern(text, { caseless }) } };
}

/** The LIKE pattern of `startsWith`, for a statement that takes it as a placeholder. */
export const prefixPattern = (text: string, { caseless = true } = {}) => `${escapeLike(caseless ? text.toLowerCase() : text)}%`;

/**
 * `startsWith` with the pattern as the placeholder `name` (its value from `prefixPattern`). `walk`: the
 * pattern as a sub-select of its value (`lower(column) like (select $1::text)`), which the planner
 * cannot see into: no index serves it, and its plan is the same whatever the prefix, so PostgreSQL
 * keeps one, the walk in the list's order (`walkPays`).
 */
export function startsWithPlaceholder(column: AnyPgColumn, name: string, { caseless = true, walk = false } = {}): SQL {
  const value = caseless ? sql`lower(${column})` : sql`${column}`;
  const pattern = walk ? sql`(select ${sql.placeholder(name)}::text)` : sql`${sql.placeholder(name)}`;
  return sql`${value} like ${pattern}`;
}

/**
 * ORDER BY from an allow-listed sort (the contract already refused anything else) plus a unique
 * tiebreaker, so paging is stable and the order can be served by a (column, id) index.
 */
export function orderOf<C extends string>(sort: SortOrder<C>, columns: Record<C, AnyPgColumn>, tiebreaker: AnyPgColumn): SQL[] {
  const dir = sort.direction === 'desc' ? desc : asc;
  return [dir(columns[sort.column]), dir(tiebreaker)];
}

type Isoed<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };

/** Rows leave the repository with ISO date strings, as the contracts describe them. */
export function isoDates<T extends object>(row: T): Isoed<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) out[key] = value instanceof Date ? value.toISOString() : value;
  return out as Isoed<T>;
}

/**
 * A timestamp as `Date#toISOString` writes it, from what PostgreSQL sends for a timestamptz: in a UTC
 * session with the ISO date style, `YYYY-MM-DD HH:MM:SS[.ffffff]+00`, rewritten as text (its
 * microseconds cut to milliseconds, as a Date cuts them). Any other shape (another zone, another date
 * style, a year past 9999, a Date from a driver that made one) goes through a Date.
 */
export function isoTimestamp(value: unknown): string {
  if (
    typeof value === 'string' &&
    value.length >= 22 &&
    value[10] === ' ' &&
    (value[19] === '.' || value[19] === '+') &&
    value.endsWith('+00')
  ) {
    const fraction = value[19] === '.' ? `${value.slice(20, -3)}00`.slice(0, 3) : '000';
    return `${value.slice(0, 10)}T${value.slice(11, 19)}.${fraction}Z`;
  }
  return (value instanceof Date ? value : new Date(value as string)).toISOString();
}

/**
 * A timestamptz column selected as its ISO text (`isoTimestamp`), for a list's hot path: 40 timestamps
 * of a user page cost 27 µs parsed into Dates and written out again, 3 µs as text.
 */
export const isoTime = (column: AnyPgColumn) => sql<string>`${column}`.mapWith(isoTimestamp);
