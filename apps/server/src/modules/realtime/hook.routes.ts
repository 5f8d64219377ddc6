import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors';
import { sameSecret } from './rules';

// EMQX fills these from the connection: an absent username or password arrives as ""
const authenticateBody = z.object({
  clientid: z.string().max(1024),
  username: z.string().max(256),
  password: z.string().max(4096),
});
const authorizeBody = z.object({
  clientid: z.string().max(1024),
  username: z.string().max(256),
  // an MQTT topic is at most 65535 bytes
  topic: z.string().min(1).max(65535),
  action: z.enum(['publish', 'subscribe']),
  // `${retain}` of a publish; a browser's retained publish is denied
  retain: z
    .union([z.boolean(), z.enum(['true', 'false'])])
    .optional()
    .transform((v) => v === true || v === 'true'),
});
const answer = z.object({
  result: z.enum(['allow', 'deny']),
  is_superuser: z.boolean().optional(),
  expire_at: z.number().int().optional(),
});

/** The secret EMQX sends with every hook request: `Authorization: Bearer <MQTT_HOOK_SECRET>`. */
function bearer(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return '';
  return /^Bearer\s+(\S+)$/i.exec(header.trim())?.[1] ?? '';
}

/**
 * EMQX's HTTP authenticator and HTTP authorizer (POST, JSON body with its placeholders), served only when
 * MQTT_HOOK_SECRET is set and answered only to callers sending it. The answer is always 200 with
 * `{"result": "allow" | "deny"}`; a wrong or missing secret is a 401, which EMQX treats as "ignore".
 */
export async function brokerHookRoutes(app: FastifyInstance) {
  const hook = app.brokerHook;
  const secret = app.config.MQTT_HOOK_SECRET;
  if (!hook || !secret) return;
  const api = app.withTypeProvider<ZodTypeProvider>();
  // checked before the body is parsed: a caller without the secret learns nothing about the body rules
  const onRequest = async (request: FastifyRequest) => {
    if (!sameSecret(bearer(request), secret)) throw new AppError('tokenInvalid');
  };
  // every connection and subscription asks: only failures are worth a log line
  const common = { config: { public: true }, logLevel: 'warn' as const, onRequest };

  api.post(
    '/mqtt/authenticate',
    { ...common, schema: { hide: true, body: authenticateBody, response: { 200: answer } } },
    async (request) => hook.authenticate(request.body),
  );

  api.post('/mqtt/authorize', { ...common, schema: { hide: true, body: authorizeBody, response: { 200: answer } } }, async (request) =>
    hook.authorize(request.body),
  );
}
