import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  char,
  index,
  integer,
  jsonb,
  pgPolicy,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createTime, globalId, time, updateTime } from './columns';
import { currentTenant, tenants } from './tenancy';

/** The account a row belongs to, gone with it. */
const accountRef = () =>
  bigint('account_ref', { mode: 'number' })
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' });

/**
 * Accounts: global identities (sign-in name, password, profile). What an account may do inside a tenant
 * lives in that tenant's `tenant_users` row and its roles.
 */
export const accounts = pgTable(
  'accounts',
  {
    id: globalId(),
    // the user number people sign in with
    accountId: varchar('account_id', { length: 30 }).notNull(),
    phone: varchar('phone', { length: 20 }),
    email: varchar('email', { length: 100 }),
    passwordHash: text('password_hash'),
    nickname: varchar('nickname', { length: 30 }).notNull().default(''),
    name: varchar('name', { length: 20 }).notNull().default(''),
    avatar: varchar('avatar', { length: 500 }),
    wechat: varchar('wechat', { length: 50 }),
    idNumber: varchar('id_number', { length: 18 }),
    countryRegion: varchar('country_region', { length: 50 }),
    area: varchar('area', { length: 100 }),
    address: varchar('address', { length: 500 }),
    profile: varchar('profile', { length: 500 }),
    // '0' male, '1' female, '2' unknown; null until set
    sex: char('sex', { length: 1 }),
    remark: varchar('remark', { length: 500 }),
    superAdmin: boolean('super_admin').notNull().default(false),
    // opaque per-account key for the realtime topic atrium-web/+/{clientKey}
    clientKey: varchar('client_key', { length: 64 }).notNull(),
    lastTenantId: bigint('last_tenant_id', { mode: 'number' }).references(() => tenants.id, { onDelete: 'set null' }),
    passwordChangedAt: time('password_changed_at'),
    createTime: createTime(),
    updateTime: updateTime(),
  },
  (t) => [
    uniqueIndex('accounts_account_id_key').on(sql`lower(${t.accountId})`),
    uniqueIndex('accounts_phone_key').on(t.phone),
    uniqueIndex('accounts_email_key').on(sql`lower(${t.email})`),
    uniqueIndex('accounts_client_key_key').on(t.clientKey),
    // prefix search in the user list (`lower(x) like 'abc%'`) is served by these, whatever the collation
    index('accounts_name_prefix_idx').on(sql`lower(${t.name}) text_pattern_ops`),
    index('accounts_nickname_prefix_idx').on(sql`lower(${t.nickname}) text_pattern_ops`),
    index('accounts_account_id_prefix_idx').on(sql`lower(${t.accountId}) text_pattern_ops`),
    index('accounts_email_prefix_idx').on(sql`lower(${t.email}) text_pattern_ops`),
    index('accounts_phone_prefix_idx').on(t.phone.op('text_pattern_ops')),
  ],
);

/** Which tenants an account may enter: a global index, read at sign-in before any tenant is chosen. */
export const memberships = pgTable(
  'memberships',
  {
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    tenantRef: bigint('tenant_ref', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    createTime: createTime(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.tenantRef] }), index('memberships_tenant_idx').on(t.tenantRef)],
);

/** Sessions: global (a session moves between tenants); only the token's hash is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: globalId(),
    tokenHash: char('token_hash', { length: 64 }).notNull(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    tenantRef: bigint('tenant_ref', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    deviceId: varchar('device_id', { length: 64 }),
    deviceType: varchar('device_type', { length: 20 }),
    ip: varchar('ip', { length: 64 }),
    userAgent: varchar('user_agent', { length: 500 }),
    remember: boolean('remember').notNull().default(false),
    createTime: createTime(),
    lastSeenAt: time('last_seen_at').notNull().defaultNow(),
    expiresAt: time('expires_at').notNull(),
    endedAt: time('ended_at'),
    // logout | forced | password | user_disabled | tenant_disabled | role_changed | switched
    endReason: varchar('end_reason', { length: 20 }),
    // the role the session acts as (a code the user holds in the tenant), chosen with "switch roles";
    // null: all the roles the user holds
    activeRole: varchar('active_role', { length: 64 }),
    // when the holder last proved a second factor (at sign-in or a step-up); null: never in this session
    mfaAt: time('mfa_at'),
    // how the session was signed in: null a password (with or without a second factor), 'sso' the
    // tenant's OpenID provider (docs/adr/049-single-sign-on-per-tenant.md)
    method: varchar('method', { length: 10 }),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_key').on(t.tokenHash),
    index('sessions_account_idx').on(t.accountId),
    index('sessions_tenant_idx').on(t.tenantRef),
    // the online sessions of a tenant, most recently seen first (the list's order and its idle cut-off)
    index('sessions_online_idx').on(t.tenantRef, t.lastSeenAt, t.id).where(sql`ended_at is null`),
  ],
);

/**
 * Personal API tokens: a user's scripts act as the user in one tenant with at most these permissions
 * (and at most the user's current ones). Global like sessions: a request finds its token by the hash
 * before it knows the tenant. The token itself is shown once and never stored.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: globalId(),
    tokenHash: char('token_hash', { length: 64 }).notNull(),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    tenantRef: bigint('tenant_ref', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 60 }).notNull(),
    permissions: jsonb('permissions').$type<string[]>().notNull(),
    expiresAt: time('expires_at').notNull(),
    // written at most once a minute per token
    lastUsedAt: time('last_used_at'),
    createTime: createTime(),
    revokedAt: time('revoked_at'),
    // accounts.id of whoever revoked it (the owner or an administrator)
    revokedBy: bigint('revoked_by', { mode: 'number' }),
  },
  (t) => [uniqueIndex('api_tokens_token_hash_key').on(t.tokenHash), index('api_tokens_owner_idx').on(t.accountId, t.tenantRef)],
);

/**
 * The menu catalogue: global. Directories, menus (routes) and buttons (permission strings).
 * Roles grant entries of it per tenant through `role_menus`.
 */
export const menus = pgTable(
  'menus',
  {
    id: globalId(),
    parentId: bigint('parent_id', { mode: 'number' }),
    // dir | menu | button | link
    type: varchar('type', { length: 10 }).notNull(),
    title: varchar('title', { length: 20 }).notNull(),
    routeName: varchar('route_name', { length: 20 }),
    path: varchar('path', { length: 200 }),
    icon: varchar('icon', { length: 200 }),
    locale: varchar('locale', { length: 200 }),
    permission: varchar('permission', { length: 100 }),
    orderNum: integer('order_num').notNull().default(0),
    hideInMenu: boolean('hide_in_menu').notNull().default(false),
    hideChildrenInMenu: boolean('hide_children_in_menu').notNull().default(false),
    requiresAuth: boolean('requires_auth').notNull().default(true),
    roles: jsonb('roles').$type<string[]>().notNull().default(['*']),
    activeMenu: varchar('active_menu', { length: 20 }),
    noAffix: boolean('no_affix').notNull().default(false),
    ignoreCache: boolean('ignore_cache').notNull().default(false),
    status: char('status', { length: 1 }).notNull().default('0'),
    createTime: createTime(),
    updateTime: updateTime(),
  },
  (t) => [
    uniqueIndex('menus_route_name_key').on(t.routeName),
    uniqueIndex('menus_permission_key').on(t.permission),
    index('menus_parent_idx').on(t.parentId),
  ],
);

/**
 * Every sign-in attempt. Never holds a password. Under forced row-level security: a row of a tenant is
 * seen and written only with that tenant set; an attempt that reached no tenant (a wrong password, an
 * unknown name) has none and is seen and written only with no tenant set (the sign-in service itself).
 */
export const loginLogs = pgTable(
  'login_logs',
  {
    id: globalId(),
    tenantRef: bigint('tenant_ref', { mode: 'number' }).references(() => tenants.id, { onDelete: 'cascade' }),
    accountRef: bigint('account_ref', { mode: 'number' }).references(() => accounts.id, { onDelete: 'set null' }),
    // the account as typed
    account: varchar('account', { length: 100 }).notNull(),
    // success | failure | locked | logout
    result: varchar('result', { length: 20 }).notNull(),
    reason: varchar('reason', { length: 100 }),
    ip: varchar('ip', { length: 64 }),
    deviceId: varchar('device_id', { length: 64 }),
    userAgent: varchar('user_agent', { length: 500 }),
    createTime: createTime(),
  },
  (t) => [
    index('login_logs_tenant_time_idx').on(t.tenantRef, t.createTime),
    index('login_logs_time_idx').on(t.createTime),
    pgPolicy('login_logs_tenant_isolation', {
      as: 'permissive',
      for: 'all',
      to: 'public',
      using: sql`tenant_ref = ${currentTenant} or (tenant_ref is null and ${currentTenant} is null)`,
      withCheck: sql`tenant_ref = ${currentTenant} or (tenant_ref is null and ${currentTenant} is null)`,
    }),
  ],
);

/**
 * Browsers an account signed in from successfully (the `atrium_device` cookie holds a random token, only
 * its hash is kept). A known device is exempt from the account-wide sign-in lock and from the lock of its
 * network address; it has a lock of its own (see login.service.ts).
 */
export const knownDevices = pgTable(
  'known_devices',
  {
    id: globalId(),
    tokenHash: char('token_hash', { length: 64 }).notNull(),
    accountRef: accountRef(),
    createTime: createTime(),
    lastUsedAt: time('last_used_at').notNull().defaultNow(),
    expiresAt: time('expires_at').notNull(),
  },
  (t) => [uniqueIndex('known_devices_token_hash_key').on(t.tokenHash), index('known_devices_account_idx').on(t.accountRef)],
);

/**
 * Second factors of an account (docs/adr/048-second-factor.md): one authenticator app (TOTP), and (kind
 * `webauthn`, docs/adr/050-passkeys.md) the marker its passkeys hang off. The TOTP
 * secret is sealed (secrets/box.ts); `confirmed_at` null is an enrolment not confirmed yet, which signs in
 * nothing. `last_step` is the last TOTP time step accepted: a code is never accepted twice.
 */
export const accountFactors = pgTable(
  'account_factors',
  {
    id: globalId(),
    accountRef: accountRef(),
    kind: varchar('kind', { length: 20 }).notNull(),
    secret: text('secret').notNull(),
    lastStep: bigint('last_step', { mode: 'number' }),
    confirmedAt: time('confirmed_at'),
    lastUsedAt: time('last_used_at'),
    createTime: createTime(),
  },
  (t) => [uniqueIndex('account_factors_account_kind_key').on(t.accountRef, t.kind)],
);

/**
 * Passkeys (WebAuthn credentials) of an account (docs/adr/050-passkeys.md). An account with one or more has
 * an `account_factors` row of kind `webauthn` (secret empty, nothing to seal), which every "has a second
 * factor" check already counts; each passkey hangs off that row, so removing the account's factors removes
 * its passkeys with them. The public key is not a secret (COSE, base64url); `sign_count` is the
 * authenticator's counter, which must grow with each assertion when the authenticator keeps one.
 */
export const accountPasskeys = pgTable(
  'account_passkeys',
  {
    id: globalId(),
    accountRef: accountRef(),
    factorRef: bigint('factor_ref', { mode: 'number' })
      .notNull()
      .references(() => accountFactors.id, { onDelete: 'cascade' }),
    // the credential id, base64url
    credentialId: varchar('credential_id', { length: 1400 }).notNull(),
    publicKey: text('public_key').notNull(),
    signCount: bigint('sign_count', { mode: 'number' }).notNull().default(0),
    // how the browser reaches the authenticator (usb, internal, hybrid…), comma-separated, as it said
    transports: varchar('transports', { length: 200 }),
    name: varchar('name', { length: 64 }).notNull(),
    lastUsedAt: time('last_used_at'),
    createTime: createTime(),
  },
  (t) => [uniqueIndex('account_passkeys_credential_key').on(t.credentialId), index('account_passkeys_account_idx').on(t.accountRef)],
);

/** The ten one-time recovery codes of an account with a second factor; only their hashes are kept. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: globalId(),
    accountRef: accountRef(),
    codeHash: char('code_hash', { length: 64 }).notNull(),
    usedAt: time('used_at'),
    createTime: createTime(),
  },
  (t) => [index('recovery_codes_account_idx').on(t.accountRef)],
);

/** One-time codes sent by mail for the find-password flow; only the code's hash is kept. */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: globalId(),
    accountRef: accountRef(),
    codeHash: char('code_hash', { length: 64 }).notNull(),
    attempts: smallint('attempts').notNull().default(0),
    expiresAt: time('expires_at').notNull(),
    usedAt: time('used_at'),
    createTime: createTime(),
  },
  (t) => [index('password_resets_account_idx').on(t.accountRef)],
);

/** A claim value the tenant's OpenID provider sends and the tenant role it gives (`groups: "ops"` → `admin`). */
export type SsoRoleMapping = { value: string; role: string };

/**
 * A tenant's single sign-on (OpenID Connect) settings, docs/adr/049-single-sign-on-per-tenant.md. Global,
 * keyed by the tenant: the sign-in reads it by the tenant's code before any tenant is chosen. The client
 * secret is sealed (secrets/box.ts) and never answered.
 */
export const tenantSso = pgTable('tenant_sso', {
  tenantRef: bigint('tenant_ref', { mode: 'number' })
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  issuer: varchar('issuer', { length: 500 }).notNull(),
  clientId: varchar('client_id', { length: 200 }).notNull(),
  clientSecret: text('client_secret'),
  scopes: varchar('scopes', { length: 300 }).notNull().default('openid profile email'),
  // the claim whose value becomes the user number of an account made just in time
  userClaim: varchar('user_claim', { length: 100 }).notNull().default('preferred_username'),
  // the claim (a string or a list of strings) the role mappings read; null: no mapping
  roleClaim: varchar('role_claim', { length: 100 }),
  roleMappings: jsonb('role_mappings').$type<SsoRoleMapping[]>().notNull().default([]),
  // 'password_and_sso' | 'sso_only' (super admins keep their password, audited)
  policy: varchar('policy', { length: 20 }).notNull().default('password_and_sso'),
  // whether a person the provider vouches for and Atrium does not know gets an account here
  jit: boolean('jit').notNull().default(false),
  updateTime: updateTime(),
});

/**
 * Which account a tenant's provider's subject signs in: made at the first sign-in (matched by a verified
 * e-mail, or made just in time) and trusted from then on, whatever the e-mail becomes.
 */
export const ssoLinks = pgTable(
  'sso_links',
  {
    id: globalId(),
    tenantRef: bigint('tenant_ref', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    issuer: varchar('issuer', { length: 500 }).notNull(),
    subject: varchar('subject', { length: 255 }).notNull(),
    accountRef: accountRef(),
    createTime: createTime(),
    lastUsedAt: time('last_used_at'),
  },
  (t) => [uniqueIndex('sso_links_subject_key').on(t.tenantRef, t.issuer, t.subject), index('sso_links_account_idx').on(t.accountRef)],
);
