import { envelopeOf } from '@atrium/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { recordAudit } from './audit';
import { type Ctx, inTenant } from './context';
import { errorResponses, ok, type RouteOptionsExtra, type RouteResource, routeOptions } from './register-resource';
import { totalsOf } from './totals';

type Schema = z.ZodType;
type Out<S> = S extends Schema ? z.output<S> : undefined;
type Input<B, P, Q> = { body: Out<B>; params: Out<P>; query: Out<Q> };

export type TypedRoute<B, P, Q, Res extends Schema> = Pick<RouteOptionsExtra, 'logAs' | 'grant'> & {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  /** the action of the resource's permission (`erp:sale:confirm`) */
  action: string;
  body?: B;
  params?: P;
  query?: Q;
  response: Res;
  /** a write: operation-log entry and the tenant's totals dropped */
  write?: boolean;
  /**
   * A paged list whose totals are kept (`listTotal`, crud/totals.ts), under this name and the query's
   * filters (everything but the page and the sort).
   */
  keptTotals?: string;
  summary?: string;
  /** Answers with plain text instead of the envelope when this gives a string (a log read as a file). */
  asText?: (result: z.output<Res>, query: Out<Q>) => string | undefined;
};

/** A route without a session: its body is the credential (an agent's one-time token), so it is rate-limited. */
export type PublicRoute<B, P, Q, Res extends Schema> = Omit<
  TypedRoute<B, P, Q, Res>,
  'action' | 'write' | 'keptTotals' | 'grant' | 'logAs'
> & {
  public: { max: number; timeWindow: number };
};

/**
 * A route beyond the convention, typed end to end: the handler gets the parsed body, params and
 * query as the zod schemas give them (no `request.body as …`), runs in the tenant transaction, and
 * its answer is wrapped in the envelope. Permission and audit as for the conventional routes
 * (or, with `grant`, the handler's own check of the caller's grants). A `public` route has no session
 * and no tenant transaction: its handler opens the transaction of the tenant its input names.
 */
export function typedRoute<B extends Schema | undefined, P extends Schema | undefined, Q extends Schema | undefined, Res extends Schema>(
  app: FastifyInstance,
  resource: RouteResource,
  route: PublicRoute<B, P, Q, Res>,
  handler: (input: Input<B, P, Q>) => Promise<z.output<Res>>,
): void;
export function typedRoute<B extends Schema | undefined, P extends Schema | undefined, Q extends Schema | undefined, Res extends Schema>(
  app: FastifyInstance,
  resource: RouteResource,
  route: TypedRoute<B, P, Q, Res>,
  handler: (ctx: Ctx, input: Input<B, P, Q>) => Promise<z.output<Res>>,
): void;
export function typedRoute(
  app: FastifyInstance,
  resource: RouteResource,
  route: TypedRoute<Schema, Schema, Schema, Schema> | PublicRoute<Schema, Schema, Schema, Schema>,
  handler:
    | ((ctx: Ctx, input: Input<Schema, Schema, Schema>) => Promise<unknown>)
    | ((input: Input<Schema, Schema, Schema>) => Promise<unknown>),
) {
  const schema = {
    ...(route.body ? { body: route.body } : {}),
    ...(route.params ? { params: route.params } : {}),
    ...(route.query ? { querystring: route.query } : {}),
    response: { 200: envelopeOf(route.response), ...errorResponses },
  };
  const inputOf = (request: FastifyRequest) => ({ body: request.body, params: request.params, query: request.query });
  const answer = (result: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const text = route.asText?.(result, request.query);
    return text === undefined ? ok(result) : reply.type('text/plain; charset=utf-8').send(text);
  };
  const typed = app.withTypeProvider<ZodTypeProvider>();
  if ('public' in route) {
    const work = handler as (input: Input<Schema, Schema, Schema>) => Promise<unknown>;
    typed.route({
      method: route.method,
      url: route.url,
      schema: { tags: [resource.domain], summary: route.summary ?? `${resource.name}: public`, ...schema },
      config: { public: true, rateLimit: route.public },
      handler: async (request, reply) => answer(await work(inputOf(request) as never), request, reply),
    });
    return;
  }
  const work = handler as (ctx: Ctx, input: Input<Schema, Schema, Schema>) => Promise<unknown>;
  typed.route({
    method: route.method,
    url: route.url,
    ...routeOptions(resource, route.action, schema, { write: route.write, summary: route.summary, logAs: route.logAs, grant: route.grant }),
    handler: async (request, reply) => {
      const totals = route.keptTotals ? totalsOf(app, route.keptTotals, request.query as Record<string, unknown>) : undefined;
      const result = await inTenant(request, (ctx) => work(ctx, inputOf(request) as never), { totals });
      // a handler that recorded its own after (an environment's, secrets masked) keeps it
      if (route.write && request.auditState?.after === undefined) recordAudit(request, { after: result });
      return answer(result, request, reply);
    },
  });
}
