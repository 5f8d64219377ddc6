import { buildTree, menuEntity, menuResource, menuTreeSchema } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { registerTable } from '../../../crud/entity';
import { typedRoute } from '../../../crud/typed-route';
import { menus } from '../../../db/schema';
import { allMenus, menuRules } from './menu.repository';

/**
 * The global menu catalogue: anyone with the permission reads it, only the super admin writes it. Its
 * handlers are the generic repository over the (tenant-less) menus table, its rules the repository's hooks.
 */
export async function menuRoutes(app: FastifyInstance) {
  typedRoute(
    app,
    menuResource,
    { method: 'GET', url: `${menuResource.basePath}/tree`, action: 'list', response: z.array(menuTreeSchema), summary: 'menu: tree' },
    async (ctx) => buildTree(await allMenus(ctx)),
  );
  registerTable(app, menuEntity, menus, menuRules(app) as never);
}
