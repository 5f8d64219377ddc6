import {
  ssoExchangeInputSchema,
  ssoExchangeResultSchema,
  ssoLogoutResultSchema,
  ssoSettingsInputSchema,
  ssoSettingsSchema,
  ssoStartQuerySchema,
  tenantCodeSchema,
} from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { typedRoute } from '../../crud/typed-route';
import { signOut } from './login.service';
import { exchangeSso, finishSso, providerLogoutUrl, readSsoSettings, saveSsoSettings, startSso } from './sso.service';

const sso = { domain: 'auth', name: 'sso' };
const MINUTE = 60_000;
const tenantIdParams = z.object({ id: z.coerce.number().int().positive() });
const redirectAnswer = z.null().describe('a redirect (302); the Location header says where');

/**
 * Single sign-on per tenant (docs/adr/049-single-sign-on-per-tenant.md): the tenant's settings, the
 * browser flow (start → provider → callback → the app exchanges a one-time code), and signing out at the
 * provider.
 */
export async function ssoRoutes(app: FastifyInstance) {
  const flowLimit = { max: Math.max(30, app.config.LOGIN_RATE_LIMIT), timeWindow: MINUTE };

  // who decides who is an administrator decides who the tenant's provider may sign in and as what
  typedRoute(
    app,
    sso,
    {
      method: 'GET',
      url: '/system/tenant/:id/sso',
      signedIn: 'any',
      permission: 'system:role:grant',
      globalResource: true,
      params: tenantIdParams,
      response: ssoSettingsSchema,
      summary: "The single sign-on settings of the caller's own tenant (never the client secret) and the redirect URI to register",
      description: 'Needs system:role:grant. Errors: 403 another tenant (a super admin switches into it first).',
    },
    async ({ params }, request) => readSsoSettings(app, request, params.id),
  );

  // what signs people in is changed by a person signed in, never by a script's token (ADR 027, 047)
  typedRoute(
    app,
    sso,
    {
      method: 'PUT',
      url: '/system/tenant/:id/sso',
      signedIn: 'session',
      permission: 'system:role:grant',
      globalResource: true,
      audit: { module: 'system:sso', action: 'update' },
      body: ssoSettingsInputSchema,
      params: tenantIdParams,
      response: ssoSettingsSchema,
      summary: "Saves the single sign-on settings of the caller's own tenant; the client secret is write-only (omitted: kept)",
      description:
        'Needs system:role:grant. Errors: 400 naming issuer (not https, or its discovery document cannot be read when enabled), clientSecret (none stored and none given when enabled), roleMappings (a role this tenant does not have); 403 another tenant, a mapped role granting more than the caller holds, or an API token.',
    },
    async ({ body, params }, request) => saveSsoSettings(app, request, params.id, body),
  );

  typedRoute(
    app,
    sso,
    {
      method: 'GET',
      url: '/auth/sso/:tenantCode/start',
      public: flowLimit,
      query: ssoStartQuerySchema,
      params: z.object({ tenantCode: tenantCodeSchema }),
      redirects: true,
      response: redirectAnswer,
      summary: "Starts signing in with the tenant's OpenID provider: a redirect (302) to it",
      description:
        'PKCE, state and nonce are kept server-side for 5 minutes, single use, bound to this browser by a cookie. `redirect`: a path of the app to land on. A tenant without single sign-on lands on `/login#sso_error=unavailable`.',
    },
    async ({ query, params }, request, reply) => startSso(app, request, reply, params.tenantCode, query.redirect),
  );

  typedRoute(
    app,
    sso,
    {
      method: 'GET',
      url: '/auth/sso/callback',
      public: flowLimit,
      query: z.record(z.string(), z.string()),
      redirects: true,
      response: redirectAnswer,
      summary: "The provider's redirect back: verifies its answer and lands on the sign-in page with a one-time code in the fragment",
      description:
        'Success: 302 to `/login#sso_code=…` (60 s, single use, this browser only; exchanged with POST /api/auth/sso/exchange). Failure: 302 to `/login#sso_error=` state, denied, verify, unknownUser, disabled, superAdmin, jit or unavailable.',
    },
    async (_input, request, reply) => finishSso(app, request, reply),
  );

  typedRoute(
    app,
    sso,
    {
      method: 'POST',
      url: '/auth/sso/exchange',
      public: flowLimit,
      body: ssoExchangeInputSchema,
      response: ssoExchangeResultSchema,
      summary: "Exchanges the callback's one-time code for the session token (a normal session of the tenant, made by SSO)",
      description: 'Errors: 1024 code unknown, expired, used or another browser’s; 1004 the user may no longer enter the tenant.',
    },
    async ({ body }, request, reply) => exchangeSso(app, request, reply, body.code),
  );

  typedRoute(
    app,
    sso,
    {
      method: 'POST',
      url: '/auth/sso/logout',
      public: true,
      readsToken: true,
      response: ssoLogoutResultSchema,
      summary: 'Ends the session server-side (as /api/system/user/logout) and answers where to end it at the provider',
      description:
        '`endSessionUrl`: the provider’s end-session address (RP-initiated logout) for a session signed in by SSO when the provider advertises one; null otherwise. Always succeeds.',
    },
    async (_input, request) => {
      const ended = await signOut(app, request);
      return { endSessionUrl: ended ? await providerLogoutUrl(app, request, ended.sessionId) : null };
    },
  );
}
