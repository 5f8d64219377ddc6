import { apiTokenSchema, createApiTokenInputSchema, createdApiTokenSchema, idParamSchema } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { recordAudit } from '../../crud/audit';
import { typedRoute } from '../../crud/typed-route';

const tokens = { domain: 'auth', name: 'token' };
const audit = (action: string) => ({ module: 'user:token', action });

/**
 * The caller's own personal API tokens (ADR 047): `POST`, `GET` and `DELETE /api/user/token`.
 * A token cannot make another (`sessionOnly`); it may list and revoke its owner's.
 */
export async function apiTokenRoutes(app: FastifyInstance) {
  typedRoute(
    app,
    tokens,
    {
      method: 'POST',
      url: '/user/token',
      signedIn: 'session',
      rateLimit: { max: 30, timeWindow: 10 * 60_000 },
      audit: audit('create'),
      body: createApiTokenInputSchema,
      response: createdApiTokenSchema,
      summary: 'A personal API token for scripts: shown once in this answer (`atr_…`), then only its hash is kept',
      description:
        'Use it as `Authorization: Bearer atr_…`: it acts as the caller in this tenant with its permissions that the caller still holds at each request. ' +
        'Errors: 400 naming `permissions` (one the caller does not hold), `expiresAt` (past, or more than a year ahead) or `name`; 403 when called with an API token.',
    },
    async ({ body }, request) => {
      const created = await app.apiTokens.create(request.auth, body);
      recordAudit(request, { target: String(created.id), targetName: body.name, after: { permissions: body.permissions } });
      return created;
    },
  );

  typedRoute(
    app,
    tokens,
    {
      method: 'GET',
      url: '/user/token',
      signedIn: 'any',
      response: z.array(apiTokenSchema),
      summary: "The caller's personal API tokens in this tenant (name, permissions, expiry, last use); never the token",
    },
    async (_input, request) => app.apiTokens.list(request.auth),
  );

  typedRoute(
    app,
    tokens,
    {
      method: 'DELETE',
      url: '/user/token/:id',
      signedIn: 'any',
      audit: audit('delete'),
      params: idParamSchema,
      response: z.null(),
      summary: 'Revokes one of the caller’s API tokens: refused from the next request on, on every instance',
      description: 'Errors: 404 for a token that is not the caller’s in this tenant, or already revoked.',
    },
    async ({ params }, request) => {
      const revoked = await app.apiTokens.revoke(request.auth, params.id, request.auth.accountRef);
      recordAudit(request, { target: String(revoked.id), targetName: revoked.name });
      return null;
    },
  );
}
