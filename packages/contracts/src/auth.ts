import { z } from 'zod';

/** Sign-in: account is a user number, phone or email. `code`/`captchaId` are omitted when captcha is off. */
export const loginInputSchema = z.object({
  account: z.string().trim().min(1).max(100),
  password: z.string().min(1).max(128),
  code: z.string().trim().max(10).optional(),
  captchaId: z.string().max(64).optional(),
  deviceId: z.string().uuid().optional(),
  remember: z.boolean().optional(),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

export const loginResultSchema = z.object({ token: z.string() });

/** The second factors a sign-in may continue with (docs/adr/048-second-factor.md, 050-passkeys.md). */
export const mfaMethods = ['totp', 'webauthn', 'recovery'] as const;
export type MfaMethod = (typeof mfaMethods)[number];
/** The methods proved with a typed code (a passkey answers a challenge instead). */
export const codeMethods = ['totp', 'recovery'] as const;
export type CodeMethod = (typeof codeMethods)[number];
/** Who in a tenant must sign in with a second factor. */
export const mfaPolicies = ['optional', 'admins', 'everyone'] as const;
export type MfaPolicy = (typeof mfaPolicies)[number];

/** A six-digit authenticator code; spaces typed or pasted in between are dropped. */
const totpCode = z
  .string()
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/));
/** A code of either kind: six digits, or a recovery code (letters, digits, a dash). */
const secondFactorCode = z
  .string()
  .transform((v) => v.replace(/\s+/g, '').toLowerCase())
  .pipe(
    z
      .string()
      .min(6)
      .max(20)
      .regex(/^[a-z0-9-]+$/),
  );

/**
 * What the password step of a sign-in answers: a session token, or — when the account has a second
 * factor — `mfa: 'required'` with a short-lived `mfaToken` for POST /api/system/user/login/mfa, or — when
 * the tenant requires one the account does not have yet — `mfa: 'enrol'`, which can only enrol one.
 */
export const signInResultSchema = z.union([
  loginResultSchema,
  z.object({ mfa: z.literal('required'), mfaToken: z.string(), methods: z.array(z.enum(mfaMethods)) }),
  z.object({ mfa: z.literal('enrol'), mfaToken: z.string(), methods: z.array(z.enum(mfaMethods)) }),
]);
export type SignInResult = z.infer<typeof signInResultSchema>;

export const mfaLoginInputSchema = z.object({
  mfaToken: z.string().min(1).max(100),
  method: z.enum(codeMethods),
  code: secondFactorCode,
});
export type MfaLoginInput = z.infer<typeof mfaLoginInputSchema>;

/** A TOTP enrolment begun: the secret (base32) and the otpauth:// address its QR code carries. */
export const totpEnrolmentSchema = z.object({ secret: z.string(), otpauthUrl: z.string() });
export const totpCodeInputSchema = z.object({ code: totpCode });
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()).length(10) });
/** Forced enrolment, in the restricted state after the password: the same calls, carrying the mfaToken. */
export const mfaEnrolInputSchema = z.object({ mfaToken: z.string().min(1).max(100) });
export const mfaEnrolConfirmInputSchema = z.object({ mfaToken: z.string().min(1).max(100), code: totpCode });
export const mfaEnrolResultSchema = z.object({ token: z.string(), recoveryCodes: z.array(z.string()).length(10) });
/**
 * What a browser's WebAuthn call answered, as `@simplewebauthn/browser` gives it (base64url fields): a new
 * passkey's attestation or a signed assertion. The server's WebAuthn library checks the inside.
 */
export const webauthnResponseSchema = z.object({
  id: z.string().min(1).max(1400),
  rawId: z.string().min(1).max(1400),
  type: z.literal('public-key'),
  response: z.record(z.string(), z.unknown()),
  clientExtensionResults: z.record(z.string(), z.unknown()).optional(),
  authenticatorAttachment: z.string().max(30).optional(),
});
export type WebauthnResponse = z.infer<typeof webauthnResponseSchema>;
/** Options to hand to the browser's WebAuthn call (`navigator.credentials.create` or `.get`), as JSON. */
export const webauthnOptionsSchema = z.record(z.string(), z.unknown());

/**
 * A step-up: proves the second factor again before a sensitive change — a code (`totp`, `recovery`), or a
 * passkey's assertion (`webauthn`: `response`, to the challenge of POST /api/user/mfa/webauthn/options).
 */
export const mfaVerifyInputSchema = z
  .object({ method: z.enum(mfaMethods), code: secondFactorCode.optional(), response: webauthnResponseSchema.optional() })
  .superRefine((input, ctx) => {
    if (input.method === 'webauthn' ? !input.response : !input.code)
      ctx.addIssue({ code: 'custom', path: [input.method === 'webauthn' ? 'response' : 'code'], message: 'required' });
  });
export type MfaVerifyInput = z.infer<typeof mfaVerifyInputSchema>;

/** The second step of a sign-in by passkey: the mfaToken, and the assertion to its challenge. */
export const mfaWebauthnLoginInputSchema = z.object({ mfaToken: z.string().min(1).max(100), response: webauthnResponseSchema });
/** A passkey to add: its name (to tell it from the others) and the browser's attestation. */
export const passkeyRegisterInputSchema = z.object({ name: z.string().trim().min(1).max(64), response: webauthnResponseSchema });
/** A passkey added; the ten recovery codes when it is the account's first second factor (shown once), else null. */
export const passkeyRegisteredSchema = z.object({ id: z.number().int(), recoveryCodes: z.array(z.string()).length(10).nullable() });

/** The caller's own second factors (never a secret); a passkey with its id and name. */
export const mfaFactorsSchema = z.object({
  factors: z.array(
    z.object({
      kind: z.enum(['totp', 'webauthn']),
      createTime: z.string().nullable(),
      lastUsedAt: z.string().nullable(),
      id: z.number().int().optional(),
      name: z.string().optional(),
    }),
  ),
  recoveryCodesLeft: z.number().int(),
  /** whether the tenant requires the caller to keep a second factor */
  required: z.boolean(),
});
export type MfaFactors = z.infer<typeof mfaFactorsSchema>;

export const mfaPolicySchema = z.object({ policy: z.enum(mfaPolicies) });

export const captchaSchema = z.union([
  z.object({ enabled: z.literal(true), captchaId: z.string(), image: z.string() }),
  z.object({ enabled: z.literal(false) }),
]);
export type Captcha = z.infer<typeof captchaSchema>;

/** Password policy (spec 5): at least 10 characters with letters, digits and special characters. */
export const passwordSchema = z
  .string()
  .min(10, 'password.tooShort')
  .max(128, 'password.tooLong')
  .refine((v) => /[A-Za-z]/.test(v) && /\d/.test(v) && /[^A-Za-z0-9]/.test(v), 'password.weak');

export const sexes = ['0', '1', '2'] as const;
export const sexSchema = z.enum(sexes);
export const userTypes = ['00', '01', '02'] as const;
export const userTypeSchema = z.enum(userTypes);
/** '0' normal, '1' disabled: the status convention of every entity (some name the two their own way). */
export const statuses = ['0', '1'] as const;
export const statusSchema = z.enum(statuses);

/** What `POST /api/system/user/userInfoLogin` answers: the spec's user-info fields plus permissions. */
export const userInfoSchema = z.object({
  nickname: z.string(),
  name: z.string(),
  avatar: z.string().nullable(),
  userType: userTypeSchema,
  email: z.string().nullable(),
  wechat: z.string().nullable(),
  idNumber: z.string().nullable(),
  countryRegion: z.string().nullable(),
  address: z.string().nullable(),
  area: z.string().nullable(),
  phone: z.string().nullable(),
  sex: sexSchema.nullable(),
  accountId: z.string(),
  remark: z.string().nullable(),
  createTime: z.string(),
  password: z.boolean(),
  /** the primary role, or the one the session acts as */
  role: z.string(),
  /** the roles in effect: all held, or the one the session acts as */
  roles: z.array(z.string()),
  /** every enabled role held in this tenant, with its name: what "switch roles" offers */
  heldRoles: z.array(z.object({ code: z.string(), name: z.string() })),
  /** the role chosen with "switch roles"; null while all held roles are in effect */
  activeRole: z.string().nullable(),
  /** how many tenants the account may enter ("switch tenant" is offered from two) */
  tenantCount: z.number().int(),
  tenantId: z.number().int(),
  tenantName: z.string(),
  tenantCode: z.string(),
  permissions: z.array(z.string()),
  clientKey: z.string(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

/** Route metadata (spec 2). */
export const routeMetaSchema = z.object({
  locale: z.string().optional(),
  requiresAuth: z.boolean().optional(),
  roles: z.array(z.string()).optional(),
  icon: z.string().optional(),
  order: z.number().optional(),
  hideInMenu: z.boolean().optional(),
  hideChildrenInMenu: z.boolean().optional(),
  noAffix: z.boolean().optional(),
  activeMenu: z.string().optional(),
  index: z.number().optional(),
  ignoreCache: z.boolean().optional(),
  /** Link entries: the external address. */
  link: z.string().optional(),
});
export type RouteMeta = z.infer<typeof routeMetaSchema>;

export type MenuRoute = { name: string; path: string; meta: RouteMeta; children?: MenuRoute[] };
export const menuRouteSchema: z.ZodType<MenuRoute> = z.lazy(() =>
  z.object({ name: z.string(), path: z.string(), meta: routeMetaSchema, children: z.array(menuRouteSchema).optional() }),
);

export const tenantOptionSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  status: statusSchema,
  expireTime: z.string().nullable(),
  current: z.boolean(),
});
export type TenantOption = z.infer<typeof tenantOptionSchema>;

export const switchTenantInputSchema = z.object({ tenantId: z.coerce.number().int().positive() });

/** "Switch roles": act as one role held in the tenant, or (null) as all of them again. */
export const switchRoleInputSchema = z.object({ role: z.string().trim().min(1).max(64).nullable() });
export const switchRoleResultSchema = z.object({ role: z.string(), activeRole: z.string().nullable() });

export const registerInputSchema = z.object({
  accountId: z
    .string()
    .trim()
    .min(3)
    .max(30)
    .regex(/^[A-Za-z0-9_.-]+$/, 'account.format'),
  email: z.string().trim().email().max(100),
  password: passwordSchema,
  tenantName: z.string().trim().min(1).max(100),
  code: z.string().trim().max(10).optional(),
  captchaId: z.string().max(64).optional(),
});

export const resetCodeInputSchema = z.object({
  email: z.string().trim().email().max(100),
  code: z.string().trim().max(10).optional(),
  captchaId: z.string().max(64).optional(),
});

export const resetPasswordInputSchema = z.object({
  email: z.string().trim().email().max(100),
  resetCode: z.string().trim().min(4).max(12),
  password: passwordSchema,
});

/** What `GET /api/user/info` answers: user info plus what the user-info page shows. */
export const userProfileSchema = userInfoSchema.extend({
  profile: z.string().nullable(),
  deptId: z.number().int().nullable(),
  deptName: z.string().nullable(),
  postNames: z.array(z.string()),
  roleNames: z.array(z.string()),
  lastLoginTime: z.string().nullable(),
  lastLoginIp: z.string().nullable(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

export const tenantListQuerySchema = z.object({
  pageNum: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
  name: z.string().trim().max(100).optional(),
  code: z.string().trim().max(32).optional(),
  /** the switch dialog's one box: in the name or the code */
  keyword: z.string().trim().max(100).optional(),
});

export const registerResultSchema = z.object({ token: z.string(), tenantId: z.number().int(), tenantCode: z.string() });
