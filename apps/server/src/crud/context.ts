import type { FastifyRequest } from 'fastify';
import type { Tx } from '../db/client';
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

/** Runs `work` in the caller's tenant transaction (row-level security scoped to the session's tenant). */
export async function inTenant<T>(request: FastifyRequest, work: (ctx: Ctx) => Promise<T>, extra: Pick<Ctx, 'totals'> = {}): Promise<T> {
  const caller = callerOf(request);
  const effects: (() => unknown)[] = [];
  const result = await request.tx((tx) => work({ tx, caller, request, afterCommit: (effect) => effects.push(effect), ...extra }));
  for (const effect of effects) await effect();
  return result;
}
