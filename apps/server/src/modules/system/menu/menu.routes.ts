import { buildTree, envelopeOf, menuResource, menuTreeSchema } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Ctx, inTenant } from '../../../crud/context';
import { ok, registerResource, routeOptions } from '../../../crud/register-resource';
import { invalidateAccess } from '../../auth/session.service';
import { menuRepository } from './menu.repository';

/** The global menu catalogue: anyone with the permission reads it, only the super admin writes it. */
export async function menuRoutes(app: FastifyInstance) {
  const globalId = { globalResource: true };
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      `${menuResource.basePath}/tree`,
      routeOptions(menuResource, 'list', { response: { 200: envelopeOf(z.array(menuTreeSchema)) } }, { summary: 'menu: tree' }),
      async (request) => ok(buildTree(await inTenant(request, (ctx) => menuRepository.all(ctx)))),
    );
  const changed = <T>(ctx: Ctx, value: T) => {
    ctx.afterCommit(() => invalidateAccess(app, {}));
    return value;
  };
  registerResource(
    app,
    menuResource,
    {
      list: menuRepository.list,
      get: menuRepository.get,
      create: async (ctx, input) => changed(ctx, await menuRepository.create(ctx, input)),
      update: async (ctx, id, input) => changed(ctx, await menuRepository.update(ctx, id, input)),
      remove: async (ctx, id) => changed(ctx, await menuRepository.remove(ctx, id)),
    },
    globalId,
  );
}
