import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors';
import { ApiTokenService, tokenRefused } from '../modules/auth/api-token.service';
import { CaptchaService } from '../modules/auth/captcha.service';
import { createMailer, type Mailer } from '../modules/auth/mailer';
import { SessionService } from '../modules/auth/session.service';
import { type AuthContext, can, tokenOf } from '../plugins/external/access';
import { connectBackplane } from './backplane';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs no session (sign-in, captcha, register…). */
    public?: boolean;
    /** The permission the caller needs, checked with `can()`; 403 otherwise. */
    permission?: string;
    /**
     * The route's `:id` names a global resource (tenant, account, menu), not a row of the session's
     * tenant: the cross-tenant test matrix leaves it out.
     */
    globalResource?: boolean;
    /** No permission: the handler checks the caller's grant on what it touches (release: the user-project grants). */
    grantChecked?: string;
    /** Only the super admin calls the route, whatever permission a tenant role carries (checked before the input). */
    superAdminOnly?: boolean;
    /**
     * Only a signed-in session calls the route, never a personal API token (403):
     * making tokens, changing sign-in identifiers or passwords, managing factors, switching tenant or role.
     */
    sessionOnly?: boolean;
  }
  interface FastifyInstance {
    sessions: SessionService;
    apiTokens: ApiTokenService;
    captcha: CaptchaService;
    mailer: Mailer;
    /** Mails being sent after their request answered; closing the app waits for them. */
    pendingMail: Set<Promise<unknown>>;
  }
  interface FastifyRequest {
    /** Who is asking. Set on every /api route that is not `config.public`; null on public routes. */
    auth: AuthContext;
  }
}

/** Routes the session check applies to: the API, not its documentation. */
function guarded(url: string | undefined): boolean {
  return !!url && url.startsWith('/api/') && !url.startsWith('/api/docs');
}

/**
 * Sessions for the API: every /api route needs a valid session unless `config.public`; the session
 * becomes `request.auth`, and `config.permission` is checked with `can()` right after it — before the
 * body is parsed, so a caller without the permission gets 403 whatever it sends.
 * 11000 (HTTP 401): no, unknown or expired token. 1302 (HTTP 401): the session was ended (or the API
 * token revoked, or its owner's access ended). A route with `config.sessionOnly` refuses API tokens (403).
 */
export const authPlugin = fp(
  async (app: FastifyInstance) => {
    const sessions = new SessionService(app.database, app.clock, app.events, app.log);
    app.decorate('sessions', sessions);
    const apiTokens = new ApiTokenService(app.database, app.clock, sessions);
    app.decorate('apiTokens', apiTokens);
    if (app.redis) connectBackplane(app, sessions, app.redis);
    app.decorate('captcha', new CaptchaService(app.store, app.config.CAPTCHA));
    const mailer = createMailer({ smtpUrl: app.config.SMTP_URL, dataDir: app.config.DATA_DIR });
    app.decorate('mailer', mailer);
    app.decorate('pendingMail', new Set<Promise<unknown>>());
    app.addHook('onClose', async () => {
      await Promise.allSettled([...app.pendingMail]);
      mailer.close();
    });
    app.decorateRequest('auth', null as unknown as AuthContext);

    app.addHook('onRequest', async (request) => {
      if (!guarded(request.routeOptions.url)) return;
      const config = request.routeOptions.config;
      if (config.public) return;
      // a personal API token (ADR 047) resolves on its own path; a session's token never starts with atr_
      const result = await apiTokens.bearer(tokenOf(request));
      // data.reason (forced, expired, user_disabled…) lets the sign-in page say why
      if (!result.ok) throw new AppError(result.code === 1302 ? 'sessionEnded' : 'tokenInvalid', { data: { reason: result.reason } });
      request.auth = result.auth;
      // a route guarded by project grants instead of a permission is in no token's set: the owner's admin
      // role or grants would otherwise let a token run release tasks whatever permissions it lists
      if (result.auth.tokenId !== undefined && (config.sessionOnly || config.grantChecked)) throw tokenRefused();
      if (config.permission && !can(result.auth, config.permission)) throw new AppError('forbidden');
    });
  },
  { name: 'auth', dependencies: ['database', 'errors', 'store'] },
);
