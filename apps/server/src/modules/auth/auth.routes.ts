import {
  type AccountIdentifierUse,
  captchaSchema,
  changeContactInputSchema,
  changePasswordInputSchema,
  envelopeOf,
  errorEnvelopeSchema,
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
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { invalidField } from '../../crud/conflict';
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
import {
  assertRecentSecondFactor,
  beginTotp,
  confirmTotp,
  factorsOf,
  markSecondFactor,
  removeTotp,
  setTenantPolicy,
  tenantPolicy,
} from './mfa.service';
import { assertionOptions, MAX_PASSKEYS, registerPasskey, registrationOptions, removePasskey, stepUpChallengeKey } from './passkey.service';
import { changeOwnContact, changeOwnPassword, saveOwnSettings, userInfo, userProfile } from './profile.service';
import { register, requestResetCode, resetPassword } from './register.service';
import { verifyStepUp } from './step-up';
import { listTenants, switchTenant } from './tenant.service';

const ok = <T>(data: T) => ({ code: 200, message: 'ok', data });
const MAX_PASSKEYS_TEXT = String(MAX_PASSKEYS);
const e = errorEnvelopeSchema;
const authErrors = { 401: e };
const bearer = [{ bearer: [] }];
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
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limits = {
    login: { max: app.config.LOGIN_RATE_LIMIT, timeWindow: MINUTE },
    captcha: { max: Math.max(60, app.config.LOGIN_RATE_LIMIT * 2), timeWindow: MINUTE },
    register: { max: 20, timeWindow: 60 * MINUTE },
    resetCode: { max: 10, timeWindow: 15 * MINUTE },
    reset: { max: 30, timeWindow: 15 * MINUTE },
  };

  r.get(
    '/system/captcha',
    {
      config: { public: true, rateLimit: limits.captcha },
      schema: {
        tags: ['auth'],
        summary: 'A captcha image (SVG data URL) and its id; `enabled: false` when CAPTCHA=off',
        response: { 200: envelopeOf(captchaSchema), 429: e },
      },
    },
    async () => ok(app.captcha.enabled ? { enabled: true as const, ...(await app.captcha.issue()) } : { enabled: false as const }),
  );

  r.post(
    '/system/user/login',
    {
      config: { public: true, rateLimit: limits.login },
      schema: {
        tags: ['auth'],
        summary: 'Sign in by user number, phone or e-mail; a fresh token every time, or the second step',
        description:
          'With a second factor (or a tenant policy asking for one) the answer is `mfa: "required"` (or `"enrol"`) with an `mfaToken` (5 minutes, single use) and no token. Errors: 1001 wrong account or password, 1002 captcha, 1003 locked (until when), 1004 no tenant, 429 rate limited.',
        body: loginInputSchema,
        response: { 200: envelopeOf(signInResultSchema), 400: e, 401: e, 403: e, 429: e },
      },
    },
    async (request, reply) => ok(await login(app, request, reply, request.body)),
  );

  r.post(
    '/system/user/login/mfa',
    {
      config: { public: true, rateLimit: limits.login },
      schema: {
        tags: ['auth'],
        summary: 'The second step of a sign-in: the mfaToken and a code from the authenticator app, or a recovery code',
        description:
          'Answers the session token. Errors: 400 naming code (wrong or used), 1021 mfaToken unknown, expired or used, 1003 locked (wrong codes count as wrong passwords), 1004 no tenant, 429.',
        body: mfaLoginInputSchema,
        response: { 200: envelopeOf(loginResultSchema), 400: e, 401: e, 403: e, 429: e },
      },
    },
    async (request, reply) => ok(await loginWithSecondFactor(app, request, reply, request.body)),
  );

  r.post(
    '/system/user/login/mfa/webauthn/options',
    {
      config: { public: true, rateLimit: limits.login },
      schema: {
        tags: ['auth'],
        summary:
          'The second step by passkey, first call: WebAuthn options for navigator.credentials.get (challenge: 5 minutes, single use)',
        description: 'Errors: 400 naming mfaToken (the account has no passkey), 1021 mfaToken unknown, expired or used, 429.',
        body: mfaEnrolInputSchema,
        response: { 200: envelopeOf(webauthnOptionsSchema), 400: e, 401: e, 429: e },
      },
    },
    async (request) => ok(await passkeySignInOptions(app, request, request.body.mfaToken)),
  );

  r.post(
    '/system/user/login/mfa/webauthn/verify',
    {
      config: { public: true, rateLimit: limits.login },
      schema: {
        tags: ['auth'],
        summary: "The second step by passkey: the assertion to the options' challenge; answers the session token",
        description:
          'A refused assertion (wrong or used challenge, another account’s or a removed passkey, wrong origin, a counter that did not grow) is a failed sign-in: 400 naming response, 1003 once locked. Errors also: 1021, 1004, 429.',
        body: mfaWebauthnLoginInputSchema,
        response: { 200: envelopeOf(loginResultSchema), 400: e, 401: e, 403: e, 429: e },
      },
    },
    async (request, reply) => ok(await loginWithPasskey(app, request, reply, request.body)),
  );

  r.post(
    '/system/user/login/mfa/totp',
    {
      config: { public: true, rateLimit: limits.login },
      schema: {
        tags: ['auth'],
        summary: 'Forced enrolment (`mfa: "enrol"`): begins an authenticator app for the account signing in',
        description: 'Errors: 1021 mfaToken unknown, expired, used or not an enrolment one.',
        body: mfaEnrolInputSchema,
        response: { 200: envelopeOf(totpEnrolmentSchema), 400: e, 401: e, 429: e },
      },
    },
    async (request) => ok(await beginForcedTotp(app, request.body.mfaToken)),
  );

  r.post(
    '/system/user/login/mfa/totp/confirm',
    {
      config: { public: true, rateLimit: limits.login },
      schema: {
        tags: ['auth'],
        summary: 'Forced enrolment: confirms the authenticator app with a code and signs in; the ten recovery codes are shown once',
        description: 'Errors: 400 naming code, 1021 mfaToken unknown, expired or used, 1004 no tenant.',
        body: mfaEnrolConfirmInputSchema,
        response: { 200: envelopeOf(mfaEnrolResultSchema), 400: e, 401: e, 403: e, 429: e },
      },
    },
    async (request, reply) => ok(await confirmForcedTotp(app, request, reply, request.body)),
  );

  r.post(
    '/system/user/logout',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Ends the session server-side; always succeeds',
        security: bearer,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await signOut(app, request);
      return ok(null);
    },
  );

  r.post(
    '/system/user/userInfoLogin',
    {
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user: the spec user-info fields, permissions and realtime client key',
        security: bearer,
        response: { 200: userInfoEnvelope, ...authErrors },
      },
    },
    async (request, reply) =>
      sendRendered(
        reply,
        await app.sessions.view(request.auth, 'userInfo', async () => render(userInfoEnvelope, ok(await userInfo(app, request.auth)))),
      ),
  );

  r.get(
    '/user/info',
    {
      schema: {
        tags: ['auth'],
        summary: "The signed-in user's own profile (the user-info page)",
        security: bearer,
        response: { 200: envelopeOf(userProfileSchema), ...authErrors },
      },
    },
    async (request) => ok(await userProfile(app, request.auth)),
  );

  r.put(
    '/user/info',
    {
      config: { accountIdentifiers: OWN, rateLimit: { max: 20, timeWindow: 10 * MINUTE } },
      schema: {
        tags: ['auth'],
        summary: "Saves the signed-in user's own basic settings (nickname, country/region, area, address, profile)",
        description:
          'The e-mail is sent back as stored: it changes only with the current password (PUT /api/user/contact). Errors: 400 naming the field (an e-mail other than the stored one names `email`).',
        security: bearer,
        body: userSettingsInputSchema,
        response: { 200: envelopeOf(userProfileSchema), 400: e, 409: e, 429: e, ...authErrors },
      },
    },
    async (request) => ok(await saveOwnSettings(app, request.auth, request.body)),
  );

  r.put(
    '/user/password',
    {
      // each attempt verifies a password: a stolen session cannot use it to guess the current one
      config: { sessionOnly: true, rateLimit: { max: 10, timeWindow: 15 * MINUTE } },
      schema: {
        tags: ['auth'],
        summary: "Changes the signed-in user's password; the user's other sessions end",
        description: 'Errors: 400 naming oldPassword (wrong) or newPassword (policy, unchanged), 429.',
        security: bearer,
        body: changePasswordInputSchema,
        response: { 200: envelopeOf(z.object({ endedSessions: z.number().int() })), 400: e, 429: e, ...authErrors },
      },
    },
    async (request) => {
      await assertRecentSecondFactor(app, request.auth);
      return ok(await changeOwnPassword(app, request.auth, request.body));
    },
  );

  r.put(
    '/user/contact',
    {
      // each attempt verifies a password, and a 409 tells that a phone or e-mail exists somewhere
      config: { sessionOnly: true, accountIdentifiers: OWN, rateLimit: { max: 10, timeWindow: 15 * MINUTE } },
      schema: {
        tags: ['auth'],
        summary: "Changes the signed-in user's phone and e-mail (the sign-in identifiers); the current password proves the owner",
        description:
          'Errors: 400 naming password (wrong), phone or email (format); 409 naming phone or email (used by another account); 429.',
        security: bearer,
        body: changeContactInputSchema,
        response: { 200: envelopeOf(userProfileSchema), 400: e, 409: e, 429: e, ...authErrors },
      },
    },
    async (request) => {
      await assertRecentSecondFactor(app, request.auth);
      return ok(await changeOwnContact(app, request, request.body));
    },
  );

  // ---- second factors of the signed-in user (docs/adr/048-second-factor.md) ----
  const mfaLimit = { max: 10, timeWindow: 15 * MINUTE };

  r.get(
    '/user/mfa',
    {
      schema: {
        tags: ['auth'],
        summary: "The signed-in user's second factors (never a secret), recovery codes left, and whether the tenant requires one",
        security: bearer,
        response: { 200: envelopeOf(mfaFactorsSchema), ...authErrors },
      },
    },
    async (request) => ok(await factorsOf(app, request.auth)),
  );

  r.post(
    '/user/mfa/totp',
    {
      config: { sessionOnly: true, rateLimit: mfaLimit },
      schema: {
        tags: ['auth'],
        summary: 'Begins enrolling an authenticator app: its secret and otpauth:// address (not active until confirmed)',
        description: 'Errors: 400 naming totp (one is enrolled already: remove it first), 503 no secrets key.',
        security: bearer,
        response: { 200: envelopeOf(totpEnrolmentSchema), 400: e, 429: e, 503: e, ...authErrors },
      },
    },
    async (request) => {
      // a factor more is a change of factors: with one already, it is asked again first
      await assertRecentSecondFactor(app, request.auth);
      return ok(await beginTotp(app, request.auth));
    },
  );

  r.post(
    '/user/mfa/webauthn/register/options',
    {
      config: { sessionOnly: true, rateLimit: mfaLimit },
      schema: {
        tags: ['auth'],
        summary: 'Adding a passkey, first call: WebAuthn options for navigator.credentials.create (challenge: 5 minutes, single use)',
        description: `Errors: 1022 (the account has a second factor not proved in the last 5 minutes), 400 naming name (${MAX_PASSKEYS_TEXT} passkeys already).`,
        security: bearer,
        response: { 200: envelopeOf(webauthnOptionsSchema), 400: e, 403: e, 429: e, ...authErrors },
      },
    },
    async (request) => {
      await assertRecentSecondFactor(app, request.auth);
      return ok(await registrationOptions(app, request, request.auth));
    },
  );

  r.post(
    '/user/mfa/webauthn/register',
    {
      config: { sessionOnly: true, rateLimit: mfaLimit },
      schema: {
        tags: ['auth'],
        summary: 'Adding a passkey: its name and the attestation to the challenge; the first second factor brings ten recovery codes',
        description: 'Errors: 400 naming name, or response (refused: wrong or used challenge, origin, a passkey added already), 1022.',
        security: bearer,
        body: passkeyRegisterInputSchema,
        response: { 200: envelopeOf(passkeyRegisteredSchema), 400: e, 403: e, 429: e, ...authErrors },
      },
    },
    async (request) => {
      await assertRecentSecondFactor(app, request.auth);
      const added = await registerPasskey(app, request.auth, request.body);
      await markSecondFactor(app, request.auth.sessionId);
      return ok(added);
    },
  );

  r.delete(
    '/user/mfa/webauthn/:id',
    {
      config: { sessionOnly: true, rateLimit: mfaLimit },
      schema: {
        tags: ['auth'],
        summary: "Removes one of the caller's passkeys; with the last factor the recovery codes go too",
        description: 'Errors: 1022 (second factor not proved in the last 5 minutes), 404 not one of the caller’s passkeys.',
        security: bearer,
        params: idParamSchema,
        response: { 200: envelopeOf(z.null()), 403: e, 404: e, 429: e, ...authErrors },
      },
    },
    async (request) => {
      await assertRecentSecondFactor(app, request.auth);
      await removePasskey(app, request.auth, request.params.id);
      return ok(null);
    },
  );

  r.post(
    '/user/mfa/webauthn/options',
    {
      config: { sessionOnly: true, rateLimit: mfaLimit },
      schema: {
        tags: ['auth'],
        summary:
          'Step-up by passkey, first call: WebAuthn options for navigator.credentials.get; the assertion goes to POST /api/user/mfa/verify',
        description: 'Errors: 400 naming method (no passkey).',
        security: bearer,
        response: { 200: envelopeOf(webauthnOptionsSchema), 400: e, 429: e, ...authErrors },
      },
    },
    async (request) => {
      const options = await assertionOptions(app, request, request.auth.accountRef, stepUpChallengeKey(request.auth.sessionId));
      if (!options) throw invalidField('method', 'noPasskey', 'mfa.passkeyRefused');
      return ok(options);
    },
  );

  r.post(
    '/user/mfa/totp/confirm',
    {
      config: { sessionOnly: true, rateLimit: mfaLimit },
      schema: {
        tags: ['auth'],
        summary: 'Confirms the authenticator app with a code from it: active from now on; answers ten recovery codes, shown once',
        description: 'Errors: 400 naming code (wrong, or no enrolment begun).',
        security: bearer,
        body: totpCodeInputSchema,
        response: { 200: envelopeOf(recoveryCodesSchema), 400: e, 429: e, ...authErrors },
      },
    },
    async (request) => {
      const result = await confirmTotp(app, request.auth.accountRef, request.body.code);
      await markSecondFactor(app, request.auth.sessionId);
      return ok(result);
    },
  );

  r.delete(
    '/user/mfa/totp',
    {
      config: { sessionOnly: true, rateLimit: mfaLimit },
      schema: {
        tags: ['auth'],
        summary: 'Removes the authenticator app and the recovery codes, with a code from the app',
        description: 'Errors: 400 naming code (wrong, used, or no app enrolled).',
        security: bearer,
        body: totpCodeInputSchema,
        response: { 200: envelopeOf(z.null()), 400: e, 429: e, ...authErrors },
      },
    },
    async (request) => {
      await removeTotp(app, request.auth, request.body.code);
      return ok(null);
    },
  );

  r.post(
    '/user/mfa/verify',
    {
      config: { sessionOnly: true, rateLimit: mfaLimit },
      schema: {
        tags: ['auth'],
        summary: 'Step-up: proves the second factor again, for the changes that ask for it within 5 minutes (1022)',
        description:
          'A code (`totp`, `recovery`), or with `method: "webauthn"` a passkey’s assertion (`response`) to the challenge of POST /api/user/mfa/webauthn/options. Errors: 400 naming code (wrong or used) or response (refused).',
        security: bearer,
        body: mfaVerifyInputSchema,
        response: { 200: envelopeOf(z.null()), 400: e, 429: e, ...authErrors },
      },
    },
    async (request) => {
      await verifyStepUp(app, request.auth, request.body);
      return ok(null);
    },
  );

  r.get(
    '/system/security/mfa-policy',
    {
      schema: {
        tags: ['auth'],
        summary: "The current tenant's second-factor policy: optional, admins or everyone",
        security: bearer,
        response: { 200: envelopeOf(mfaPolicySchema), ...authErrors },
      },
    },
    async (request) => ok({ policy: await tenantPolicy(app, request.auth.tenantId) }),
  );

  r.put(
    '/system/security/mfa-policy',
    {
      // who decides who is an administrator decides whether administrators need a second factor
      config: { permission: 'system:role:grant', audit: { module: 'system:security', action: 'update' } },
      schema: {
        tags: ['auth'],
        summary: "Sets the current tenant's second-factor policy (needs system:role:grant)",
        description: 'Errors: 400 naming policy, 403.',
        security: bearer,
        body: mfaPolicySchema,
        response: { 200: envelopeOf(mfaPolicySchema), 400: e, 403: e, ...authErrors },
      },
    },
    async (request) => {
      await setTenantPolicy(app, request.auth.tenantId, request.body.policy);
      return ok({ policy: request.body.policy });
    },
  );

  r.post(
    '/system/user/menu',
    {
      schema: {
        tags: ['auth'],
        summary: "The signed-in user's menu tree for the current tenant, in route form",
        security: bearer,
        response: { 200: menuEnvelope, ...authErrors },
      },
    },
    async (request, reply) =>
      sendRendered(
        reply,
        await app.sessions.view(request.auth, 'menu', async () => render(menuEnvelope, ok(await menuTree(app, request.auth)))),
      ),
  );

  r.get(
    '/system/user/tenant',
    {
      schema: {
        tags: ['auth'],
        summary: 'Tenants the account may enter (super admin: all), paged, searchable by name, code, or either (keyword)',
        security: bearer,
        querystring: tenantListQuerySchema,
        response: { 200: envelopeOf(pageOf(tenantOptionSchema)), 400: e, ...authErrors },
      },
    },
    async (request) => {
      const page = await listTenants(app, request.auth, request.query);
      return ok({ ...page, pageNum: request.query.pageNum, pageSize: request.query.pageSize });
    },
  );

  r.post(
    '/system/user/switchTenant',
    {
      config: { sessionOnly: true },
      schema: {
        tags: ['auth'],
        summary: 'Moves the session into another tenant and answers a fresh token (the old one ends)',
        description: 'Errors: 1301 (HTTP 403) a tenant the account may not enter, or disabled, or expired.',
        security: bearer,
        body: switchTenantInputSchema,
        response: { 200: envelopeOf(loginResultSchema), 400: e, 403: e, ...authErrors },
      },
    },
    async (request) => ok(await switchTenant(app, request, request.body.tenantId)),
  );

  r.post(
    '/system/user/switchRole',
    {
      config: { sessionOnly: true },
      schema: {
        tags: ['auth'],
        summary: 'Switch roles: the session acts as one role the user holds in its tenant, or (null) as all of them',
        description:
          'Only narrows: the role in effect grants its own permissions, data scope and menu. Errors: 400 (field role) a role not held here (enabled), a user with one role, a super admin.',
        security: bearer,
        body: switchRoleInputSchema,
        response: { 200: envelopeOf(switchRoleResultSchema), 400: e, ...authErrors },
      },
    },
    async (request) => {
      const auth = request.auth;
      const refusal = auth.superAdmin ? 'role.superAdmin' : auth.heldRoles.length < 2 ? 'role.single' : 'role.notHeld';
      const switched = await app.sessions.actAs(auth, request.body.role);
      if (!switched) throw invalidField('role', refusal === 'role.notHeld' ? 'notHeld' : 'unavailable', refusal);
      return ok({ role: switched.role, activeRole: request.body.role });
    },
  );

  r.post(
    '/system/user/register',
    {
      config: { public: true, accountIdentifiers: NEW, rateLimit: limits.register },
      schema: {
        tags: ['auth'],
        summary: 'A new account and a new tenant in which it is administrator; answers a token',
        description: 'Errors: 1005 registration off (REGISTRATION=off), 1002 captcha, 1007 account or e-mail taken, 40001 weak password.',
        body: registerInputSchema,
        response: { 200: envelopeOf(registerResultSchema), 400: e, 403: e, 409: e, 429: e },
      },
    },
    async (request) => ok(await register(app, request, request.body)),
  );

  r.post(
    '/system/user/password/reset-code',
    {
      config: { public: true, accountIdentifiers: LOOKUP, rateLimit: limits.resetCode },
      schema: {
        tags: ['auth'],
        summary: 'Mails a password reset code; the answer is the same whether or not the address is registered',
        body: resetCodeInputSchema,
        response: { 200: envelopeOf(z.null()), 400: e, 429: e },
      },
    },
    async (request) => {
      await requestResetCode(app, request, request.body);
      return ok(null);
    },
  );

  r.post(
    '/system/user/password/reset',
    {
      config: { public: true, accountIdentifiers: LOOKUP, rateLimit: limits.reset },
      schema: {
        tags: ['auth'],
        summary: 'Sets a new password with the mailed code; ends every session of the account',
        description: 'Errors: 1006 wrong or expired code (also for an unknown address), 40001 weak password.',
        body: resetPasswordInputSchema,
        response: { 200: envelopeOf(z.null()), 400: e, 429: e },
      },
    },
    async (request) => {
      await resetPassword(app, request.body);
      return ok(null);
    },
  );
}

const userInfoEnvelope = envelopeOf(userInfoSchema);
const menuEnvelope = envelopeOf(z.array(menuRouteSchema));

/** JSON of an answer as the route's response schema shapes it (unknown keys dropped), for keeping. */
const render = <T>(schema: z.ZodType<T>, value: T) => JSON.stringify(schema.parse(value));

/** Sends an envelope already rendered to JSON by `render`. */
function sendRendered(reply: FastifyReply, json: string) {
  // a string with a JSON content type goes out as it is, past the route's serializer
  return reply.type('application/json; charset=utf-8').send(json as never);
}
