import { sql } from 'drizzle-orm';
import type { Database, RawResult } from '../../src/db/client';
import { withTenant } from '../../src/db/client';
import type { RegisteredRoute } from '../../src/plugins/external/route-registry';

/** API routes a test can walk: everything under /api except the documentation UI. */
export function apiRoutes(routes: RegisteredRoute[]): RegisteredRoute[] {
  return routes.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'));
}

/** A concrete URL for a route, with each `:param` replaced. */
export function fillParams(url: string, value: (name: string) => string): string {
  return url.replace(/:([A-Za-z_]+)/g, (_, name: string) => encodeURIComponent(value(name)));
}

// tables that legitimately change on a rejected request: logs of the attempt, session bookkeeping,
// failure counters, rate-limit and captcha state, devices that signed in
const volatile = new Set(['oper_logs', 'login_logs', 'sessions', 'password_resets', 'kv_entries', 'known_devices']);
// columns that sign-in attempts update by design
const volatileColumns: Record<string, string[]> = { accounts: ['last_tenant_id'] };

/**
 * A fingerprint of the whole database as the application sees it: every global table, and every tenant
 * table once per tenant (row-level security shows one tenant at a time).
 */
export async function databaseFingerprint(database: Database): Promise<string> {
  const tables = await database.query<{ name: string; tenant: boolean }>(
    `select c.relname as name,
            exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped) as tenant
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r' order by c.relname`,
  );
  const tenantIds = (await database.query<{ id: number }>('select id from tenants order by id')).map((t) => Number(t.id));
  // one statement for the global tables and one per tenant for the tenant ones (a statement per table
  // and tenant made the fuzzing of every write route spend most of its time here)
  const digestAll = (names: string[]) =>
    sql.raw(
      `select ${names
        .map((name) => {
          const row = ['to_jsonb(t)', ...(volatileColumns[name] ?? []).map((c) => `'${c}'`)].join(' - ');
          return `(select md5(coalesce(string_agg((${row})::text, '|' order by (${row})::text), '')) from "${name}" t) as "${name}"`;
        })
        .join(',\n       ')}`,
    );
  const kept = tables.filter((t) => !volatile.has(t.name));
  const global = kept.filter((t) => !t.tenant).map((t) => t.name);
  const perTenant = kept.filter((t) => t.tenant).map((t) => t.name);
  const parts: string[] = [];
  if (global.length) {
    const result = (await database.db.execute(digestAll(global))) as RawResult<Record<string, string>>;
    for (const name of global) parts.push(`${name}:${result.rows[0]?.[name]}`);
  }
  for (const tenantId of perTenant.length ? tenantIds : []) {
    const result = (await withTenant(database.db, tenantId, (tx) => tx.execute(digestAll(perTenant)))) as RawResult<Record<string, string>>;
    for (const name of perTenant) parts.push(`${name}@${tenantId}:${result.rows[0]?.[name]}`);
  }
  return parts.sort().join('\n');
}
