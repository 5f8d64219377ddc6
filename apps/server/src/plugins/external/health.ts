import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { isReady, type SchemaState } from '../../db/client';
import { RELEASE_HEADER, release } from '../../release';

const check = z.object({ status: z.enum(['up', 'down', 'connecting']), reason: z.string().optional(), mode: z.string().optional() });
const schemaCheck = z.object({ status: z.enum(['current', 'behind', 'ahead']), applied: z.number(), known: z.number() });
const health = z.object({
  code: z.number(),
  message: z.string(),
  data: z.object({
    status: z.enum(['up', 'ready', 'degraded', 'not ready', 'draining']),
    reason: z.string().optional(),
    checks: z.object({ database: check, schema: schemaCheck.optional(), redis: check.optional(), broker: check.optional() }).optional(),
  }),
});
type Check = z.infer<typeof check>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Set once the instance is shutting down: `/readyz` answers 503 while requests are still served. */
    lifecycle: { draining: boolean };
  }
}

/**
 * Every answer but the web build's hashed files names this instance's release (`x-atrium-release`).
 * `/healthz`: the process answers. `/readyz`: can this instance take traffic — 200 `ready` when the
 * database answers with every migration applied and Redis and the broker (when configured) are up;
 * 200 `degraded` when only Redis or the broker are away (the server works without them, see README);
 * 503 `not ready` without the database, or when its schema is behind this release (`schema behind`:
 * the code would read columns that are not there); 503 `draining` once shutdown has begun.
 * `data.checks` says each dependency's state; `checks.schema` compares the migrations the database has
 * applied with those this release ships: `ahead` (a newer release migrated it) stays ready, as the
 * expand-then-contract rule (ADR 031) keeps the schema usable by the release before the newer one.
 */
export const healthPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('lifecycle', { draining: false });
    app.addHook('onSend', async (request, reply) => {
      // while draining, kept-alive connections are closed after their answer so clients reconnect elsewhere
      if (app.lifecycle.draining) reply.header('connection', 'close');
      // the release that answered: a browser tab of another release offers a reload (ADR 032). Not on the
      // web app's hashed files: they belong to one build anyway, and the page loads dozens of them
      if (!request.url.startsWith('/assets/')) reply.header(RELEASE_HEADER, release);
    });
    app.get('/healthz', { schema: { hide: true, response: { 200: health } }, logLevel: 'warn' }, async () => ({
      code: 200,
      message: 'ok',
      data: { status: 'up' as const },
    }));
    app.get('/readyz', { schema: { hide: true, response: { 200: health, 503: health } }, logLevel: 'warn' }, async (_request, reply) => {
      if (app.lifecycle.draining) return reply.status(503).send({ code: 503, message: 'draining', data: { status: 'draining' } });
      const db = await isReady(app.database);
      const checks: { database: Check; schema?: SchemaState; redis?: Check; broker?: Check } = {
        database: db.ready || db.schema ? { status: 'up' } : { status: 'down', reason: db.reason },
      };
      if (db.schema) checks.schema = db.schema;
      if (app.redis) checks.redis = { status: app.redis.state() };
      if (app.hasDecorator('realtime')) checks.broker = { status: app.realtime.live ? 'up' : 'down', mode: app.realtime.mode };
      if (!db.ready)
        return reply.status(503).send({ code: 503, message: 'not ready', data: { status: 'not ready', reason: db.reason, checks } });
      const whole = checks.redis?.status !== 'down' && checks.broker?.status !== 'down';
      const reason =
        db.schema?.status === 'ahead'
          ? `schema ahead: the database has ${db.schema.applied} migrations, this release knows ${db.schema.known}`
          : undefined;
      return {
        code: 200,
        message: 'ok',
        data: { status: whole ? ('ready' as const) : ('degraded' as const), ...(reason ? { reason } : {}), checks },
      };
    });
  },
  { name: 'health', dependencies: ['database', 'redis'] },
);
