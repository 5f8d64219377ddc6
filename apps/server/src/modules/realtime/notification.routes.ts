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
import type { Caller, Ctx } from '../../crud/context';
import { typedRoute } from '../../crud/typed-route';
import { notFound } from '../../errors';
import { listNotifications, markAllRead, markRead, type Owner, removeNotification } from './notification.repository';

const idParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const base = '/system/notification';
const notifications = { domain: 'notification', name: 'notification' };

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

  // one of the caller's own notifications by id: anyone else's (or a gone one) is a 404, and the change
  // reaches the caller's other tabs once committed
  const oneOfMine = (
    method: 'PUT' | 'DELETE',
    url: string,
    summary: string,
    kind: 'read' | 'removed',
    act: (tx: Ctx['tx'], owner: Owner, id: number) => Promise<boolean>,
  ) =>
    typedRoute(
      app,
      notifications,
      { method, url, signedIn: 'any', inTenant: true, params: idParams, response: z.null(), summary },
      async (ctx, { params }) => {
        const owner = ownerOf(ctx.caller);
        if (!(await act(ctx.tx, owner, params.id))) throw notFound();
        ctx.afterCommit(changed(owner, kind, [params.id]));
      },
    );
  oneOfMine('PUT', `${base}/:id/read`, 'Mark one of my notifications read', 'read', markRead);
  oneOfMine('DELETE', `${base}/:id`, 'Delete one of my notifications', 'removed', removeNotification);
}
