import type { FastifyInstance } from 'fastify';
import { noticeRoutes } from './notice.routes';
import { notificationRoutes } from './notification.routes';

/** The realtime domain's API: the caller's notifications and the tenant's notices. */
export async function realtimeRoutes(app: FastifyInstance) {
  await app.register(notificationRoutes);
  await app.register(noticeRoutes);
}
