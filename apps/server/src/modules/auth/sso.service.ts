import { createHash, randomBytes } from 'node:crypto';
import type { SsoFailureReason, SsoSettings, SsoSettingsInput } from '@atrium/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import { invalidField } from '../../crud/conflict';
import { inTenant } from '../../crud/context';
import { grantGuard } from '../../crud/grants';
import { withTenant } from '../../db/client';
import { accounts, memberships, roles, sessions, ssoLinks, tenantSso, tenants, tenantUsers, userRoles } from '../../db/schema';
import { AppError } from '../../errors';
import type { AuthContext } from '../../plugins/external/access';
import { secretContext } from '../../secrets/at-rest';
import { originOf, writeLoginLog } from './login.service';
import { ABSOLUTE_MS, invalidateAccess } from './session.service';

/**
 * Single sign-on per tenant with OpenID Connect (docs/adr/049-single-sign-on-per-tenant.md). The protocol
 * — discovery, PKCE, state, the code grant and the ID token's signature, issuer, audience, expiry and
 * nonce — is `openid-client`'s; this module keeps the flow's state in the shared store, matches the person
 * to an account of the tenant and hands the web app its session by a one-time code.
 */
const MINUTE = 60_000;
/** How long the provider's sign-in may take, from start to callback. */
export const SSO_STATE_TTL_MS = 5 * MINUTE;
/** How long the web app has to exchange the callback's one-time code for its session. */
export const SSO_CODE_TTL_MS = MINUTE;
/** How long a provider's discovery document is trusted before it is read again. */
const METADATA_TTL_MS = 10 * MINUTE;
/** The cookie binding a flow to the browser that started it (login CSRF: nobody else's callback lands here). */
export const SSO_COOKIE = 'atrium_sso';
const COOKIE_PATH = '/api/auth/sso';
export const SSO_CALLBACK_PATH = '/api/auth/sso/callback';
/** Where the web app takes over: the sign-in page, with the code or the reason in the address fragment. */
const LANDING = '/login';

const hashOf = (value: string) => createHash('sha256').update(value).digest('hex');
const stateKey = (state: string) => `sso-state:${hashOf(state)}`;
const codeKey = (code: string) => `sso-code:${hashOf(code)}`;
const sessionKey = (sessionId: number) => `sso-session:${sessionId}`;

type Settings = typeof tenantSso.$inferSelect;

/** The scheme, host and port the browser reached the server at (behind a proxy: as TRUST_PROXY lets it say). */
const publicOrigin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;
/** An address of this site as a URL writes it (`http://host:80/x` is `http://host/x`): the provider compares them exactly. */
const siteAddress = (request: FastifyRequest, path: string) => new URL(path, publicOrigin(request)).href;
export const redirectUriOf = (request: FastifyRequest) => siteAddress(request, SSO_CALLBACK_PATH);

/** An in-app path to land on after signing in: a path of this site only, never another site's address. */
export function landingPath(redirect: string | undefined): string {
  if (!redirect?.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\')) return '/';
  // a path as typed, of printable characters: nothing a browser would read as another origin
  if (!/^[\x20-\x7e]+$/.test(redirect) || redirect.startsWith('/login') || redirect.startsWith('/api/')) return '/';
  return redirect;
}

// ---- the tenant's settings ----

async function settingsOf(app: FastifyInstance, tenantId: number): Promise<Settings | null> {
  const [row] = await app.database.db.select().from(tenantSso).where(eq(tenantSso.tenantRef, tenantId));
  return row ?? null;
}

const DEFAULTS = {
  enabled: false,
  issuer: '',
  clientId: '',
  scopes: 'openid profile email',
  userClaim: 'preferred_username',
  roleClaim: null,
  roleMappings: [],
  policy: 'password_and_sso' as const,
  jit: false,
};

/** Refuses another tenant's settings: a tenant's administrator sets their own tenant's (a super admin switches in first). */
function assertOwnTenant(auth: AuthContext, tenantId: number) {
  if (tenantId !== auth.tenantId) throw new AppError('forbidden');
}

/** `GET /api/system/tenant/{id}/sso`: the settings, never the secret (only whether one is stored). */
export async function readSsoSettings(app: FastifyInstance, request: FastifyRequest, tenantId: number): Promise<SsoSettings> {
  assertOwnTenant(request.auth, tenantId);
  const row = await settingsOf(app, tenantId);
  const redirectUri = redirectUriOf(request);
  if (!row) return { ...DEFAULTS, hasClientSecret: false, redirectUri, updateTime: null };
  return {
    enabled: row.enabled,
    issuer: row.issuer,
    clientId: row.clientId,
    scopes: row.scopes,
    userClaim: row.userClaim,
    roleClaim: row.roleClaim,
    roleMappings: row.roleMappings,
    policy: row.policy as SsoSettings['policy'],
    jit: row.jit,
    hasClientSecret: !!row.clientSecret,
    redirectUri,
    updateTime: row.updateTime.toISOString(),
  };
}

/** The issuer as a URL: https, or http where SSO_HTTP_ISSUERS allows it; no credentials, query or fragment. 400 naming `issuer`. */
function issuerUrl(app: FastifyInstance, issuer: string): URL {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw invalidField('issuer', 'format', 'sso.issuer');
  }
  const schemeOk = url.protocol === 'https:' || (url.protocol === 'http:' && app.config.SSO_HTTP_ISSUERS);
  if (!schemeOk || url.username || url.password || url.search || url.hash) throw invalidField('issuer', 'format', 'sso.issuer');
  return url;
}

/**
 * `PUT /api/system/tenant/{id}/sso`: saves the settings of the caller's own tenant. The secret is sealed
 * (omitted keeps the stored one); every mapped role must exist here and be one the caller may grant (a
 * mapping hands roles out as a grant does); turning it on reads the provider's discovery document first,
 * so a wrong issuer is named now rather than at the next sign-in.
 */
export async function saveSsoSettings(app: FastifyInstance, request: FastifyRequest, tenantId: number, input: SsoSettingsInput) {
  assertOwnTenant(request.auth, tenantId);
  const issuer = issuerUrl(app, input.issuer);
  const existing = await settingsOf(app, tenantId);
  const codes = [...new Set(input.roleMappings.map((m) => m.role))];
  await inTenant(request, async (ctx) => {
    const found = codes.length
      ? await ctx.tx
          .select({ id: roles.id, code: roles.code })
          .from(roles)
          .where(and(eq(roles.tenantId, tenantId), inArray(roles.code, codes)))
      : [];
    const missing = codes.find((code) => !found.some((r) => r.code === code));
    if (missing) throw invalidField('roleMappings', 'unknownRole', 'sso.unknownRole', { role: missing });
    await grantGuard.assertGrantable(
      ctx,
      found.map((r) => Number(r.id)),
      'roleMappings',
    );
  });
  const secret = input.clientSecret ?? null;
  if (input.enabled && !secret && !existing?.clientSecret) throw invalidField('clientSecret', 'required', 'sso.secretRequired');
  if (input.enabled) {
    try {
      await discover(app, issuer.href, true);
    } catch (error) {
      throw invalidField('issuer', 'discovery', 'sso.discovery', { reason: (error as Error).message.slice(0, 120) });
    }
  }
  const sealed = secret === null ? undefined : app.secrets.seal(secret, secretContext.ssoClient(tenantId));
  const values = {
    enabled: input.enabled,
    issuer: input.issuer,
    clientId: input.clientId,
    scopes: input.scopes,
    userClaim: input.userClaim,
    roleClaim: input.roleClaim,
    roleMappings: input.roleMappings,
    policy: input.policy,
    jit: input.jit,
    updateTime: app.clock.now(),
    ...(sealed === undefined ? {} : { clientSecret: sealed }),
  };
  await app.database.db
    .insert(tenantSso)
    .values({ tenantRef: tenantId, ...values })
    .onConflictDoUpdate({ target: tenantSso.tenantRef, set: values });
  return readSsoSettings(app, request, tenantId);
}

// ---- the provider ----

const metadataCaches = new WeakMap<FastifyInstance, Map<string, { metadata: oidc.ServerMetadata; at: number }>>();

/** The provider's discovery document (checked by openid-client: its issuer must be the one asked), kept a while. */
async function discover(app: FastifyInstance, issuer: string, fresh = false): Promise<oidc.ServerMetadata> {
  const cache = metadataCaches.get(app) ?? new Map<string, { metadata: oidc.ServerMetadata; at: number }>();
  metadataCaches.set(app, cache);
  const hit = cache.get(issuer);
  if (hit && !fresh && Date.now() - hit.at < METADATA_TTL_MS) return hit.metadata;
  const insecure = new URL(issuer).protocol === 'http:';
  const found = await oidc.discovery(new URL(issuer), 'atrium', undefined, oidc.None(), {
    execute: insecure ? [oidc.allowInsecureRequests] : [],
    timeout: 10,
  });
  const metadata = found.serverMetadata();
  cache.set(issuer, { metadata, at: Date.now() });
  return metadata;
}

/**
 * The client of a tenant's provider: its metadata, the tenant's client id and (opened) secret, and the
 * app's clock (tests move it: the ID token's expiry is judged by it).
 */
async function clientOf(app: FastifyInstance, settings: Settings): Promise<oidc.Configuration> {
  const metadata = await discover(app, settings.issuer);
  const secret = settings.clientSecret ? app.secrets.open(settings.clientSecret, secretContext.ssoClient(settings.tenantRef)) : null;
  const methods = metadata.token_endpoint_auth_methods_supported;
  const auth = !secret
    ? oidc.None()
    : !methods || methods.includes('client_secret_basic')
      ? oidc.ClientSecretBasic(secret)
      : oidc.ClientSecretPost(secret);
  const skew = Math.round((app.clock.now().getTime() - Date.now()) / 1000);
  const config = new oidc.Configuration(metadata, settings.clientId, { [oidc.clockSkew]: skew }, auth);
  if (new URL(settings.issuer).protocol === 'http:') oidc.allowInsecureRequests(config);
  return config;
}

// ---- the flow ----

/** What the shared store keeps between start and callback (under the state's hash), ≤ SSO_STATE_TTL_MS. */
type PendingFlow = {
  tenantId: number;
  issuer: string;
  verifier: string;
  nonce: string;
  redirect: string;
  redirectUri: string;
  /** hash of the browser's binding cookie */
  binding: string;
  expiresAt: number;
};

/** What the callback leaves for the web app (under its one-time code's hash), ≤ SSO_CODE_TTL_MS. */
type SignedIn = {
  tenantId: number;
  accountRef: number;
  accountId: string;
  idToken: string | null;
  redirect: string;
  binding: string;
  expiresAt: number;
};

/** The cookie binding the flow to this browser, for `ttlMs`. */
function setBinding(request: FastifyRequest, reply: FastifyReply, value: string, ttlMs: number) {
  reply.setCookie(SSO_COOKIE, value, {
    httpOnly: true,
    // sent on the provider's top-level redirect back to the callback, never on a cross-site sub-request
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: COOKIE_PATH,
    maxAge: Math.floor(ttlMs / 1000),
  });
}

const bindingOf = (request: FastifyRequest) => {
  const value = request.cookies?.[SSO_COOKIE];
  return value && value.length <= 100 ? hashOf(value) : null;
};

/** The tenant by its code, enabled and unexpired, with its SSO turned on; null otherwise. */
async function ssoTenant(app: FastifyInstance, tenantCode: string): Promise<{ tenantId: number; settings: Settings } | null> {
  const now = app.clock.now();
  const [row] = await app.database.db
    .select({ settings: tenantSso })
    .from(tenants)
    .innerJoin(tenantSso, eq(tenantSso.tenantRef, tenants.id))
    .where(
      and(
        sql`lower(${tenants.code}) = ${tenantCode.trim().toLowerCase()}`,
        eq(tenants.status, '0'),
        sql`(${tenants.expireTime} is null or ${tenants.expireTime} > ${now})`,
        eq(tenantSso.enabled, true),
      ),
    );
  return row ? { tenantId: row.settings.tenantRef, settings: row.settings } : null;
}

/** Lands on the sign-in page saying why; the flow's cookie goes. */
function failed(reply: FastifyReply, reason: SsoFailureReason) {
  reply.clearCookie(SSO_COOKIE, { path: COOKIE_PATH });
  return reply.redirect(`${LANDING}#sso_error=${reason}`, 302);
}

/**
 * `GET /api/auth/sso/{tenantCode}/start`: PKCE verifier, state and nonce kept server-side (single use,
 * SSO_STATE_TTL_MS), the browser bound to them by a cookie, and a 302 to the provider's authorization
 * endpoint. A tenant without SSO, or a provider that cannot be reached, lands on the sign-in page saying so.
 */
export async function startSso(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, tenantCode: string, redirect?: string) {
  const found = await ssoTenant(app, tenantCode);
  if (!found) return failed(reply, 'unavailable');
  let config: oidc.Configuration;
  try {
    config = await clientOf(app, found.settings);
  } catch (error) {
    request.log.warn({ err: error, tenantId: found.tenantId }, 'single sign-on provider unreachable');
    return failed(reply, 'unavailable');
  }
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const verifier = oidc.randomPKCECodeVerifier();
  const binding = randomBytes(32).toString('base64url');
  const redirectUri = redirectUriOf(request);
  const pending: PendingFlow = {
    tenantId: found.tenantId,
    issuer: found.settings.issuer,
    verifier,
    nonce,
    redirect: landingPath(redirect),
    redirectUri,
    binding: hashOf(binding),
    expiresAt: app.clock.now().getTime() + SSO_STATE_TTL_MS,
  };
  await app.store.set(stateKey(state), JSON.stringify(pending), SSO_STATE_TTL_MS);
  const scopes = new Set(['openid', ...found.settings.scopes.split(/\s+/).filter(Boolean)]);
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: [...scopes].join(' '),
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  setBinding(request, reply, binding, SSO_STATE_TTL_MS);
  return reply.redirect(url.href, 302);
}

type Claims = oidc.IDToken;

/** A claim's values: a string, a number, or a list of them; anything else is none. */
function claimValues(claims: Claims, name: string | null): string[] {
  if (!name) return [];
  const raw = (claims as Record<string, unknown>)[name];
  const list = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
  return list.filter((v) => typeof v === 'string' || typeof v === 'number').map(String);
}

class SsoRefused extends Error {
  constructor(
    readonly reason: SsoFailureReason,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/**
 * Whether the provider vouches for the e-mail: `email_verified: true`, or — Microsoft Entra ID, which never
 * sends `email_verified` for organisational accounts — its optional claim `xms_edov: true` (the e-mail's
 * domain is one the directory owns) when `email_verified` is absent.
 */
const emailVerified = (claims: Claims) =>
  claims.email_verified === true || (claims.email_verified === undefined && (claims as Record<string, unknown>).xms_edov === true);

/**
 * The account the provider's person signs in: the one linked to (tenant, issuer, sub); else a member of
 * this tenant with the same e-mail, when the provider says it is verified (the link is made then); else,
 * when the tenant allows it, a new account made here just in time.
 */
async function matchAccount(app: FastifyInstance, settings: Settings, claims: Claims): Promise<{ id: number; accountId: string }> {
  const tenantId = settings.tenantRef;
  const db = app.database.db;
  const [linked] = await db
    .select({ id: accounts.id, accountId: accounts.accountId })
    .from(ssoLinks)
    .innerJoin(accounts, eq(accounts.id, ssoLinks.accountRef))
    .where(and(eq(ssoLinks.tenantRef, tenantId), eq(ssoLinks.issuer, settings.issuer), eq(ssoLinks.subject, claims.sub)));
  if (linked) return linked;
  const email = typeof claims.email === 'string' && emailVerified(claims) ? claims.email.trim().toLowerCase() : null;
  let account: { id: number; accountId: string } | undefined;
  if (email) {
    // only a member of this tenant: a tenant's provider vouches for nobody outside it
    [account] = await db
      .select({ id: accounts.id, accountId: accounts.accountId })
      .from(accounts)
      .innerJoin(memberships, and(eq(memberships.accountId, accounts.id), eq(memberships.tenantRef, tenantId)))
      .where(sql`lower(${accounts.email}) = ${email}`);
  }
  if (!account) {
    if (!settings.jit) throw new SsoRefused('unknownUser', `no account for subject ${claims.sub}`);
    account = await createJustInTime(app, settings, claims, email);
  }
  await db
    .insert(ssoLinks)
    .values({ tenantRef: tenantId, issuer: settings.issuer, subject: claims.sub, accountRef: account.id, createTime: app.clock.now() })
    .onConflictDoNothing();
  return account;
}

const ACCOUNT_ID = /^[A-Za-z0-9_.-]{2,30}$/;

/** A new account, a member of the tenant with its default roles, named by the user claim (no password; of an e-mail, its local part). */
async function createJustInTime(
  app: FastifyInstance,
  settings: Settings,
  claims: Claims,
  email: string | null,
): Promise<{ id: number; accountId: string }> {
  const [value] = claimValues(claims, settings.userClaim);
  // an e-mail-like name (Entra ID's `preferred_username` is the UPN) gives its local part
  const name = value?.split('@')[0];
  if (!name || !ACCOUNT_ID.test(name)) throw new SsoRefused('jit', `user claim ${settings.userClaim} missing or not a user number`);
  const tenantId = settings.tenantRef;
  const display = typeof claims.name === 'string' ? claims.name.slice(0, 20) : '';
  const created = await withTenant(app.database.db, tenantId, async (tx) => {
    const [account] = await tx
      .insert(accounts)
      .values({
        accountId: name,
        email,
        name: display,
        nickname: (display || name).slice(0, 30),
        passwordHash: null,
        clientKey: randomBytes(16).toString('hex'),
        lastTenantId: tenantId,
      })
      .onConflictDoNothing()
      .returning({ id: accounts.id });
    if (!account) return null;
    await tx.insert(memberships).values({ accountId: account.id, tenantRef: tenantId });
    const [user] = await tx
      .insert(tenantUsers)
      .values({ tenantId, accountRef: account.id, createBy: 'sso', updateBy: 'sso' })
      .returning({ id: tenantUsers.id });
    await tx.execute(sql`insert into ${userRoles} (tenant_id, user_id, role_id)
      select ${tenantId}::bigint, ${(user as { id: number }).id}::bigint, ${roles.id} from ${roles}
       where ${roles.tenantId} = ${tenantId} and ${roles.isDefault} and ${roles.status} = '0'`);
    return account.id;
  });
  if (created === null) throw new SsoRefused('jit', `user number or e-mail of ${name} taken`);
  return { id: created, accountId: name };
}

/**
 * The claim → role mapping: each role a mapping names is the provider's to give — held when a value of
 * the role claim maps to it, taken away when none does. Roles no mapping names are left as they are.
 */
async function applyRoleMappings(app: FastifyInstance, settings: Settings, accountRef: number, claims: Claims) {
  if (!settings.roleClaim || settings.roleMappings.length === 0) return;
  const values = new Set(claimValues(claims, settings.roleClaim));
  const managed = [...new Set(settings.roleMappings.map((m) => m.role))];
  const wanted = new Set(settings.roleMappings.filter((m) => values.has(m.value)).map((m) => m.role));
  const tenantId = settings.tenantRef;
  const changed = await withTenant(app.database.db, tenantId, async (tx) => {
    const [user] = await tx.select({ id: tenantUsers.id }).from(tenantUsers).where(eq(tenantUsers.accountRef, accountRef));
    if (!user) return false;
    const rows = await tx.select({ id: roles.id, code: roles.code }).from(roles).where(inArray(roles.code, managed));
    const give = rows.filter((r) => wanted.has(r.code)).map((r) => r.id);
    const take = rows.filter((r) => !wanted.has(r.code)).map((r) => r.id);
    let n = 0;
    if (take.length)
      n += (
        await tx
          .delete(userRoles)
          .where(and(eq(userRoles.userId, user.id), inArray(userRoles.roleId, take)))
          .returning({ id: userRoles.roleId })
      ).length;
    if (give.length)
      n += (
        await tx
          .insert(userRoles)
          .values(give.map((roleId) => ({ tenantId, userId: user.id, roleId })))
          .onConflictDoNothing()
          .returning({ id: userRoles.roleId })
      ).length;
    return n > 0;
  });
  if (changed) invalidateAccess(app, { accountRef, tenantId });
}

/**
 * `GET /api/auth/sso/callback`: the state is taken from the store (single use) and must belong to this
 * browser; openid-client checks the response and redeems the code (PKCE), and verifies the ID token's
 * signature, issuer, audience, expiry and nonce. The person is matched, must be allowed in the tenant,
 * gets the mapped roles, and the browser lands on the sign-in page with a one-time code in the address
 * fragment (never sent to a server, so never in a log) that the app exchanges for its session.
 */
export async function finishSso(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
  const query = request.query as Record<string, string | undefined>;
  const state = typeof query.state === 'string' && query.state.length <= 200 ? query.state : null;
  const text = state ? await app.store.take(stateKey(state)) : null;
  const pending = text ? (JSON.parse(text) as PendingFlow) : null;
  if (!pending || pending.expiresAt <= app.clock.now().getTime() || bindingOf(request) !== pending.binding) {
    await writeLoginLog(app, request, { account: 'sso', result: 'failure', reason: 'sso: unknown, expired or foreign state' });
    return failed(reply, 'state');
  }
  const log = (entry: { result: 'failure' | 'success'; reason: string; account?: string; accountRef?: number }) =>
    writeLoginLog(app, request, { account: entry.account ?? 'sso', tenantId: pending.tenantId, ...entry });
  const settings = await settingsOf(app, pending.tenantId);
  if (!settings?.enabled || settings.issuer !== pending.issuer) {
    await log({ result: 'failure', reason: 'sso: turned off or changed meanwhile' });
    return failed(reply, 'unavailable');
  }
  if (query.error) {
    await log({ result: 'failure', reason: `sso: provider answered ${String(query.error).slice(0, 60)}` });
    return failed(reply, 'denied');
  }
  let claims: Claims;
  let idToken: string | null;
  try {
    const config = await clientOf(app, settings);
    const current = new URL(pending.redirectUri);
    for (const [name, value] of Object.entries(query)) if (typeof value === 'string') current.searchParams.set(name, value);
    const tokens = await oidc.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: pending.verifier,
      expectedState: state as string,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    claims = tokens.claims() as Claims;
    idToken = tokens.id_token ?? null;
  } catch (error) {
    // the provider's own error code when it refused (invalid_grant: a code used or not this flow's), else the check that failed
    const answered = error as { error?: unknown; error_description?: unknown; message: string; cause?: unknown };
    const detail =
      typeof answered.error === 'string'
        ? `${answered.error} ${String(answered.error_description ?? '')}`
        : answered.cause instanceof Error
          ? answered.cause.message
          : answered.message;
    request.log.warn({ err: error, tenantId: pending.tenantId }, 'single sign-on answer refused');
    await log({ result: 'failure', reason: `sso verify: ${detail}`.slice(0, 100) });
    return failed(reply, 'verify');
  }
  const named = claimValues(claims, settings.userClaim)[0] ?? claims.sub;
  try {
    const account = await matchAccount(app, settings, claims);
    const [row] = await app.database.db.select({ superAdmin: accounts.superAdmin }).from(accounts).where(eq(accounts.id, account.id));
    if (row?.superAdmin) throw new SsoRefused('superAdmin', 'super admins sign in with a password');
    await applyRoleMappings(app, settings, account.id, claims);
    const access = await app.sessions.access(account.id, pending.tenantId, { fresh: true });
    if (!access.ok) throw new SsoRefused('disabled', `no access: ${access.reason}`);
    const code = randomBytes(32).toString('base64url');
    const signedIn: SignedIn = {
      tenantId: pending.tenantId,
      accountRef: account.id,
      accountId: account.accountId,
      idToken,
      redirect: pending.redirect,
      binding: pending.binding,
      expiresAt: app.clock.now().getTime() + SSO_CODE_TTL_MS,
    };
    await app.store.set(codeKey(code), JSON.stringify(signedIn), SSO_CODE_TTL_MS);
    // the binding goes on to the exchange: the same browser, and only it, collects the session
    setBinding(request, reply, request.cookies[SSO_COOKIE] as string, SSO_CODE_TTL_MS);
    return reply.redirect(`${LANDING}#sso_code=${code}`, 302);
  } catch (error) {
    if (!(error instanceof SsoRefused)) throw error;
    await log({ result: 'failure', reason: `sso ${error.reason}: ${error.detail}`.slice(0, 100), account: String(named).slice(0, 100) });
    return failed(reply, error.reason);
  }
}

/**
 * `POST /api/auth/sso/exchange`: the callback's one-time code (single use, SSO_CODE_TTL_MS, this browser's)
 * becomes a normal session of the tenant, recorded as signed in by SSO.
 */
export async function exchangeSso(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  code: string,
): Promise<{ token: string; redirect: string }> {
  const text = await app.store.take(codeKey(code));
  const signedIn = text ? (JSON.parse(text) as SignedIn) : null;
  if (!signedIn || signedIn.expiresAt <= app.clock.now().getTime() || bindingOf(request) !== signedIn.binding) {
    throw new AppError('ssoCodeInvalid');
  }
  reply.clearCookie(SSO_COOKIE, { path: COOKIE_PATH });
  const access = await app.sessions.access(signedIn.accountRef, signedIn.tenantId, { fresh: true });
  if (!access.ok) throw new AppError('noTenant');
  const { token, sessionId } = await app.sessions.create({
    accountRef: signedIn.accountRef,
    tenantId: signedIn.tenantId,
    method: 'sso',
    ...originOf(request),
  });
  await app.database.db.update(accounts).set({ lastTenantId: signedIn.tenantId }).where(eq(accounts.id, signedIn.accountRef));
  await app.store.set(sessionKey(sessionId), JSON.stringify({ tenantId: signedIn.tenantId, idToken: signedIn.idToken }), ABSOLUTE_MS);
  await writeLoginLog(app, request, {
    account: signedIn.accountId,
    result: 'success',
    reason: 'sso',
    accountRef: signedIn.accountRef,
    tenantId: signedIn.tenantId,
  });
  return { token, redirect: signedIn.redirect };
}

/**
 * After an SSO session ends: the provider's end-session address (RP-initiated logout) with the ID token
 * as hint and the sign-in page to come back to, when the provider has one; else null.
 */
export async function providerLogoutUrl(app: FastifyInstance, request: FastifyRequest, sessionId: number): Promise<string | null> {
  const [row] = await app.database.db.select({ method: sessions.method }).from(sessions).where(eq(sessions.id, sessionId));
  if (row?.method !== 'sso') return null;
  const text = await app.store.take(sessionKey(sessionId));
  const kept = text ? (JSON.parse(text) as { tenantId: number; idToken: string | null }) : null;
  if (!kept) return null;
  const settings = await settingsOf(app, kept.tenantId);
  if (!settings?.enabled) return null;
  try {
    const config = await clientOf(app, settings);
    if (!config.serverMetadata().end_session_endpoint) return null;
    const parameters: Record<string, string> = { post_logout_redirect_uri: siteAddress(request, LANDING), client_id: settings.clientId };
    if (kept.idToken) parameters.id_token_hint = kept.idToken;
    return oidc.buildEndSessionUrl(config, parameters).href;
  } catch (error) {
    request.log.warn({ err: error }, 'single sign-on provider unreachable at sign-out');
    return null;
  }
}

/** The SSO policy of a tenant: 'sso_only' only while its SSO is turned on. */
export async function ssoOnly(app: FastifyInstance, tenantId: number): Promise<boolean> {
  const [row] = await app.database.db
    .select({ policy: tenantSso.policy })
    .from(tenantSso)
    .where(and(eq(tenantSso.tenantRef, tenantId), eq(tenantSso.enabled, true)));
  return row?.policy === 'sso_only';
}
