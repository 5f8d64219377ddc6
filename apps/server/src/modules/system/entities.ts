import {
  buildTree,
  deptEntity,
  deptTreeSchema,
  idParamSchema,
  loginLogEntity,
  operLogEntity,
  postEntity,
  roleEntity,
  sessionEntity,
  statusSchema,
  textFilter,
} from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { recordAudit } from '../../crud/audit';
import { registerEntity, registerTable } from '../../crud/entity';
import { grantGuard } from '../../crud/grants';
import { typedRoute } from '../../crud/typed-route';
import { depts, posts, roles, userPosts } from '../../db/schema';
import { forbidden, notFound } from '../../errors';
import { endSessions } from '../auth/session.service';
import { loginLogRepository, operLogRepository, sessionRepository } from './audit/audit.repository';
import { allDepts, deptRules } from './dept/dept.repository';
import { grantableMenus, grantMenuTreeSchema } from './menu/menu.repository';
import { roleRules } from './role/role.repository';

/** The system entities on the manifest machinery: contract + table (or the handlers) + a registration each. */
export async function systemEntityRoutes(app: FastifyInstance) {
  registerTable(app, postEntity, posts, {
    unique: { code: 'posts_code_key' },
    references: [{ column: userPosts.postId, reason: 'post.inUse' }],
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

/** The operation log and the login log (search and Excel export), and the online sessions with force-logout. */
export async function systemRecordRoutes(app: FastifyInstance) {
  registerEntity(app, operLogEntity, operLogRepository);
  // the modules writes are logged under, for the page's module picker: every audited route's module
  typedRoute(
    app,
    operLogEntity.resource,
    {
      method: 'GET',
      url: `${operLogEntity.resource.basePath}/modules`,
      action: 'list',
      response: z.array(z.string()),
      summary: 'operation log: the modules writes are logged under',
    },
    async () => {
      const modules = app.routeRegistry.flatMap((route) => {
        const audit = route.config.audit as { module?: string } | undefined;
        return audit?.module ? [audit.module] : [];
      });
      return [...new Set(modules)].sort();
    },
  );
  registerEntity(app, loginLogEntity, loginLogRepository);
  registerEntity(app, sessionEntity, sessionRepository);
  // force-logout: the holder's next request answers 1302
  typedRoute(
    app,
    sessionEntity.resource,
    {
      method: 'DELETE',
      url: `${sessionEntity.resource.basePath}/:id`,
      action: 'forceLogout',
      params: idParamSchema,
      response: z.null(),
      write: true,
      summary: 'session: force logout',
    },
    async (ctx, { params }) => {
      const live = await sessionRepository.findLive(ctx, params.id);
      if (!live) throw notFound();
      // signing someone out is acting on their account, as a disable is: never the super admin's
      // (but by a super admin), nor that of anyone holding more than the caller
      if ((live.superAdmin || live.userType === '00') && !ctx.caller.superAdmin) throw forbidden();
      if (live.userId !== null && live.userId !== ctx.caller.userId) await grantGuard.assertHoldsAtLeast(ctx, live.userId);
      recordAudit(ctx.request, { targetName: live.accountId });
      ctx.afterCommit(() => endSessions(app, { reason: 'forced', sessionIds: [params.id] }));
      return null;
    },
  );
}
