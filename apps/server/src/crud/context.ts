import type { FastifyRequest } from 'fastify';
import { type Tx, withTenant, withTenantRead } from '../db/client';
import type { AuthContext } from '../plugins/external/access';
import type { TotalsCache } from './totals';

/** The signed-in caller, as the auth plugin resolved it. */
export type Caller = AuthContext;

/**
 * Handed to repositories and services: the tenant transaction, who is asking, and `afterCommit` for
 * effects that must wait for the commit (ending sessions, dropping cached access) — on PGlite they
 * could not even run while the transaction holds the only connection.
 */
export type Ctx = {
  tx: Tx;
  caller: Caller;
  request: FastifyRequest;
  afterCommit(effect: () => unknown): void;
  /** Set by list routes: where `listTotal` may keep the total of this resource and these filters. */
  totals?: { cache: TotalsCache; resource: string; filters: string };
};

export function callerOf(request: FastifyRequest): Caller {
  if (!request.auth) throw new Error('route without a session reached the resource machinery');
  return request.auth;
}

/**
 * Runs `work` in the caller's tenant transaction (row-level security scoped to the session's tenant): the
 * one way a request enters its tenant. Work without a request (agents, printers, seeds) uses `withTenant`
 * with the tenant it serves. A GET only reads: on PostgreSQL it runs on the read-only connections.
 */
export async function inTenant<T>(request: FastifyRequest, work: (ctx: Ctx) => Promise<T>, extra: Pick<Ctx, 'totals'> = {}): Promise<T> {
  const caller = callerOf(request);
  const effects: (() => unknown)[] = [];
  const enter = request.method === 'GET' ? withTenantRead : withTenant;
  const result = await enter(request.server.database.db, caller.tenantId, (tx) =>
    work({ tx, caller, request, afterCommit: (effect) => effects.push(effect), ...extra }),
  );
  for (const effect of effects) await effect();
  return result;
}
