import { type AccountIdentifierUse, envelopeOf, errorEnvelopeSchema } from '@atrium/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from './audit';
import { type Ctx, inTenant } from './context';
import { errorResponses, ok, type RouteOptionsExtra, type RouteResource, routeOptions } from './register-resource';
import { totalsOf } from './totals';

type Schema = z.ZodType;
type Out<S> = S extends Schema ? z.output<S> : undefined;
type Input<B, P, Q> = { body: Out<B>; params: Out<P>; query: Out<Q> };
type RateLimit = { max: number; timeWindow: number };
/** What a handler returns: its response's value; a route answering `null` may return nothing. */
// biome-ignore lint/suspicious/noConfusingVoidType: a handler of a route that answers null may return nothing
type Answer<Res extends Schema> = null extends z.output<Res> ? z.output<Res> | void : z.output<Res>;

/** What every route declares: method, path, the zod schemas of its input and answer, its documentation. */
type RouteShape<B, P, Q, Res extends Schema> = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: B;
  params?: P;
  query?: Q;
  response: Res;
  summary?: string;
  description?: string;
  /** A per-IP limit (429 beyond it): routes that check a password or a code, or send mail. */
  rateLimit?: RateLimit;
  /** How the route uses the sign-in identifiers its body carries (the authorization matrix reads it). */
  accountIdentifiers?: AccountIdentifierUse;
  /** Answers a file of these types (a `Download`), not the envelope. */
  produces?: string[];
  /** Body types besides JSON (an uploaded sheet); the handler reads the raw body from the request. */
  consumes?: string[];
  /** Failures beyond the usual ones (400, 401, 403, 404, 409; 429 with a rate limit): 503… */
  errors?: readonly number[];
  /**
   * A browser navigation answered with a redirect (302), which `response` describes; the handler sends it
   * (`reply.redirect`) and returns the reply.
   */
  redirects?: boolean;
  /** The envelope's message, when it says more than `ok` (in the caller's language). */
  message?: (result: z.output<Res>, request: FastifyRequest) => string;
  /** Answers with plain text instead of the envelope when this gives a string (a log read as a file). */
  asText?: (result: z.output<Res>, query: Out<Q>) => string | undefined;
};

export type TypedRoute<B, P, Q, Res extends Schema> = RouteShape<B, P, Q, Res> &
  Pick<RouteOptionsExtra, 'logAs' | 'grant'> & {
    /** the action of the resource's permission (`erp:sale:confirm`) */
    action: string;
    /** a write: operation-log entry and the tenant's totals dropped */
    write?: boolean;
    /**
     * A paged list whose totals are kept (`listTotal`, crud/totals.ts), under this name and the query's
     * filters (everything but the page and the sort).
     */
    keptTotals?: string;
    /** Only a signed-in session, never a personal API token (403). */
    sessionOnly?: boolean;
  };

/**
 * A route of the caller's own (the profile, factors, notifications, tenant switch): any signed-in caller,
 * no permission; `session` refuses personal API tokens (making tokens, changing sign-in identifiers,
 * passwords or factors). With `inTenant` its handler runs in the tenant transaction.
 */
export type SignedInRoute<B, P, Q, Res extends Schema> = RouteShape<B, P, Q, Res> & {
  signedIn: 'any' | 'session';
  /** The handler runs in the caller's tenant transaction and gets its `Ctx`, as a resource route's does. */
  inTenant?: boolean;
  /** A check after the input is read and before the handler (a second factor proved in the last minutes). */
  before?: (request: FastifyRequest) => Promise<void>;
  /** A permission the caller must hold besides (a tenant-wide setting of the auth domain). */
  permission?: string;
  /** The route's `:id` names no row of the session's tenant: the cross-tenant matrix leaves it out. */
  globalResource?: boolean;
  /** an operation-log entry under this module and action */
  audit?: { module: string; action: string };
};

/**
 * A route without a session (sign-in, captcha, register, an agent's one-time token): its body is the
 * credential, so it is rate-limited; `true` only where it proves nothing (sign-out, the app's version).
 */
export type PublicRoute<B, P, Q, Res extends Schema> = Omit<RouteShape<B, P, Q, Res>, 'rateLimit'> & {
  public: RateLimit | true;
  /** Reads the bearer token when one is sent (sign-out). */
  readsToken?: boolean;
};

/** A file to download instead of the envelope (a sheet): the route names its type in `produces`. */
export class Download {
  constructor(
    readonly type: string,
    readonly filename: string,
    readonly body: Buffer,
  ) {}
}

/** The `response` of a route that answers a `Download`. */
export const downloadAnswer = z.custom<Download>((value) => value instanceof Download);

/** An answer already rendered to the envelope's JSON (kept per session): sent as it is. */
export class Rendered {
  constructor(readonly json: string) {}
}

/** A public or signed-in handler gets, besides its input, the request (auth, IP, headers) and the reply (cookies). */
type OpenHandler<B, P, Q, Res extends Schema> = (
  input: Input<B, P, Q>,
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<Answer<Res> | Rendered | FastifyReply>;

const failures = (codes: readonly number[] = []) => ({
  ...errorResponses,
  ...Object.fromEntries(codes.map((code) => [code, errorEnvelopeSchema])),
});

/**
 * The one way to declare a route beyond a resource's conventional ones, typed end to end: the handler
 * gets the parsed body, params and query as the zod schemas give them (no `request.body as …`), and its
 * answer is wrapped in the envelope. Three kinds, by what the caller must be:
 * - with `action`, a permission of the resource (or, with `grant`, the handler's own check of the caller's
 *   grants): the handler runs in the tenant transaction; permission and audit as for the conventional routes;
 * - with `signedIn`, any signed-in caller acting on their own things;
 * - with `public`, no session: the handler opens the transaction of the tenant its input names.
 */
export function typedRoute<B extends Schema | undefined, P extends Schema | undefined, Q extends Schema | undefined, Res extends Schema>(
  app: FastifyInstance,
  resource: Pick<RouteResource, 'domain' | 'tag'> & { name?: string },
  route: SignedInRoute<B, P, Q, Res> & { inTenant: true },
  handler: (ctx: Ctx, input: Input<B, P, Q>) => Promise<Answer<Res>>,
): void;
export function typedRoute<B extends Schema | undefined, P extends Schema | undefined, Q extends Schema | undefined, Res extends Schema>(
  app: FastifyInstance,
  resource: Pick<RouteResource, 'domain' | 'tag'> & { name?: string },
  route: PublicRoute<B, P, Q, Res> | SignedInRoute<B, P, Q, Res>,
  handler: OpenHandler<B, P, Q, Res>,
): void;
export function typedRoute<B extends Schema | undefined, P extends Schema | undefined, Q extends Schema | undefined, Res extends Schema>(
  app: FastifyInstance,
  resource: RouteResource,
  route: TypedRoute<B, P, Q, Res>,
  handler: (ctx: Ctx, input: Input<B, P, Q>) => Promise<Answer<Res>>,
): void;
export function typedRoute(
  app: FastifyInstance,
  resource: Pick<RouteResource, 'domain' | 'tag'> & Partial<RouteResource>,
  route:
    | TypedRoute<Schema, Schema, Schema, Schema>
    | SignedInRoute<Schema, Schema, Schema, Schema>
    | PublicRoute<Schema, Schema, Schema, Schema>,
  handler: ((ctx: Ctx, input: Input<Schema, Schema, Schema>) => Promise<unknown>) | OpenHandler<Schema, Schema, Schema, Schema>,
) {
  const rateLimit = 'public' in route ? (route.public === true ? undefined : route.public) : route.rateLimit;
  const schema = {
    ...(route.description ? { description: route.description } : {}),
    ...(route.consumes ? { consumes: route.consumes } : {}),
    ...(route.produces ? { produces: route.produces } : {}),
    ...(route.body ? { body: route.body } : {}),
    ...(route.params ? { params: route.params } : {}),
    ...(route.query ? { querystring: route.query } : {}),
    // a file's answer has no response schema: the document says "Default Response", as it always did
    ...(route.produces
      ? {}
      : {
          response: {
            [route.redirects ? 302 : 200]: route.redirects ? route.response : envelopeOf(route.response),
            ...failures([...(rateLimit ? [429] : []), ...(route.errors ?? [])]),
          } as Record<number, Schema>,
        }),
  };
  const inputOf = (request: FastifyRequest) => ({ body: request.body, params: request.params, query: request.query });
  const answer = (result: unknown, request: FastifyRequest, reply: FastifyReply) => {
    if (route.redirects) return reply;
    if (result instanceof Download)
      return reply
        .header('content-type', result.type)
        .header('content-disposition', `attachment; filename="${result.filename}"`)
        .send(result.body);
    // a string with a JSON content type goes out as it is, past the route's serializer
    if (result instanceof Rendered) return reply.type('application/json; charset=utf-8').send(result.json as never);
    const text = route.asText?.(result as never, request.query as never);
    if (text !== undefined) return reply.type('text/plain; charset=utf-8').send(text);
    const data = result ?? null;
    return route.message ? { ...ok(data), message: route.message(data as never, request) } : ok(data);
  };
  const shared = {
    ...(rateLimit ? { rateLimit } : {}),
    ...(route.accountIdentifiers ? { accountIdentifiers: route.accountIdentifiers } : {}),
  };
  const typed = app.withTypeProvider<ZodTypeProvider>();
  if (!('action' in route)) {
    const signedIn = 'signedIn' in route;
    const work: OpenHandler<Schema, Schema, Schema, Schema> =
      signedIn && route.inTenant
        ? (input, request) =>
            inTenant(request, (ctx) => (handler as (ctx: Ctx, input: Input<Schema, Schema, Schema>) => Promise<unknown>)(ctx, input))
        : (handler as OpenHandler<Schema, Schema, Schema, Schema>);
    typed.route({
      method: route.method,
      url: route.url,
      schema: {
        tags: [resource.tag ?? resource.domain],
        summary: route.summary ?? `${resource.name}: ${signedIn ? 'own' : 'public'}`,
        ...(signedIn || route.readsToken ? { security: [{ bearer: [] }] } : {}),
        ...schema,
      },
      ...(signedIn && route.before ? { preHandler: route.before } : {}),
      config: signedIn
        ? {
            ...shared,
            ...(route.signedIn === 'session' ? { sessionOnly: true } : {}),
            ...(route.permission ? { permission: route.permission } : {}),
            ...(route.globalResource ? { globalResource: true } : {}),
            ...(route.audit ? { audit: route.audit } : {}),
          }
        : { ...shared, public: true },
      handler: async (request, reply) => answer(await work(inputOf(request) as never, request, reply), request, reply),
    });
    return;
  }
  const work = handler as (ctx: Ctx, input: Input<Schema, Schema, Schema>) => Promise<unknown>;
  const options = routeOptions(resource as RouteResource, route.action, schema, {
    write: route.write,
    summary: route.summary,
    logAs: route.logAs,
    grant: route.grant,
  });
  typed.route({
    method: route.method,
    url: route.url,
    ...options,
    config: { ...options.config, ...shared, ...(route.sessionOnly ? { sessionOnly: true } : {}) },
    handler: async (request, reply) => {
      const totals = route.keptTotals ? totalsOf(app, route.keptTotals, request.query as Record<string, unknown>) : undefined;
      const result = await inTenant(request, (ctx) => work(ctx, inputOf(request) as never), { totals });
      // a handler that recorded its own after (an environment's, secrets masked) keeps it
      if (route.write && request.auditState?.after === undefined && !(result instanceof Download)) recordAudit(request, { after: result });
      return answer(result, request, reply);
    },
  });
}
