import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { menus } from '../../src/db/schema';
import { IDLE_MS } from '../../src/modules/auth/session.service';
import { seedMenus } from '../../src/seed/identity';
import { buildTestApp, engines } from '../helper';
import { type Caller, fieldsOf, signIn } from './api';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PASSWORD = 'Kx9!mountain-ledger';

async function sheet(rows: (string | number | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet('users');
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe.each(engines)('tenants, audit, sessions and Excel on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: Caller;
  let acme: Caller;

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000' });
    admin = await signIn(ctx, 'admin', 'Admin@123456');
    acme = await signIn(ctx, 'acme', 'Acme@123456');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('creates a tenant with its admin role and first administrator, and disabling it ends its sessions (1302)', async () => {
    const created = await admin.post('/api/system/tenant', {
      code: 'globex',
      name: 'Globex',
      adminAccountId: 'globex.admin',
      adminPassword: PASSWORD,
    });
    expect(created.status).toBe(200);
    const dup = await admin.post('/api/system/tenant', {
      code: 'globex',
      name: 'Again',
      adminAccountId: 'someone',
      adminPassword: PASSWORD,
    });
    expect([dup.status, fieldsOf(dup.body)]).toEqual([409, ['code']]);
    const first = await signIn(ctx, 'globex.admin', PASSWORD);
    const users = await first.get('/api/system/user/user');
    expect(users.status).toBe(200);
    expect(users.body.data.list.map((u: { accountId: string }) => u.accountId)).toEqual(['globex.admin']);
    expect((await first.get('/api/system/role')).body.data.list[0].code).toBe('admin');

    expect((await admin.put(`/api/system/tenant/${created.body.data.id}/status`, { status: '1' })).status).toBe(200);
    const ended = (await first.get('/api/system/user/user')).body;
    expect(ended.code).toBe(1302);
    // the reason travels along, so the sign-in page can say why
    expect(ended.data).toEqual({ reason: 'tenant_disabled' });
  });

  it('seats every permission button of the menu catalogue under a page, also after a reseed', async () => {
    type Node = { id: number; type: string; permission: string | null; path: string | null; children?: Node[] };
    const roots = (await admin.get('/api/system/menu/tree')).body.data as Node[];
    expect(roots.filter((n) => n.type === 'button').map((n) => n.permission)).toEqual([]);
    // a button lives under the page of its entity
    const parentOf = new Map<string, Node>();
    const walk = (nodes: Node[], parent?: Node) => {
      for (const n of nodes) {
        if (n.type === 'button' && n.permission && parent) parentOf.set(n.permission, parent);
        walk(n.children ?? [], n);
      }
    };
    walk(roots);
    expect(parentOf.get('release:userProject:create')?.path).toBe('/release/user-project');
    expect(parentOf.get('mall:goods:update')?.path).toBe('/mall/goods');
    expect(parentOf.get('mall:printJob:cancel')?.path).toBe('/erp/printer');
    // a catalogue whose buttons were once left at the root is mended by the next start
    await ctx.database.db.update(menus).set({ parentId: null }).where(eq(menus.permission, 'release:ability:publish'));
    await seedMenus(ctx.database);
    const again = (await admin.get('/api/system/menu/tree')).body.data as Node[];
    expect(again.filter((n) => n.type === 'button')).toEqual([]);
  });

  it('keeps tenants to the super admin', async () => {
    expect((await acme.get('/api/system/tenant')).status).toBe(403);
    expect(
      (await acme.post('/api/system/tenant', { code: 'evil', name: 'x', adminAccountId: 'evil', adminPassword: PASSWORD })).status,
    ).toBe(403);
    const badCode = await admin.post('/api/system/tenant', {
      code: "x'; drop table tenants; --",
      name: 'x',
      adminAccountId: 'a1',
      adminPassword: PASSWORD,
    });
    expect([badCode.status, fieldsOf(badCode.body)]).toEqual([400, ['code']]);
  });

  it('lists the operation log of the tenant only, with search', async () => {
    await acme.post('/api/system/post', { code: 'acme-audit', name: 'Audit me' });
    const mine = await acme.get('/api/system/operlog?module=system:post&action=create');
    expect(mine.status).toBe(200);
    expect(mine.body.data.list[0]).toMatchObject({ operator: 'acme', module: 'system:post', action: 'create', result: 'success' });
    // the object is kept by name as well as by id, also for a status change and after a delete
    const post = (await acme.get('/api/system/post?code=acme-audit')).body.data.list[0];
    await acme.put(`/api/system/post/${post.id}/status`, { status: '1' });
    await acme.del(`/api/system/post/${post.id}`);
    const entries = (await acme.get('/api/system/operlog?module=system:post')).body.data.list.slice(0, 3);
    expect(entries.map((e: { action: string; target: string; targetName: string }) => [e.action, e.targetName])).toEqual([
      ['delete', 'acme-audit Audit me'],
      ['status', 'acme-audit Audit me'],
      ['create', 'acme-audit Audit me'],
    ]);
    // every filter at once, and each entry as its detail shows it
    const since = encodeURIComponent(new Date(Date.now() - 60_000).toISOString());
    const until = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
    const all = await acme.get(
      `/api/system/operlog?module=system:post&operator=cm&action=stat&result=success&createTimeFrom=${since}&createTimeTo=${until}`,
    );
    expect(all.body.data.list.map((e: { action: string }) => e.action)).toEqual(['status']);
    expect(all.body.data.list[0]).toEqual((await acme.get(`/api/system/operlog/${all.body.data.list[0].id}`)).body.data);
    expect((await acme.get(`/api/system/operlog?module=system:post&createTimeTo=${since}`)).body.data.list).toEqual([]);
    expect((await acme.get('/api/system/operlog?module=system:post&result=failure')).body.data.total).toBe(0);
    expect((await acme.get(`/api/system/operlog?operator=${encodeURIComponent('%_')}`)).body.data.total).toBe(0);
    const theirs = await admin.get('/api/system/operlog?operator=acme');
    expect(theirs.body.data.total).toBe(0);
    const bad = await admin.get('/api/system/operlog?sort=operator:asc');
    expect([bad.status, fieldsOf(bad.body)]).toEqual([400, ['sort']]);
  });

  it('lists sign-ins and online sessions; force-logout ends one (1302)', async () => {
    const other = await signIn(ctx, 'user', 'User@123456');
    const logins = await admin.get('/api/system/loginlog?account=user');
    expect(logins.body.data.total).toBeGreaterThan(0);
    // the totals are kept between pages, and each entry written into the tenant drops them
    const all = (await admin.get('/api/system/loginlog')).body.data.total;
    await signIn(ctx, 'user', 'User@123456');
    expect((await admin.get('/api/system/loginlog?account=user')).body.data.total).toBe(logins.body.data.total + 1);
    expect((await admin.get('/api/system/loginlog')).body.data.total).toBe(all + 1);
    const leaving = await signIn(ctx, 'user', 'User@123456');
    expect((await leaving.post('/api/system/user/logout', {})).status).toBe(200);
    expect((await admin.get('/api/system/loginlog')).body.data.total).toBe(all + 3);
    const online = (await admin.get('/api/system/session?accountId=user')).body.data.list;
    expect(online.length).toBeGreaterThan(0);
    for (const s of online) expect((await admin.del(`/api/system/session/${s.id}`)).status).toBe(200);
    const forced = (await other.post('/api/system/user/userInfoLogin', {})).body;
    expect(forced.code).toBe(1302);
    expect(forced.data).toEqual({ reason: 'forced' });
    // acme cannot end a session of another tenant
    const mine = (await admin.get('/api/system/session?accountId=admin')).body.data.list[0];
    expect((await acme.del(`/api/system/session/${mine.id}`)).status).toBe(404);
  });

  it('counts a session as online until it idles out, newest sight first, the total the rows', async () => {
    const user = await signIn(ctx, 'user', 'User@123456');
    const ours = await admin.get('/api/system/session?pageSize=100');
    const list = ours.body.data.list as { id: number; accountId: string; lastSeenAt: string; current: boolean }[];
    expect(ours.body.data.total).toBe(list.length);
    expect(list.map((s) => s.lastSeenAt)).toEqual(
      list
        .map((s) => s.lastSeenAt)
        .sort()
        .reverse(),
    );
    expect(list.filter((s) => s.current).map((s) => s.accountId)).toEqual(['admin']);
    const theirs = (await admin.get('/api/system/session?accountId=user')).body.data;
    expect(theirs.total).toBe(theirs.list.length);
    expect(theirs.total).toBeGreaterThan(0);
    const frame = async (caller: Caller) => (await caller.get('/api/dashboard/monitor')).body.data.frame.tenant.onlineSessions;
    expect(await frame(admin)).toBe(ours.body.data.total);

    // two hours unseen: every session so far is refused at its next request, so none is online
    ctx.clock.advance(IDLE_MS + 1000);
    expect((await user.post('/api/system/user/userInfoLogin', {})).body.code).toBe(11000);
    admin = await signIn(ctx, 'admin', 'Admin@123456');
    acme = await signIn(ctx, 'acme', 'Acme@123456');
    const after = (await admin.get('/api/system/session?pageSize=100')).body.data;
    expect(after.list.map((s: { accountId: string; current: boolean }) => [s.accountId, s.current])).toEqual([['admin', true]]);
    expect(after.total).toBe(1);
    expect((await admin.get('/api/system/session?accountId=user')).body.data).toMatchObject({ list: [], total: 0 });
    expect(await frame(admin)).toBe(1);
  });

  it('exports users to Excel and imports a sheet with a per-row error report', async () => {
    const exported = await ctx.app.inject({
      method: 'GET',
      url: '/api/system/user/export?accountId=acme',
      headers: { authorization: `Bearer ${acme.token}`, 'accept-language': 'en-US' },
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain(XLSX);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const ws = workbook.worksheets[0]!;
    expect(ws.getRow(1).getCell(1).value).toBe('User number');
    expect(ws.rowCount).toBeGreaterThan(10);

    const file = await sheet([
      ['User number', 'Name', 'Phone', 'Email', 'Department'],
      ['imp.one', 'Import One', '13511110001', 'imp.one@example.com', null],
      ['imp.two', 'n'.repeat(25), null, null, null],
      ['imp.three', 'Three', null, 'not-an-email', null],
      ['imp.four', 'Four', '13511110001', null, null],
      ['imp.five', 'Five', null, null, 'No such dept'],
    ]);
    const imported = await ctx.app.inject({
      method: 'POST',
      url: '/api/system/user/import',
      headers: { authorization: `Bearer ${acme.token}`, 'content-type': XLSX, 'accept-language': 'en-US' },
      payload: file,
    });
    expect(imported.statusCode).toBe(200);
    const result = imported.json().data;
    expect(result.created).toBe(1);
    expect(result.errors.map((e: { row: number; field: string }) => [e.row, e.field])).toEqual([
      [3, 'Name'],
      [4, 'Email'],
      [5, 'Phone'],
      [6, 'Department'],
    ]);
    // each message reads in the requester's language, not as the validator's English
    expect(result.errors.map((e: { message: string }) => e.message)).toEqual([
      'can be at most 20 characters',
      'is not valid',
      'is already in use',
      'the chosen record does not exist or was deleted',
    ]);
    expect((await acme.get('/api/system/user/user?accountId=imp.one')).body.data.total).toBe(1);
    const garbage = await ctx.app.inject({
      method: 'POST',
      url: '/api/system/user/import',
      headers: { authorization: `Bearer ${acme.token}`, 'content-type': XLSX },
      payload: Buffer.from('not a workbook'),
    });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().data.fields).toEqual([{ field: 'file', rule: 'format', message: '不是 .xlsx 工作簿' }]);
  });
});
