import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { RedisWatch } from '../../redis';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every Redis client of this server (REDIS_URL), watched as one; null without Redis. */
    redis: RedisWatch | null;
  }
}

/** Creates the Redis watch when REDIS_URL is set and closes every client it made when the app closes. */
export const redisPlugin = fp(
  async (app: FastifyInstance) => {
    const watch = app.config.REDIS_URL ? new RedisWatch(app.config.REDIS_URL, app.log.child({ module: 'redis' })) : null;
    app.decorate('redis', watch);
    // closing is idempotent for the clients: whoever still uses one afterwards gets an error, not a hang
    app.addHook('onClose', async () => {
      await watch?.close();
    });
  },
  { name: 'redis' },
);
