import { randomUUID } from 'node:crypto';
import path from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { type Clock, systemClock } from './clock';
import type { Config } from './config';
import { totalsPlugin } from './crud/totals';
import type { Database } from './db/client';
import { type AppEvents, createAppEvents } from './events';
import { registerModules } from './modules';
import { serverDir } from './paths';
import { databasePlugin } from './plugins/external/database';
import { errorsPlugin } from './plugins/external/errors';
import { healthPlugin } from './plugins/external/health';
import { inputPlugin } from './plugins/external/input';
import { metricsPlugin } from './plugins/external/metrics';
import { openapiPlugin } from './plugins/external/openapi';
import { rateLimitPlugin } from './plugins/external/rate-limit';
import { redisPlugin } from './plugins/external/redis';
import { trackRoutes } from './plugins/external/route-registry';
import { securityHeadersPlugin } from './plugins/external/security-headers';
import { compiledSerializer } from './plugins/external/serializer';
import { storePlugin } from './plugins/external/store';
import { timeoutPlugin } from './plugins/external/timeout';
import { webPlugin } from './plugins/external/web';
import { openSecrets } from './secrets/at-rest';
import type { SecretBox } from './secrets/box';
import { authPlugin } from './wiring/auth';
import { realtimePlugin } from './wiring/realtime';

export const defaultWebDist = path.resolve(serverDir, '../web/dist');

export type AppOptions = {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /** The clock sessions, lockouts and captchas read; tests pass one they can move. */
  clock?: Clock;
};

/** Builds the whole server around an opened database; `app.close()` closes the database too. */
export async function buildApp({ config, database, logger, clock }: AppOptions) {
  const app = Fastify({
    logger: logger ?? { level: config.LOG_LEVEL },
    bodyLimit: config.BODY_LIMIT,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    // only a configured proxy may speak for the client's address (rate limits and logs rely on it)
    trustProxy: config.TRUST_PROXY,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();

  trackRoutes(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(compiledSerializer);
  app.decorate('config', config);
  app.decorate('clock', clock ?? systemClock);
  // refuses to start when stored secrets are sealed with a key not given; seals plain ones
  app.decorate('secrets', await openSecrets(config, database, app.log));
  app.decorate('events', createAppEvents());
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await app.register(errorsPlugin);
  await app.register(timeoutPlugin);
  // JSON answers over 2 KB (list pages, menus) go compressed; brotli at a cheap level. The web app's
  // files come pre-compressed (plugins/external/web.ts) and .xlsx exports are zip already, so both are left alone
  await app.register(fastifyCompress, {
    threshold: 2048,
    encodings: ['br', 'gzip'],
    // text only: an .xlsx is a zip, compressing it again makes it bigger
    customTypes: /^(?:text\/|application\/(?:json|javascript|xml)\b|[^;]*\+(?:json|xml)\b)/,
  });
  await app.register(securityHeadersPlugin);
  // reads the known-device cookie of sign-in (modules/auth/login.service.ts) and the single sign-on flow's
  // browser binding (modules/auth/sso.service.ts); nothing else uses cookies
  await app.register(fastifyCookie);
  await app.register(inputPlugin);
  await app.register(databasePlugin, { database });
  await app.register(openapiPlugin);
  await app.register(redisPlugin);
  await app.register(healthPlugin);
  await app.register(metricsPlugin);
  await app.register(storePlugin);
  await app.register(rateLimitPlugin);
  await app.register(authPlugin);
  await app.register(totalsPlugin);
  await app.register(realtimePlugin, {});
  await app.register(registerModules, { prefix: '/api' });
  await app.register(webPlugin, { dist: config.WEB_DIST ?? defaultWebDist, captcha: config.CAPTCHA });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    clock: Clock;
    /** In-process announcements, e.g. `session.ended` (the realtime broker disconnects on it). */
    events: AppEvents;
    /** Seals and opens secrets a user enters (secrets/box.ts). */
    secrets: SecretBox;
  }
}
