import type { FastifyInstance } from 'fastify';
import { auditRoutes } from './audit/audit.routes';
import { systemEntityRoutes } from './entities';
import { menuRoutes } from './menu/menu.routes';
import { tenantRoutes } from './tenant/tenant.routes';
import { userRoutes } from './user/user.routes';

/** System management: users, roles, departments, posts, menus, tenants and the audit pages. */
export async function systemRoutes(app: FastifyInstance) {
  await app.register(userRoutes);
  await app.register(systemEntityRoutes);
  await app.register(menuRoutes);
  await app.register(tenantRoutes);
  await app.register(auditRoutes);
}
