import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withTenant } from '../src/db/client';
import { PAST_SSO_ONLY } from '../src/modules/auth/login.service';
import { SSO_STATE_TTL_MS } from '../src/modules/auth/sso.service';
import { arena } from './attack/escalation';
import { buildTestApp, engines } from './helper';
import { signInAtProvider, startProvider, type TestProvider } from './oidc-provider';
import { type Caller, caller, fieldsOf, signIn } from './system/api';

type Ctx = Awaited<ReturnType<typeof buildTestApp>>;

/** Where the injected requests reach the app: what its callback address is made of. */
const ORIGIN = 'http://localhost';
const CALLBACK = `${ORIGIN}/api/auth/sso/callback`;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

describe.each(engines)('single sign-on per tenant on %s', (engine) => {
  let ctx: Ctx;
  let op: TestProvider;
  let other: TestProvider;
  let acme: Caller;
  let acmeId: number;
  let hqId: number;

  const settingsOf = (provider: TestProvider, extra: Record<string, unknown> = {}) => ({
    enabled: true,
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    scopes: 'openid profile email groups',
    userClaim: 'preferred_username',
    roleClaim: 'groups',
    roleMappings: [{ value: 'auditors', role: 'auditor' }],
    policy: 'password_and_sso',
    jit: false,
    ...extra,
  });
  const configure = async (extra: Record<string, unknown> = {}) => {
    const saved = await acme.put(`/api/system/tenant/${acmeId}/sso`, settingsOf(op, extra));
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    return saved;
  };

  /** The browser's first step: the app's start route; the provider's address and the flow's cookie. */
  async function begin(tenantCode = 'acme', redirect = '/system/user') {
    const answer = await ctx.app.inject({
      method: 'GET',
      url: `/api/auth/sso/${tenantCode}/start?redirect=${encodeURIComponent(redirect)}`,
    });
    expect(answer.statusCode, answer.body).toBe(302);
    const location = answer.headers.location as string;
    return {
      location,
      cookie: answer.cookies.find((c) => c.name === 'atrium_sso')?.value,
      state: new URL(location).searchParams.get('state') ?? '',
    };
  }
  /** The provider sends the browser back: the callback, with this browser's cookie (or none). */
  async function callback(at: URL, cookie: string | undefined) {
    const answer = await ctx.app.inject({
      method: 'GET',
      url: `${at.pathname}${at.search}`,
      headers: cookie ? { cookie: `atrium_sso=${cookie}` } : {},
    });
    expect(answer.statusCode, answer.body).toBe(302);
    const location = answer.headers.location as string;
    return { location, code: /#sso_code=([\w-]+)$/.exec(location)?.[1], error: /#sso_error=(\w+)$/.exec(location)?.[1] };
  }
  const exchange = async (code: string, cookie: string | undefined) => {
    const answer = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sso/exchange',
      headers: cookie ? { cookie: `atrium_sso=${cookie}` } : {},
      payload: { code },
    });
    return { status: answer.statusCode, body: answer.json() };
  };
  /** The whole browser flow for `login` at the provider; the callback's answer and the flow. */
  async function flow(login: string, tenantCode = 'acme') {
    const started = await begin(tenantCode);
    const back = await signInAtProvider(started.location, login);
    return { started, back, landed: await callback(back, started.cookie) };
  }
  async function ssoSession(login: string) {
    const { started, landed } = await flow(login);
    expect(landed.error, landed.location).toBeUndefined();
    const exchanged = await exchange(landed.code as string, started.cookie);
    expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
    return exchanged.body.data as { token: string; redirect: string };
  }
  const ssoSessions = async () =>
    (await ctx.database.query<{ n: number }>(`select count(*)::int as n from sessions where method = 'sso'`))[0]?.n;
  /** The latest login-log entry of a tenant (Acme by default), or of no tenant (null): the log is under row-level security. */
  const lastLoginLog = async (tenantId: number | null = acmeId) => {
    const text = sql`select result, reason from login_logs order by id desc limit 1`;
    const rows =
      tenantId === null ? await ctx.database.db.execute(text) : await withTenant(ctx.database.db, tenantId, (tx) => tx.execute(text));
    return (rows as unknown as { rows: { reason: string | null; result: string }[] }).rows[0];
  };
  const inAcme = (text: ReturnType<typeof sql>) =>
    withTenant(ctx.database.db, acmeId, async (tx) => ((await tx.execute(text)) as unknown as { rows: Record<string, unknown>[] }).rows);

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000', SSO_HTTP_ISSUERS: 'on' });
    const users = {
      'sub-acme': { email: 'ops@acme.example', email_verified: true, preferred_username: 'acme', name: 'Acme' },
      'sub-unverified': { email: 'acme0002@acme.example', email_verified: false, preferred_username: 'acme0002' },
      'sub-member': { email: 'acme0001@acme.example', email_verified: true, preferred_username: 'acme0001', groups: ['auditors'] },
      'sub-new': {
        email: 'newcomer@acme.example',
        email_verified: true,
        preferred_username: 'newcomer',
        name: 'Newcomer',
        groups: ['auditors'],
      },
      'sub-admin': { email: 'admin@atrium.example', email_verified: true, preferred_username: 'admin' },
      'sub-hq': { email: 'user@atrium.example', email_verified: true, preferred_username: 'user' },
      // as Entra ID signs an organisational account in: no email_verified, the UPN as preferred_username
      'sub-entra': { email: 'acme0003@acme.example', xms_edov: true, preferred_username: 'acme0003@acme.example' },
      'sub-entra-new': { email: 'jit.person@acme.example', xms_edov: true, preferred_username: 'jit.person@acme.example' },
    };
    const uris = { redirectUris: [CALLBACK], postLogoutRedirectUris: [`${ORIGIN}/login`], users };
    [op, other] = await Promise.all([startProvider(uris), startProvider(uris)]);
    acme = await signIn(ctx, 'acme', 'Acme@123456');
    const tenantIds = await ctx.database.query<{ id: number; code: string }>(`select id::int, code from tenants`);
    acmeId = tenantIds.find((t) => t.code === 'acme')?.id as number;
    hqId = tenantIds.find((t) => t.code === 'hq')?.id as number;
  });
  afterAll(async () => {
    await ctx?.close();
    await op?.close();
    await other?.close();
  });
  beforeEach(async () => {
    await ctx.database.query(`delete from tenant_sso`);
    await ctx.database.query(`delete from sso_links`);
    await inAcme(sql`update tenant_users set status = '0'`);
    ctx.app.sessions.invalidate();
  });

  it('keeps the settings of the caller’s own tenant: the client secret sealed, never answered; another tenant’s refused', async () => {
    const empty = await acme.get(`/api/system/tenant/${acmeId}/sso`);
    expect(empty.body.data).toMatchObject({ enabled: false, hasClientSecret: false, redirectUri: CALLBACK, updateTime: null });
    const saved = await configure();
    expect(saved.body.data).toMatchObject({ enabled: true, issuer: op.issuer, hasClientSecret: true, policy: 'password_and_sso' });
    expect(JSON.stringify(saved.body)).not.toContain(op.clientSecret);
    const read = await acme.get(`/api/system/tenant/${acmeId}/sso`);
    expect(JSON.stringify(read.body)).not.toContain(op.clientSecret);
    expect(read.body.data).not.toHaveProperty('clientSecret');
    const [stored] = await ctx.database.query<{ client_secret: string }>(`select client_secret from tenant_sso`);
    expect(stored?.client_secret.startsWith('atrium-secret:v1:')).toBe(true);
    expect(stored?.client_secret).not.toContain(op.clientSecret);
    // saving without a secret keeps the stored one
    const { clientSecret: _, ...withoutSecret } = settingsOf(op, { scopes: 'openid email' });
    expect((await acme.put(`/api/system/tenant/${acmeId}/sso`, withoutSecret)).body.data).toMatchObject({
      hasClientSecret: true,
      scopes: 'openid email',
    });
    const [kept] = await ctx.database.query<{ client_secret: string }>(`select client_secret from tenant_sso`);
    expect(kept?.client_secret).toBe(stored?.client_secret);
    // the operation log has the change, without the secret
    const [logged] = await withTenant(
      ctx.database.db,
      acmeId,
      async (tx) =>
        (
          (await tx.execute(sql`select module, summary::text from oper_logs order by id desc limit 1`)) as unknown as {
            rows: { module: string; summary: string }[];
          }
        ).rows,
    );
    expect(logged?.module).toBe('system:sso');
    expect(logged?.summary ?? '').not.toContain(op.clientSecret);

    // another tenant's id: refused to its administrator, read or write (a super admin switches in first)
    expect((await acme.get(`/api/system/tenant/${hqId}/sso`)).status).toBe(403);
    expect((await acme.put(`/api/system/tenant/${hqId}/sso`, settingsOf(op))).status).toBe(403);
    const admin = await signIn(ctx, 'admin', 'Admin@123456');
    expect((await admin.get(`/api/system/tenant/${acmeId}/sso`)).status).toBe(403);
    expect(await ctx.database.query(`select 1 from tenant_sso where tenant_ref = $1`, [hqId])).toEqual([]);
    // a user without system:role:grant reads nothing; a personal API token changes nothing
    const user = await signIn(ctx, 'user', 'User@123456');
    expect((await user.get(`/api/system/tenant/${hqId}/sso`)).status).toBe(403);
    const made = await acme.post('/api/user/token', {
      name: 'sso',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      permissions: ['system:role:grant'],
    });
    const token = caller(ctx, made.body.data.token);
    expect((await token.get(`/api/system/tenant/${acmeId}/sso`)).status).toBe(200);
    expect((await token.put(`/api/system/tenant/${acmeId}/sso`, settingsOf(op))).status).toBe(403);
  });

  it('names the field of bad settings: an issuer that is not an address or whose discovery fails, a missing secret, an unknown role', async () => {
    const put = (extra: Record<string, unknown>) => acme.put(`/api/system/tenant/${acmeId}/sso`, settingsOf(op, extra));
    expect(fieldsOf((await put({ issuer: 'ftp://idp.example' })).body)).toEqual(['issuer']);
    expect(fieldsOf((await put({ issuer: 'not an address' })).body)).toEqual(['issuer']);
    const nowhere = await put({ issuer: `${op.issuer}/nowhere` });
    expect(fieldsOf(nowhere.body)).toEqual(['issuer']);
    expect(fieldsOf((await put({ clientSecret: null })).body)).toEqual(['clientSecret']);
    const unknown = await put({ roleMappings: [{ value: 'x', role: 'no-such-role' }] });
    expect(fieldsOf(unknown.body)).toEqual(['roleMappings']);
    expect(unknown.body.data.fields[0].message).toContain('no-such-role');
    expect(fieldsOf((await put({ policy: 'never' })).body)).toEqual(['policy']);
    expect(fieldsOf((await put({ roleClaim: 'groups; drop' })).body)).toEqual(['roleClaim']);
  });

  it('refuses a mapping to a role that grants more than its editor holds (403 naming roleMappings), takes one within', async () => {
    const a = await arena(ctx);
    const granter = await a.limited(['system:role:grant', 'system:role:list', 'system:role:query']);
    const [own] = await withTenant(
      ctx.database.db,
      hqId,
      async (tx) =>
        ((await tx.execute(sql`select code from roles where id = ${granter.roleId}`)) as unknown as { rows: { code: string }[] }).rows,
    );
    const put = (role: string) =>
      granter.caller.put(`/api/system/tenant/${hqId}/sso`, settingsOf(op, { enabled: false, roleMappings: [{ value: 'staff', role }] }));
    const tooMuch = await put('admin');
    expect(tooMuch.status).toBe(403);
    expect(fieldsOf(tooMuch.body)).toEqual(['roleMappings']);
    expect(await ctx.database.query(`select 1 from tenant_sso where tenant_ref = $1`, [hqId])).toEqual([]);
    const within = await put(own?.code as string);
    expect(within.status, JSON.stringify(within.body)).toBe(200);
    expect(within.body.data.roleMappings).toEqual([{ value: 'staff', role: own?.code }]);
  });

  it('signs a member in by the whole code flow: a normal session of the tenant recorded as SSO, the subject linked, roles mapped', async () => {
    await configure();
    const started = await begin('acme', '/system/user');
    const asked = new URL(started.location);
    expect(asked.origin).toBe(op.issuer);
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({
      client_id: op.clientId,
      redirect_uri: CALLBACK,
      response_type: 'code',
      code_challenge_method: 'S256',
      scope: 'openid profile email groups',
    });
    expect(asked.searchParams.get('nonce')).toBeTruthy();
    // the state, nonce and verifier are server-side: the browser holds an HttpOnly cookie binding it to them
    expect(started.cookie).toBeTruthy();
    const back = await signInAtProvider(started.location, 'sub-member');
    expect(back.pathname).toBe('/api/auth/sso/callback');
    const landed = await callback(back, started.cookie);
    // the session's token is in no address: a one-time code in the fragment, which no server receives
    expect(landed.location).toMatch(/^\/login#sso_code=[\w-]{43}$/);
    const signedIn = await exchange(landed.code as string, started.cookie);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.redirect).toBe('/system/user');
    const me = caller(ctx, signedIn.body.data.token);
    const info = await me.post('/api/system/user/userInfoLogin', {});
    expect(info.body.data).toMatchObject({ accountId: 'acme0001' });
    expect(info.body.data.roles).toContain('auditor');
    const [session] = await ctx.database.query<{ method: string; tenant_ref: number }>(
      `select method, tenant_ref::int from sessions where token_hash = $1`,
      [sha256(signedIn.body.data.token)],
    );
    expect(session).toEqual({ method: 'sso', tenant_ref: acmeId });
    expect(await lastLoginLog()).toEqual({ result: 'success', reason: 'sso' });
    expect(await ctx.database.query(`select subject from sso_links`)).toEqual([{ subject: 'sub-member' }]);
    // the code is spent: a second exchange is refused
    expect((await exchange(landed.code as string, started.cookie)).body.code).toBe(1024);

    // the link holds whatever the e-mail becomes; the provider taking the group away takes the role away
    op.users.set('sub-member', { email: 'renamed@elsewhere.example', email_verified: true, preferred_username: 'acme0001', groups: [] });
    const again = caller(ctx, (await ssoSession('sub-member')).token);
    const roles = (await again.post('/api/system/user/userInfoLogin', {})).body.data.roles as string[];
    expect(roles).not.toContain('auditor');
    op.users.set('sub-member', {
      email: 'acme0001@acme.example',
      email_verified: true,
      preferred_username: 'acme0001',
      groups: ['auditors'],
    });

    // a session made by SSO is revocable like any other, and moves into no other tenant
    expect((await me.post('/api/system/user/switchTenant', { tenantId: hqId })).body.code).toBe(1301);
    const ended = await ctx.app.inject({ method: 'POST', url: '/api/auth/sso/logout', headers: { authorization: `Bearer ${me.token}` } });
    const endSessionUrl = new URL(ended.json().data.endSessionUrl as string);
    expect(endSessionUrl.origin).toBe(op.issuer);
    expect(endSessionUrl.searchParams.get('post_logout_redirect_uri')).toBe(`${ORIGIN}/login`);
    expect(endSessionUrl.searchParams.get('id_token_hint')).toBeTruthy();
    // the provider takes the address as it is (a registered return, a hint it signed)
    const atProvider = await fetch(endSessionUrl, { redirect: 'manual' });
    expect(atProvider.status).toBe(200);
    expect((await me.post('/api/system/user/userInfoLogin', {})).body.code).toBe(1302);
    // a password session has nothing to end at a provider
    const password = await signIn(ctx, 'acme', 'Acme@123456');
    const plain = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sso/logout',
      headers: { authorization: `Bearer ${password.token}` },
    });
    expect(plain.json().data).toEqual({ endSessionUrl: null });
  });

  it('makes an account just in time only when the tenant allows it, with its mapped roles', async () => {
    await configure();
    expect((await flow('sub-new')).landed.error).toBe('unknownUser');
    expect(await ctx.database.query(`select 1 from accounts where account_id = 'newcomer'`)).toEqual([]);
    // an e-mail the provider does not call verified matches nobody
    expect((await flow('sub-unverified')).landed.error).toBe('unknownUser');
    expect((await lastLoginLog())?.reason).toMatch(/^sso unknownUser/);

    await configure({ jit: true });
    const me = caller(ctx, (await ssoSession('sub-new')).token);
    const info = (await me.post('/api/system/user/userInfoLogin', {})).body.data;
    expect(info).toMatchObject({ accountId: 'newcomer' });
    expect(info.roles).toEqual(expect.arrayContaining(['auditor']));
    // Entra ID: its UPN gives the user number's local part, its xms_edov vouches for the e-mail
    const entra = caller(ctx, (await ssoSession('sub-entra-new')).token);
    expect((await entra.post('/api/system/user/userInfoLogin', {})).body.data).toMatchObject({ accountId: 'jit.person' });
    const [account] = await ctx.database.query<{ password_hash: string | null; email: string }>(
      `select password_hash, email from accounts where account_id = 'newcomer'`,
    );
    expect(account).toEqual({ password_hash: null, email: 'newcomer@acme.example' });
  });

  it('refuses a disabled user, a super admin, a member of another tenant only, and a tenant without SSO', async () => {
    await configure({ jit: false });
    await inAcme(sql`update tenant_users set status = '1' where account_ref = (select id from accounts where account_id = 'acme')`);
    ctx.app.sessions.invalidate();
    expect((await flow('sub-acme')).landed.error).toBe('disabled');
    await inAcme(sql`update tenant_users set status = '0'`);
    ctx.app.sessions.invalidate();
    // a super admin keeps a password way in, never one tenant's provider
    expect((await flow('sub-admin')).landed.error).toBe('superAdmin');
    // Entra ID's xms_edov stands for email_verified when that is absent
    const entra = caller(ctx, (await ssoSession('sub-entra')).token);
    expect((await entra.post('/api/system/user/userInfoLogin', {})).body.data).toMatchObject({ accountId: 'acme0003' });
    // a verified e-mail of an account that is no member here matches nobody: a tenant's provider vouches for its own
    expect((await flow('sub-hq')).landed.error).toBe('unknownUser');
    // a tenant code without SSO turned on lands on the sign-in page saying so, without going anywhere
    const off = await ctx.app.inject({ method: 'GET', url: '/api/auth/sso/hq/start' });
    expect(off.headers.location).toBe('/login#sso_error=unavailable');
  });

  it('refuses a wrong or replayed state, another browser, a replayed code, a wrong nonce, an expired ID token, another issuer’s answer', async () => {
    await configure();
    const before = await ssoSessions();
    // a state nobody issued
    const started = await begin();
    const back = await signInAtProvider(started.location, 'sub-acme');
    const forged = new URL(back);
    forged.searchParams.set('state', 'forged-state');
    expect((await callback(forged, started.cookie)).error).toBe('state');
    // the right state from another browser (no cookie, or another flow's): refused, and the state is spent
    const other1 = await begin();
    expect((await callback(back, other1.cookie)).error).toBe('state');
    expect((await callback(back, started.cookie)).error).toBe('state');

    // a replayed code: the flow's state put back by hand, the provider refuses a code it already redeemed
    const first = await begin();
    const firstBack = await signInAtProvider(first.location, 'sub-acme');
    const key = `sso-state:${sha256(first.state)}`;
    const pending = (await ctx.app.store.get(key)) as string;
    expect((await callback(firstBack, first.cookie)).code).toBeTruthy();
    await ctx.app.store.set(key, pending, SSO_STATE_TTL_MS);
    expect((await callback(firstBack, first.cookie)).error).toBe('verify');
    expect((await lastLoginLog())?.reason).toMatch(/^sso verify: invalid_grant/);

    // the ID token's nonce is not the one this flow sent
    const second = await begin();
    const secondBack = await signInAtProvider(second.location, 'sub-acme');
    const secondKey = `sso-state:${sha256(second.state)}`;
    const parsed = JSON.parse((await ctx.app.store.get(secondKey)) as string);
    await ctx.app.store.set(secondKey, JSON.stringify({ ...parsed, nonce: 'another-nonce' }), SSO_STATE_TTL_MS);
    expect((await callback(secondBack, second.cookie)).error).toBe('verify');
    expect((await lastLoginLog())?.reason).toMatch(/nonce/);

    // an ID token past its expiry (60 s here) by the app's clock, the flow itself still inside its 5 minutes
    const third = await begin();
    const thirdBack = await signInAtProvider(third.location, 'sub-acme');
    ctx.clock.advance(3 * 60_000);
    try {
      expect((await callback(thirdBack, third.cookie)).error).toBe('verify');
      expect((await lastLoginLog())?.reason).toMatch(/exp/);
    } finally {
      ctx.clock.advance(-3 * 60_000);
    }
    // past the flow's 5 minutes, nothing is asked of the provider
    const late = await begin();
    const lateBack = await signInAtProvider(late.location, 'sub-acme');
    ctx.clock.advance(SSO_STATE_TTL_MS + 1000);
    try {
      expect((await callback(lateBack, late.cookie)).error).toBe('state');
    } finally {
      ctx.clock.advance(-(SSO_STATE_TTL_MS + 1000));
    }

    // the same request answered by another provider (another issuer): refused
    const fourth = await begin();
    const elsewhere = new URL(fourth.location);
    const forgedAt = new URL(`${other.issuer}${elsewhere.pathname}${elsewhere.search}`);
    const otherBack = await signInAtProvider(forgedAt.href, 'sub-acme');
    expect(otherBack.searchParams.get('iss')).toBe(other.issuer);
    expect((await callback(otherBack, fourth.cookie)).error).toBe('verify');
    // the provider's own error (the person refused there) says so
    const fifth = await begin();
    const denied = new URL(CALLBACK);
    denied.searchParams.set('error', 'access_denied');
    denied.searchParams.set('state', fifth.state);
    expect((await callback(denied, fifth.cookie)).error).toBe('denied');
    // and none of these made a session
    expect(await ssoSessions()).toBe(before);
  });

  it('refuses the exchange to another browser or after its minute', async () => {
    await configure();
    const { started, landed } = await flow('sub-acme');
    expect((await exchange(landed.code as string, undefined)).body.code).toBe(1024);
    // the code was taken by that attempt: not even the right browser gets it now
    expect((await exchange(landed.code as string, started.cookie)).body.code).toBe(1024);
    const later = await flow('sub-acme');
    ctx.clock.advance(61_000);
    try {
      expect((await exchange(later.landed.code as string, later.started.cookie)).body.code).toBe(1024);
    } finally {
      ctx.clock.advance(-61_000);
    }
  });

  it('with SSO only, refuses a password into the tenant — by sign-in or by switching tenant — except a super admin’s, logged', async () => {
    await configure({ policy: 'sso_only' });
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/api/system/user/login',
      payload: { account: 'acme', password: 'Acme@123456' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe(1023);
    expect(await lastLoginLog(null)).toEqual({ result: 'failure', reason: 'sso only' });
    // the provider still signs the same person in
    expect((await ssoSession('sub-acme')).token).toEqual(expect.any(String));

    // a member of both tenants with a password session in HQ cannot switch into Acme
    const [userAccount] = await ctx.database.query<{ id: number }>(`select id::int from accounts where account_id = 'user'`);
    await ctx.database.query(`insert into memberships (account_id, tenant_ref) values ($1, $2) on conflict do nothing`, [
      userAccount?.id,
      acmeId,
    ]);
    await inAcme(sql`insert into tenant_users (tenant_id, account_ref) values (${acmeId}, ${userAccount?.id}) on conflict do nothing`);
    ctx.app.sessions.invalidate();
    const user = await signIn(ctx, 'user', 'User@123456');
    const switched = await user.post('/api/system/user/switchTenant', { tenantId: acmeId });
    expect(switched.status).toBe(403);
    expect(switched.body.code).toBe(1023);

    // a super admin keeps a password way in: by switching, and by signing in there; both logged
    const admin = await signIn(ctx, 'admin', 'Admin@123456');
    const moved = await admin.post('/api/system/user/switchTenant', { tenantId: acmeId });
    expect(moved.status).toBe(200);
    expect(await lastLoginLog()).toEqual({ result: 'success', reason: PAST_SSO_ONLY });
    await ctx.database.query(`update accounts set last_tenant_id = $1 where account_id = 'admin'`, [acmeId]);
    const direct = await ctx.app.inject({
      method: 'POST',
      url: '/api/system/user/login',
      payload: { account: 'admin', password: 'Admin@123456' },
    });
    expect(direct.json().data.token).toEqual(expect.any(String));
    expect(await lastLoginLog()).toEqual({ result: 'success', reason: PAST_SSO_ONLY });

    // with SSO turned off, the policy is off too
    await configure({ policy: 'sso_only', enabled: false });
    expect(
      (await ctx.app.inject({ method: 'POST', url: '/api/system/user/login', payload: { account: 'acme', password: 'Acme@123456' } }))
        .statusCode,
    ).toBe(200);
  });
});
