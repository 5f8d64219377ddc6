import {
  type AccountIdentifierUse,
  captchaSchema,
  changeContactInputSchema,
  changePasswordInputSchema,
  envelopeOf,
  idParamSchema,
  loginInputSchema,
  loginResultSchema,
  menuRouteSchema,
  mfaEnrolConfirmInputSchema,
  mfaEnrolInputSchema,
  mfaEnrolResultSchema,
  mfaFactorsSchema,
  mfaLoginInputSchema,
  mfaPolicySchema,
  mfaVerifyInputSchema,
  mfaWebauthnLoginInputSchema,
  pageOf,
  passkeyRegisteredSchema,
  passkeyRegisterInputSchema,
  recoveryCodesSchema,
  registerInputSchema,
  registerResultSchema,
  resetCodeInputSchema,
  resetPasswordInputSchema,
  signInResultSchema,
  switchRoleInputSchema,
  switchRoleResultSchema,
  switchTenantInputSchema,
  tenantListQuerySchema,
  tenantOptionSchema,
  totpCodeInputSchema,
  totpEnrolmentSchema,
  userInfoSchema,
  userProfileSchema,
  userSettingsInputSchema,
  webauthnOptionsSchema,
} from '@atrium/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { invalidField } from '../../crud/conflict';
import { ok } from '../../crud/register-resource';
import { Rendered, typedRoute } from '../../crud/typed-route';
import {
  beginForcedTotp,
  confirmForcedTotp,
  login,
  loginWithPasskey,
  loginWithSecondFactor,
  passkeySignInOptions,
  signOut,
} from './login.service';
import { menuTree } from './menu.service';
import { assertRecentSecondFactor, beginTotp, confirmTotp, factorsOf, removeTotp, setTenantPolicy, tenantPolicy } from './mfa.service';
import { assertionOptions, MAX_PASSKEYS, registerPasskey, registrationOptions, removePasskey, stepUpChallengeKey } from './passkey.service';
import { changeOwnContact, changeOwnPassword, saveOwnSettings, userInfo, userProfile } from './profile.service';
import { register, requestResetCode, resetPassword } from './register.service';
import { verifyStepUp } from './step-up';
import { listTenants, switchTenant } from './tenant.service';

const MAX_PASSKEYS_TEXT = String(MAX_PASSKEYS);
const auth = { domain: 'auth', name: 'session' };
const MINUTE = 60_000;
// how each route uses the sign-in identifiers its body carries (the authorization matrix reads these)
const OWN: AccountIdentifierUse = { use: 'own' };
const NEW: AccountIdentifierUse = { use: 'new' };
const LOOKUP: AccountIdentifierUse = { use: 'lookup' };

/**
 * Sign-in, session and tenant calls with the spec's exact paths (section 7), plus captcha, register and
 * find-password. Thin: each handler calls one service function.
 */
export async function authRoutes(app: FastifyInstance) {
  const limits = {
    login: { max: app.config.LOGIN_RATE_LIMIT, timeWindow: MINUTE },
    captcha: { max: Math.max(60, app.config.LOGIN_RATE_LIMIT * 2), timeWindow: MINUTE },
    register: { max: 20, timeWindow: 60 * MINUTE },
    resetCode: { max: 10, timeWindow: 15 * MINUTE },
    reset: { max: 30, timeWindow: 15 * MINUTE },
  };
  const mfaLimit = { max: 10, timeWindow: 15 * MINUTE };
  // the caller's own factors: a signed-in session only, and rate-limited (each call checks a code or a key)
  const ownFactors = { signedIn: 'session', rateLimit: mfaLimit } as const;
  // a change of sign-in identifiers or factors: with a factor, it must have been proved in the last 5 minutes (1022)
  const recentFactor = (request: FastifyRequest) => assertRecentSecondFactor(app, request.auth);

  typedRoute(
    app,
    auth,
    {
      method: 'GET',
      url: '/system/captcha',
      public: limits.captcha,
      response: captchaSchema,
      summary: 'A captcha image (SVG data URL) and its id; `enabled: false` when CAPTCHA=off',
    },
    async (_input) => (app.captcha.enabled ? { enabled: true as const, ...(await app.captcha.issue()) } : { enabled: false as const }),
  );

  typedRoute(
    app,
    auth,
    {
      method: 'POST',
      url: '/system/user/login',
      public: limits.login,
      body: loginInputSchema,
      response: signInResultSchema,
      summary: 'Sign in by user number, phone or e-mail; a fresh token every time, or the second step',
      description:
        'With a second factor (or a tenant policy asking for one) the answer is `mfa: "required"` (or `"enrol"`) with an `mfaToken` (5 minutes, single use) and no token. Errors: 1001 wrong account or password, 1002 captcha, 1003 locked (until when), 1004 no tenant, 429 rate limited.',
    },
    async ({ body }, request, reply) => login(app, request, reply, body),
  );

  typedRoute(
    app,
    auth,
    {
      method: 'POST',
      url: '/system/user/login/mfa',
      public: limits.login,
      body: mfaLoginInputSchema,
      response: loginResultSchema,
      summary: 'The second step of a sign-in: the mfaToken and a code from the authenticator app, or a recovery code',
      description:
        'Answers the session token. Errors: 400 naming code (wrong or used), 1021 mfaToken unknown, expired or used, 1003 locked (wrong codes count as wrong passwords), 1004 no tenant, 429.',
    },
    async ({ body }, request, reply) => loginWithSecondFactor(app, request, reply, body),
  );

  typedRoute(
    app,
    auth,
    {
      method: 'POST',
      url: '/system/user/login/mfa/webauthn/options',
      public: limits.login,
      body: mfaEnrolInputSchema,
      response: webauthnOptionsSchema,
      summary: 'The second step by passkey, first call: WebAuthn options for navigator.credentials.get (challenge: 5 minutes, single use)',
      description: 'Errors: 400 naming mfaToken (the account has no passkey), 1021 mfaToken unknown, expired or used, 429.',
    },
    async ({ body }, request) => passkeySignInOptions(app, request, body.mfaToken),
  );

  typedRoute(
    app,
    auth,
    {
      method: 'POST',
      url: '/system/user/login/mfa/webauthn/verify',
      public: limits.login,
      body: mfaWebauthnLoginInputSchema,
      response: loginResultSchema,
      summary: "The second step by passkey: the assertion to the options' challenge; answers the session token",
      description:
        'A refused assertion (wrong or used challenge, another account’s or a removed passkey, wrong origin, a counter that did not grow) is a failed sign-in: 400 naming response, 1003 once locked. Errors also: 1021, 1004, 429.',
    },
    async ({ body }, request, reply) => loginWithPasskey(app, request, reply, body),
  );

  typedRoute(
    app,
    auth,
    {
      method: 'POST',
      url: '/system/user/login/mfa/totp',
      public: limits.login,
      body: mfaEnrolInputSchema,
      response: totpEnrolmentSchema,
      summary: 'Forced enrolment (`mfa: "enrol"`): begins an authenticator app for the account signing in',
      description: 'Errors: 1021 mfaToken unknown, expired, used or not an enrolment one.',
    },
    async ({ body }) => beginForcedTotp(app, body.mfaToken),
  );

  typedRoute(
    app,
    auth,
    {
      method: 'POST',
      url: '/system/user/login/mfa/totp/confirm',
      public: limits.login,
      body: mfaEnrolConfirmInputSchema,
      response: mfaEnrolResultSchema,
      summary: 'Forced enrolment: confirms the authenticator app with a code and signs in; the ten recovery codes are shown once',
      description: 'Errors: 400 naming code, 1021 mfaToken unknown, expired or used, 1004 no tenant.',
    },
    async ({ body }, request, reply) => confirmForcedTotp(app, request, reply, body),
  );

  typedRoute(
    app,
    auth,
    {
      method: 'POST',
      url: '/system/user/logout',
      public: true,
      readsToken: true,
      response: z.null(),
      summary: 'Ends the session server-side; always succeeds',
    },
    async (_input, request) => {
      await signOut(app, request);
    },
  );

  typedRoute(
    app,
    auth,
    {
      method: 'POST',
      url: '/system/user/userInfoLogin',
      signedIn: 'any',
      response: userInfoSchema,
      summary: 'The signed-in user: the spec user-info fields, permissions and realtime client key',
    },
    async (_input, request) =>
      new Rendered(
        await app.sessions.view(request.auth, 'userInfo', async () => render(userInfoEnvelope, ok(await userInfo(app, request.auth)))),
      ),
  );

  typedRoute(
    app,
    auth,
    {
      method: 'GET',
      url: '/user/info',
      signedIn: 'any',
      response: userProfileSchema,
      summary: "The signed-in user's own profile (the user-info page)",
    },
    async (_input, request) => userProfile(app, request.auth),
  );

  typedRoute(
    app,
    auth,
    {
      method: 'PUT',
      url: '/user/info',
      signedIn: 'any',
      rateLimit: { max: 20, timeWindow: 10 * MINUTE },
      accountIdentifiers: OWN,
      body: userSettingsInputSchema,
      response: userProfileSchema,
      summary: "Saves the signed-in user's own basic settings (nickname, country/region, area, address, profile)",
      description:
        'The e-mail is sent back as stored: it changes only with the current password (PUT /api/user/contact). Errors: 400 naming the field (an e-mail other than the stored one names `email`).',
    },
    async ({ body }, request) => saveOwnSettings(app, request.auth, body),
  );

  // each attempt verifies a password: a stolen session cannot use it to guess the current one
  typedRoute(
    app,
    auth,
    {
      method: 'PUT',
      url: '/user/password',
      signedIn: 'session',
      rateLimit: { max: 10, timeWindow: 15 * MINUTE },
      body: changePasswordInputSchema,
      response: z.object({ endedSessions: z.number().int() }),
      summary: "Changes the signed-in user's password; the user's other sessions end",
      description: 'Errors: 400 naming oldPassword (wrong) or newPassword (policy, unchanged), 429.',
      before: recentFactor,
    },
    async ({ body }, request) => changeOwnPassword(app, request.auth, body),
  );

  // each attempt verifies a password, and a 409 tells that a phone or e-mail exists somewhere
  typedRoute(
    app,
    auth,
    {
      method: 'PUT',
      url: '/user/contact',
      signedIn: 'session',
      rateLimit: { max: 10, timeWindow: 15 * MINUTE },
      accountIdentifiers: OWN,
      body: changeContactInputSchema,
      response: userProfileSchema,
      summary: "Changes the signed-in user's phone and e-mail (the sign-in identifiers); the current password proves the owner",
      description:
        'Errors: 400 naming password (wrong), phone or email (format); 409 naming phone or email (used by another account); 429.',
      before: recentFactor,
    },
    async ({ body }, request) => changeOwnContact(app, request, body),
  );

  // ---- second factors of the signed-in user (docs/adr/048-second-factor.md) ----

  typedRoute(
    app,
    auth,
    {
      method: 'GET',
      url: '/user/mfa',
      signedIn: 'any',
      response: mfaFactorsSchema,
      summary: "The signed-in user's second factors (never a secret), recovery codes left, and whether the tenant requires one",
    },
    async (_input, request) => factorsOf(app, request.auth),
  );

  typedRoute(
    app,
    auth,
    {
      method: 'POST',
      url: '/user/mfa/totp',
      ...ownFactors,
      response: totpEnrolmentSchema,
      errors: [503],
      summary: 'Begins enrolling an authenticator app: its secret and otpauth:// address (not active until confirmed)',
      description: 'Errors: 400 naming totp (one is enrolled already: remove it first), 503 no secrets key.',
      // a factor more is a change of factors: with one already, it is asked again first
      before: recentFactor,
    },
    async (_input, request) => beginTotp(app, request.auth),
  );

  typedRoute(
    app,
    auth,
    {
      method: 'POST',
      url: '/user/mfa/webauthn/register/options',
      ...ownFactors,
      response: webauthnOptionsSchema,
      summary: 'Adding a passkey, first call: WebAuthn options for navigator.credentials.create (challenge: 5 minutes, single use)',
      description: `Errors: 1022 (the account has a second factor not proved in the last 5 minutes), 400 naming name (${MAX_PASSKEYS_TEXT} passkeys already).`,
      before: recentFactor,
    },
    async (_input, request) => registrationOptions(app, request, request.auth),
  );

  typedRoute(
    app,
    auth,
    {
      method: 'POST',
      url: '/user/mfa/webauthn/register',
      ...ownFactors,
      body: passkeyRegisterInputSchema,
      response: passkeyRegisteredSchema,
      summary: 'Adding a passkey: its name and the attestation to the challenge; the first second factor brings ten recovery codes',
      description: 'Errors: 400 naming name, or response (refused: wrong or used challenge, origin, a passkey added already), 1022.',
      before: recentFactor,
    },
    async ({ body }, request) => registerPasskey(app, request.auth, body),
  );

  typedRoute(
    app,
    auth,
    {
      method: 'DELETE',
      url: '/user/mfa/webauthn/:id',
      ...ownFactors,
      params: idParamSchema,
      response: z.null(),
      summary: "Removes one of the caller's passkeys; with the last factor the recovery codes go too",
      description: 'Errors: 1022 (second factor not proved in the last 5 minutes), 404 not one of the caller’s passkeys.',
      before: recentFactor,
    },
    async ({ params }, request) => removePasskey(app, request.auth, params.id),
  );

  typedRoute(
    app,
    auth,
    {
      method: 'POST',
      url: '/user/mfa/webauthn/options',
      ...ownFactors,
      response: webauthnOptionsSchema,
      summary:
        'Step-up by passkey, first call: WebAuthn options for navigator.credentials.get; the assertion goes to POST /api/user/mfa/verify',
      description: 'Errors: 400 naming method (no passkey).',
    },
    async (_input, request) => {
      const options = await assertionOptions(app, request, request.auth.accountRef, stepUpChallengeKey(request.auth.sessionId));
      if (!options) throw invalidField('method', 'noPasskey', 'mfa.passkeyRefused');
      return options;
    },
  );

  typedRoute(
    app,
    auth,
    {
      method: 'POST',
      url: '/user/mfa/totp/confirm',
      ...ownFactors,
      body: totpCodeInputSchema,
      response: recoveryCodesSchema,
      summary: 'Confirms the authenticator app with a code from it: active from now on; answers ten recovery codes, shown once',
      description: 'Errors: 400 naming code (wrong, or no enrolment begun).',
    },
    async ({ body }, request) => confirmTotp(app, request.auth.accountRef, body.code, request.auth.sessionId),
  );

  typedRoute(
    app,
    auth,
    {
      method: 'DELETE',
      url: '/user/mfa/totp',
      ...ownFactors,
      body: totpCodeInputSchema,
      response: z.null(),
      summary: 'Removes the authenticator app and the recovery codes, with a code from the app',
      description: 'Errors: 400 naming code (wrong, used, or no app enrolled).',
    },
    async ({ body }, request) => removeTotp(app, request.auth, body.code),
  );

  typedRoute(
    app,
    auth,
    {
      method: 'POST',
      url: '/user/mfa/verify',
      ...ownFactors,
      body: mfaVerifyInputSchema,
      response: z.null(),
      summary: 'Step-up: proves the second factor again, for the changes that ask for it within 5 minutes (1022)',
      description:
        'A code (`totp`, `recovery`), or with `method: "webauthn"` a passkey’s assertion (`response`) to the challenge of POST /api/user/mfa/webauthn/options. Errors: 400 naming code (wrong or used) or response (refused).',
    },
    async ({ body }, request) => verifyStepUp(app, request.auth, body),
  );

  typedRoute(
    app,
    auth,
    {
      method: 'GET',
      url: '/system/security/mfa-policy',
      signedIn: 'any',
      response: mfaPolicySchema,
      summary: "The current tenant's second-factor policy: optional, admins or everyone",
    },
    async (_input, request) => ({ policy: await tenantPolicy(app, request.auth.tenantId) }),
  );

  // who decides who is an administrator decides whether administrators need a second factor
  typedRoute(
    app,
    auth,
    {
      method: 'PUT',
      url: '/system/security/mfa-policy',
      signedIn: 'any',
      permission: 'system:role:grant',
      audit: { module: 'system:security', action: 'update' },
      body: mfaPolicySchema,
      response: mfaPolicySchema,
      summary: "Sets the current tenant's second-factor policy (needs system:role:grant)",
      description: 'Errors: 400 naming policy, 403.',
    },
    async ({ body }, request) => {
      await setTenantPolicy(app, request.auth.tenantId, body.policy);
      return { policy: body.policy };
    },
  );

  typedRoute(
    app,
    auth,
    {
      method: 'POST',
      url: '/system/user/menu',
      signedIn: 'any',
      response: menuRoutesSchema,
      summary: "The signed-in user's menu tree for the current tenant, in route form",
    },
    async (_input, request) =>
      new Rendered(await app.sessions.view(request.auth, 'menu', async () => render(menuEnvelope, ok(await menuTree(app, request.auth))))),
  );

  typedRoute(
    app,
    auth,
    {
      method: 'GET',
      url: '/system/user/tenant',
      signedIn: 'any',
      query: tenantListQuerySchema,
      response: pageOf(tenantOptionSchema),
      summary: 'Tenants the account may enter (super admin: all), paged, searchable by name, code, or either (keyword)',
    },
    async ({ query }, request) => {
      const page = await listTenants(app, request.auth, query);
      return { ...page, pageNum: query.pageNum, pageSize: query.pageSize };
    },
  );

  typedRoute(
    app,
    auth,
    {
      method: 'POST',
      url: '/system/user/switchTenant',
      signedIn: 'session',
      body: switchTenantInputSchema,
      response: loginResultSchema,
      summary: 'Moves the session into another tenant and answers a fresh token (the old one ends)',
      description: 'Errors: 1301 (HTTP 403) a tenant the account may not enter, or disabled, or expired.',
    },
    async ({ body }, request) => switchTenant(app, request, body.tenantId),
  );

  typedRoute(
    app,
    auth,
    {
      method: 'POST',
      url: '/system/user/switchRole',
      signedIn: 'session',
      body: switchRoleInputSchema,
      response: switchRoleResultSchema,
      summary: 'Switch roles: the session acts as one role the user holds in its tenant, or (null) as all of them',
      description:
        'Only narrows: the role in effect grants its own permissions, data scope and menu. Errors: 400 (field role) a role not held here (enabled), a user with one role, a super admin.',
    },
    async ({ body }, request) => {
      const auth = request.auth;
      const refusal = auth.superAdmin ? 'role.superAdmin' : auth.heldRoles.length < 2 ? 'role.single' : 'role.notHeld';
      const switched = await app.sessions.actAs(auth, body.role);
      if (!switched) throw invalidField('role', refusal === 'role.notHeld' ? 'notHeld' : 'unavailable', refusal);
      return { role: switched.role, activeRole: body.role };
    },
  );

  typedRoute(
    app,
    auth,
    {
      method: 'POST',
      url: '/system/user/register',
      public: limits.register,
      accountIdentifiers: NEW,
      body: registerInputSchema,
      response: registerResultSchema,
      summary: 'A new account and a new tenant in which it is administrator; answers a token',
      description: 'Errors: 1005 registration off (REGISTRATION=off), 1002 captcha, 1007 account or e-mail taken, 40001 weak password.',
    },
    async ({ body }, request) => register(app, request, body),
  );

  typedRoute(
    app,
    auth,
    {
      method: 'POST',
      url: '/system/user/password/reset-code',
      public: limits.resetCode,
      accountIdentifiers: LOOKUP,
      body: resetCodeInputSchema,
      response: z.null(),
      summary: 'Mails a password reset code; the answer is the same whether or not the address is registered',
    },
    async ({ body }, request) => requestResetCode(app, request, body),
  );

  typedRoute(
    app,
    auth,
    {
      method: 'POST',
      url: '/system/user/password/reset',
      public: limits.reset,
      accountIdentifiers: LOOKUP,
      body: resetPasswordInputSchema,
      response: z.null(),
      summary: 'Sets a new password with the mailed code; ends every session of the account',
      description: 'Errors: 1006 wrong or expired code (also for an unknown address), 40001 weak password.',
    },
    async ({ body }) => resetPassword(app, body),
  );
}

const menuRoutesSchema = z.array(menuRouteSchema);
const userInfoEnvelope = envelopeOf(userInfoSchema);
const menuEnvelope = envelopeOf(menuRoutesSchema);

/** JSON of an answer as the route's response schema shapes it (unknown keys dropped), for keeping. */
const render = <T>(schema: z.ZodType<T>, value: T) => JSON.stringify(schema.parse(value));
