import { sql } from 'drizzle-orm';
import type { Database, RawResult } from '../../src/db/client';
import { withTenant } from '../../src/db/client';
import type { RegisteredRoute } from '../../src/plugins/route-registry';

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
  const parts: string[] = [];
  const digest = (table: string) => {
    const row = ['to_jsonb(t)', ...(volatileColumns[table] ?? []).map((c) => `'${c}'`)].join(' - ');
    return sql.raw(`select md5(coalesce(string_agg((${row})::text, '|' order by (${row})::text), '')) as h from "${table}" t`);
  };
  for (const table of tables) {
    if (volatile.has(table.name)) continue;
    if (!table.tenant) {
      const result = (await database.db.execute(digest(table.name))) as RawResult<{ h: string }>;
      parts.push(`${table.name}:${result.rows[0]?.h}`);
      continue;
    }
    for (const tenantId of tenantIds) {
      const result = (await withTenant(database.db, tenantId, (tx) => tx.execute(digest(table.name)))) as RawResult<{ h: string }>;
      parts.push(`${table.name}@${tenantId}:${result.rows[0]?.h}`);
    }
  }
  return parts.join('\n');
}
