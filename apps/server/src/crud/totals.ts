import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Caller, Ctx } from './context';

/** How long a kept total is trusted when no write in its tenant has been seen. */
export const TOTALS_TTL_MS = 10_000;
const PER_TENANT_LIMIT = 2_000;
const MARKS_PER_LIST = 64;

/**
 * Rows seen at known positions of one list in one order: position → row id, since `at`; `checking`,
 * when a request was sent to read its page by OFFSET again because the marks aged.
 */
type Marks = { at: number; ids: Map<number, number>; checking?: number };

/**
 * Exact list totals, kept per tenant, resource, data scope and filter. Counting 100,000 rows costs
 * more than the page itself, and paging through a list asks the same count again and again; a write
 * in the tenant (an audited or PUT/DELETE API request through this instance, or a peer's, relayed over
 * the Redis backplane) drops the tenant's totals at once, and a total is never older than TOTALS_TTL_MS
 * plus one recount: one request at a time counts a total afresh, the others share that count, or,
 * when the total merely aged, answer with it until the recount is in.
 */
export class TotalsCache {
  private readonly tenants = new Map<number, Map<string, { total: number; at: number }>>();
  private readonly generations = new Map<number, number>();
  private readonly inFlight = new Map<string, Promise<number>>();
  /** Per tenant and list (its totals key and sort): rows at known positions, for deep pages. */
  readonly marks = new Map<number, Map<string, Marks>>();

  constructor(private readonly now: () => number = Date.now) {}

  async get(tenantId: number, key: string, count: () => Promise<number>): Promise<number> {
    const hit = this.tenants.get(tenantId)?.get(key);
    if (hit && this.now() - hit.at < TOTALS_TTL_MS) return hit.total;
    const generation = this.generations.get(tenantId) ?? 0;
    // one count at a time per total: requests arriving while it runs share it (when it started after the
    // tenant's last write); if it fails, each counts for itself
    const flightKey = `${tenantId}|${generation}|${key}`;
    const running = this.inFlight.get(flightKey);
    // a total that merely aged (no write since: a write drops it) stays good while its recount runs
    if (running && hit) return hit.total;
    if (running) return running.catch(count);
    const at = this.now();
    const counting = count();
    this.inFlight.set(flightKey, counting);
    let total: number;
    try {
      total = await counting;
    } finally {
      this.inFlight.delete(flightKey);
    }
    // a write that landed while counting dropped the tenant's totals: this one may be from before it
    if ((this.generations.get(tenantId) ?? 0) === generation) {
      const kept = this.tenants.get(tenantId) ?? new Map<string, { total: number; at: number }>();
      if (kept.size >= PER_TENANT_LIMIT) kept.delete(kept.keys().next().value as string);
      kept.set(key, { total, at });
      this.tenants.set(tenantId, kept);
    }
    return total;
  }

  /** Counts the tenant's writes seen: a read that started in another generation keeps nothing. */
  generation(tenantId: number): number {
    return this.generations.get(tenantId) ?? 0;
  }

  /**
   * The remembered row nearest at or before `position` of a list. Marks that aged (no write seen since
   * they were made: a write drops them) send one request to read by OFFSET, which makes them afresh;
   * the others start from them meanwhile, as a total that aged is answered while it is recounted —
   * else every request arriving during that slow read would read by OFFSET too. Another request is
   * sent after TOTALS_TTL_MS if the first made none.
   */
  nearest(tenantId: number, key: string, position: number): { position: number; id: number } | null {
    const kept = this.marks.get(tenantId)?.get(key);
    if (!kept) return null;
    const now = this.now();
    if (now - kept.at >= TOTALS_TTL_MS && (kept.checking === undefined || now - kept.checking >= TOTALS_TTL_MS)) {
      kept.checking = now;
      return null;
    }
    let best = -1;
    for (const at of kept.ids.keys()) if (at <= position && at > best) best = at;
    return best < 0 ? null : { position: best, id: kept.ids.get(best) as number };
  }

  /** Whether a list's marks aged: a read that started from them must not make them fresh again. */
  aged(tenantId: number, key: string): boolean {
    const kept = this.marks.get(tenantId)?.get(key);
    return kept !== undefined && this.now() - kept.at >= TOTALS_TTL_MS;
  }

  /** Rows a read (started in `generation`) saw at these positions of a list. */
  remember(tenantId: number, key: string, generation: number, seen: Array<[position: number, id: number]>): void {
    if (this.generation(tenantId) !== generation || seen.length === 0) return;
    const lists = this.marks.get(tenantId) ?? new Map<string, Marks>();
    this.marks.set(tenantId, lists);
    let kept = lists.get(key);
    if (!kept || this.now() - kept.at >= TOTALS_TTL_MS) {
      if (!kept && lists.size >= PER_TENANT_LIMIT) lists.delete(lists.keys().next().value as string);
      kept = { at: this.now(), ids: new Map() };
      lists.set(key, kept);
    }
    for (const [position, id] of seen) {
      kept.ids.delete(position);
      if (kept.ids.size >= MARKS_PER_LIST) kept.ids.delete(kept.ids.keys().next().value as number);
      kept.ids.set(position, id);
    }
  }

  /** A list's marks led nowhere (their row is gone): its deep pages read by OFFSET until seen again. */
  forget(tenantId: number, key: string): void {
    this.marks.get(tenantId)?.delete(key);
  }

  /**
   * Something in the tenant changed: its totals are counted afresh and its lists' remembered rows are
   * dropped — all of them, or only those of `resource` (a count or read running meanwhile keeps nothing
   * either way).
   */
  drop(tenantId: number, resource?: string): void {
    for (const kept of [this.tenants, this.marks]) {
      const lists = kept.get(tenantId);
      if (resource === undefined) kept.delete(tenantId);
      else if (lists) for (const key of [...lists.keys()]) if (key.startsWith(`${resource}|`)) lists.delete(key);
    }
    this.generations.set(tenantId, (this.generations.get(tenantId) ?? 0) + 1);
  }
}

/** The name a resource's totals are kept under: keyed by domain too (erp:category and mall:category differ). */
export const totalsName = (resource: { domain: string; name: string }) => `${resource.domain}:${resource.name}`;

/**
 * Drops a tenant's kept totals of one resource here and on the other instances, for writes that are
 * not API writes (a sign-in's log entry).
 */
export function dropTotals(app: FastifyInstance, tenantId: number, resource: string): void {
  app.totals?.drop(tenantId, resource);
  app.sessions.backplane?.publish({ kind: 'totals', tenantId, resource });
}

/**
 * What a list request's kept total is keyed by: its filters, without what only picks the page (the
 * page number and size, the sort, a keyset cursor), so every page of one list shares one count.
 */
export function totalsOf(app: FastifyInstance, resource: string, query: Record<string, unknown> | undefined): NonNullable<Ctx['totals']> {
  const { pageNum: _n, pageSize: _s, sort: _o, after: _a, before: _b, ...filters } = query ?? {};
  return { cache: app.totals, resource, filters: JSON.stringify(filters) };
}

/** The part of the caller a total depends on, or null when it is too personal to keep. */
export function scopeKey(caller: Caller): string | null {
  if (caller.superAdmin || caller.dataScope === '1') return 'all';
  if (caller.dataScope === '3' || caller.dataScope === '4') return `${caller.dataScope}:${caller.deptId ?? 0}`;
  return null; // custom departments and "self": cheap to count, and keyed by too much
}

/**
 * The list total through the cache when the list route offered one (`ctx.totals`), else counted.
 * `count` must depend only on the tenant, the caller's data scope and the list filters.
 */
export function listTotal(ctx: Ctx, count: () => Promise<number>): Promise<number> {
  return (ctx.totals && keptTotal(ctx, ctx.totals.filters, count)) ?? count();
}

/**
 * Another total of the list being read, under the key its own request keeps it by (`filters` as
 * `totalsOf` writes them: '{}' for the unfiltered list), so the two share one count; null where the
 * list keeps no totals for this caller.
 */
export function keptTotal(ctx: Ctx, filters: string, count: () => Promise<number>): Promise<number> | null {
  const scope = scopeKey(ctx.caller);
  if (!ctx.totals || scope === null) return null;
  return ctx.totals.cache.get(ctx.caller.tenantId, `${ctx.totals.resource}|${scope}|${filters}`, count);
}

declare module 'fastify' {
  interface FastifyInstance {
    totals: TotalsCache;
  }
}

const WRITES = new Set(['PUT', 'PATCH', 'DELETE']);
// audited routes are the writes; a POST without an audit entry reads (user info, menu) or signs in and out
const isWrite = (request: FastifyRequest) => WRITES.has(request.method) || request.routeOptions.config.audit !== undefined;

/** `app.totals`, dropped for the caller's tenant after every API write (done, failed or refused). */
export const totalsPlugin = fp(
  async (app: FastifyInstance) => {
    const totals = new TotalsCache();
    app.decorate('totals', totals);
    // onResponse runs after the write committed and after its operation-log entry (onSend)
    app.addHook('onResponse', async (request) => {
      if (!request.auth || !isWrite(request)) return;
      const tenantId = request.auth.tenantId;
      totals.drop(tenantId);
      app.sessions.backplane?.publish({ kind: 'totals', tenantId });
    });
  },
  { name: 'totals', dependencies: ['auth'] },
);
