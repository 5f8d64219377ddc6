import type { FastifyInstance } from 'fastify';
import { brokerHookRoutes } from './hook.routes';
import { noticeRoutes } from './notice.routes';
import { notificationRoutes } from './notification.routes';

/** The realtime domain's API: the caller's notifications, the tenant's notices, and the external broker's hook. */
export async function realtimeRoutes(app: FastifyInstance) {
  await app.register(notificationRoutes);
  await app.register(noticeRoutes);
  await app.register(brokerHookRoutes);
}
