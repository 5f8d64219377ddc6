import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../errors';
import type { SharedStore } from './store';

type RouteParams = { routeInfo?: { method?: string | string[]; url?: string } };

/** @fastify/rate-limit's store protocol over the shared store, one counter per route and IP. */
function sharedRateLimitStore(store: SharedStore) {
  return class SharedRateLimitStore {
    prefix: string;
    constructor(params: RouteParams = {}) {
      const method = params.routeInfo?.method;
      this.prefix = `rl:${Array.isArray(method) ? method.join(',') : (method ?? '*')}:${params.routeInfo?.url ?? '*'}:`;
    }
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      store.incr(this.prefix + key, timeWindow).then(
        ({ count, resetAt }) => callback(null, { current: count, ttl: Math.max(0, resetAt - Date.now()) }),
        (error: Error) => callback(error),
      );
    }
    child(params: RouteParams) {
      return new SharedRateLimitStore(params);
    }
  };
}

/**
 * Per-IP rate limits for the routes that ask for one (`config.rateLimit`), counted in the shared store
 * so every instance counts together. Over the limit: a 429 envelope.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(rateLimit, {
      global: false,
      store: sharedRateLimitStore(app.store) as never,
      errorResponseBuilder: (_request, context) =>
        new AppError('rateLimited', { data: { retryAfterSeconds: Math.ceil(context.ttl / 1000) } }),
    });
  },
  { name: 'rate-limit', dependencies: ['store', 'errors'] },
);
