import { envelopeOf } from '@atrium/contracts';
import {
  notificationListQuerySchema,
  notificationPageSchema,
  REALTIME_CONNECT_TIMEOUT_MS,
  REALTIME_PATH,
  REALTIME_QOS,
  readAllQuerySchema,
  realtimeConnectionSchema,
  realtimeSubscription,
} from '@atrium/contracts/realtime';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../errors';
import { listNotifications, markAllRead, markRead, removeNotification } from './notification.repository';

const idParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const base = '/system/notification';
const tags = ['notification'];

const ownerOf = (request: FastifyRequest) => ({ tenantId: request.auth.tenantId, accountRef: request.auth.accountRef });

/**
 * The signed-in account's own notifications in the current tenant. No permission beyond signing in:
 * every query is bound to the caller's account, so another person's id answers 404.
 */
export async function notificationRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    base,
    {
      schema: {
        tags,
        summary: 'My notifications: paged, filtered by type and read, with unread counts per type',
        querystring: notificationListQuerySchema,
        response: { 200: envelopeOf(notificationPageSchema) },
      },
    },
    async (request) => ({
      code: 200,
      message: 'ok',
      data: await request.tx((tx) => listNotifications(tx, ownerOf(request), request.query)),
    }),
  );

  api.get(
    `${base}/connection`,
    {
      schema: {
        tags,
        summary: 'Where and how this browser receives notifications live (MQTT over WebSocket)',
        response: { 200: envelopeOf(realtimeConnectionSchema) },
      },
    },
    async (request) => ({
      code: 200,
      message: 'ok',
      data: {
        url: app.realtime.publicUrl,
        port: app.realtime.port,
        path: REALTIME_PATH,
        topic: realtimeSubscription(request.auth.clientKey),
        qos: REALTIME_QOS,
        connectTimeout: REALTIME_CONNECT_TIMEOUT_MS,
      },
    }),
  );

  api.put(
    `${base}/read-all`,
    {
      schema: {
        tags,
        summary: 'Mark all my notifications read (optionally of one type)',
        querystring: readAllQuerySchema,
        response: { 200: envelopeOf(z.object({ updated: z.number().int() })) },
      },
    },
    async (request) => {
      const owner = ownerOf(request);
      const updated = await request.tx((tx) => markAllRead(tx, owner, request.query.type));
      if (updated > 0)
        void app.realtime.changed(owner.tenantId, 'read', new Map<number, number[] | 'all'>([[owner.accountRef, 'all']])).catch(() => {});
      return { code: 200, message: 'ok', data: { updated } };
    },
  );

  api.put(
    `${base}/:id/read`,
    { schema: { tags, summary: 'Mark one of my notifications read', params: idParams, response: { 200: envelopeOf(z.null()) } } },
    async (request) => {
      const owner = ownerOf(request);
      if (!(await request.tx((tx) => markRead(tx, owner, request.params.id)))) throw notFound();
      void app.realtime
        .changed(owner.tenantId, 'read', new Map<number, number[] | 'all'>([[owner.accountRef, [request.params.id]]]))
        .catch(() => {});
      return { code: 200, message: 'ok', data: null };
    },
  );

  api.delete(
    `${base}/:id`,
    { schema: { tags, summary: 'Delete one of my notifications', params: idParams, response: { 200: envelopeOf(z.null()) } } },
    async (request) => {
      const owner = ownerOf(request);
      if (!(await request.tx((tx) => removeNotification(tx, owner, request.params.id)))) throw notFound();
      void app.realtime
        .changed(owner.tenantId, 'removed', new Map<number, number[] | 'all'>([[owner.accountRef, [request.params.id]]]))
        .catch(() => {});
      return { code: 200, message: 'ok', data: null };
    },
  );
}
