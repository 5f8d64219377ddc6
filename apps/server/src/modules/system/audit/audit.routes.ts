import { envelopeOf, idParamSchema, loginLogResource, operLogResource, sessionResource } from '@atrium/contracts';
import { codeLabels } from '@atrium/contracts/labels';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from '../../../crud/audit';
import { inTenant } from '../../../crud/context';
import { registerExport } from '../../../crud/excel';
import { grantGuard } from '../../../crud/grants';
import { ok, registerResource, routeOptions } from '../../../crud/register-resource';
import { forbidden, notFound } from '../../../errors';
import { endSessions } from '../../auth/session.service';
import { loginLogRepository, operLogRepository, sessionRepository } from './audit.repository';

/** Operation log, login log (search and Excel export) and online sessions with force-logout. */
export async function auditRoutes(app: FastifyInstance) {
  registerResource(app, operLogResource, operLogRepository);
  // the modules writes are logged under, for the page's module picker: every audited route's module
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      `${operLogResource.basePath}/modules`,
      routeOptions(
        operLogResource,
        'list',
        { response: { 200: envelopeOf(z.array(z.string())) } },
        { summary: 'operation log: the modules writes are logged under' },
      ),
      async () => {
        const modules = app.routeRegistry.flatMap((route) => {
          const audit = route.config.audit as { module?: string } | undefined;
          return audit?.module ? [audit.module] : [];
        });
        return ok([...new Set(modules)].sort());
      },
    );
  registerExport(app, operLogResource, operLogRepository.list, [
    { header: 'ID', zh: '编号', key: 'id', width: 10 },
    { header: 'Time', zh: '时间', key: 'createTime', width: 24, time: true },
    { header: 'Operator', zh: '操作人', key: 'operator' },
    { header: 'Module', zh: '模块', key: 'module' },
    { header: 'Action', zh: '操作', key: 'action' },
    { header: 'Target', zh: '对象', key: 'target', width: 30 },
    { header: 'Target name', zh: '对象名称', key: 'targetName', width: 30 },
    { header: 'Method', zh: '请求方式', key: 'method', width: 10 },
    { header: 'URL', zh: '请求地址', key: 'url', width: 40 },
    { header: 'IP', zh: 'IP', key: 'ip' },
    { header: 'Result', zh: '结果', key: 'result', width: 10, labels: codeLabels.auditResult },
    { header: 'Error', zh: '错误', key: 'errorMessage', width: 40 },
    { header: 'Duration (ms)', zh: '耗时（毫秒）', key: 'durationMs', width: 14 },
    { header: 'Summary', zh: '摘要', key: 'summary', width: 60, value: (r) => (r.summary ? JSON.stringify(r.summary) : null) },
  ]);

  registerResource(app, loginLogResource, loginLogRepository);
  registerExport(app, loginLogResource, loginLogRepository.list, [
    { header: 'ID', zh: '编号', key: 'id', width: 10 },
    { header: 'Time', zh: '时间', key: 'createTime', width: 24, time: true },
    { header: 'Account', zh: '账号', key: 'account' },
    { header: 'Result', zh: '结果', key: 'result', width: 12, labels: codeLabels.loginResult },
    { header: 'Reason', zh: '原因', key: 'reason', width: 24 },
    { header: 'IP', zh: 'IP', key: 'ip' },
    { header: 'User agent', zh: '浏览器', key: 'userAgent', width: 50 },
  ]);

  registerResource(app, sessionResource, sessionRepository);
  // force-logout: the holder's next request answers 1302
  app
    .withTypeProvider<ZodTypeProvider>()
    .delete(
      `${sessionResource.basePath}/:id`,
      routeOptions(
        sessionResource,
        'forceLogout',
        { params: idParamSchema, response: { 200: envelopeOf(z.null()) } },
        { write: true, summary: 'session: force logout' },
      ),
      async (request) => {
        const { id } = request.params as { id: number };
        await inTenant(request, async (ctx) => {
          const live = await sessionRepository.findLive(ctx, id);
          if (!live) throw notFound();
          // signing someone out is acting on their account, as a disable is: never the super admin's
          // (but by a super admin), nor that of anyone holding more than the caller
          if ((live.superAdmin || live.userType === '00') && !ctx.caller.superAdmin) throw forbidden();
          if (live.userId !== null && live.userId !== ctx.caller.userId) await grantGuard.assertHoldsAtLeast(ctx, live.userId);
          recordAudit(request, { targetName: live.accountId });
          ctx.afterCommit(() => endSessions(app, { reason: 'forced', sessionIds: [id] }));
        });
        return ok(null);
      },
    );
}
