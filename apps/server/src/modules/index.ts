import type { FastifyInstance } from 'fastify';
import { operLogPlugin } from '../crud/audit';
import { apiTokenRoutes } from './auth/api-token.routes';
import { authRoutes } from './auth/auth.routes';
import { ssoRoutes } from './auth/sso.routes';
import { centreRoutes } from './centre/centre.routes';
import { dashboardRoutes } from './dashboard/dashboard.routes';
import { erpRoutes } from './erp/erp.routes';
import { formRoutes } from './forms/forms.routes';
import { mallRoutes } from './mall/mall.routes';
import { realtimeRoutes } from './realtime/realtime.routes';
import { releaseRoutes } from './release/release.routes';
import { metaRoutes } from './system/meta/meta.routes';
import { systemRoutes } from './system/system.routes';

/** Every domain's routes, mounted under /api. A new domain adds one line here. */
export async function registerModules(app: FastifyInstance) {
  await app.register(operLogPlugin);
  await app.register(metaRoutes);
  await app.register(authRoutes);
  await app.register(apiTokenRoutes);
  await app.register(ssoRoutes);
  await app.register(realtimeRoutes);
  await app.register(systemRoutes);
  await app.register(erpRoutes);
  await app.register(formRoutes);
  await app.register(releaseRoutes);
  await app.register(mallRoutes);
  await app.register(dashboardRoutes);
  await app.register(centreRoutes);
}
