import { z } from 'zod';

/**
 * Single sign-on per tenant with OpenID Connect (docs/adr/049-single-sign-on-per-tenant.md): the tenant's
 * settings, the code the web app exchanges for its session, and what signing out answers.
 */

/** How people sign in to a tenant: a password or its provider, or only its provider (super admins keep a password). */
export const ssoPolicies = ['password_and_sso', 'sso_only'] as const;
export type SsoPolicy = (typeof ssoPolicies)[number];

/** A tenant's code as people type it (the same rule the tenant form has). */
export const tenantCodeSchema = z.string().trim().min(1).max(32);

const claimName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[\w.:-]+$/, 'chars.claim');

/** A value of the role claim and the tenant role it gives. */
export const ssoRoleMappingSchema = z.object({
  value: z.string().trim().min(1).max(200),
  role: z.string().trim().min(1).max(64),
});

const ssoFields = {
  enabled: z.boolean(),
  /** the provider's issuer identifier; its discovery document is at `{issuer}/.well-known/openid-configuration` */
  issuer: z.string().trim().min(1).max(500),
  clientId: z.string().trim().min(1).max(200),
  /** space-separated; `openid` is always asked */
  scopes: z.string().trim().min(1).max(300),
  /** the claim whose value becomes the user number of an account made just in time */
  userClaim: claimName,
  /** the claim (a string or a list of strings) the role mappings read; null: none */
  roleClaim: claimName.nullable(),
  roleMappings: z.array(ssoRoleMappingSchema).max(50),
  policy: z.enum(ssoPolicies),
  /** whether a person the provider vouches for and the tenant does not know gets an account */
  jit: z.boolean(),
};

/**
 * `PUT /api/system/tenant/{id}/sso`: the settings. The client secret is write-only: omitted (or null)
 * keeps the stored one, a string replaces it.
 */
export const ssoSettingsInputSchema = z.object({
  ...ssoFields,
  clientSecret: z.string().min(1).max(500).nullable().optional(),
});
export type SsoSettingsInput = z.infer<typeof ssoSettingsInputSchema>;

/** `GET /api/system/tenant/{id}/sso`: the settings without the secret, whether one is stored, and the redirect URI to register. */
export const ssoSettingsSchema = z.object({
  ...ssoFields,
  hasClientSecret: z.boolean(),
  /** what to register at the provider as the redirect (callback) URI */
  redirectUri: z.string(),
  /** null until the settings are first saved */
  updateTime: z.string().nullable(),
});
export type SsoSettings = z.infer<typeof ssoSettingsSchema>;

/** `GET /api/auth/sso/{tenantCode}/start?redirect=`: where in the app to land (a path of the app). */
export const ssoStartQuerySchema = z.object({ redirect: z.string().max(500).optional() });

/** `POST /api/auth/sso/exchange`: the one-time code the callback put in the app's address fragment. */
export const ssoExchangeInputSchema = z.object({ code: z.string().min(1).max(100) });
export const ssoExchangeResultSchema = z.object({ token: z.string(), redirect: z.string() });

/** `POST /api/auth/sso/logout`: the provider's sign-out address to go to next, or null. */
export const ssoLogoutResultSchema = z.object({ endSessionUrl: z.string().nullable() });

/**
 * Why a single sign-on did not end signed in: the callback sends the browser to `/login#sso_error={reason}`
 * (never a detail of the provider's answer; the login log keeps that).
 */
export const ssoFailureReasons = [
  /** unknown, expired or used state, or another browser's */
  'state',
  /** the provider answered an error (the person cancelled, or was refused there) */
  'denied',
  /** the provider's answer did not verify: code, PKCE, issuer, signature, audience, expiry or nonce */
  'verify',
  /** nobody here matches the person, and the tenant makes no accounts just in time */
  'unknownUser',
  /** the person is disabled in the tenant, or may not enter it */
  'disabled',
  /** a super admin signs in with a password, never through one tenant's provider */
  'superAdmin',
  /** an account just in time could not be made (the user claim is missing, malformed or taken) */
  'jit',
  /** the tenant has no single sign-on turned on, or its provider cannot be reached */
  'unavailable',
] as const;
export type SsoFailureReason = (typeof ssoFailureReasons)[number];
