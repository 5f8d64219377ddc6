import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sessions } from '../db/schema';
import { IDLE_MS, resolveToken } from '../modules/auth/session.service';
import { checkDevice } from '../modules/mall/printer.service';
import type { SessionCheck, TokenCheck } from '../modules/realtime/broker';
import { BrokerHook, EmqxApi, type SessionEnd } from '../modules/realtime/hook';
import type { NotifyInput } from '../modules/realtime/notification.repository';
import { type NotifyResult, type PublishInput, Realtime } from '../modules/realtime/realtime.service';
import { serverCredentialsOf } from '../modules/realtime/rules';
import { BrokerWork } from '../modules/realtime/work';

declare module 'fastify' {
  interface FastifyInstance {
    /** The broker (embedded or external) and live delivery. */
    realtime: Realtime;
    /** Stores a notification per account in the tenant, then publishes it live. The one call other domains make. */
    notify(input: NotifyInput): Promise<NotifyResult>;
    /** Publishes an event that is not stored (task progress, printer status) to accounts' topics. */
    publish(input: PublishInput): Promise<boolean>;
    /** The external broker's authentication/authorization hook; null unless MQTT_HOOK_SECRET is set. */
    brokerHook: BrokerHook | null;
  }
}

export type RealtimePluginOptions = {
  /** How often connected clients' sessions are checked again (default a minute; tests go faster). */
  revalidateMs?: number;
};

/**
 * Starts the broker with the server and stops it before the database closes. Broker clients sign in
 * with a session token; an ended session disconnects its clients at once (`session.ended`), an expired
 * one at the next check.
 */
export const realtimePlugin = fp(
  async (app: FastifyInstance, options: RealtimePluginOptions) => {
    const checkToken: TokenCheck = async (token) => {
      const result = await resolveToken(app, token);
      if (!result.ok) return null;
      const { accountRef, accountId, clientKey, sessionId, tenantId } = result.auth;
      return { accountRef, accountId, clientKey, sessionId, tenantId };
    };
    // read directly: resolving the token would count an open tab as activity and defeat the idle limit
    const sessionEnd: SessionEnd = async (sessionId) => {
      const [row] = await app.database.db
        .select({ endedAt: sessions.endedAt, expiresAt: sessions.expiresAt, lastSeenAt: sessions.lastSeenAt })
        .from(sessions)
        .where(eq(sessions.id, sessionId));
      const now = app.clock.now().getTime();
      const running = !!row && !row.endedAt && now < row.expiresAt.getTime() && now - row.lastSeenAt.getTime() < IDLE_MS;
      return running ? row.expiresAt : null;
    };
    const checkSession: SessionCheck = async (sessionId) => (await sessionEnd(sessionId)) !== null;
    const { MQTT_HOOK_SECRET, EMQX_API_URL, EMQX_API_KEY, EMQX_API_SECRET } = app.config;
    const emqx = EMQX_API_URL && EMQX_API_KEY && EMQX_API_SECRET ? new EmqxApi(EMQX_API_URL, EMQX_API_KEY, EMQX_API_SECRET) : null;
    const realtime = new Realtime({
      database: app.database,
      log: app.log.child({ module: 'realtime' }),
      host: app.config.HOST,
      wsPort: app.config.MQTT_WS_PORT,
      tcpPort: app.config.MQTT_TCP_PORT ?? null,
      mqttUrl: app.config.MQTT_URL,
      publicUrl: app.config.MQTT_PUBLIC_URL,
      redis: app.redis,
      redisPrefix: app.config.REDIS_PREFIX,
      revalidateMs: options.revalidateMs,
      checkToken,
      checkSession,
      emqx,
      // a quarter of the pool at most: HTTP requests always find connections left
      workConcurrency: BrokerWork.concurrencyFor(app.config.DATABASE_POOL_SIZE),
    });
    const hook = MQTT_HOOK_SECRET
      ? new BrokerHook({
          store: app.store,
          checkToken,
          sessionEnd,
          server: serverCredentialsOf(app.config.MQTT_URL),
          emqx,
          log: app.log.child({ module: 'broker-hook' }),
          agents: () => realtime.agentBridge,
          checkDevice: (sn, key) => realtime.work.run(() => checkDevice(app.database.db, sn, key)),
        })
      : null;
    app.decorate('brokerHook', hook);
    app.decorate('realtime', realtime);
    app.decorate('notify', (input: NotifyInput) => realtime.notify(input));
    app.decorate('publish', (input: PublishInput) => realtime.publish(input));

    app.events.on('session.ended', ({ accountRef, sessionIds }) => {
      realtime
        .endSessions(accountRef, sessionIds)
        .catch((error: unknown) => app.log.warn({ err: error }, 'could not disconnect ended sessions'));
      // the external broker's clients of these sessions, through EMQX's REST API (logs its own failures)
      void hook?.endSessions(sessionIds);
    });
    app.addHook('onReady', () => realtime.start());
    // preClose: browsers are let go before the HTTP server and the database close
    app.addHook('preClose', async () => {
      await hook?.settle();
      await realtime.stop();
    });
  },
  { name: 'realtime', dependencies: ['database', 'auth', 'redis', 'store'] },
);
