import { pageOf } from '@atrium/contracts';
import {
  noticeDetailSchema,
  noticeInputSchema,
  noticeListQuerySchema,
  noticeMessages,
  noticeSchema,
  noticeSendResultSchema,
} from '@atrium/contracts/realtime';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { recordAudit } from '../../crud/audit';
import { typedRoute } from '../../crud/typed-route';
import { notFound } from '../../errors';
import { deleteNotice, getNotice, listNotices, sendNotice } from './notice.service';

const idParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const base = '/system/notice';
const notices = { domain: 'system', name: 'notice', tag: 'notice', permission: (action: string) => `system:notice:${action}` };

/** Notices: an administrator sends one to the tenant, a role, a department (and below) or chosen users. */
export async function noticeRoutes(app: FastifyInstance) {
  typedRoute(
    app,
    notices,
    {
      method: 'GET',
      url: base,
      action: 'list',
      query: noticeListQuerySchema,
      response: pageOf(noticeSchema),
      summary: 'Notices sent in this tenant',
    },
    ({ tx, caller }, { query }) => listNotices(tx, caller.tenantId, query),
  );

  typedRoute(
    app,
    notices,
    {
      method: 'GET',
      url: `${base}/:id`,
      action: 'query',
      params: idParams,
      response: noticeDetailSchema,
      summary: 'One notice, with how many recipients read it',
    },
    async ({ tx, caller }, { params }) => {
      const notice = await getNotice(tx, caller.tenantId, params.id);
      if (!notice) throw notFound();
      return notice;
    },
  );

  typedRoute(
    app,
    notices,
    {
      method: 'POST',
      url: base,
      action: 'create',
      write: true,
      body: noticeInputSchema,
      response: noticeSendResultSchema,
      summary: 'Send a notice: stored for every recipient, then delivered live',
      description: '`data.live` is false when the broker could not take it now; recipients see it when they next read their notifications.',
      message: ({ live }, request) => {
        const message = live ? noticeMessages.sent : noticeMessages.liveDelayed;
        return request.lang === 'en-US' ? message.en : message.zh;
      },
    },
    async (ctx, { body }) => {
      const { tenantId, accountRef } = ctx.caller;
      const { notice, stored } = await sendNotice(ctx.tx, { tenantId, accountRef }, body);
      recordAudit(ctx.request, {
        target: String(notice.id),
        after: { title: notice.title, scope: notice.scope, recipients: notice.recipients },
      });
      const sent = { id: notice.id, recipients: notice.recipients, live: false };
      // published only after the transaction committed, so a recipient who reacts at once finds it stored;
      // the effects after the commit run before the answer goes out, so it tells whether it went live
      ctx.afterCommit(async () => {
        sent.live = await app.realtime.deliver(tenantId, stored).catch((error: unknown) => {
          ctx.request.log.warn({ err: error }, 'notice stored but not published');
          return false;
        });
      });
      return sent;
    },
  );

  typedRoute(
    app,
    notices,
    {
      method: 'DELETE',
      url: `${base}/:id`,
      action: 'delete',
      write: true,
      params: idParams,
      response: z.null(),
      summary: "Withdraw a notice from everyone's message box",
    },
    async (ctx, { params }) => {
      const removed = await deleteNotice(ctx.tx, ctx.caller.tenantId, params.id);
      if (!removed) throw notFound();
      ctx.afterCommit(() => void app.realtime.changed(ctx.caller.tenantId, 'removed', removed.byAccount).catch(() => {}));
      return null;
    },
  );
}
