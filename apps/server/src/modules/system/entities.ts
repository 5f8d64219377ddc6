import { buildTree, deptEntity, deptTreeSchema, postEntity, roleEntity, statusSchema, textFilter } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { registerTable } from '../../crud/entity';
import { typedRoute } from '../../crud/typed-route';
import { depts, posts, roles, userPosts } from '../../db/schema';
import { allDepts, deptRules } from './dept/dept.repository';
import { grantableMenus, grantMenuTreeSchema } from './menu/menu.repository';
import { roleRules } from './role/role.repository';

/** The system entities on the manifest machinery: contract + table + a registration each. */
export async function systemEntityRoutes(app: FastifyInstance) {
  registerTable(app, postEntity, posts, {
    unique: { code: 'posts_code_key' },
    references: [{ column: userPosts.postId, tenant: userPosts.tenantId, reason: 'post.inUse' }],
  });
  registerTable(app, deptEntity, depts, deptRules as never);
  typedRoute(
    app,
    deptEntity.resource,
    {
      method: 'GET',
      url: `${deptEntity.resource.basePath}/tree`,
      action: 'list',
      query: z.object({ status: statusSchema.optional(), name: textFilter(100) }),
      response: z.array(deptTreeSchema),
      summary: 'dept: tree',
    },
    async (ctx, { query }) => buildTree(await allDepts(ctx, query)),
  );
  registerTable(app, roleEntity, roles, roleRules(app) as never);
  typedRoute(
    app,
    roleEntity.resource,
    {
      method: 'GET',
      url: `${roleEntity.resource.basePath}/menuTree`,
      action: 'query',
      response: z.array(grantMenuTreeSchema),
      summary: 'role: the menu catalogue to grant from',
    },
    async (ctx) => buildTree(await grantableMenus(ctx)),
  );
}
