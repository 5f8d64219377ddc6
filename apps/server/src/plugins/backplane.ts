import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { BackplaneMessage, SessionService } from '../modules/auth/session.service';
import { redisNamespace } from './store';

/**
 * With REDIS_URL, instances tell each other at once about ended sessions, changed access and writes
 * that make kept list totals stale (Redis pub/sub), instead of waiting for their caches to expire.
 */
export async function connectBackplane(app: FastifyInstance, sessions: SessionService, url: string): Promise<void> {
  const origin = randomUUID();
  const CHANNEL = `${redisNamespace(app.config)}auth`;
  const publisher = new Redis(url, { maxRetriesPerRequest: 2 });
  const subscriber = new Redis(url, { maxRetriesPerRequest: 2 });
  publisher.on('error', (error) => app.log.warn({ err: error }, 'redis backplane (publish)'));
  subscriber.on('error', (error) => app.log.warn({ err: error }, 'redis backplane (subscribe)'));
  subscriber.on('message', (_channel, raw) => {
    let message: BackplaneMessage & { origin?: string };
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    if (message.origin === origin) return;
    if (message.kind === 'invalidate') sessions.invalidate(message.scope, true);
    else if (message.kind === 'ended') sessions.ended(message.sessionIds, message.accountRef, message.reason);
    else if (message.kind === 'totals') app.totals?.drop(message.tenantId);
  });
  await subscriber.subscribe(CHANNEL);
  sessions.backplane = {
    publish(message) {
      publisher.publish(CHANNEL, JSON.stringify({ ...message, origin })).catch((error: unknown) => {
        app.log.warn({ err: error }, 'redis backplane publish failed');
      });
    },
  };
  app.addHook('onClose', async () => {
    sessions.backplane = null;
    await Promise.allSettled([subscriber.quit(), publisher.quit()]);
  });
}
