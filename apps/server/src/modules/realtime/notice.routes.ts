import { envelopeOf, pageOf } from '@atrium/contracts';
import {
  noticeDetailSchema,
  noticeInputSchema,
  noticeListQuerySchema,
  noticeMessages,
  noticeSchema,
  noticeSendResultSchema,
} from '@atrium/contracts/realtime';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from '../../crud/audit';
import { notFound } from '../../errors';
import { deleteNotice, getNotice, listNotices, sendNotice } from './notice.service';

const idParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const base = '/system/notice';
const tags = ['notice'];

/** Notices: an administrator sends one to the tenant, a role, a department (and below) or chosen users. */
export async function noticeRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    base,
    {
      config: { permission: 'system:notice:list' },
      schema: {
        tags,
        summary: 'Notices sent in this tenant',
        querystring: noticeListQuerySchema,
        response: { 200: envelopeOf(pageOf(noticeSchema)) },
      },
    },
    async (request) => ({
      code: 200,
      message: 'ok',
      data: await request.tx((tx) => listNotices(tx, request.auth.tenantId, request.query)),
    }),
  );

  api.get(
    `${base}/:id`,
    {
      config: { permission: 'system:notice:query' },
      schema: {
        tags,
        summary: 'One notice, with how many recipients read it',
        params: idParams,
        response: { 200: envelopeOf(noticeDetailSchema) },
      },
    },
    async (request) => {
      const notice = await request.tx((tx) => getNotice(tx, request.auth.tenantId, request.params.id));
      if (!notice) throw notFound();
      return { code: 200, message: 'ok', data: notice };
    },
  );

  api.post(
    base,
    {
      config: { permission: 'system:notice:create', audit: { module: 'system:notice', action: 'create' } },
      schema: {
        tags,
        summary: 'Send a notice: stored for every recipient, then delivered live',
        description:
          '`data.live` is false when the broker could not take it now; recipients see it when they next read their notifications.',
        body: noticeInputSchema,
        response: { 200: envelopeOf(noticeSendResultSchema) },
      },
    },
    async (request) => {
      const { tenantId, accountRef } = request.auth;
      const { notice, stored } = await request.tx((tx) => sendNotice(tx, { tenantId, accountRef }, request.body));
      // published only after the transaction committed: a recipient who reacts at once finds it stored
      const live = await app.realtime.deliver(tenantId, stored).catch((error: unknown) => {
        request.log.warn({ err: error }, 'notice stored but not published');
        return false;
      });
      recordAudit(request, {
        target: String(notice.id),
        after: { title: notice.title, scope: notice.scope, recipients: notice.recipients },
      });
      const message = live ? noticeMessages.sent : noticeMessages.liveDelayed;
      return {
        code: 200,
        message: request.lang === 'en-US' ? message.en : message.zh,
        data: { id: notice.id, recipients: notice.recipients, live },
      };
    },
  );

  api.delete(
    `${base}/:id`,
    {
      config: { permission: 'system:notice:delete', audit: { module: 'system:notice', action: 'delete' } },
      schema: { tags, summary: "Withdraw a notice from everyone's message box", params: idParams, response: { 200: envelopeOf(z.null()) } },
    },
    async (request) => {
      const { tenantId } = request.auth;
      const removed = await request.tx((tx) => deleteNotice(tx, tenantId, request.params.id));
      if (!removed) throw notFound();
      void app.realtime.changed(tenantId, 'removed', removed.byAccount).catch(() => {});
      return { code: 200, message: 'ok', data: null };
    },
  );
}
