import { envelopeOf, type Resource } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { recordAudit } from './audit';
import { type Ctx, inTenant } from './context';
import { errorResponses, ok, routeOptions } from './register-resource';
import { totalsOf } from './totals';

type Schema = z.ZodType;
type Out<S> = S extends Schema ? z.output<S> : undefined;

export type TypedRoute<B, P, Q, Res extends Schema> = {
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
};

/**
 * A route beyond the convention, typed end to end: the handler gets the parsed body, params and
 * query as the zod schemas give them (no `request.body as …`), runs in the tenant transaction, and
 * its answer is wrapped in the envelope. Permission and audit as for the conventional routes.
 */
export function typedRoute<B extends Schema | undefined, P extends Schema | undefined, Q extends Schema | undefined, Res extends Schema>(
  app: FastifyInstance,
  resource: Resource,
  route: TypedRoute<B, P, Q, Res>,
  handler: (ctx: Ctx, input: { body: Out<B>; params: Out<P>; query: Out<Q> }) => Promise<z.output<Res>>,
) {
  const schema = {
    ...(route.body ? { body: route.body } : {}),
    ...(route.params ? { params: route.params } : {}),
    ...(route.query ? { querystring: route.query } : {}),
    response: { 200: envelopeOf(route.response), ...errorResponses },
  };
  app.withTypeProvider<ZodTypeProvider>().route({
    method: route.method,
    url: route.url,
    ...routeOptions(resource, route.action, schema, { write: route.write, summary: route.summary }),
    handler: async (request) => {
      const input = { body: request.body as Out<B>, params: request.params as Out<P>, query: request.query as Out<Q> };
      const totals = route.keptTotals ? totalsOf(app, route.keptTotals, request.query as Record<string, unknown>) : undefined;
      const result = await inTenant(request, (ctx) => handler(ctx, input), { totals });
      if (route.write) recordAudit(request, { after: result });
      return ok(result);
    },
  });
}
