import type { FastifyInstance } from 'fastify';
import { operLogPlugin } from '../crud/audit';
import { authRoutes } from './auth/auth.routes';
import { erpRoutes } from './erp/erp.routes';
import { formRoutes } from './forms/forms.routes';
import { realtimeRoutes } from './realtime/realtime.routes';
import { metaRoutes } from './system/meta/meta.routes';
import { systemRoutes } from './system/system.routes';

/** Every domain's routes, mounted under /api. A new domain adds one line here. */
export async function registerModules(app: FastifyInstance) {
  await app.register(operLogPlugin);
  await app.register(metaRoutes);
  await app.register(authRoutes);
  await app.register(realtimeRoutes);
  await app.register(systemRoutes);
  await app.register(erpRoutes);
  await app.register(formRoutes);
}
