import type { Resource } from '@atrium/contracts';
import { and, count, eq, getTableColumns, ne, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { oneAtATime } from '../db/client';
import { statementCache } from '../db/statements';
import { conflict, invalidField, rethrowUnique } from './conflict';
import type { Ctx } from './context';
import { allOf } from './data-scope';
import { keysetPage, pageMarks, pageOffset, pageStatement, readMarked } from './paging';
import { containsPattern, containsPlaceholder, isoDates, startsWithParts } from './query';
import { type Reference, refuseIfReferenced } from './references';
import type { ResourceHandlers } from './register-resource';
import { listTotal } from './totals';

type Row = Record<string, unknown>;
/**
 * How a list filter matches. A function form gets the filter's value as a placeholder (the list is a
 * statement built once per filter shape) and may change the value that fills it (`value`).
 */
type Match = 'contains' | 'prefix' | 'eq' | { where: (value: Placeholder) => SQL; value?: (value: never) => unknown };

/** What a generic repository needs beyond the contract and the table; every part is optional. */
/** A field as a row stores it: one the input leaves out is NULL. */
type Stored<V> = Exclude<V, undefined> | (undefined extends V ? null : never);

/** These fields of an input as a row stores them (`Stored`), each in the column of its name. */
export function storedValues<T extends object, K extends keyof T>(input: T, keys: readonly K[]): { [P in K]: Stored<T[P]> } {
  return Object.fromEntries(keys.map((k) => [k, input[k] === undefined ? null : input[k]])) as { [P in K]: Stored<T[P]> };
}

export type RepositoryOptions<Item> = {
  /** how a list filter matches; by default a text filter is `contains` on the column of its name, anything else `eq` */
  filters?: Record<string, Match>;
  /** unique fields checked before writing (409 naming the field): field → unique index name */
  unique?: Record<string, string>;
  /**
   * Unique indexes no one field is checked against before writing, which a raced write may still hit
   * (an ability's key and version): index name → the field its 409 names.
   */
  raced?: Record<string, string>;
  /**
   * Rows that keep this one: deleting it is a 409 with `reason` (a key of `conflictReasons`), the count
   * and `rule` (default `inUse`), checked in the order given.
   */
  references?: Reference[];
  /**
   * Columns computed with each row, read by the list and by one row (a correlated subquery written
   * out with qualified columns, such as a parent's name); writes answer the row read back with them.
   */
  computed?: Record<string, SQL>;
  /**
   * The caller's right to this insert or update (`id` given), checked first, ahead of the uniqueness
   * checks: a role's grant within the caller's own, and no role they hold.
   */
  authorizeWrite?: (ctx: Ctx, input: Row, id?: number) => Promise<void>;
  /**
   * Checks and side effects before an insert or update (a cycle, the one default row); what it answers
   * is written with the input (columns the server derives: a department's ancestors).
   */
  beforeWrite?: (ctx: Ctx, input: Row, id?: number) => Promise<void> | Promise<Row>;
  /** after an update, with the row written and the row as it was (a moved subtree, a cascaded status) */
  afterUpdate?: (ctx: Ctx, row: Row, before: Item) => Promise<void>;
  /** after an insert or update, with the row written and the input (rows kept beside it: a role's grants) */
  afterWrite?: (ctx: Ctx, row: Row, input: Row) => Promise<void>;
  /**
   * One row read on its own (and the create and update answers) with what the list leaves out: a
   * role's menus and departments.
   */
  whole?: (ctx: Ctx, item: Item) => Promise<Item>;
  /** checks before a status change (the default row stays enabled) */
  beforeStatus?: (ctx: Ctx, id: number, status: string) => Promise<void>;
  /** after a status change, with the row written (a status that reaches other rows) */
  afterStatus?: (ctx: Ctx, row: Row) => Promise<void>;
  /** checks before a delete, ahead of the references (the caller's reach) */
  beforeDelete?: (ctx: Ctx, id: number) => Promise<void>;
  /** the row as the contract's item (default: without tenant_id, dates as ISO strings) */
  toItem?: (row: Row, ctx: Ctx) => Item | Promise<Item>;
};

const isTextFilter = (schema: unknown) => schema instanceof z.ZodPipe;

/**
 * The conventional handlers of an entity from its contract and its table: tenant filter, filters,
 * allow-listed sort, paging with the kept totals, uniqueness and "in use" as 409s naming the field.
 * Override any handler by spreading: `{ ...tableRepository(resource, table), create: … }`.
 */
export function tableRepository<R extends Resource, Item = z.output<R['item']>>(
  resource: R,
  table: PgTable,
  options: RepositoryOptions<Item> = {},
): Required<ResourceHandlers<Item, z.output<R['create']>, z.output<R['update']>, z.output<R['listQuery']>>> {
  const p = sql.placeholder;
  const columns = getTableColumns(table) as unknown as Record<string, AnyPgColumn>;
  const { tenantId, id } = columns as { tenantId: AnyPgColumn; id: AnyPgColumn };
  const sortColumns = Object.fromEntries(resource.sortable.map((c) => [c, columns[c] as AnyPgColumn]));
  const filterShape = resource.filters.shape as Record<string, unknown>;
  const writable = Object.keys(resource.create.shape).filter((k) => k in columns);
  // a catalogue every tenant shares (the contract's `global`: no tenant_id column, the menus): no tenant
  // filter, and totals counted each time, since kept totals are kept and dropped per tenant and one
  // tenant's write would leave another's stale
  const global = resource.global === true;
  const mine = (ctx: Ctx) => (global ? undefined : eq(tenantId, ctx.caller.tenantId));
  // the tenant's rows in a statement: its placeholder, and the value that fills it
  const tenantWhere = global ? undefined : eq(tenantId, p('tenantId'));
  const tenantValue = (ctx: Ctx): Row => (global ? {} : { tenantId: ctx.caller.tenantId });
  const toItem = (row: Row, ctx: Ctx): Item | Promise<Item> => {
    if (options.toItem) return options.toItem(row, ctx);
    const { tenantId: _t, ...rest } = isoDates(row);
    return rest as Item;
  };

  // the list and one row run as statements built once per filter shape (statements.ts)
  const statements = statementCache(`${resource.domain}:${resource.name}`);
  const { tenantId: _tenantColumn, ...readColumns } = columns;
  const selection = { ...readColumns, ...options.computed };
  const readOne = async (ctx: Ctx, rowId: number) =>
    (
      await statements<Row>(
        ctx.tx,
        'one',
        (tx) =>
          tx
            .select(selection)
            .from(table)
            .where(and(tenantWhere, eq(id, p('id')))),
        { ...tenantValue(ctx), id: rowId },
      )
    )[0];
  // a written row as the API answers it: with its computed columns, read back, when it has any
  const written = async (ctx: Ctx, row: Row | undefined) =>
    toItem((options.computed && row ? await readOne(ctx, row.id as number) : row) as Row, ctx);
  const whole = async (ctx: Ctx, item: Item) => (options.whole ? options.whole(ctx, item) : item);

  /** A present filter's condition (placeholders named after the filter), the values that fill them, and its form. */
  const filterOf = (key: string, value: unknown): { where: SQL; values: Row; form: string } | undefined => {
    if (value === undefined || value === null || value === '') return undefined;
    const match = options.filters?.[key] ?? (isTextFilter(filterShape[key]) ? 'contains' : 'eq');
    if (typeof match === 'object') {
      return { where: match.where(p(key)), values: { [key]: match.value ? match.value(value as never) : value }, form: 'fn' };
    }
    const column = columns[key];
    if (!column) throw new Error(`${resource.name}: filter ${key} has no column and no match function`);
    if (match === 'contains')
      return { where: containsPlaceholder(column, key), values: { [key]: containsPattern(String(value)) }, form: 'contains' };
    if (match === 'prefix') {
      const parts = startsWithParts(column, key, String(value));
      return { where: parts.where, values: parts.values, form: parts.form };
    }
    return { where: eq(column, p(key)), values: { [key]: value }, form: 'eq' };
  };

  // an update writes what its schema takes: a key only the create sets (a release project's) stays
  const updatable = Object.keys(resource.update.shape).filter((k) => k in columns);
  const valuesOf = (input: Row, keys = writable) => storedValues(input, keys);

  async function assertUnique(ctx: Ctx, input: Row, exceptId?: number) {
    for (const field of Object.keys(options.unique ?? {})) {
      const column = columns[field] as AnyPgColumn;
      if (input[field] === undefined || input[field] === null) continue;
      const [taken] = await ctx.tx
        .select({ id })
        .from(table)
        .where(and(mine(ctx), eq(column, input[field]), exceptId ? ne(id, exceptId) : undefined))
        .limit(1);
      if (taken) throw conflict(field);
    }
  }
  const constraints = {
    ...Object.fromEntries(Object.entries(options.unique ?? {}).map(([field, name]) => [name, field])),
    ...options.raced,
  };
  const one = (ctx: Ctx, rowId: number) => and(mine(ctx), eq(id, rowId));

  return {
    async list(ctx, query) {
      const q = query as Row & {
        pageNum: number;
        pageSize: number;
        sort: { column: string; direction: 'asc' | 'desc' };
        after?: number;
        before?: number;
      };
      const filters = Object.keys(filterShape).flatMap((k) => {
        const filter = filterOf(k, q[k]);
        return filter ? [[k, filter] as const] : [];
      });
      const where = allOf(tenantWhere, ...filters.map(([, f]) => f.where));
      const cursor = q.after !== undefined ? 'after' : q.before !== undefined ? 'before' : null;
      const page = pageOffset(q);
      // a deep page by number starts from a row seen near it (pageMarks), skipping the rows in between
      const marks = cursor || global ? null : pageMarks(ctx, q.sort, page.offset, sortColumns[q.sort.column] as AnyPgColumn);
      const read = async (start: { id: number; skip: number } | null) => {
        const skip = cursor ? 0 : start ? start.skip : page.offset;
        // after/before: the page next to a row, by keyset (the contract offers them when the resource says so)
        const keyset = keysetPage(
          start ? { sort: q.sort, from: start.id } : q,
          sortColumns,
          id,
          (rowId) => sql`select ${sortColumns[q.sort.column]} from ${table} where ${and(tenantWhere, eq(id, rowId))}`,
          p('cursor'),
        );
        const values: Row = { ...tenantValue(ctx), offset: skip, cursor: q.after ?? q.before ?? start?.id };
        for (const [, f] of filters) Object.assign(values, f.values);
        const key = JSON.stringify([
          'page',
          filters.map(([k, f]) => [k, f.form]),
          q.sort,
          q.pageSize,
          skip > 0,
          cursor ?? (start && 'from'),
        ]);
        const [rows, total] = await oneAtATime([
          () => statements<Row>(ctx.tx, key, pageStatement(selection, table, where, keyset, page.limit, skip), values),
          () => {
            const counted = async () => (await ctx.tx.select({ n: count() }).from(table).where(where).execute(values))[0]?.n ?? 0;
            return global ? counted() : listTotal(ctx, counted);
          },
        ]);
        if (keyset.backwards) rows.reverse();
        return { rows, total };
      };
      const { rows, total } = await readMarked(marks, read, (page) => page.rows.map((r) => r.id as number));
      const cursorId = q.after ?? q.before;
      if (cursor && rows.length === 0) {
        const [known] = await ctx.tx
          .select({ id })
          .from(table)
          .where(one(ctx, cursorId as number));
        if (!known) throw invalidField(cursor, 'ref', 'ref.missingId', { id: cursorId as number });
      }
      // plain rows map without a promise each; a toItem that reads runs one row at a time (one connection)
      const list: Item[] = [];
      for (const row of rows) {
        const item = toItem(row, ctx);
        list.push(item instanceof Promise ? await item : item);
      }
      return { list, total };
    },

    async get(ctx, rowId) {
      const row = await readOne(ctx, rowId);
      return row ? whole(ctx, await toItem(row, ctx)) : null;
    },

    async create(ctx, input) {
      const values = input as Row;
      await options.authorizeWrite?.(ctx, values);
      await assertUnique(ctx, values);
      const derived = await options.beforeWrite?.(ctx, values);
      const by = ctx.caller.accountId;
      const audit = 'createBy' in columns ? { createBy: by, updateBy: by } : {};
      const [row] = await ctx.tx
        .insert(table)
        .values({ ...valuesOf(values), ...derived, ...audit, ...tenantValue(ctx) })
        .returning()
        .catch((e) => rethrowUnique(e, constraints));
      await options.afterWrite?.(ctx, row as Row, values);
      return whole(ctx, await written(ctx, row as Row));
    },

    async update(ctx, rowId, input, before) {
      const values = input as Row;
      await options.authorizeWrite?.(ctx, values, rowId);
      await assertUnique(ctx, values, rowId);
      const derived = await options.beforeWrite?.(ctx, values, rowId);
      const audit = 'updateBy' in columns ? { updateBy: ctx.caller.accountId, updateTime: new Date() } : {};
      const [row] = await ctx.tx
        .update(table)
        .set({ ...valuesOf(values, updatable), ...derived, ...audit })
        .where(one(ctx, rowId))
        .returning()
        .catch((e) => rethrowUnique(e, constraints));
      await options.afterUpdate?.(ctx, row as Row, before);
      await options.afterWrite?.(ctx, row as Row, values);
      return whole(ctx, await written(ctx, row as Row));
    },

    async setStatus(ctx, rowId, status) {
      await options.beforeStatus?.(ctx, rowId, status);
      const audit = 'updateBy' in columns ? { updateBy: ctx.caller.accountId, updateTime: new Date() } : {};
      const [row] = await ctx.tx
        .update(table)
        .set({ status, ...audit })
        .where(one(ctx, rowId))
        .returning();
      await options.afterStatus?.(ctx, row as Row);
      return written(ctx, row as Row);
    },

    async remove(ctx, rowId) {
      await options.beforeDelete?.(ctx, rowId);
      if (options.references?.length) await refuseIfReferenced(ctx, table as PgTable & { id: AnyPgColumn }, rowId, options.references);
      await ctx.tx.delete(table).where(one(ctx, rowId));
    },
  };
}
