import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mail } from '../../src/modules/auth/mailer';
import type { RegisteredRoute } from '../../src/plugins/external/route-registry';
import { buildTestApp, engines, oneEngine } from '../helper';
import {
  allBut,
  arena,
  escalationProbes,
  extraProbes,
  identifierProbe,
  identifierTargetRoutes,
  privilegedRoutes,
  undeclaredIdentifierRoutes,
  writeRoutesByPermission,
} from './escalation';
import { apiRoutes, fillParams } from './surface';

/**
 * Routes any signed-in person may call without a permission string, each by name with the reason: a route
 * that is not public, declares no permission and is not named here fails the matrix, so a new route under
 * the same prefix is not let through by its path.
 */
export const selfServiceRoutes = new Map<string, string>([
  ['POST /api/system/user/logout', 'ends the caller’s own session'],
  ['POST /api/system/user/userInfoLogin', 'the caller’s own user info (spec §7)'],
  ['POST /api/system/user/menu', 'the caller’s own menu, built from what their roles grant'],
  ['GET /api/system/user/tenant', 'the tenants the caller’s own account may enter'],
  ['POST /api/system/user/switchTenant', 'moves the caller’s own session to a tenant their account belongs to'],
  ['POST /api/system/user/switchRole', 'narrows the caller’s own session to one role they hold in its tenant (or back to all)'],
  ['GET /api/user/info', 'the caller’s own profile'],
  ['PUT /api/user/info', 'the caller’s own profile (the e-mail only with the current password, elsewhere)'],
  ['PUT /api/user/password', 'the caller’s own password, with the current one'],
  ['PUT /api/user/contact', 'the caller’s own phone and e-mail, with the current password'],
  ['GET /api/user/workplace', 'the figures the caller’s own permissions cover'],
  ['GET /api/user/workbench', 'the caller’s own shortcuts and recent work'],
  ['PUT /api/user/pins', 'the caller’s own pinned shortcuts'],
  ['GET /api/user/activity', 'the caller’s own recent operations'],
  ['GET /api/user/certification', 'the caller’s own certification request'],
  ['POST /api/user/certification', 'submits the caller’s own certification request'],
  ['PUT /api/user/certification/:id/withdraw', 'withdraws the caller’s own request (another’s is a 404)'],
  ['GET /api/user/sessions', 'the caller’s own sessions'],
  ['DELETE /api/user/sessions/:id', 'ends one of the caller’s own sessions (another’s is a 404)'],
  ['DELETE /api/user/sessions', 'ends the caller’s own other sessions'],
  ['POST /api/user/token', 'makes a personal API token for the caller, with permissions the caller holds'],
  ['GET /api/user/token', 'the caller’s own API tokens'],
  ['DELETE /api/user/token/:id', 'revokes one of the caller’s own API tokens (another’s is a 404)'],
  ['GET /api/user/mfa', 'the caller’s own second factors, never a secret'],
  ['POST /api/user/mfa/totp', 'begins an authenticator app for the caller’s own account'],
  ['POST /api/user/mfa/totp/confirm', 'confirms the caller’s own authenticator app with a code from it'],
  ['DELETE /api/user/mfa/totp', 'removes the caller’s own authenticator app, with a code from it'],
  ['POST /api/user/mfa/verify', 'proves the caller’s own second factor again (step-up)'],
  ['POST /api/user/mfa/webauthn/register/options', 'begins adding a passkey to the caller’s own account'],
  ['POST /api/user/mfa/webauthn/register', 'adds a passkey to the caller’s own account, to the challenge its session was given'],
  ['DELETE /api/user/mfa/webauthn/:id', 'removes one of the caller’s own passkeys (another’s is a 404)'],
  ['POST /api/user/mfa/webauthn/options', 'a step-up challenge for the caller’s own passkeys'],
  ['GET /api/system/security/mfa-policy', 'the second-factor policy of the caller’s own tenant (setting it needs system:role:grant)'],
  ['GET /api/system/notification', 'the caller’s own notifications'],
  ['GET /api/system/notification/connection', 'the caller’s own live-update connection details'],
  ['PUT /api/system/notification/read-all', 'marks the caller’s own notifications read'],
  ['PUT /api/system/notification/:id/read', 'marks one of the caller’s own notifications read (another’s is a 404)'],
  ['DELETE /api/system/notification/:id', 'deletes one of the caller’s own notifications (another’s is a 404)'],
]);

/** Routes that are neither public, nor permission-checked, nor named self-service: each one is a hole. */
export function unprotectedRoutes(routes: RegisteredRoute[]): string[] {
  return (
    apiRoutes(routes)
      .filter((r) => !r.config.public && !r.config.permission && !selfServiceRoutes.has(`${r.method} ${r.url}`))
      // release tasks: what a caller may do is decided by their grant on the task's project and environment
      .filter((r) => r.config.grantChecked !== 'release')
      .map((r) => `${r.method} ${r.url}`)
  );
}

describe.each(oneEngine)('authorization matrix on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let userToken: string;
  let userPermissions: string[];

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000' });
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/system/user/login',
      payload: { account: 'user', password: 'User@123456' },
    });
    userToken = login.json().data.token;
    const info = await ctx.app.inject({
      method: 'POST',
      url: '/api/system/user/userInfoLogin',
      headers: { authorization: `Bearer ${userToken}` },
    });
    userPermissions = info.json().data.permissions;
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('has no route that is neither public nor permission-checked', () => {
    expect(unprotectedRoutes(ctx.app.routeRegistry)).toEqual([]);
  });

  it('refuses every non-public route without a session (11000, HTTP 401)', async () => {
    const failures: string[] = [];
    for (const route of apiRoutes(ctx.app.routeRegistry).filter((r) => !r.config.public)) {
      const response = await ctx.app.inject({
        method: route.method as 'GET',
        url: fillParams(route.url, () => '1'),
        payload: route.method === 'GET' ? undefined : {},
      });
      if (response.statusCode !== 401 || response.json().code !== 11000)
        failures.push(`${route.method} ${route.url} → ${response.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it('answers a personal API token as the user’s permissions ∩ the token’s on every route, and refuses it the session-only and grant-checked ones', async () => {
    const kept = 'system:role:query';
    expect(userPermissions).toContain(kept);
    const made = await ctx.app.inject({
      method: 'POST',
      url: '/api/user/token',
      headers: { authorization: `Bearer ${userToken}` },
      payload: { name: 'matrix', expiresAt: new Date(Date.now() + 86_400_000).toISOString(), permissions: [kept] },
    });
    const token = made.json().data.token as string;
    const routes = apiRoutes(ctx.app.routeRegistry).filter(
      (r) => r.config.sessionOnly || r.config.grantChecked || (r.config.permission && r.config.permission !== kept),
    );
    // the user holds many of these: the token does not
    expect(routes.filter((r) => userPermissions.includes(r.config.permission as string)).length).toBeGreaterThan(5);
    const failures: string[] = [];
    for (const route of routes) {
      const response = await ctx.app.inject({
        method: route.method as 'GET',
        url: fillParams(route.url, () => '1'),
        headers: { authorization: `Bearer ${token}` },
        payload: route.method === 'GET' ? undefined : {},
      });
      if (response.statusCode !== 403 || response.json().code !== 403)
        failures.push(`${route.method} ${route.url} → ${response.statusCode}`);
    }
    expect(failures).toEqual([]);
    for (const route of apiRoutes(ctx.app.routeRegistry).filter((r) => r.config.permission === kept)) {
      const response = await ctx.app.inject({
        method: route.method as 'GET',
        url: fillParams(route.url, () => '1'),
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode, route.url).not.toBe(403);
    }
  });

  it('answers 403 for every permission the ordinary user lacks, before looking at the input', async () => {
    const denied = apiRoutes(ctx.app.routeRegistry).filter((r) => r.config.permission && !userPermissions.includes(r.config.permission));
    expect(denied.length).toBeGreaterThan(5);
    const failures: string[] = [];
    for (const route of denied) {
      const response = await ctx.app.inject({
        method: route.method as 'GET',
        url: fillParams(route.url, () => '1'),
        headers: { authorization: `Bearer ${userToken}` },
        payload: route.method === 'GET' ? undefined : {},
      });
      if (response.statusCode !== 403 || response.json().code !== 403)
        failures.push(`${route.method} ${route.url} → ${response.statusCode}`);
    }
    expect(failures).toEqual([]);
  });
});

describe.each(engines)('privilege escalation inside a tenant on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let a: Awaited<ReturnType<typeof arena>>;

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000' });
    a = await arena(ctx);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('has an escalation probe for every write route taking roles, grants, departments or user type', () => {
    const routes = privilegedRoutes(ctx.app.routeRegistry);
    expect(routes.length).toBeGreaterThanOrEqual(7);
    expect(routes.filter((r) => !(r in escalationProbes))).toEqual([]);
  });

  it('refuses every write route, ERP included, to a caller holding every permission but that route’s (403)', async () => {
    const byPermission = writeRoutesByPermission(ctx.app.routeRegistry);
    const routes = [...byPermission.values()].flat();
    expect(routes.some((r) => r.url.startsWith('/api/erp/'))).toBe(true);
    expect(routes.some((r) => r.url.startsWith('/api/system/'))).toBe(true);
    const probe = await allBut(a);
    const send = (route: RegisteredRoute, id = '1') =>
      ctx.app.inject({
        method: route.method as 'POST',
        url: fillParams(route.url, () => id),
        headers: { authorization: `Bearer ${probe.caller.token}` },
        payload: {},
      });
    const failures: string[] = [];
    for (const [permission, group] of byPermission) {
      await probe.hold(permission);
      for (const route of group) {
        const response = await send(route);
        if (response.statusCode !== 403 || response.json().code !== 403)
          failures.push(`${route.method} ${route.url} without ${permission} → ${response.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
    // the control: holding every permission, the same calls (on an id that does not exist, so no rule
    // about the row answers first) get past the permission check — except on the global catalogue and
    // tenants, which only the super admin changes: those answer 403 before looking at the input
    await probe.hold(null);
    const refused: string[] = [];
    const superAdmins: string[] = [];
    for (const [permission, group] of byPermission) {
      if (!probe.granted.has(permission)) continue;
      for (const route of group) {
        const status = (await send(route, '987654321')).statusCode;
        if (route.config.superAdminOnly) superAdmins.push(`${route.method} ${route.url} → ${status}`);
        else if (!route.config.globalResource && status === 403) refused.push(`${route.method} ${route.url}`);
      }
    }
    expect(refused).toEqual([]);
    expect(superAdmins.length).toBeGreaterThan(0);
    expect(superAdmins.filter((r) => !r.endsWith('→ 403'))).toEqual([]);
  });

  it.each(Object.keys({ ...escalationProbes, ...extraProbes }))(
    '%s: refuses each escalation (403), allows the ordinary write',
    async (route) => {
      const probe = escalationProbes[route] ?? extraProbes[route];
      const attempts = await probe!(a);
      expect(attempts.filter((t) => t.status !== t.expected).map((t) => `${t.what}: ${t.status}`)).toEqual([]);
    },
  );
});

describe.each(engines)('changing what signs another account in on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let a: Awaited<ReturnType<typeof arena>>;
  const mails: Mail[] = [];

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000' });
    ctx.app.mailer.send = async (mail) => {
      mails.push(mail);
    };
    a = await arena(ctx);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('has every route whose body carries an account name, e-mail or phone declare how it uses them', () => {
    expect(undeclaredIdentifierRoutes(ctx.app.routeRegistry)).toEqual([]);
    expect(identifierTargetRoutes(ctx.app.routeRegistry).map((r) => `${r.method} ${r.url}`)).toContain('PUT /api/system/user/info/:id');
  });

  it('refuses each change of another account’s identifiers to a caller holding less than its owner (403, unchanged), tells the previous e-mail of an allowed one', async () => {
    const failures: string[] = [];
    for (const route of identifierTargetRoutes(ctx.app.routeRegistry)) {
      failures.push(...(await identifierProbe(a, route, mails)).map((f) => `${route.method} ${route.url}: ${f}`));
    }
    expect(failures).toEqual([]);
  });

  it('refuses one’s own e-mail through the user form (403 naming email): only PUT /api/user/contact changes it, telling the previous address', async () => {
    const { caller, userId } = await a.limited(['system:user:update', 'system:user:query'], '1');
    const me = (await caller.get(`/api/system/user/user/${userId}`)).body.data;
    const refused = await caller.put(`/api/system/user/info/${userId}`, { ...me, email: 'mine@probe.test' });
    expect(refused.status).toBe(403);
    expect(refused.body.data.fields.map((f: { field: string }) => f.field)).toEqual(['email']);
    expect((await caller.get(`/api/system/user/user/${userId}`)).body.data.email).toBe(me.email);
    const first = await caller.put('/api/user/contact', { password: 'Kx9!mountain-ledger', email: 'first@probe.test', phone: '' });
    expect(first.status).toBe(200);
    const told = mails.length;
    const second = await caller.put('/api/user/contact', { password: 'Kx9!mountain-ledger', email: 'second@probe.test', phone: '' });
    expect(second.status).toBe(200);
    expect(mails.slice(told).map((m) => m.to)).toEqual(['first@probe.test']);
  });
});

describe('the authorization matrix itself', () => {
  it('catches a route added without a permission (fixture)', async () => {
    const ctx = await buildTestApp('pglite', {}, (app) => {
      app.get('/api/fixture/unprotected', async () => ({ code: 200, message: 'ok', data: null }));
      // under the self-service prefixes too: only the named routes are exempt
      app.get('/api/user/fixture-unprotected', async () => ({ code: 200, message: 'ok', data: null }));
      app.put('/api/system/notification/fixture-unprotected', async () => ({ code: 200, message: 'ok', data: null }));
      app.get('/api/fixture/guarded', { config: { permission: 'system:user:list' } }, async () => ({
        code: 200,
        message: 'ok',
        data: null,
      }));
    });
    try {
      expect(unprotectedRoutes(ctx.app.routeRegistry).sort()).toEqual([
        'GET /api/fixture/unprotected',
        'GET /api/user/fixture-unprotected',
        'PUT /api/system/notification/fixture-unprotected',
      ]);
    } finally {
      await ctx.close();
    }
  });
});
