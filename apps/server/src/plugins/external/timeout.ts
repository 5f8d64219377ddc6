import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../errors';
import { sendEnvelope } from './errors';

/**
 * Every request is answered within REQUEST_TIMEOUT_MS: one still waiting then (a dependency that
 * neither answers nor fails) gets the 503 envelope, and whatever its handler does later is dropped.
 */
export const timeoutPlugin = fp(
  async (app: FastifyInstance) => {
    const ms = app.config.REQUEST_TIMEOUT_MS;
    if (!ms) return;
    const timers = new WeakMap<object, NodeJS.Timeout>();
    app.addHook('onRequest', async (request, reply) => {
      const timer = setTimeout(() => {
        if (reply.sent || request.raw.destroyed) return;
        request.log.warn({ url: request.url, timeoutMs: ms }, 'request timed out');
        sendEnvelope(reply, request, new AppError('unavailable'));
      }, ms);
      timer.unref();
      timers.set(request, timer);
    });
    const clear = async (request: object) => clearTimeout(timers.get(request));
    app.addHook('onResponse', clear);
    app.addHook('onRequestAbort', clear);
  },
  { name: 'timeout', dependencies: ['errors'] },
);
