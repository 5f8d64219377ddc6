import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { isReady } from '../db/client';

const health = z.object({ code: z.number(), message: z.string(), data: z.object({ status: z.string(), reason: z.string().optional() }) });

/** `/healthz`: the process answers. `/readyz`: the database answers and every migration is applied. */
export const healthPlugin = fp(
  async (app: FastifyInstance) => {
    app.get('/healthz', { schema: { hide: true, response: { 200: health } }, logLevel: 'warn' }, async () => ({
      code: 200,
      message: 'ok',
      data: { status: 'up' },
    }));
    app.get('/readyz', { schema: { hide: true, response: { 200: health, 503: health } }, logLevel: 'warn' }, async (_request, reply) => {
      const state = await isReady(app.database);
      if (state.ready) return { code: 200, message: 'ok', data: { status: 'ready' } };
      return reply.status(503).send({ code: 503, message: 'not ready', data: { status: 'not ready', reason: state.reason } });
    });
  },
  { name: 'health', dependencies: ['database'] },
);
