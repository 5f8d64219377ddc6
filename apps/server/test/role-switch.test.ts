import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, engines } from './helper';
import { type Caller, fieldsOf, signIn } from './system/api';

type Ctx = Awaited<ReturnType<typeof buildTestApp>>;
type Route = { name: string; children?: Route[] };
const PASSWORD = 'Two-roles@123456';

const namesOf = (routes: Route[]): string[] => routes.flatMap((r) => [r.name, ...namesOf(r.children ?? [])]);

describe.each(engines)('menus a role can use, and switching roles, on %s', (engine) => {
  let ctx: Ctx;
  let admin: Caller;
  let acme: Caller;
  let user: Caller;
  const menu = async (c: Caller) => namesOf((await c.post('/api/system/user/menu', {})).body.data);
  const info = async (c: Caller) => (await c.post('/api/system/user/userInfoLogin', {})).body.data;
  const roleId = async (c: Caller, code: string) =>
    ((await c.get(`/api/system/role?code=${code}`)).body.data.list as { id: number; code: string }[]).find((r) => r.code === code)
      ?.id as number;

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000' });
    admin = await signIn(ctx, 'admin', 'Admin@123456');
    acme = await signIn(ctx, 'acme', 'Acme@123456');
    user = await signIn(ctx, 'user', 'User@123456');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('leaves out of a role’s menu every page whose list the role cannot read', async () => {
    const names = await menu(user);
    const unreadable = ['releaseProject', 'releaseEnv', 'releaseClient', 'releaseAbility', 'releaseProcess', 'releaseUserProject'];
    for (const name of [...unreadable, 'mallPrinter', 'mallGoods']) expect(names, name).not.toContain(name);
    // tasks are decided by project grants, not by a list permission; the ERP lists are the role's
    expect(names).toEqual(expect.arrayContaining(['releaseTask', 'erpWarehouses', 'systemUser']));
    for (const url of ['/api/release/project', '/api/release/env', '/api/release/client', '/api/release/ability', '/api/release/process']) {
      expect((await user.get(url)).status, url).toBe(403);
    }
    // a role that may read them still has them
    expect(await menu(acme)).toEqual(expect.arrayContaining([...unreadable, 'mallPrinter', 'mallGoods']));
  });

  it('refuses a user with one role: neither a role they lack nor their own, and nothing changes', async () => {
    const before = await info(user);
    expect(before).toMatchObject({ role: 'user', heldRoles: [{ code: 'user' }], activeRole: null });
    for (const role of ['admin', 'user']) {
      const answer = await user.post('/api/system/user/switchRole', { role });
      expect([answer.status, fieldsOf(answer.body)], role).toEqual([400, ['role']]);
    }
    expect((await user.post('/api/system/user/switchRole', { role: 'admin' }, 'zh-CN')).body.data.fields[0].message).toBe(
      '您只有一个角色，无可切换',
    );
    expect(await info(user)).toEqual(before);
    expect((await user.get('/api/release/project')).status).toBe(403);
  });

  it('moves among the roles held: role, permissions, data scope and menu follow on the server, for that session only', async () => {
    const created = await admin.post('/api/system/user/info', {
      accountId: 'two.roles',
      name: 'Two roles',
      password: PASSWORD,
      roleIds: [await roleId(admin, 'admin'), await roleId(admin, 'user')],
    });
    expect(created.status).toBe(200);
    const session = await signIn(ctx, 'two.roles', PASSWORD);
    const other = await signIn(ctx, 'two.roles', PASSWORD);
    expect(await info(session)).toMatchObject({
      role: 'admin',
      roles: ['admin', 'user'],
      heldRoles: [
        { code: 'admin', name: '管理员' },
        { code: 'user', name: '普通用户' },
      ],
      activeRole: null,
    });
    expect((await session.get('/api/release/project')).status).toBe(200);
    expect(await menu(session)).toContain('releaseProject');

    const switched = await session.post('/api/system/user/switchRole', { role: 'user' });
    expect(switched).toMatchObject({ status: 200, body: { data: { role: 'user', activeRole: 'user' } } });
    const acting = await info(session);
    expect(acting).toMatchObject({ role: 'user', roles: ['user'], activeRole: 'user' });
    expect(acting.permissions).toEqual((await info(user)).permissions);
    expect((await session.get('/api/release/project')).status).toBe(403);
    expect((await session.post('/api/system/role', { name: 'Sneaky', code: 'sneaky', dataScope: '1', menuIds: [] })).status).toBe(403);
    const names = await menu(session);
    expect(names).not.toContain('releaseProject');
    expect(names).not.toContain('Monitor');
    // the account's other session still has both roles
    expect(await info(other)).toMatchObject({ role: 'admin', activeRole: null });
    expect((await other.get('/api/release/project')).status).toBe(200);

    // back to all roles held
    expect((await session.post('/api/system/user/switchRole', { role: null })).body.data).toEqual({ role: 'admin', activeRole: null });
    expect((await session.get('/api/release/project')).status).toBe(200);
    expect(await menu(session)).toContain('releaseProject');
  });

  it('never reaches a role of another tenant, a disabled role, or one the user does not hold', async () => {
    const session = await signIn(ctx, 'two.roles', PASSWORD);
    // a role only the other tenant has
    expect((await acme.post('/api/system/role', { name: 'Ops', code: 'ops_only', dataScope: '1', menuIds: [] })).status).toBe(200);
    // a role of this tenant the user is given, then disabled
    const viewer = await admin.post('/api/system/role', { name: 'Viewer', code: 'viewer_off', dataScope: '1', menuIds: [] });
    const account = (await admin.get('/api/system/user/user?accountId=two.roles')).body.data.list[0];
    const granted = await admin.put(`/api/system/user/authRole/${account.id}`, {
      roleIds: [await roleId(admin, 'admin'), await roleId(admin, 'user'), viewer.body.data.id],
    });
    expect(granted.status).toBe(200);
    expect((await admin.put(`/api/system/role/${viewer.body.data.id}/status`, { status: '1' })).status).toBe(200);
    for (const role of ['ops_only', 'viewer_off', 'no_such_role', 'ADMIN']) {
      const answer = await session.post('/api/system/user/switchRole', { role });
      expect([answer.status, fieldsOf(answer.body)], role).toEqual([400, ['role']]);
    }
    expect((await session.post('/api/system/user/switchRole', { role: 'x'.repeat(65) })).status).toBe(400);
    expect(await info(session)).toMatchObject({ role: 'admin', activeRole: null });
    // a super admin may do everything and does not switch
    expect(fieldsOf((await admin.post('/api/system/user/switchRole', { role: 'user' })).body)).toEqual(['role']);
    expect((await info(admin)).activeRole).toBeNull();
  });

  it('falls back to the roles still held when the one acted as is taken away', async () => {
    const session = await signIn(ctx, 'two.roles', PASSWORD);
    expect((await session.post('/api/system/user/switchRole', { role: 'admin' })).status).toBe(200);
    const account = (await admin.get('/api/system/user/user?accountId=two.roles')).body.data.list[0];
    expect((await admin.put(`/api/system/user/authRole/${account.id}`, { roleIds: [await roleId(admin, 'user')] })).status).toBe(200);
    expect(await info(session)).toMatchObject({ role: 'user', roles: ['user'], activeRole: null });
    expect((await session.get('/api/release/project')).status).toBe(403);
  });
});
