import type { FastifyInstance } from 'fastify';
import { systemEntityRoutes, systemRecordRoutes } from './entities';
import { menuRoutes } from './menu/menu.routes';
import { tenantRoutes } from './tenant/tenant.routes';
import { userRoutes } from './user/user.routes';

/** System management: users, roles, the entities on the manifest machinery (departments, posts, the audit logs and sessions), menus and tenants. */
export async function systemRoutes(app: FastifyInstance) {
  await app.register(userRoutes);
  await app.register(systemEntityRoutes);
  await app.register(menuRoutes);
  await app.register(tenantRoutes);
  await app.register(systemRecordRoutes);
}
