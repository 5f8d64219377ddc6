import { idParamSchema, memberPointsSchema, memberResource, pageOf } from '@atrium/contracts';
import { and, count, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { pageOffset } from '../../../crud/paging';
import { typedRoute } from '../../../crud/typed-route';
import { oneAtATime } from '../../../db/client';
import { erpMemberPoints, erpMembers } from '../../../db/schema';
import { notFound } from '../../../errors';

const pageQuery = z.object({
  pageNum: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
});

/** A member's points history (the detail page's orders come from the sales list filtered by member). */
export async function memberRoutes(app: FastifyInstance) {
  typedRoute(
    app,
    memberResource,
    {
      method: 'GET',
      url: '/erp/member/:id/points',
      action: 'query',
      params: idParamSchema,
      query: pageQuery,
      response: pageOf(memberPointsSchema),
    },
    async (ctx, { params, query }) => {
      const t = ctx.caller.tenantId;
      const [member] = await ctx.tx
        .select({ id: erpMembers.id })
        .from(erpMembers)
        .where(and(eq(erpMembers.tenantId, t), eq(erpMembers.id, params.id)));
      if (!member) throw notFound();
      const where = and(eq(erpMemberPoints.tenantId, t), eq(erpMemberPoints.memberId, params.id));
      const [rows, [total]] = await oneAtATime([
        ctx.tx
          .select()
          .from(erpMemberPoints)
          .where(where)
          .orderBy(desc(erpMemberPoints.id))
          .limit(pageOffset(query).limit)
          .offset(pageOffset(query).offset),
        ctx.tx.select({ n: count() }).from(erpMemberPoints).where(where),
      ]);
      const list = rows.map(({ tenantId: _t, memberId: _m, ...r }) => ({ ...r, createTime: r.createTime.toISOString() }));
      return { list, total: total?.n ?? 0, pageNum: query.pageNum, pageSize: query.pageSize };
    },
  );
}
