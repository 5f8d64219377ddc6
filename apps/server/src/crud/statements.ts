import { is, Placeholder, sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import type { Caller } from './context';

/**
 * What a drizzle select builder turns into once: the statement text with its parameters (placeholders
 * only), and what maps the answer's rows back to the selected fields. Built through drizzle's own
 * `_prepare`, so rows come back exactly as the builder's `await` would give them.
 */
type Shape = { query: { sql: string; params: unknown[] }; fields: unknown; joinsNotNullableMap: unknown };

type Preparable = { toSQL(): { sql: string; params: unknown[] }; _prepare(): { fields?: unknown; joinsNotNullableMap?: unknown } };
type Session = {
  prepareQuery(
    query: Shape['query'],
    fields: unknown,
    name: undefined,
    arrayMode: boolean,
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
  return async function run<Row>(tx: Tx, key: string, build: (tx: Tx) => unknown, values: Record<string, unknown>): Promise<Row[]> {
    let shape = shapes.get(key);
    if (!shape) {
      const builder = build(tx) as Preparable;
      const query = builder.toSQL();
      const fixed = query.params.findIndex((param) => !is(param, Placeholder));
      if (fixed >= 0) throw new Error(`statement ${name} (${key}): parameter $${fixed + 1} is a value, not a placeholder`);
      const prepared = builder._prepare();
      shape = { query, fields: prepared.fields, joinsNotNullableMap: prepared.joinsNotNullableMap };
      // shapes are few (filters present or not, sorts); the bound only guards against a key built from values
      if (shapes.size < limit) shapes.set(key, shape);
    }
    const session = (tx as unknown as { session: Session }).session;
    const query = session.prepareQuery(shape.query, shape.fields, undefined, true);
    query.joinsNotNullableMap = shape.joinsNotNullableMap;
    return (await query.execute(values)) as Row[];
  };
}

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
