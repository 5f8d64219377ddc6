import { buildTree, envelopeOf, roleResource } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inTenant } from '../../../crud/context';
import { ok, registerResource, routeOptions } from '../../../crud/register-resource';
import { invalidateAccess } from '../../auth/session.service';
import { grantableMenus, grantMenuTreeSchema } from '../menu/menu.repository';
import { roleGuard } from './role.guard';
import { roleRepository } from './role.repository';

/**
 * Roles on the conventional routes, each write within what the caller holds (role.guard); every write drops the tenant's cached access so a changed grant
 * or a disabled role takes effect at the holders' next request.
 */
export async function roleRoutes(app: FastifyInstance) {
  const invalidate = (tenantId: number) => invalidateAccess(app, { tenantId });
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      `${roleResource.basePath}/menuTree`,
      routeOptions(
        roleResource,
        'query',
        { response: { 200: envelopeOf(z.array(grantMenuTreeSchema)) } },
        { summary: 'role: the menu catalogue to grant from' },
      ),
      async (request) => ok(buildTree(await inTenant(request, (ctx) => grantableMenus(ctx)))),
    );
  registerResource(app, roleResource, {
    list: roleRepository.list,
    get: roleRepository.get,
    async create(ctx, input) {
      await roleGuard.assertWithinOwn(ctx, input);
      const role = await roleRepository.create(ctx, input);
      ctx.afterCommit(() => invalidate(ctx.caller.tenantId));
      return role;
    },
    async update(ctx, id, input) {
      await roleGuard.assertEditable(ctx, id);
      await roleGuard.assertWithinOwn(ctx, input);
      const role = await roleRepository.update(ctx, id, input);
      ctx.afterCommit(() => invalidate(ctx.caller.tenantId));
      return role;
    },
    async setStatus(ctx, id, status) {
      await roleGuard.assertEditable(ctx, id);
      const role = await roleRepository.setStatus(ctx, id, status);
      ctx.afterCommit(() => invalidate(ctx.caller.tenantId));
      return role;
    },
    async remove(ctx, id) {
      await roleGuard.assertEditable(ctx, id);
      await roleRepository.remove(ctx, id);
      ctx.afterCommit(() => invalidate(ctx.caller.tenantId));
    },
  });
}
