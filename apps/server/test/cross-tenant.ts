import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type Database, type RawResult, withTenant } from '../src/db/client';
import type { RegisteredRoute } from '../src/plugins/external/route-registry';
import { apiRoutes, databaseFingerprint, fillParams } from './attack/surface';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Answer = { status: number; code: number | undefined; data: unknown };

export type CrossTenantOptions = {
  /** The tenant whose rows the intruder aims at. */
  victimTenant: string;
  /** A signed-in session of the victim tenant that may read everything (finds real ids and sample bodies). */
  ownerToken: string;
  /** A signed-in session of another tenant, with every permission there. */
  intruderToken: string;
  /** Request bodies for routes whose body cannot be taken from a GET of the same resource: `'PUT /api/x/:id'` → body. */
  bodies?: Record<string, unknown>;
  /** At most this many ids per route when no GET sibling tells which ids exist (default 8). */
  maxIds?: number;
};

export type CrossTenantReport = {
  /** `METHOD url id → status` for every request made. */
  checked: string[];
  /** Requests whose answer for a victim id differs from the answer for an id that exists nowhere, or succeeded. */
  failures: string[];
  /** Routes the matrix could not drive to the row lookup (400 for both ids): give them a body in `bodies`. */
  unverified: string[];
  /** Routes the intruder may not call at all (403 whatever the id). */
  outOfReach: string[];
  /** Whether the database (all tenants, every non-log table) is exactly as before. */
  unchanged: boolean;
};

// an id no table will reach in a test run
const ABSENT_ID = 987_654_321;

/** Routes that take a row id of the session's tenant: an `…id` parameter, not public, not a global resource. */
export function idRoutes(routes: RegisteredRoute[]): RegisteredRoute[] {
  return apiRoutes(routes).filter((r) => /:\w*[iI]d\b/.test(r.url) && !r.config.public && !r.config.globalResource);
}

/** Every id of every tenant table (with an `id` column) as row-level security shows it to one tenant. */
export async function tenantIds(database: Database, tenantId: number): Promise<Set<number>> {
  const tables = await database.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r'
        and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped)
        and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'id' and not a.attisdropped)`,
  );
  const ids = new Set<number>();
  await withTenant(database.db, tenantId, async (tx) => {
    for (const { name } of tables) {
      const result = (await tx.execute(sql.raw(`select id::bigint as id from "${name}"`))) as RawResult<{ id: number | string }>;
      for (const row of result.rows) ids.add(Number(row.id));
    }
  });
  return ids;
}

const commonPrefix = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
};
const head = (url: string) => url.slice(0, url.indexOf(':'));

/** The GET route of the same resource: same URL, else the GET `…/:id` sharing the longest prefix (at least domain/entity). */
function getSibling(route: RegisteredRoute, gets: RegisteredRoute[]): RegisteredRoute | null {
  const exact = gets.find((g) => g.url === route.url);
  if (exact) return exact;
  const minimum = route.url.split('/').slice(0, 4).join('/').length + 1;
  let best: RegisteredRoute | null = null;
  let bestLength = 0;
  for (const g of gets) {
    const length = commonPrefix(head(route.url), head(g.url));
    if (length >= minimum && length > bestLength) {
      best = g;
      bestLength = length;
    }
  }
  return best;
}

async function send(app: FastifyInstance, method: string, url: string, token: string, body?: unknown): Promise<Answer> {
  const response = await app.inject({
    method: method as Method,
    url,
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'en-US' },
    ...(method === 'GET' || method === 'DELETE' || body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });
  let json: { code?: number; data?: unknown } = {};
  try {
    json = response.json();
  } catch {}
  return { status: response.statusCode, code: json.code, data: json.data ?? null };
}

/**
 * The cross-tenant matrix, generated from the registered routes: for every route that takes a row id,
 * a session of another tenant uses ids that exist only in the victim tenant. Each answer must be the
 * answer for an id that exists nowhere (404 when the body is valid), never a success or a different
 * error that hints at the row; and afterwards the database must be exactly as before.
 * Routes added later are covered without touching this file.
 */
export async function crossTenantMatrix(app: FastifyInstance, database: Database, options: CrossTenantOptions): Promise<CrossTenantReport> {
  const [victim] = await database.query<{ id: number }>('select id from tenants where code = $1', [options.victimTenant]);
  if (!victim) throw new Error(`no tenant ${options.victimTenant}`);
  const victimId = Number(victim.id);
  const others = (await database.query<{ id: number }>('select id from tenants where id <> $1', [victimId])).map((t) => Number(t.id));
  const idsElsewhere = async () => {
    const ids = new Set<number>();
    for (const tenant of others) for (const id of await tenantIds(database, tenant)) ids.add(id);
    return ids;
  };
  const elsewhere = await idsElsewhere();
  // ids of the victim's rows that name no row of any other tenant (in any table)
  const candidates = [...(await tenantIds(database, victimId))].filter((id) => !elsewhere.has(id)).sort((a, b) => a - b);
  if (candidates.length === 0) throw new Error('the victim tenant has no rows with ids of its own: add some before the matrix');

  const routes = idRoutes(app.routeRegistry);
  const gets = routes.filter((r) => r.method === 'GET');
  const report: CrossTenantReport = { checked: [], failures: [], unverified: [], outOfReach: [], unchanged: true };
  const fill = (url: string, id: number) => fillParams(url, () => String(id));

  // which candidate ids are real rows behind each GET route, and what they look like, as the owner sees them
  const rowsBehind = new Map<string, Map<number, unknown>>();
  for (const g of gets) {
    const seen = new Map<number, unknown>();
    for (const id of candidates) {
      const answer = await send(app, 'GET', fill(g.url, id), options.ownerToken);
      if (answer.status === 200) seen.set(id, answer.data);
    }
    rowsBehind.set(g.url, seen);
  }

  const before = await databaseFingerprint(database);
  // reads first: they write nothing, so no id the intruder's requests create can meet a victim id yet
  const ordered = [...routes.filter((r) => r.method === 'GET'), ...routes.filter((r) => r.method !== 'GET')];
  for (const route of ordered) {
    const key = `${route.method} ${route.url}`;
    const sibling = getSibling(route, gets);
    const known = sibling ? rowsBehind.get(sibling.url) : undefined;
    const ids = (known && known.size > 0 ? [...known.keys()] : candidates).slice(0, options.maxIds ?? 8);
    const bodyFor = (id: number) => options.bodies?.[key] ?? (known?.get(id) as unknown) ?? {};
    let reachedLookup = false;
    let allForbidden = true;
    for (const id of ids) {
      const body = bodyFor(id);
      const absent = await send(app, route.method, fill(route.url, ABSENT_ID), options.intruderToken, body);
      const aimed = await send(app, route.method, fill(route.url, id), options.intruderToken, body);
      report.checked.push(`${key} ${id} → ${aimed.status}`);
      if (aimed.status < 300) {
        // the intruder's own writes add rows (operation-log entries…) whose ids may meet a victim id
        if ((await idsElsewhere()).has(id)) report.unverified.push(`${key} ${id} (the intruder has a row with this id by now)`);
        else report.failures.push(`${key} with ${options.victimTenant} id ${id}: succeeded (${aimed.status})`);
      } else if (aimed.status !== absent.status || aimed.code !== absent.code) {
        report.failures.push(
          `${key} with ${options.victimTenant} id ${id}: ${aimed.status}/${aimed.code}, but an id that exists nowhere gets ${absent.status}/${absent.code}`,
        );
      }
      if (absent.status === 404 && aimed.status === 404) reachedLookup = true;
      if (absent.status !== 403) allForbidden = false;
    }
    if (allForbidden) report.outOfReach.push(key);
    else if (!reachedLookup) report.unverified.push(key);
  }
  report.unchanged = (await databaseFingerprint(database)) === before;
  return report;
}
