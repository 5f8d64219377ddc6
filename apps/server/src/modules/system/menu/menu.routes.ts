import { buildTree, envelopeOf, menuResource, menuTreeSchema } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inTenant } from '../../../crud/context';
import { ok, registerResource, routeOptions } from '../../../crud/register-resource';
import { tableRepository } from '../../../crud/repository';
import { menus } from '../../../db/schema';
import { allMenus, menuRules } from './menu.repository';

/**
 * The global menu catalogue: anyone with the permission reads it, only the super admin writes it. Its
 * handlers are the generic repository over the (tenant-less) menus table, its rules the repository's hooks.
 */
export async function menuRoutes(app: FastifyInstance) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      `${menuResource.basePath}/tree`,
      routeOptions(menuResource, 'list', { response: { 200: envelopeOf(z.array(menuTreeSchema)) } }, { summary: 'menu: tree' }),
      async (request) => ok(buildTree(await inTenant(request, (ctx) => allMenus(ctx)))),
    );
  registerResource(app, menuResource, tableRepository(menuResource, menus, menuRules(app)), { globalResource: true });
}
