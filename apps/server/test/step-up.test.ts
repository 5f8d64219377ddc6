import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STEP_UP_MS } from '../src/modules/auth/mfa.service';
import { buildTestApp, engines } from './helper';
import { SoftAuthenticator } from './soft-authenticator';
import { type Caller, signIn } from './system/api';
import { unique } from './wait';

type Ctx = Awaited<ReturnType<typeof buildTestApp>>;
/** Configured, not taken from the request: the passkeys here are bound to this origin. */
const ORIGIN = 'https://atrium.example';

// Step-up beyond one's own settings (docs/adr/050-passkeys.md): approving a release on a protected
// environment and granting the tenant's administrator role ask a caller with a second factor for it again
// once the last proof is older than five minutes.
describe.each(engines)('step-up for releases and the administrator role on %s', (engine) => {
  let ctx: Ctx;
  let admin: Caller;
  const idOf = async (account: string) =>
    ((await admin.get(`/api/system/user/user?accountId=${account}`)).body.data.list[0] as { id: number }).id;
  const roleId = async (code: string) =>
    ((await admin.get(`/api/system/role?code=${code}`)).body.data.list as { id: number; code: string }[]).find((r) => r.code === code)
      ?.id as number;
  const stale = () => ctx.clock.advance(STEP_UP_MS + 1000);

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000', WEBAUTHN_ORIGIN: ORIGIN });
    admin = await signIn(ctx, 'admin', 'Admin@123456');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('asks an administrator with a passkey for it again before granting the admin role, not before other roles', async () => {
    const key = new SoftAuthenticator();
    const options = await admin.post('/api/user/mfa/webauthn/register/options', {});
    // the configured origin decides the relying party, whatever host the request named
    expect(options.body.data.rp.id).toBe('atrium.example');
    const added = await admin.post('/api/user/mfa/webauthn/register', { name: 'Laptop', response: key.create(options.body.data, ORIGIN) });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const userId = await idOf('user');
    const [adminRole, userRole] = [await roleId('admin'), await roleId('user')];

    stale();
    const grant = () => admin.put(`/api/system/user/authRole/${userId}`, { roleIds: [adminRole, userRole] });
    // another role than admin, or the roles as they are: no second factor asked
    expect((await admin.put(`/api/system/user/authRole/${userId}`, { roleIds: [userRole] })).status).toBe(200);
    const asked = await grant();
    expect(asked.body.code).toBe(1022);
    expect(asked.status).toBe(403);
    // refused before anything changed
    expect((await admin.get(`/api/system/user/user/${userId}`)).body.data.roleIds).toEqual([userRole]);

    const assertion = await admin.post('/api/user/mfa/webauthn/options', {});
    const proved = await admin.post('/api/user/mfa/verify', { method: 'webauthn', response: key.get(assertion.body.data, ORIGIN) });
    expect(proved.status, JSON.stringify(proved.body)).toBe(200);
    const granted = await grant();
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect(granted.body.data.roleIds).toEqual(expect.arrayContaining([adminRole, userRole]));
    // taking it away again is no grant
    stale();
    expect((await admin.put(`/api/system/user/authRole/${userId}`, { roleIds: [userRole] })).status).toBe(200);
  });

  it('asks an approver with an authenticator app for it again before approving a release on a protected environment', async () => {
    const ability = await admin.post('/api/release/ability', {
      key: unique('ab'),
      name: 'Step',
      runtime: 'shell',
      body: 'echo hi',
      timeoutSec: 60,
    });
    expect((await admin.put(`/api/release/ability/${ability.body.data.id}/publish`, {})).status).toBe(200);
    const projectId = (await admin.post('/api/release/project', { key: unique('p'), name: 'Shop' })).body.data.id as number;
    const envId = (await admin.post('/api/release/env', { key: unique('e'), name: 'Production', protected: true, requiredApprovals: 1 }))
      .body.data.id as number;
    const processId = (
      await admin.post('/api/release/process', {
        name: 'Deploy',
        projectId,
        steps: [{ abilityId: ability.body.data.id, params: {}, labels: ['none-such-label'] }],
      })
    ).body.data.id as number;
    const task = await admin.post('/api/release/task', { projectId, envId, processId, version: '1.0.0' });
    expect(task.body.data.status).toBe('PENDING_APPROVAL');
    const userId = await idOf('user');
    expect((await admin.post('/api/release/user-project', { userId, projectId, envId, level: 'APPROVER' })).status).toBe(200);

    const user = await signIn(ctx, 'user', 'User@123456');
    const begun = await user.post('/api/user/mfa/totp', {});
    const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(begun.body.data.secret) });
    const codeNow = () => totp.generate({ timestamp: ctx.clock.now().getTime() });
    expect((await user.post('/api/user/mfa/totp/confirm', { code: codeNow() })).status).toBe(200);

    stale();
    const approve = () => user.put(`/api/release/task/${task.body.data.id}/approve`, {});
    expect((await approve()).body.code).toBe(1022);
    expect((await admin.get(`/api/release/task/${task.body.data.id}`)).body.data.status).toBe('PENDING_APPROVAL');
    expect((await user.post('/api/user/mfa/verify', { method: 'totp', code: '000000' })).status).toBe(400);
    expect((await user.post('/api/user/mfa/verify', { method: 'totp', code: codeNow() })).status).toBe(200);
    const approved = await approve();
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data.status).toBe('QUEUED');
  });
});
