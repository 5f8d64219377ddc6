import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../src/db/client';
import { operLogs, tenants } from '../../src/db/schema';
import { seed } from '../../src/seed';
import { SEEDED_USERS_PER_TENANT } from '../../src/seed/system';
import { buildTestApp, engines } from '../helper';
import { type Caller, fieldsOf, signIn } from './api';

type MenuNode = { id: number; permission: string | null; routeName?: string; title: string; children: MenuNode[] };
const flatten = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);
const PASSWORD = 'Kx9!mountain-ledger';

describe.each(engines)('system management API on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: Caller;
  let acme: Caller;
  let user: Caller;
  let menuTree: MenuNode[];
  const menuId = (permission: string) => {
    const hit = flatten(menuTree).find((m) => m.permission === permission);
    if (!hit) throw new Error(`no menu carries ${permission}`);
    return hit.id;
  };

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000' });
    admin = await signIn(ctx, 'admin', 'Admin@123456');
    acme = await signIn(ctx, 'acme', 'Acme@123456');
    user = await signIn(ctx, 'user', 'User@123456');
    menuTree = (await admin.get('/api/system/role/menuTree')).body.data;
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('seeds a believable organisation per tenant, once', async () => {
    const users = (await admin.get('/api/system/user/user?pageSize=1')).body.data.total;
    expect(users).toBeGreaterThanOrEqual(SEEDED_USERS_PER_TENANT);
    // name search matches from the start, case-insensitively
    const someone = (await acme.get('/api/system/user/user?pageSize=1&pageNum=7')).body.data.list[0];
    const prefix = someone.name.slice(0, 3).toUpperCase();
    const acmeUsers = (await acme.get(`/api/system/user/user?pageSize=100&name=${encodeURIComponent(prefix)}`)).body.data;
    expect(acmeUsers.total).toBeGreaterThan(0);
    expect(acmeUsers.list.every((u: { name: string }) => u.name.toUpperCase().startsWith(prefix))).toBe(true);
    const middle = someone.name.slice(1, 4);
    const inside = (await acme.get(`/api/system/user/user?pageSize=100&name=${encodeURIComponent(middle)}`)).body.data;
    expect(inside.list.every((u: { name: string }) => u.name.toLowerCase().startsWith(middle.toLowerCase()))).toBe(true);
    const tree = (await admin.get('/api/system/dept/tree')).body.data;
    expect(tree[0].name).toBe('总部');
    expect(tree[0].children.length).toBeGreaterThan(3);
    await seed(ctx.database, ctx.config);
    expect((await admin.get('/api/system/user/user?pageSize=1')).body.data.total).toBe(users);
  });

  it('seeds release management and the mall so that every area shows something working, once', async () => {
    const counts = async () => ({
      abilities: (await admin.get('/api/release/ability')).body.data.list.filter((a: { status: string }) => a.status === 'PUBLISHED')
        .length,
      envs: (await admin.get('/api/release/env')).body.data.total,
      projects: (await admin.get('/api/release/project')).body.data.total,
      processes: (await admin.get('/api/release/process')).body.data.total,
      done: (await admin.get('/api/release/task?status=SUCCEEDED')).body.data.total,
      goods: (await acme.get('/api/mall/goods?shelf=on')).body.data.total,
      printers: (await acme.get('/api/mall/printer')).body.data.total,
    });
    const before = await counts();
    expect(before.abilities).toBeGreaterThanOrEqual(1);
    expect(before.envs).toBeGreaterThanOrEqual(2);
    expect(before.projects).toBeGreaterThanOrEqual(1);
    expect(before.processes).toBeGreaterThanOrEqual(1);
    expect(before.done).toBeGreaterThanOrEqual(3);
    expect(before.goods).toBeGreaterThanOrEqual(3);
    expect(before.printers).toBeGreaterThanOrEqual(1);
    // a finished task has its log
    const [task] = (await admin.get('/api/release/task?status=SUCCEEDED&pageSize=1')).body.data.list as { id: number }[];
    const log = await ctx.app.inject({
      method: 'GET',
      url: `/api/release/task/${task?.id}/log`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(log.statusCode).toBe(200);
    expect(log.body).toContain('health check passed');
    await seed(ctx.database, ctx.config);
    expect(await counts()).toEqual(before);
  });

  describe('posts (the machinery on its simplest entity)', () => {
    it('creates, reads, updates, toggles and deletes, answering the paged shape', async () => {
      const created = await admin.post('/api/system/post', { code: 'qa-lead', name: 'QA lead', orderNum: 3 });
      expect(created.status).toBe(200);
      const id = created.body.data.id;
      expect((await admin.get(`/api/system/post/${id}`)).body.data).toMatchObject({ code: 'qa-lead', status: '0', createBy: 'admin' });
      expect((await admin.put(`/api/system/post/${id}`, { code: 'qa-lead', name: 'QA head' })).body.data.name).toBe('QA head');
      expect((await admin.put(`/api/system/post/${id}/status`, { status: '1' })).body.data.status).toBe('1');
      const page = (await admin.get('/api/system/post?pageNum=1&pageSize=5&status=1&sort=name:desc')).body.data;
      expect(page).toMatchObject({ pageNum: 1, pageSize: 5, total: 1 });
      expect(page.list[0].id).toBe(id);
      expect((await admin.del(`/api/system/post/${id}`)).status).toBe(200);
      expect((await admin.get(`/api/system/post/${id}`)).status).toBe(404);
    });

    it('answers 409 naming code for a duplicate code in the same tenant, but allows it in another tenant', async () => {
      expect((await admin.post('/api/system/post', { code: 'dup', name: 'A' })).status).toBe(200);
      const again = await admin.post('/api/system/post', { code: 'dup', name: 'B' });
      expect(again.status).toBe(409);
      expect(fieldsOf(again.body)).toEqual(['code']);
      expect((await acme.post('/api/system/post', { code: 'dup', name: 'B' })).status).toBe(200);
    });

    it('refuses bad input with 400 naming the field: too long, wrong type, missing', async () => {
      const tooLong = await admin.post('/api/system/post', { code: 'x1', name: 'n'.repeat(101) });
      expect([tooLong.status, fieldsOf(tooLong.body)]).toEqual([400, ['name']]);
      const wrongType = await admin.post('/api/system/post', { code: 'x2', name: 'ok', orderNum: 'first' });
      expect([wrongType.status, fieldsOf(wrongType.body)]).toEqual([400, ['orderNum']]);
      const missing = await admin.post('/api/system/post', { name: 'no code' });
      expect([missing.status, fieldsOf(missing.body)]).toEqual([400, ['code']]);
      const badStatus = await admin.put('/api/system/post/1/status', { status: '2' });
      expect([badStatus.status, fieldsOf(badStatus.body)]).toEqual([400, ['status']]);
    });

    it('takes injection strings in sort, filters and ids as data, never as SQL', async () => {
      for (const sort of ['name;drop table posts', 'remark:asc', 'name:desc:x', "name:asc' or '1'='1", 'pg_sleep(1):asc']) {
        const r = await admin.get(`/api/system/post?sort=${encodeURIComponent(sort)}`);
        expect([r.status, fieldsOf(r.body)]).toEqual([400, ['sort']]);
      }
      const filtered = await admin.get(`/api/system/post?name=${encodeURIComponent("' or 1=1 --")}&code=${encodeURIComponent('%_')}`);
      expect([filtered.status, filtered.body.data.total]).toEqual([200, 0]);
      for (const id of ['1%20or%201%3D1', '1;select', '-1', '0', '99999999999999999999', 'abc']) {
        expect((await admin.get(`/api/system/post/${id}`)).status).toBe(400);
      }
    });

    it("answers 404 for another tenant's ids, on read and on every write", async () => {
      const theirs = (await acme.post('/api/system/post', { code: 'acme-only', name: 'Acme only' })).body.data.id;
      expect((await admin.get(`/api/system/post/${theirs}`)).status).toBe(404);
      expect((await admin.put(`/api/system/post/${theirs}`, { code: 'stolen', name: 'x' })).status).toBe(404);
      expect((await admin.put(`/api/system/post/${theirs}/status`, { status: '1' })).status).toBe(404);
      expect((await admin.del(`/api/system/post/${theirs}`)).status).toBe(404);
      expect((await acme.get(`/api/system/post/${theirs}`)).body.data.name).toBe('Acme only');
    });

    it('answers 403 to a role without the permission', async () => {
      expect((await user.post('/api/system/post', { code: 'nope', name: 'nope' })).status).toBe(403);
      expect((await user.del('/api/system/post/1')).status).toBe(403);
    });

    it('writes an operation-log entry for every write, failures included', async () => {
      const ok = await admin.post('/api/system/post', { code: 'logged', name: 'Logged' });
      await admin.put(`/api/system/post/${ok.body.data.id}`, { code: 'logged', name: 'Logged twice' });
      await admin.post('/api/system/post', { code: 'logged', name: 'Duplicate' });
      const [hq] = await ctx.database.db.select().from(tenants).where(eq(tenants.code, 'hq'));
      const rows = await withTenant(ctx.database.db, hq!.id, (tx) =>
        tx
          .select()
          .from(operLogs)
          .where(and(eq(operLogs.module, 'system:post')))
          .orderBy(desc(operLogs.id))
          .limit(3),
      );
      expect(rows.map((r) => [r.action, r.result, r.operator])).toEqual([
        ['create', 'failure', 'admin'],
        ['update', 'success', 'admin'],
        ['create', 'success', 'admin'],
      ]);
      expect(rows[1]!.summary).toEqual({ changed: { name: { from: 'Logged', to: 'Logged twice' } } });
      expect(rows[0]!.errorMessage).toBeTruthy();
      expect(rows[1]!.target).toBe(String(ok.body.data.id));
    });
  });

  describe('departments', () => {
    it('keeps a tree: no cycles, disabling reaches children, enabling reaches parents', async () => {
      const a = (await admin.post('/api/system/dept', { name: 'Head office' })).body.data;
      const b = (await admin.post('/api/system/dept', { name: 'Engineering', parentId: a.id })).body.data;
      const c = (await admin.post('/api/system/dept', { name: 'Platform', parentId: b.id })).body.data;
      expect(c.ancestors).toEqual([a.id, b.id]);

      const cycle = await admin.put(`/api/system/dept/${a.id}`, { name: 'Head office', parentId: c.id });
      expect([cycle.status, fieldsOf(cycle.body)]).toEqual([400, ['parentId']]);
      // the reason reads in the caller's language, never as the server's own English
      expect(cycle.body.data.fields[0].message).toBe('cannot be moved under itself or one of its own descendants');
      const zh = await admin.put(`/api/system/dept/${a.id}`, { name: 'Head office', parentId: c.id }, 'zh-CN');
      expect(zh.body.data.fields).toEqual([{ field: 'parentId', rule: 'cycle', message: '不能移到自己或自己的下级之下' }]);
      const inUse = await admin.del(`/api/system/dept/${a.id}`, 'zh-CN');
      expect(inUse.body.data.fields[0].message).toBe('该部门下还有 1 个子部门，请先删除或移走它们');
      const own = await admin.put(`/api/system/dept/${a.id}`, { name: 'Head office', parentId: a.id });
      expect(own.status).toBe(400);

      await admin.put(`/api/system/dept/${a.id}/status`, { status: '1' });
      for (const d of [a, b, c]) expect((await admin.get(`/api/system/dept/${d.id}`)).body.data.status).toBe('1');
      await admin.put(`/api/system/dept/${c.id}/status`, { status: '0' });
      for (const d of [a, b, c]) expect((await admin.get(`/api/system/dept/${d.id}`)).body.data.status).toBe('0');

      const tree = (await admin.get('/api/system/dept/tree')).body.data as {
        id: number;
        children: { id: number; children: { id: number }[] }[];
      }[];
      const root = tree.find((n) => n.id === a.id);
      expect(root?.children[0]?.id).toBe(b.id);
      expect(root?.children[0]?.children[0]?.id).toBe(c.id);

      // moving a subtree re-roots the paths below it
      const d = (await admin.post('/api/system/dept', { name: 'Operations' })).body.data;
      await admin.put(`/api/system/dept/${b.id}`, { name: 'Engineering', parentId: d.id });
      expect((await admin.get(`/api/system/dept/${c.id}`)).body.data.ancestors).toEqual([d.id, b.id]);

      const withChildren = await admin.del(`/api/system/dept/${d.id}`);
      expect(withChildren.status).toBe(409);
      // the message says why and how many, not a bare "数据冲突"
      expect(withChildren.body.message).toBe('The department has 1 sub-department(s): delete or move them first');
      expect(withChildren.body.data.count).toBe(1);
    });

    it('refuses to delete a department with users', async () => {
      const dept = (await admin.post('/api/system/dept', { name: 'Staffed' })).body.data;
      await admin.post('/api/system/user/info', { accountId: 'staffed1', name: 'Staffed One', deptId: dept.id });
      const r = await admin.del(`/api/system/dept/${dept.id}`);
      expect(r.status).toBe(409);
      expect(r.body.data.fields[0].rule).toBe('hasUsers');
      expect(r.body.message).toBe('The department is used by 1 user(s): move them to another department first');
    });
  });

  describe('users', () => {
    it('uses the spec calls, filters by department and below, and refuses duplicates with 409 naming the field', async () => {
      const top = (await admin.post('/api/system/dept', { name: 'Sales' })).body.data;
      const sub = (await admin.post('/api/system/dept', { name: 'Sales East', parentId: top.id })).body.data;
      const post = (await admin.post('/api/system/post', { code: 'rep', name: 'Sales rep' })).body.data;
      const created = await admin.post('/api/system/user/info', {
        accountId: 'li.wei',
        name: '李伟',
        nickname: 'Wei',
        phone: '13900001111',
        email: 'li.wei@example.com',
        sex: '0',
        deptId: sub.id,
        postIds: [post.id],
      });
      expect(created.status).toBe(200);
      const id = created.body.data.id;
      expect(created.body.data).toMatchObject({ deptName: 'Sales East', postIds: [post.id], userType: '02', status: '0' });
      // no roles given: the default roles
      expect(created.body.data.roleIds.length).toBeGreaterThan(0);

      const list = (await admin.get(`/api/system/user/user?deptId=${top.id}`)).body.data;
      expect(list.list.map((u: { id: number }) => u.id)).toEqual([id]);
      expect((await admin.get(`/api/system/user/user?phone=139000011&name=${encodeURIComponent('李')}`)).body.data.total).toBe(1);
      expect((await admin.get(`/api/system/user/user?phone=0000111&name=${encodeURIComponent('李')}`)).body.data.total).toBe(0);
      // LIKE wildcards typed by the user are taken literally
      expect((await admin.get(`/api/system/user/user?name=${encodeURIComponent('%')}`)).body.data.total).toBe(0);
      expect((await admin.get(`/api/system/user/user/${id}`)).body.data.accountId).toBe('li.wei');

      for (const [fields, body] of [
        [['accountId'], { accountId: 'LI.WEI', name: 'x' }],
        [['phone'], { accountId: 'other1', name: 'x', phone: '13900001111' }],
        [['email'], { accountId: 'other2', name: 'x', email: 'LI.WEI@example.com' }],
        // several taken: all of them in one answer, so the form shows each at once
        [['accountId', 'phone', 'email'], { accountId: 'Li.Wei', name: 'x', phone: '13900001111', email: 'li.wei@example.com' }],
        [['phone', 'email'], { accountId: 'other3', name: 'x', phone: '13900001111', email: 'li.wei@example.com' }],
      ] as const) {
        const r = await admin.post('/api/system/user/info', body);
        expect([r.status, fieldsOf(r.body)]).toEqual([409, fields]);
      }
      // none of the refused accounts was made
      expect((await admin.get('/api/system/user/user?accountId=other')).body.data.total).toBe(0);
      // two requests racing for one account number: one user, and a 409 naming the field (not a 500)
      const raced = await Promise.all(['甲', '乙'].map((name) => admin.post('/api/system/user/info', { accountId: 'race.one', name })));
      const won = raced.find((r) => r.status === 200);
      const lost = raced.find((r) => r.status === 409);
      expect([won?.status, lost?.status]).toEqual([200, 409]);
      expect(fieldsOf(lost!.body)).toEqual(['accountId']);
      const racers = (await admin.get('/api/system/user/user?accountId=race.one')).body.data;
      expect([racers.total, racers.list[0].id]).toEqual([1, won!.body.data.id]);
      // an edit taking another account's phone and e-mail names both, and changes nothing
      const racer = won!.body.data.id;
      const clash = await admin.put(`/api/system/user/info/${racer}`, { name: '甲', phone: '13900001111', email: 'Li.Wei@example.com' });
      expect([clash.status, fieldsOf(clash.body)]).toEqual([409, ['phone', 'email']]);
      expect((await admin.get(`/api/system/user/user/${racer}`)).body.data).toMatchObject({ phone: null, email: null });
      const tooLong = await admin.post('/api/system/user/info', {
        accountId: 'ok1',
        name: 'n'.repeat(21),
        idNumber: '1'.repeat(19),
        nickname: 'n'.repeat(31),
      });
      expect(tooLong.status).toBe(400);
      expect(fieldsOf(tooLong.body).sort()).toEqual(['idNumber', 'name', 'nickname']);
      const badEmail = await admin.post('/api/system/user/info', { accountId: 'ok2', name: 'x', email: 'not-an-email', sex: '3' });
      expect(fieldsOf(badEmail.body).sort()).toEqual(['email', 'sex']);
      // an avatar is an image address: a script or another site's protocol-relative path is refused by name
      for (const avatar of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', '//evil.example/a.png', 'data:text/html,<b>x</b>']) {
        const refused = await admin.put(`/api/system/user/info/${id}`, { name: '李伟', avatar });
        expect([refused.status, fieldsOf(refused.body)], avatar).toEqual([400, ['avatar']]);
      }
      for (const avatar of ['https://cdn.example/a.png', '/avatars/a.png', '']) {
        expect((await admin.put(`/api/system/user/info/${id}`, { name: '李伟', avatar })).status, avatar).toBe(200);
      }

      // the same roles and posts sent back with an edit: kept as they were
      const roleIds = created.body.data.roleIds;
      const same = await admin.put(`/api/system/user/info/${id}`, { name: '李伟', deptId: sub.id, postIds: [post.id], roleIds });
      expect(same.body.data).toMatchObject({ name: '李伟', postIds: [post.id], roleIds });
      const updated = await admin.put(`/api/system/user/info/${id}`, {
        name: '李伟',
        nickname: 'Wei Li',
        deptId: top.id,
        phone: '13900001111',
      });
      expect(updated.body.data).toMatchObject({ nickname: 'Wei Li', deptId: top.id, postIds: [] });
      expect((await admin.put(`/api/system/user/infoStatus/${id}`, { status: '1' })).body.data.status).toBe('1');
      expect((await admin.del(`/api/system/user/info/${id}`)).status).toBe(200);
      expect((await admin.get(`/api/system/user/user/${id}`)).status).toBe(404);
      // the account went with its only membership: the number is free again
      expect((await admin.post('/api/system/user/info', { accountId: 'li.wei', name: '李伟' })).status).toBe(200);
    });

    it('refuses disabling or deleting yourself and the last super admin', async () => {
      const me = (await admin.get('/api/system/user/user?accountId=admin')).body.data.list[0];
      const self = await admin.put(`/api/system/user/infoStatus/${me.id}`, { status: '1' });
      expect([self.status, self.body.data.fields[0].rule]).toEqual([409, 'self']);
      expect((await admin.del(`/api/system/user/info/${me.id}`)).status).toBe(409);
    });

    it('signs a disabled user out (1302) and lets a reset password sign in', async () => {
      const u = (await admin.post('/api/system/user/info', { accountId: 'temp.user', name: 'Temp', password: PASSWORD })).body.data;
      const session = await signIn(ctx, 'temp.user', PASSWORD);
      expect((await session.post('/api/system/user/userInfoLogin', {})).status).toBe(200);
      await admin.put(`/api/system/user/infoStatus/${u.id}`, { status: '1' });
      const after = await session.post('/api/system/user/userInfoLogin', {});
      expect(after.body.code).toBe(1302);
      await admin.put(`/api/system/user/infoStatus/${u.id}`, { status: '0' });
      const weak = await admin.put(`/api/system/user/resetPwd/${u.id}`, { password: 'short' });
      expect([weak.status, [...new Set(fieldsOf(weak.body))]]).toEqual([400, ['password']]);
      // passes the character rules but is on the common-passwords list
      const common = await admin.put(`/api/system/user/resetPwd/${u.id}`, { password: 'Password123!' });
      expect([common.status, fieldsOf(common.body)]).toEqual([400, ['password']]);
      expect((await admin.put(`/api/system/user/resetPwd/${u.id}`, { password: 'Zq7#another-ledger' })).status).toBe(200);
      await signIn(ctx, 'temp.user', 'Zq7#another-ledger');
    });

    it('keeps list totals between pages, and counts afresh after any write in the tenant', async () => {
      const total = async (caller: Caller) => (await caller.get('/api/system/user/user?pageSize=5')).body.data.total;
      const before = await total(admin);
      const acmeBefore = await total(acme);
      expect((await admin.get('/api/system/user/user?pageSize=5&pageNum=3')).body.data.total).toBe(before);
      const made = (await admin.post('/api/system/user/info', { accountId: 'totals.one', name: 'Totals' })).body.data;
      expect(await total(admin)).toBe(before + 1);
      // another tenant's totals are its own
      expect(await total(acme)).toBe(acmeBefore);
      await admin.del(`/api/system/user/info/${made.id}`);
      expect(await total(admin)).toBe(before);
    });

    it('shows changed user info, roles and grants at the next request, though both answers are cached', async () => {
      const systemDir = flatten(menuTree).find((m) => m.children.some((c) => c.permission === 'system:user:list'))?.id as number;
      const role = await admin.post('/api/system/role', {
        name: 'Viewer',
        code: 'viewer_c',
        dataScope: '1',
        menuIds: [systemDir, menuId('system:user:list')],
      });
      const u = (
        await admin.post('/api/system/user/info', {
          accountId: 'cached.one',
          name: 'Before',
          password: PASSWORD,
          roleIds: [role.body.data.id],
        })
      ).body.data;
      expect([role.status, u?.id]).toEqual([200, expect.any(Number)]);
      const session = await signIn(ctx, 'cached.one', PASSWORD);
      const info = async () => (await session.post('/api/system/user/userInfoLogin', {})).body.data;
      const menuNames = async () => {
        const names: string[] = [];
        const walk = (routes: { name: string; children?: unknown[] }[]) => {
          for (const r of routes) {
            names.push(r.name);
            walk((r.children ?? []) as typeof routes);
          }
        };
        walk((await session.post('/api/system/user/menu', {})).body.data);
        return names;
      };
      expect((await info()).name).toBe('Before');
      expect(await info()).toMatchObject({ name: 'Before', permissions: ['system:user:list'] });
      expect(await menuNames()).toContain('systemUser');
      expect(await menuNames()).not.toContain('systemRole');
      await admin.put(`/api/system/user/info/${u.id}`, { ...u, name: 'After', password: undefined });
      expect((await info()).name).toBe('After');
      await admin.put(`/api/system/role/${role.body.data.id}`, {
        ...role.body.data,
        menuIds: [systemDir, menuId('system:user:list'), menuId('system:role:list')],
      });
      expect((await info()).permissions).toEqual(['system:role:list', 'system:user:list']);
      expect(await menuNames()).toContain('systemRole');
    });

    it('applies data scope "self": the list shows only yourself, other ids are 404', async () => {
      const role = await admin.post('/api/system/role', {
        name: 'Self only',
        code: 'self_only',
        dataScope: '5',
        menuIds: [menuId('system:user:list'), menuId('system:user:query'), menuId('system:user:update')],
      });
      expect(role.status).toBe(200);
      const me = (
        await admin.post('/api/system/user/info', { accountId: 'scoped', name: 'Scoped', password: PASSWORD, roleIds: [role.body.data.id] })
      ).body.data;
      const other = (await admin.get('/api/system/user/user?accountId=user')).body.data.list[0];
      const scoped = await signIn(ctx, 'scoped', PASSWORD);
      const list = (await scoped.get('/api/system/user/user')).body.data;
      expect(list.list.map((u: { id: number }) => u.id)).toEqual([me.id]);
      expect((await scoped.get(`/api/system/user/user/${me.id}`)).status).toBe(200);
      expect((await scoped.get(`/api/system/user/user/${other.id}`)).status).toBe(404);
      expect((await scoped.put(`/api/system/user/info/${other.id}`, { name: 'hijack' })).status).toBe(404);
      expect((await scoped.post('/api/system/user/info', { accountId: 'x9', name: 'x' })).status).toBe(403);
    });
  });

  describe('roles', () => {
    it('grants menus and custom departments; disabling the role takes its grants away at the next request', async () => {
      const dept = (await admin.post('/api/system/dept', { name: 'Custom scope' })).body.data;
      const role = await admin.post('/api/system/role', {
        name: 'Post keeper',
        code: 'post_keeper',
        dataScope: '2',
        deptIds: [dept.id],
        menuIds: [menuId('system:post:list'), menuId('system:post:create')],
      });
      expect(role.status).toBe(200);
      const read = (await admin.get(`/api/system/role/${role.body.data.id}`)).body.data;
      expect(read.deptIds).toEqual([dept.id]);
      expect(read.menuIds.sort()).toEqual([menuId('system:post:list'), menuId('system:post:create')].sort());

      await admin.post('/api/system/user/info', { accountId: 'keeper', name: 'Keeper', password: PASSWORD, roleIds: [role.body.data.id] });
      const keeper = await signIn(ctx, 'keeper', PASSWORD);
      expect((await keeper.get('/api/system/post')).status).toBe(200);
      expect((await keeper.del('/api/system/post/1')).status).toBe(403);
      await admin.put(`/api/system/role/${role.body.data.id}/status`, { status: '1' });
      expect((await keeper.get('/api/system/post')).status).toBe(403);

      const dup = await admin.post('/api/system/role', { name: 'Again', code: 'post_keeper' });
      expect([dup.status, fieldsOf(dup.body)]).toEqual([409, ['code']]);
      const tooLong = await admin.post('/api/system/role', { name: 'r'.repeat(21), code: 'long' });
      expect(fieldsOf(tooLong.body)).toEqual(['name']);
      // the rule in the caller's language, with its bound: not a bare "is not valid"
      expect(tooLong.body.data.fields[0].message).toBe('can be at most 20 characters');
      const tooLongZh = await admin.post('/api/system/role', { name: 'r'.repeat(21), code: 'long' }, 'zh-CN');
      expect(tooLongZh.body.data.fields[0].message).toBe('最多 20 个字符');
      const missing = await admin.post('/api/system/role', { code: 'nameless' });
      expect(missing.body.data.fields).toEqual([{ field: 'name', rule: 'invalid_type', message: 'is required' }]);
      // a value of the wrong type is said to be so, not to be missing: in the body, nested, in the query
      const wrong = await admin.post('/api/system/role', { name: ['Listed'], code: 'typed', menuIds: ['1'], orderNum: 'first' });
      expect(wrong.body.data.fields).toEqual([
        { field: 'name', rule: 'invalid_type', message: 'must be text' },
        { field: 'orderNum', rule: 'invalid_type', message: 'must be a number' },
        { field: 'menuIds.0', rule: 'invalid_type', message: 'must be a number' },
      ]);
      const wrongZh = await admin.post('/api/system/role', { name: true, code: 'typed' }, 'zh-CN');
      expect(wrongZh.body.data.fields[0]).toMatchObject({ field: 'name', message: '应为文本' });
      const twice = await admin.get('/api/system/role?pageSize=1&pageSize=2');
      expect([twice.status, twice.body.data.fields[0].message]).toEqual([400, 'must be a number']);
      // a number out of its range says the bound, also when it came as text in the path or the query
      const ranged = await admin.get('/api/system/role?pageSize=0');
      expect(ranged.body.data.fields).toEqual([{ field: 'pageSize', rule: 'too_small', message: 'must be at least 1' }]);
      const zero = await admin.del('/api/system/role/0');
      expect([zero.status, zero.body.data.fields]).toEqual([400, [{ field: 'id', rule: 'too_small', message: 'must be more than 0' }]]);
      // custom departments with none ticked is refused on create and on update, and nothing is written
      const noDept = await admin.post('/api/system/role', { name: 'Nowhere', code: 'nowhere', dataScope: '2' });
      expect([noDept.status, noDept.body.data.fields]).toEqual([
        400,
        [{ field: 'deptIds', rule: 'custom', message: 'custom data scope needs at least one department' }],
      ]);
      expect((await admin.get('/api/system/role?code=nowhere')).body.data.total).toBe(0);
      const unscoped = await admin.put(
        `/api/system/role/${role.body.data.id}`,
        { name: 'Post keeper', code: 'post_keeper', dataScope: '2', deptIds: [] },
        'zh-CN',
      );
      expect([unscoped.status, unscoped.body.data.fields[0].message]).toEqual([400, '自定义数据权限须至少选择一个部门']);
      expect((await admin.get(`/api/system/role/${role.body.data.id}`)).body.data.deptIds).toEqual([dept.id]);
      // an id past what a number holds: 400 naming it, in the caller's language (a typedRoute's numeric id,
      // a resource's id of at most 16 digits), never a 500
      const huge = await admin.put('/api/release/ability/99999999999999999999/publish', {}, 'zh-CN');
      expect([huge.status, huge.body.data.fields]).toEqual([400, [{ field: 'id', rule: 'too_big', message: '不能大于 9007199254740991' }]]);
      const long = await admin.del('/api/release/env/99999999999999999999', 'zh-CN');
      expect([long.status, long.body.data.fields]).toEqual([400, [{ field: 'id', rule: 'invalid_format', message: '格式不正确' }]]);
      const unknownMenu = await admin.post('/api/system/role', { name: 'Ghost', code: 'ghost', menuIds: [999999] });
      expect([unknownMenu.status, fieldsOf(unknownMenu.body)]).toEqual([400, ['menuIds']]);
      const held = await admin.del(`/api/system/role/${role.body.data.id}`);
      expect(held.status).toBe(409);
    });
  });

  describe('menus', () => {
    it('lets only the super admin write the global catalogue; route names are unique', async () => {
      const created = await admin.post('/api/system/menu', { type: 'menu', title: 'Reports', routeName: 'reportsX', path: '/reports-x' });
      expect(created.status).toBe(200);
      const dup = await admin.post('/api/system/menu', { type: 'menu', title: 'Again', routeName: 'reportsX', path: '/again' });
      expect([dup.status, fieldsOf(dup.body)]).toEqual([409, ['routeName']]);
      const tooLong = await admin.post('/api/system/menu', { type: 'menu', title: 't'.repeat(21), routeName: 'r'.repeat(21), path: '/p' });
      expect(fieldsOf(tooLong.body).sort()).toEqual(['routeName', 'title']);
      const button = await admin.post('/api/system/menu', { type: 'button', title: 'Print' });
      expect(fieldsOf(button.body)).toEqual(['permission']);
      // acme administers a tenant, not the platform
      expect((await acme.post('/api/system/menu', { type: 'dir', title: 'Mine' })).status).toBe(403);
      expect((await admin.del(`/api/system/menu/${created.body.data.id}`)).status).toBe(200);
    });
  });
});
