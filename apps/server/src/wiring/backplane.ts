import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { BackplaneMessage, SessionService } from '../modules/auth/session.service';
import { redisNamespace } from '../plugins/external/store';
import type { RedisWatch } from '../redis';

/**
 * With REDIS_URL, instances tell each other at once about ended sessions, changed access and writes
 * that make kept list totals stale (Redis pub/sub), instead of waiting for their caches to expire.
 */
export function connectBackplane(app: FastifyInstance, sessions: SessionService, watch: RedisWatch): void {
  const origin = randomUUID();
  const CHANNEL = `${redisNamespace(app.config)}auth`;
  const publisher = watch.client('backplane-publish');
  // the subscription waits in the offline queue while Redis is away (start-up included) and is renewed on reconnect
  const subscriber = watch.client('backplane-subscribe', {
    enableOfflineQueue: true,
    maxRetriesPerRequest: null,
    commandTimeout: undefined,
  });
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
    else if (message.kind === 'totals') app.totals?.drop(message.tenantId, message.resource);
  });
  subscriber.subscribe(CHANNEL).catch((error: unknown) => app.log.warn({ err: error }, 'redis backplane: could not subscribe'));
  sessions.backplane = {
    publish(message) {
      // while Redis is away other instances see the change when their caches expire (SESSION_TTL_MS, ACCESS_TTL_MS)
      if (publisher.status !== 'ready') return;
      publisher.publish(CHANNEL, JSON.stringify({ ...message, origin })).catch((error: unknown) => {
        app.log.debug({ err: error }, 'redis backplane publish failed');
      });
    },
  };
  app.addHook('onClose', async () => {
    sessions.backplane = null;
  });
}
