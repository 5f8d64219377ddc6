import {
  envelopeOf,
  errorEnvelopeSchema,
  ssoExchangeInputSchema,
  ssoExchangeResultSchema,
  ssoLogoutResultSchema,
  ssoSettingsInputSchema,
  ssoSettingsSchema,
  ssoStartQuerySchema,
  tenantCodeSchema,
} from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signOut } from './login.service';
import { exchangeSso, finishSso, providerLogoutUrl, readSsoSettings, saveSsoSettings, startSso } from './sso.service';

const ok = <T>(data: T) => ({ code: 200, message: 'ok', data });
const e = errorEnvelopeSchema;
const bearer = [{ bearer: [] }];
const MINUTE = 60_000;
const tenantIdParams = z.object({ id: z.coerce.number().int().positive() });
const redirectAnswer = z.null().describe('a redirect (302); the Location header says where');

/**
 * Single sign-on per tenant (docs/adr/049-single-sign-on-per-tenant.md): the tenant's settings, the
 * browser flow (start → provider → callback → the app exchanges a one-time code), and signing out at the
 * provider.
 */
export async function ssoRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const flowLimit = { max: Math.max(30, app.config.LOGIN_RATE_LIMIT), timeWindow: MINUTE };

  r.get(
    '/system/tenant/:id/sso',
    {
      // who decides who is an administrator decides who the tenant's provider may sign in and as what
      config: { permission: 'system:role:grant', globalResource: true },
      schema: {
        tags: ['auth'],
        summary: "The single sign-on settings of the caller's own tenant (never the client secret) and the redirect URI to register",
        description: 'Needs system:role:grant. Errors: 403 another tenant (a super admin switches into it first).',
        security: bearer,
        params: tenantIdParams,
        response: { 200: envelopeOf(ssoSettingsSchema), 400: e, 401: e, 403: e },
      },
    },
    async (request) => ok(await readSsoSettings(app, request, request.params.id)),
  );

  r.put(
    '/system/tenant/:id/sso',
    {
      // what signs people in is changed by a person signed in, never by a script's token (ADR 027, 047)
      config: {
        permission: 'system:role:grant',
        globalResource: true,
        sessionOnly: true,
        audit: { module: 'system:sso', action: 'update' },
      },
      schema: {
        tags: ['auth'],
        summary: "Saves the single sign-on settings of the caller's own tenant; the client secret is write-only (omitted: kept)",
        description:
          'Needs system:role:grant. Errors: 400 naming issuer (not https, or its discovery document cannot be read when enabled), clientSecret (none stored and none given when enabled), roleMappings (a role this tenant does not have); 403 another tenant, a mapped role granting more than the caller holds, or an API token.',
        security: bearer,
        params: tenantIdParams,
        body: ssoSettingsInputSchema,
        response: { 200: envelopeOf(ssoSettingsSchema), 400: e, 401: e, 403: e },
      },
    },
    async (request) => ok(await saveSsoSettings(app, request, request.params.id, request.body)),
  );

  r.get(
    '/auth/sso/:tenantCode/start',
    {
      config: { public: true, rateLimit: flowLimit },
      schema: {
        tags: ['auth'],
        summary: "Starts signing in with the tenant's OpenID provider: a redirect (302) to it",
        description:
          'PKCE, state and nonce are kept server-side for 5 minutes, single use, bound to this browser by a cookie. `redirect`: a path of the app to land on. A tenant without single sign-on lands on `/login#sso_error=unavailable`.',
        params: z.object({ tenantCode: tenantCodeSchema }),
        querystring: ssoStartQuerySchema,
        response: { 302: redirectAnswer, 400: e, 429: e },
      },
    },
    async (request, reply) => startSso(app, request, reply, request.params.tenantCode, request.query.redirect),
  );

  r.get(
    '/auth/sso/callback',
    {
      config: { public: true, rateLimit: flowLimit },
      schema: {
        tags: ['auth'],
        summary: "The provider's redirect back: verifies its answer and lands on the sign-in page with a one-time code in the fragment",
        description:
          'Success: 302 to `/login#sso_code=…` (60 s, single use, this browser only; exchanged with POST /api/auth/sso/exchange). Failure: 302 to `/login#sso_error=` state, denied, verify, unknownUser, disabled, superAdmin, jit or unavailable.',
        querystring: z.record(z.string(), z.string()),
        response: { 302: redirectAnswer, 400: e, 429: e },
      },
    },
    async (request, reply) => finishSso(app, request, reply),
  );

  r.post(
    '/auth/sso/exchange',
    {
      config: { public: true, rateLimit: flowLimit },
      schema: {
        tags: ['auth'],
        summary: "Exchanges the callback's one-time code for the session token (a normal session of the tenant, made by SSO)",
        description: 'Errors: 1024 code unknown, expired, used or another browser’s; 1004 the user may no longer enter the tenant.',
        body: ssoExchangeInputSchema,
        response: { 200: envelopeOf(ssoExchangeResultSchema), 400: e, 401: e, 403: e, 429: e },
      },
    },
    async (request, reply) => ok(await exchangeSso(app, request, reply, request.body.code)),
  );

  r.post(
    '/auth/sso/logout',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Ends the session server-side (as /api/system/user/logout) and answers where to end it at the provider',
        description:
          '`endSessionUrl`: the provider’s end-session address (RP-initiated logout) for a session signed in by SSO when the provider advertises one; null otherwise. Always succeeds.',
        security: bearer,
        response: { 200: envelopeOf(ssoLogoutResultSchema) },
      },
    },
    async (request) => {
      const ended = await signOut(app, request);
      return ok({ endSessionUrl: ended ? await providerLogoutUrl(app, request, ended.sessionId) : null });
    },
  );
}
