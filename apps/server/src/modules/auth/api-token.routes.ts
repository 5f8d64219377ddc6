import {
  apiTokenSchema,
  createApiTokenInputSchema,
  createdApiTokenSchema,
  envelopeOf,
  errorEnvelopeSchema,
  idParamSchema,
} from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from '../../crud/audit';

const ok = <T>(data: T) => ({ code: 200, message: 'ok', data });
const e = errorEnvelopeSchema;
const bearer = [{ bearer: [] }];
const audit = (action: string) => ({ module: 'user:token', action });

/**
 * The caller's own personal API tokens (ADR 047): `POST`, `GET` and `DELETE /api/user/token`.
 * A token cannot make another (`sessionOnly`); it may list and revoke its owner's.
 */
export async function apiTokenRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/user/token',
    {
      config: { sessionOnly: true, audit: audit('create'), rateLimit: { max: 30, timeWindow: 10 * 60_000 } },
      schema: {
        tags: ['auth'],
        summary: 'A personal API token for scripts: shown once in this answer (`atr_…`), then only its hash is kept',
        description:
          'Use it as `Authorization: Bearer atr_…`: it acts as the caller in this tenant with its permissions that the caller still holds at each request. ' +
          'Errors: 400 naming `permissions` (one the caller does not hold), `expiresAt` (past, or more than a year ahead) or `name`; 403 when called with an API token.',
        security: bearer,
        body: createApiTokenInputSchema,
        response: { 200: envelopeOf(createdApiTokenSchema), 400: e, 401: e, 403: e, 429: e },
      },
    },
    async (request) => {
      const created = await app.apiTokens.create(request.auth, request.body);
      recordAudit(request, { target: String(created.id), targetName: request.body.name, after: { permissions: request.body.permissions } });
      return ok(created);
    },
  );

  r.get(
    '/user/token',
    {
      schema: {
        tags: ['auth'],
        summary: "The caller's personal API tokens in this tenant (name, permissions, expiry, last use); never the token",
        security: bearer,
        response: { 200: envelopeOf(z.array(apiTokenSchema)), 401: e },
      },
    },
    async (request) => ok(await app.apiTokens.list(request.auth)),
  );

  r.delete(
    '/user/token/:id',
    {
      config: { audit: audit('delete') },
      schema: {
        tags: ['auth'],
        summary: 'Revokes one of the caller’s API tokens: refused from the next request on, on every instance',
        description: 'Errors: 404 for a token that is not the caller’s in this tenant, or already revoked.',
        security: bearer,
        params: idParamSchema,
        response: { 200: envelopeOf(z.null()), 400: e, 401: e, 404: e },
      },
    },
    async (request) => {
      const revoked = await app.apiTokens.revoke(request.auth, request.params.id, request.auth.accountRef);
      recordAudit(request, { target: String(revoked.id), targetName: revoked.name });
      return ok(null);
    },
  );
}
