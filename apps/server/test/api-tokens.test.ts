import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, engines } from './helper';
import { type Caller, caller, fieldsOf, signIn } from './system/api';

type Ctx = Awaited<ReturnType<typeof buildTestApp>>;
const DAY = 24 * 60 * 60 * 1000;
const PASSWORD = 'Token-user@123456';
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

describe.each(engines)('personal API tokens on %s', (engine) => {
  let ctx: Ctx;
  let admin: Caller;
  let acme: Caller;
  let owner: Caller;
  let ownerId: number;
  const roleId = async (code: string) =>
    ((await admin.get(`/api/system/role?code=${code}`)).body.data.list as { id: number; code: string }[]).find((r) => r.code === code)
      ?.id as number;
  const makeToken = async (by: Caller, permissions: string[], extra: Record<string, unknown> = {}) => {
    const answer = await by.post('/api/user/token', { name: 'script', expiresAt: inDays(30), permissions, ...extra });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return { id: answer.body.data.id as number, token: caller(ctx, answer.body.data.token as string) };
  };

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000', API_DOCS: 'signed-in' });
    admin = await signIn(ctx, 'admin', 'Admin@123456');
    acme = await signIn(ctx, 'acme', 'Acme@123456');
    const created = await admin.post('/api/system/user/info', {
      accountId: 'token.owner',
      name: 'Token owner',
      email: 'token.owner@atrium.example',
      password: PASSWORD,
      roleIds: [await roleId('admin'), await roleId('user')],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    ownerId = created.body.data.id;
    owner = await signIn(ctx, 'token.owner', PASSWORD);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('is shown once with its prefix, listed without it, and refuses what the caller does not hold, naming the field', async () => {
    const answer = await owner.post('/api/user/token', { name: 'ci', expiresAt: inDays(10), permissions: ['system:user:list'] });
    expect(answer.status).toBe(200);
    expect(answer.body.data.token).toMatch(/^atr_[A-Za-z0-9_-]{43}$/);
    const listed = (await owner.get('/api/user/token')).body.data as Record<string, unknown>[];
    const mine = listed.find((t) => t.id === answer.body.data.id);
    expect(mine).toMatchObject({ name: 'ci', permissions: ['system:user:list'], lastUsedAt: null });
    expect(JSON.stringify(listed)).not.toContain(answer.body.data.token);
    expect(Object.keys(mine ?? {}).sort()).toEqual(['createTime', 'expiresAt', 'id', 'lastUsedAt', 'name', 'permissions']);
    // the database keeps its hash only
    const [row] = await ctx.database.query<{ token_hash: string }>('select token_hash from api_tokens where id = $1', [
      answer.body.data.id,
    ]);
    expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.token_hash).not.toContain(answer.body.data.token.slice(4, 20));

    const user = await signIn(ctx, 'user', 'User@123456');
    const count = async () => ((await user.get('/api/user/token')).body.data as unknown[]).length;
    const before = await count();
    const refusals: [Record<string, unknown>, string][] = [
      [{ name: 'x', expiresAt: inDays(10), permissions: ['release:project:list'] }, 'permissions'],
      [{ name: 'x', expiresAt: inDays(10), permissions: ['*:*:*'] }, 'permissions'],
      [{ name: 'x', expiresAt: inDays(10), permissions: ['system:tenant:list'] }, 'permissions'],
      [{ name: 'x', expiresAt: inDays(-1), permissions: ['system:user:list'] }, 'expiresAt'],
      [{ name: 'x', expiresAt: inDays(366), permissions: ['system:user:list'] }, 'expiresAt'],
      [{ name: ' ', expiresAt: inDays(10), permissions: ['system:user:list'] }, 'name'],
      [{ name: 'x'.repeat(61), expiresAt: inDays(10), permissions: ['system:user:list'] }, 'name'],
      [{ name: 'x', expiresAt: inDays(10), permissions: [] }, 'permissions'],
    ];
    for (const [body, field] of refusals) {
      const refused = await user.post('/api/user/token', body);
      expect([refused.status, fieldsOf(refused.body)], JSON.stringify(body)).toEqual([400, [field]]);
    }
    expect(await count()).toBe(before);
    // the message says which permission, in the caller's language
    const zh = await user.post('/api/user/token', { name: 'x', expiresAt: inDays(10), permissions: ['release:project:list'] }, 'zh-CN');
    expect(zh.body.data.fields[0].message).toBe('包含您当前没有的权限：release:project:list');
  });

  it('acts with the token’s permissions that the owner still holds, at each request', async () => {
    const { token } = await makeToken(owner, ['system:user:list', 'release:project:list']);
    expect((await token.get('/api/system/user/user')).status).toBe(200);
    expect((await token.get('/api/release/project')).status).toBe(200);
    // the owner holds these, the token does not
    expect((await owner.get('/api/system/dept')).status).toBe(200);
    expect((await token.get('/api/system/dept')).status).toBe(403);
    expect((await token.post('/api/system/post', { postCode: 'p1', postName: 'P1', postSort: 1 })).status).toBe(403);
    // it sees what it may do, not what the owner may
    const info = (await token.post('/api/system/user/userInfoLogin', {})).body.data;
    expect([...info.permissions].sort()).toEqual(['release:project:list', 'system:user:list']);

    // the owner loses the admin role: every token shrinks at the next request
    expect((await admin.put(`/api/system/user/authRole/${ownerId}`, { roleIds: [await roleId('user')] })).status).toBe(200);
    expect((await token.get('/api/release/project')).status).toBe(403);
    expect((await token.get('/api/system/user/user')).status).toBe(200);
    expect((await token.post('/api/system/user/userInfoLogin', {})).body.data.permissions).toEqual(['system:user:list']);
    // given back, it is back (the token lists it)
    const roles = [await roleId('admin'), await roleId('user')];
    expect((await admin.put(`/api/system/user/authRole/${ownerId}`, { roleIds: roles })).status).toBe(200);
    expect((await token.get('/api/release/project')).status).toBe(200);
  });

  it('gives a super admin’s token its permissions only, never the platform’s routes', async () => {
    const { token } = await makeToken(admin, ['system:user:list']);
    expect((await token.get('/api/system/user/user')).status).toBe(200);
    expect((await token.get('/api/system/role')).status).toBe(403);
    expect((await token.get('/api/system/tenant')).status).toBe(403);
    expect((await token.post('/api/system/user/userInfoLogin', {})).body.data.permissions).toEqual(['system:user:list']);
  });

  it('answers every route of the user list and role pages as the owner’s permissions ∩ the token’s', async () => {
    const user = await signIn(ctx, 'user', 'User@123456');
    const held = new Set<string>((await user.post('/api/system/user/userInfoLogin', {})).body.data.permissions);
    const { token } = await makeToken(user, ['system:role:query']);
    const routes = ctx.app.routeRegistry
      .filter((r) => r.method === 'GET' && r.url.startsWith('/api/') && !r.url.includes(':') && r.config?.permission)
      .map((r) => ({ url: r.url, permission: r.config?.permission as string }));
    expect(routes.length).toBeGreaterThan(20);
    for (const { url, permission } of routes) {
      const answer = await token.get(url);
      const allowed = permission === 'system:role:query' && held.has(permission);
      if (allowed) expect(answer.status, url).not.toBe(403);
      else expect(answer.status, `${url} (${permission})`).toBe(403);
    }
  });

  it('is refused (401) once revoked, expired, or its owner disabled; a revoked one stays revoked', async () => {
    const first = await makeToken(owner, ['system:user:list']);
    expect((await first.token.get('/api/system/user/user')).status).toBe(200);
    expect((await owner.del(`/api/user/token/${first.id}`)).status).toBe(200);
    const revoked = await first.token.get('/api/system/user/user');
    expect([revoked.status, revoked.body.code]).toEqual([401, 1302]);
    expect((await owner.del(`/api/user/token/${first.id}`)).status).toBe(404);
    // nobody else's token: the other user revokes nothing of the owner's
    const second = await makeToken(owner, ['system:user:list']);
    const user = await signIn(ctx, 'user', 'User@123456');
    expect((await user.del(`/api/user/token/${second.id}`)).status).toBe(404);
    expect((await second.token.get('/api/system/user/user')).status).toBe(200);
    // an administrator holding at least what the owner holds lists and revokes it
    const listed = (await admin.get(`/api/system/user/${ownerId}/token`)).body.data as { id: number }[];
    expect(listed.map((t) => t.id)).toContain(second.id);
    expect((await user.del(`/api/system/user/${ownerId}/token/${second.id}`)).status).toBe(403);
    expect((await admin.del(`/api/system/user/${ownerId}/token/${second.id}`)).status).toBe(200);
    expect((await second.token.get('/api/system/user/user')).status).toBe(401);

    // disabling the owner ends their tokens: enabling them again does not bring them back
    const third = await makeToken(owner, ['system:user:list']);
    expect((await third.token.get('/api/system/user/user')).status).toBe(200);
    expect((await admin.put(`/api/system/user/infoStatus/${ownerId}`, { status: '1' })).status).toBe(200);
    const disabled = await third.token.get('/api/system/user/user');
    expect([disabled.status, disabled.body.code]).toEqual([401, 1302]);
    expect((await admin.put(`/api/system/user/infoStatus/${ownerId}`, { status: '0' })).status).toBe(200);
    expect((await third.token.get('/api/system/user/user')).status).toBe(401);
    owner = await signIn(ctx, 'token.owner', PASSWORD);
  });

  it('is refused from making tokens, changing sign-in identifiers and passwords, switching tenant or role (403)', async () => {
    const { token } = await makeToken(owner, ['system:user:list', 'system:user:query', 'system:user:update', 'system:user:resetPwd']);
    const userId = ((await admin.get('/api/system/user/user?accountId=user')).body.data.list as { id: number; accountId: string }[]).find(
      (u) => u.accountId === 'user',
    )?.id as number;
    const target = (await admin.get(`/api/system/user/user/${userId}`)).body.data;
    const attempts: [string, Promise<{ status: number; body: { code: number; message: string } }>][] = [
      ['token', token.post('/api/user/token', { name: 'x', expiresAt: inDays(1), permissions: ['system:user:list'] })],
      ['password', token.put('/api/user/password', { oldPassword: PASSWORD, newPassword: 'Another-pass@123456' })],
      ['contact', token.put('/api/user/contact', { password: PASSWORD, email: 'elsewhere@atrium.example', phone: '' })],
      ['reset', token.put(`/api/system/user/resetPwd/${userId}`, { password: 'Another-pass@123456' })],
      ['role', token.post('/api/system/user/switchRole', { role: 'user' })],
      ['tenant', token.post('/api/system/user/switchTenant', { tenantId: 1 })],
      ['sessions', token.del('/api/user/sessions')],
      // nor manage factors: its own, or another user's (which would hand their sign-in to a password)
      ['factor', token.post('/api/user/mfa/totp', {})],
      ['factor confirm', token.post('/api/user/mfa/totp/confirm', { code: '123456' })],
      ['factor removal', token.del('/api/user/mfa/totp')],
      ['step-up', token.post('/api/user/mfa/verify', { code: '123456' })],
      ['passkey', token.post('/api/user/mfa/webauthn/register/options', {})],
      ['passkey removal', token.del('/api/user/mfa/webauthn/1')],
      ['passkey step-up', token.post('/api/user/mfa/webauthn/options', {})],
      ['factor of another', token.del(`/api/system/user/mfa/${userId}`)],
    ];
    for (const [name, attempt] of attempts) {
      const answer = await attempt;
      expect([answer.status, answer.body.code], name).toEqual([403, 403]);
      expect(answer.body.message, name).toContain('API token');
    }
    // the user form: the same token may edit a user, but never what signs them in
    const email = await token.put(`/api/system/user/info/${userId}`, { ...target, email: 'taken.over@atrium.example' });
    expect([email.status, fieldsOf(email.body)]).toEqual([403, ['email']]);
    expect((await admin.get(`/api/system/user/user/${userId}`)).body.data.email).toBe(target.email);
    // the password still signs in
    await signIn(ctx, 'token.owner', PASSWORD);
  });

  it('is recorded in the operation log and its last use, and keeps to its tenant', async () => {
    const made = await makeToken(acme, ['system:user:list', 'system:user:query']);
    expect((await made.token.get('/api/system/user/user')).status).toBe(200);
    const [before] = ((await acme.get('/api/user/token')).body.data as { id: number; lastUsedAt: string | null }[]).filter(
      (t) => t.id === made.id,
    );
    expect(before?.lastUsedAt).not.toBeNull();
    // the admin tenant's user is not found from Acme's token
    expect((await made.token.get(`/api/system/user/user/${ownerId}`)).status).toBe(404);
    const info = (await made.token.post('/api/system/user/userInfoLogin', {})).body.data;
    expect(info.tenantCode).toBe((await acme.post('/api/system/user/userInfoLogin', {})).body.data.tenantCode);
    // revoking itself is an audited write made with the token
    expect((await made.token.del(`/api/user/token/${made.id}`)).status).toBe(200);
    const log = (await acme.get('/api/system/operlog?module=user:token')).body.data.list as { action: string; apiTokenId: number | null }[];
    expect(log[0]).toMatchObject({ action: 'delete', apiTokenId: made.id });
    expect(log.find((entry) => entry.action === 'create')?.apiTokenId).toBeNull();
    // Acme's administrator cannot reach the admin tenant's user's tokens
    expect((await acme.get(`/api/system/user/${ownerId}/token`)).status).toBe(404);
  });

  it('fetches the OpenAPI document, which describes the bearer scheme, while it is valid', async () => {
    const made = await makeToken(owner, ['system:user:list']);
    const docs = async (token?: string) =>
      ctx.app.inject({ url: '/api/docs/json', headers: token ? { authorization: `Bearer ${token}` } : {} });
    expect((await docs()).statusCode).toBe(401);
    const answer = await docs(made.token.token);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(answer.json().paths['/api/user/token'].post.security).toEqual([{ bearer: [] }]);
    expect((await owner.del(`/api/user/token/${made.id}`)).status).toBe(200);
    expect((await docs(made.token.token)).statusCode).toBe(401);
  });

  it('ends at its expiry (the app clock moves)', async () => {
    const { token } = await makeToken(owner, ['system:user:list'], { expiresAt: inDays(1) });
    expect((await token.get('/api/system/user/user')).status).toBe(200);
    ctx.clock.advance(DAY + 60_000);
    const expired = await token.get('/api/system/user/user');
    expect([expired.status, expired.body.code]).toEqual([401, 11000]);
  });
});
