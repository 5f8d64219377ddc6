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
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Caller } from '../../crud/context';
import { typedRoute } from '../../crud/typed-route';
import { notFound } from '../../errors';
import { listNotifications, markAllRead, markRead, removeNotification } from './notification.repository';

const idParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const base = '/system/notification';
const notifications = { domain: 'notification', name: 'notification' };

type Owner = { tenantId: number; accountRef: number };
const ownerOf = (caller: Caller): Owner => ({ tenantId: caller.tenantId, accountRef: caller.accountRef });

/**
 * The signed-in account's own notifications in the current tenant. No permission beyond signing in:
 * every query is bound to the caller's account, so another person's id answers 404.
 */
export async function notificationRoutes(app: FastifyInstance) {
  const changed = (owner: Owner, kind: 'read' | 'removed', ids: number[] | 'all') => () =>
    void app.realtime.changed(owner.tenantId, kind, new Map([[owner.accountRef, ids]])).catch(() => {});

  typedRoute(
    app,
    notifications,
    {
      method: 'GET',
      url: base,
      signedIn: 'any',
      inTenant: true,
      query: notificationListQuerySchema,
      response: notificationPageSchema,
      summary: 'My notifications: paged, filtered by type and read, with unread counts per type',
    },
    ({ tx, caller }, { query }) => listNotifications(tx, ownerOf(caller), query),
  );

  typedRoute(
    app,
    notifications,
    {
      method: 'GET',
      url: `${base}/connection`,
      signedIn: 'any',
      response: realtimeConnectionSchema,
      summary: 'Where and how this browser receives notifications live (MQTT over WebSocket)',
    },
    async (_input, request) => ({
      url: app.realtime.publicUrl,
      port: app.realtime.port,
      path: REALTIME_PATH,
      topic: realtimeSubscription(request.auth.clientKey),
      qos: REALTIME_QOS,
      connectTimeout: REALTIME_CONNECT_TIMEOUT_MS,
    }),
  );

  typedRoute(
    app,
    notifications,
    {
      method: 'PUT',
      url: `${base}/read-all`,
      signedIn: 'any',
      inTenant: true,
      query: readAllQuerySchema,
      response: z.object({ updated: z.number().int() }),
      summary: 'Mark all my notifications read (optionally of one type)',
    },
    async (ctx, { query }) => {
      const owner = ownerOf(ctx.caller);
      const updated = await markAllRead(ctx.tx, owner, query.type);
      if (updated > 0) ctx.afterCommit(changed(owner, 'read', 'all'));
      return { updated };
    },
  );

  typedRoute(
    app,
    notifications,
    {
      method: 'PUT',
      url: `${base}/:id/read`,
      signedIn: 'any',
      inTenant: true,
      params: idParams,
      response: z.null(),
      summary: 'Mark one of my notifications read',
    },
    async (ctx, { params }) => {
      const owner = ownerOf(ctx.caller);
      if (!(await markRead(ctx.tx, owner, params.id))) throw notFound();
      ctx.afterCommit(changed(owner, 'read', [params.id]));
      return null;
    },
  );

  typedRoute(
    app,
    notifications,
    {
      method: 'DELETE',
      url: `${base}/:id`,
      signedIn: 'any',
      inTenant: true,
      params: idParams,
      response: z.null(),
      summary: 'Delete one of my notifications',
    },
    async (ctx, { params }) => {
      const owner = ownerOf(ctx.caller);
      if (!(await removeNotification(ctx.tx, owner, params.id))) throw notFound();
      ctx.afterCommit(changed(owner, 'removed', [params.id]));
      return null;
    },
  );
}
