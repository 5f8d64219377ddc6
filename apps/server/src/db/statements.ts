import { Column, is, Param, Placeholder, SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db, Tx } from './client';

/**
 * What a drizzle select builder turns into once: the statement text with its parameters (placeholders
 * only), and what maps the answer's rows back to the selected fields. Built through drizzle's own
 * `_prepare`, so rows come back exactly as the builder's `await` would give them.
 */
type Shape = {
  query: { sql: string; params: unknown[] };
  fields: unknown;
  joinsNotNullableMap: unknown;
  mapRows?: (rows: unknown[][]) => Record<string, unknown>[];
};
type Decoder = { mapFromDriverValue(value: unknown): unknown };

type Preparable = { toSQL(): { sql: string; params: unknown[] }; _prepare(): { fields?: unknown; joinsNotNullableMap?: unknown } };
type Session = {
  prepareQuery(
    query: Shape['query'],
    fields: unknown,
    name: undefined,
    arrayMode: boolean,
    customResultMapper?: (rows: unknown[][]) => unknown,
  ): { joinsNotNullableMap?: unknown; execute(values: Record<string, unknown>): Promise<unknown> };
};

/**
 * Statements built once per shape instead of on every request: building the SQL text of a four-table
 * list with drizzle's query builder cost a fifth of the server's time per request. `key` names the
 * shape (which filters are present, the sort, the page size, the caller's kind of data scope);
 * everything that varies inside one shape must be a `sql.placeholder`, and a builder that puts a plain
 * value into a cached statement is refused at once, so no request's value can serve another request.
 */
export function statementCache(name: string, limit = 200) {
  const shapes = new Map<string, Shape>();
  return async function run<Row>(tx: Tx | Db, key: string, build: (tx: Tx) => unknown, values: Record<string, unknown>): Promise<Row[]> {
    let shape = shapes.get(key);
    if (!shape) {
      const builder = build(tx as Tx) as Preparable;
      const query = builder.toSQL();
      const fixed = query.params.findIndex((param) => !is(param, Placeholder));
      if (fixed >= 0) throw new Error(`statement ${name} (${key}): parameter $${fixed + 1} is a value, not a placeholder`);
      const prepared = builder._prepare();
      shape = {
        query,
        fields: prepared.fields,
        joinsNotNullableMap: prepared.joinsNotNullableMap,
        mapRows: flatRowMapper(prepared.fields),
      };
      // shapes are few (filters present or not, sorts); the bound only guards against a key built from values
      if (shapes.size < limit) shapes.set(key, shape);
    }
    const session = (tx as unknown as { session: Session }).session;
    const query = session.prepareQuery(shape.query, shape.fields, undefined, true, shape.mapRows);
    query.joinsNotNullableMap = shape.joinsNotNullableMap;
    return (await query.execute(values)) as Row[];
  };
}

/** A parameter a built statement may keep: a placeholder, bare or as a column's value (the column encodes it). */
const isPlaceholder = (param: unknown) => is(param, Placeholder) || (is(param, Param) && is(param.value, Placeholder));

type Dialect = { sqlToQuery(query: SQL): Shape['query'] };

/**
 * Any statement (an insert, an update, data-modifying CTEs written with `sql`) built once per shape
 * and then only run with its values, for statements a hot path sends on every call (a sign-in, the
 * shared store) where building the text cost more than PostgreSQL's run of it. The same rule as
 * `statementCache`: whatever varies is a `sql.placeholder`, given bare or as a column's value in
 * `insert().values()` / `update().set()`, where the column encodes it as drizzle would. Answers the
 * driver's raw result (`rows`, `rowCount`).
 */
export function builtStatements(name: string, limit = 50) {
  const shapes = new Map<string, Shape['query']>();
  return async function run<Row = Record<string, unknown>>(
    db: Db | Tx,
    key: string,
    build: (db: Db | Tx) => SQLWrapper,
    values: Record<string, unknown>,
  ): Promise<{ rows: Row[]; rowCount?: number | null; affectedRows?: number }> {
    let query = shapes.get(key);
    if (!query) {
      query = (db as unknown as { dialect: Dialect }).dialect.sqlToQuery(build(db).getSQL());
      const fixed = query.params.findIndex((param) => !isPlaceholder(param));
      if (fixed >= 0) throw new Error(`statement ${name} (${key}): parameter $${fixed + 1} is a value, not a placeholder`);
      if (shapes.size < limit) shapes.set(key, query);
    }
    const session = (db as unknown as { session: Session }).session;
    return (await session.prepareQuery(query, undefined, undefined, false).execute(values)) as never;
  };
}

/**
 * What drizzle does to each row of a flat select (one key per selected field), with the decoders found
 * once per statement instead of once per field of every row (drizzle's mapping asked each field what
 * it is on every row: 5 % of a list request's CPU). Selections with nested objects (a joined table as
 * a key) keep drizzle's own mapping.
 */
function flatRowMapper(fields: unknown): Shape['mapRows'] {
  const ordered = fields as { path: string[]; field: unknown }[] | undefined;
  if (!ordered?.length || ordered.some((f) => f.path.length !== 1)) return undefined;
  const names: string[] = [];
  const decoders: Decoder[] = [];
  for (const { path, field } of ordered) {
    let decoder: Decoder | undefined;
    if (is(field, Column)) decoder = field as unknown as Decoder;
    else if (is(field, SQL)) decoder = (field as unknown as { decoder: Decoder }).decoder;
    else if (is(field, SQL.Aliased)) decoder = (field.sql as unknown as { decoder: Decoder }).decoder;
    if (!decoder) return undefined;
    names.push(path[0] as string);
    decoders.push(decoder);
  }
  return (rows) =>
    rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) {
        const value = row[i];
        out[names[i] as string] = value === null ? null : (decoders[i] as Decoder).mapFromDriverValue(value);
      }
      return out;
    });
}
