import {
  envelopeOf,
  errorEnvelopeSchema,
  idParamSchema,
  pageOf,
  type Resource,
  type ResourceAction,
  statusInputSchema,
} from '@atrium/contracts';
import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forbidden, notFound } from '../errors';
import { displayNameOf, recordAudit } from './audit';
import { type Ctx, callerOf, inTenant } from './context';
import { totalsName, totalsOf } from './totals';

export type ListResult<T> = { list: T[]; total: number };

/**
 * What an entity supplies to the machinery: plain functions over the tenant transaction.
 * `get` must return null for rows outside the caller's tenant or data scope — that is the 404.
 */
export type ResourceHandlers<Item, Create, Update, Query> = {
  list(ctx: Ctx, query: Query): Promise<ListResult<Item>>;
  get(ctx: Ctx, id: number): Promise<Item | null>;
  create?(ctx: Ctx, input: Create): Promise<Item>;
  update?(ctx: Ctx, id: number, input: Update, before: Item): Promise<Item>;
  setStatus?(ctx: Ctx, id: number, status: '0' | '1', before: Item): Promise<Item>;
  remove?(ctx: Ctx, id: number, before: Item): Promise<void>;
};

type HandlersOf<R extends Resource> = ResourceHandlers<
  z.output<R['item']>,
  z.output<R['create']>,
  z.output<R['update']>,
  z.output<R['listQuery']>
>;

export const ok = <T>(data: T) => ({ code: 200, message: 'ok', data });

/** The failures a route may answer, each with the error envelope (OpenAPI `responses`). */
export const errorResponses = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
};

/** What the route options need of a resource: its domain and name (tag, operation log) and its permissions. */
export type RouteResource = Pick<Resource, 'domain' | 'name' | 'permission'> &
  Partial<Pick<Resource, 'superAdminOnly' | 'superAdminWrites' | 'accountIdentifiers' | 'grant'>> & {
    /** the OpenAPI group, when it is not the domain (the notices' routes under `notice`) */
    tag?: string;
  };

export type RouteOptionsExtra = {
  write?: boolean;
  summary?: string;
  /** the operation log's action, when it is not the permission's */
  logAs?: string;
  /**
   * No role-menu permission: any signed-in caller reaches the handler, which decides by the caller's
   * grants on what it touches (release tasks: `grant: 'release'`); the authorization matrix leaves it out.
   * A resource that says `grant` gives it to every route of its own.
   */
  grant?: string;
};

/** Route options every resource route shares: tag, permission, audit entry for writes, super-admin gate. */
export function routeOptions(
  resource: RouteResource,
  action: ResourceAction | (string & {}),
  schema: Record<string, unknown>,
  options: RouteOptionsExtra = {},
): RouteShorthandOptions {
  const superAdminOnly = resource.superAdminOnly || (resource.superAdminWrites && options.write);
  const grant = options.grant ?? resource.grant;
  return {
    schema: {
      tags: [resource.tag ?? resource.domain],
      summary: options.summary ?? `${resource.name}: ${action}`,
      security: [{ bearer: [] }],
      ...schema,
    },
    config: {
      ...(grant ? { grantChecked: grant } : { permission: resource.permission(action) }),
      ...(options.write ? { audit: { module: `${resource.domain}:${resource.name}`, action: options.logAs ?? action } } : {}),
      ...(superAdminOnly ? { superAdminOnly: true } : {}),
      ...(resource.accountIdentifiers?.[action as 'create'] ? { accountIdentifiers: resource.accountIdentifiers[action as 'create'] } : {}),
    },
    // at the request, before its body is read: a caller who may not write gets no field list back
    ...(superAdminOnly ? { onRequest: requireSuperAdmin } : {}),
  } as RouteShorthandOptions;
}

export async function requireSuperAdmin(request: FastifyRequest) {
  if (!callerOf(request).superAdmin) throw forbidden();
}

/** Loads the row the caller may see or answers 404. */
async function visible<Item>(handlers: { get(ctx: Ctx, id: number): Promise<Item | null> }, ctx: Ctx, id: number): Promise<Item> {
  const row = await handlers.get(ctx, id);
  if (!row) throw notFound();
  return row;
}

const idOf = (request: FastifyRequest) => (request.params as { id: number }).id;

/**
 * Registers the conventional routes of a resource from its contract and handlers:
 * GET list (paged), GET :id, POST, PUT :id, PUT :id/status, DELETE :id — each with zod validation,
 * OpenAPI, its permission, the tenant transaction and, for writes, an operation-log entry with a
 * before/after summary. Only the actions the contract lists and the handlers implement are registered.
 */
export function registerResource<R extends Resource>(app: FastifyInstance, resource: R, handlers: HandlersOf<R>) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // a global catalogue's ids are not tenant rows: the cross-tenant matrix leaves them out
  const byId = (o: RouteShorthandOptions): RouteShorthandOptions =>
    resource.global ? { ...o, config: { ...o.config, globalResource: true } } : o;
  const item = resource.item;
  const paths = resource.paths;

  if (resource.has('list')) {
    r.get(
      paths.list,
      routeOptions(resource, 'list', { querystring: resource.listQuery, response: { 200: envelopeOf(pageOf(item)), ...errorResponses } }),
      async (request) => {
        const query = request.query as z.output<R['listQuery']> & { pageNum: number; pageSize: number };
        const totals = totalsOf(app, totalsName(resource), query);
        const page = await inTenant(request, (ctx) => handlers.list(ctx, query), { totals });
        return ok({ ...page, pageNum: query.pageNum, pageSize: query.pageSize });
      },
    );
  }
  if (resource.has('query')) {
    r.get(
      paths.query,
      byId(
        routeOptions(resource, 'query', {
          params: idParamSchema,
          response: { 200: envelopeOf(resource.detailItem ?? item), ...errorResponses },
        }),
      ),
      async (request) => ok(await inTenant(request, (ctx) => visible(handlers, ctx, idOf(request)))),
    );
  }
  const { create, update, setStatus, remove } = handlers;
  if (resource.has('create') && create) {
    r.post(
      paths.create,
      routeOptions(resource, 'create', { body: resource.create, response: { 200: envelopeOf(item), ...errorResponses } }, { write: true }),
      async (request) => {
        const created = await inTenant(request, (ctx) => create(ctx, request.body as z.output<R['create']>));
        recordAudit(request, { target: targetOf(created), after: created });
        return ok(created);
      },
    );
  }
  if (resource.has('update') && update) {
    r.put(
      paths.update,
      byId(
        routeOptions(
          resource,
          'update',
          { params: idParamSchema, body: resource.update, response: { 200: envelopeOf(item), ...errorResponses } },
          { write: true },
        ),
      ),
      async (request) => {
        const id = idOf(request);
        return ok(
          await inTenant(request, async (ctx) => {
            const before = await visible(handlers, ctx, id);
            recordAudit(request, { before });
            const after = await update(ctx, id, request.body as z.output<R['update']>, before);
            // a handler that logged its own summary of the change keeps it (an environment's: secrets masked, marked changed)
            if (request.auditState?.after === undefined) recordAudit(request, { after });
            return after;
          }),
        );
      },
    );
  }
  if (resource.has('status') && setStatus) {
    r.put(
      paths.status,
      byId(
        routeOptions(
          resource,
          'status',
          { params: idParamSchema, body: statusInputSchema, response: { 200: envelopeOf(item), ...errorResponses } },
          { write: true },
        ),
      ),
      async (request) => {
        const id = idOf(request);
        const { status } = request.body as { status: '0' | '1' };
        return ok(
          await inTenant(request, async (ctx) => {
            const before = await visible(handlers, ctx, id);
            recordAudit(request, { targetName: displayNameOf(before), before: { status: (before as { status?: string }).status } });
            const after = await setStatus(ctx, id, status, before);
            recordAudit(request, { after: { status } });
            return after;
          }),
        );
      },
    );
  }
  if (resource.has('delete') && remove) {
    r.delete(
      paths.delete,
      byId(
        routeOptions(
          resource,
          'delete',
          { params: idParamSchema, response: { 200: envelopeOf(resource.deleteAnswersRow ? item : z.null()), ...errorResponses } },
          { write: true },
        ),
      ),
      async (request) => {
        const id = idOf(request);
        const before = await inTenant(request, async (ctx) => {
          const before = await visible(handlers, ctx, id);
          recordAudit(request, { before });
          await remove(ctx, id, before);
          return before;
        });
        return ok(resource.deleteAnswersRow ? before : null);
      },
    );
  }
}

function targetOf(row: unknown): string | undefined {
  const r = row as { id?: unknown; name?: unknown; code?: unknown; accountId?: unknown };
  const label = r.accountId ?? r.code ?? r.name;
  return r.id === undefined ? undefined : label ? `${r.id} ${String(label)}` : String(r.id);
}
