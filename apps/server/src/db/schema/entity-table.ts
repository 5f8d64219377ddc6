import type { BuildExtraConfigColumns } from 'drizzle-orm';
import { type PgColumnBuilderBase, type PgTableExtraConfigValue, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { audit, id } from './columns';
import { tenantId, tenantPolicy } from './tenancy';

// not re-exported by index.ts: it makes tables, it is not one

type EntityColumns<C> = { tenantId: ReturnType<typeof tenantId>; id: ReturnType<typeof id> } & C & typeof audit;

/**
 * A tenant's entity table, with what every one of them has written once: `tenant_id` and `id` first, the
 * audit columns last, the key `(tenant_id, id)` and the tenant's row-level-security policy. `extra` adds
 * the table's own indexes and keys.
 */
export function entityTable<N extends string, C extends Record<string, PgColumnBuilderBase>>(
  name: N,
  columns: C,
  extra?: (t: BuildExtraConfigColumns<N, EntityColumns<C>, 'pg'>) => PgTableExtraConfigValue[],
) {
  return pgTable(name, { tenantId: tenantId(), id: id(), ...columns, ...audit } as EntityColumns<C>, (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    ...(extra?.(t) ?? []),
    tenantPolicy(name),
  ]);
}
