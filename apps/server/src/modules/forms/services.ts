import { idParamSchema, type Service, type ServiceAction, serviceResource, serviceTransitions } from '@atrium/contracts';
import { and, count, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { refused } from '../../crud/conflict';
import type { Ctx } from '../../crud/context';
import { pageOffset } from '../../crud/paging';
import { contains, isoDates, orderOf } from '../../crud/query';
import { registerResource } from '../../crud/register-resource';
import { typedRoute } from '../../crud/typed-route';
import { oneAtATime } from '../../db/client';
import { listServices } from '../../db/schema';
import { notFound } from '../../errors';

// an opened or renewed service whose end has passed reads as expired; nothing stores "expired"
const effective = sql<string>`case when ${listServices.status} in ('opened', 'renewed') and ${listServices.expireTime} < now() then 'expired' else ${listServices.status} end`;
const YEAR = sql`interval '1 year'`;

const columns = { ...getTableColumns(listServices), status: effective };
const item = (row: Record<string, unknown>): Service => {
  const { tenantId: _t, createBy: _c, ...rest } = isoDates(row);
  return rest as unknown as Service;
};
const mine = (ctx: Ctx) => eq(listServices.tenantId, ctx.caller.tenantId);

async function get(ctx: Ctx, id: number): Promise<Service | null> {
  const [row] = await ctx.tx
    .select(columns)
    .from(listServices)
    .where(and(mine(ctx), eq(listServices.id, id)));
  return row ? item(row) : null;
}

const changes: Record<ServiceAction, Record<string, SQL | string>> = {
  open: { status: 'opened', expireTime: sql`now() + ${YEAR}` },
  cancel: { status: 'cancelled' },
  renew: { status: 'renewed', expireTime: sql`greatest(coalesce(${listServices.expireTime}, now()), now()) + ${YEAR}` },
};

/** The card list's services: list and detail with the effective state, and the three actions as compare-and-set. */
export async function serviceRoutes(app: FastifyInstance) {
  registerResource(app, serviceResource, {
    async list(ctx, query) {
      const where = and(
        mine(ctx),
        contains(listServices.name, query.name),
        query.kind ? eq(listServices.kind, query.kind) : undefined,
        query.status ? sql`${effective} = ${query.status}` : undefined,
      );
      const [rows, [total]] = await oneAtATime([
        ctx.tx
          .select(columns)
          .from(listServices)
          .where(where)
          .orderBy(
            ...orderOf(
              query.sort,
              { createTime: listServices.createTime, name: listServices.name, expireTime: listServices.expireTime },
              listServices.id,
            ),
          )
          .limit(pageOffset(query).limit)
          .offset(pageOffset(query).offset),
        ctx.tx.select({ n: count() }).from(listServices).where(where),
      ]);
      return { list: rows.map(item), total: total?.n ?? 0 };
    },
    get,
  });

  for (const action of Object.keys(serviceTransitions) as ServiceAction[]) {
    typedRoute(
      app,
      serviceResource,
      {
        method: 'PUT',
        url: `/list/service/:id/${action}`,
        action,
        params: idParamSchema,
        response: serviceResource.item,
        write: true,
        summary: `${action} a service (from ${serviceTransitions[action].join(', ')})`,
      },
      async (ctx, { params }) => {
        if (!(await get(ctx, params.id))) throw notFound();
        // one statement decides: two clicks racing change the service once
        const [done] = await ctx.tx
          .update(listServices)
          .set({ ...changes[action], updateBy: ctx.caller.accountId, updateTime: new Date() })
          .where(and(mine(ctx), eq(listServices.id, params.id), inArray(effective, [...serviceTransitions[action]])))
          .returning({ id: listServices.id });
        if (!done) throw refused('status', 'transition', 'service.transition');
        return (await get(ctx, params.id)) as Service;
      },
    );
  }
}
