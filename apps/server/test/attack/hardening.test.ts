import { desc, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { withTenant } from '../../src/db/client';
import { loginLogs, operLogs } from '../../src/db/schema';
import { TAKEN_PROBES } from '../../src/modules/system/user/user.routes';
import { type buildTestApp, engines, suiteApp } from '../helper';
import { type Caller, fieldsOf, signIn } from '../system/api';

const PASSWORD = 'Kx9!mountain-ledger';

describe.each(engines)('disabled means disabled, and bad input never reaches the database on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: Caller;

  suiteApp(engine, async (built) => {
    ctx = built;
    admin = await signIn(ctx, 'admin', 'Admin@123456');
  });

  const login = (account: string, password = PASSWORD) =>
    ctx.app.inject({ method: 'POST', url: '/api/system/user/login', payload: { account, password } });

  it('refuses the sign-in of a user disabled a moment ago, though their access was cached', async () => {
    const u = (await admin.post('/api/system/user/info', { accountId: 'soon.off', name: 'Soon off', password: PASSWORD })).body.data;
    const session = await signIn(ctx, 'soon.off', PASSWORD);
    expect((await session.post('/api/system/user/userInfoLogin', {})).status).toBe(200);
    expect((await admin.put(`/api/system/user/infoStatus/${u.id}`, { status: '1' })).status).toBe(200);
    expect((await session.post('/api/system/user/userInfoLogin', {})).body.code).toBe(1302);
    const again = await login('soon.off');
    expect([again.statusCode, again.json().code]).toEqual([403, 1004]);
    // deleted: the same at once
    await admin.put(`/api/system/user/infoStatus/${u.id}`, { status: '0' });
    await signIn(ctx, 'soon.off', PASSWORD);
    await admin.del(`/api/system/user/info/${u.id}`);
    expect((await login('soon.off')).statusCode).toBe(401);
  });

  it('shows the demo user the ERP menu and the two external links, and no page whose list it may not read', async () => {
    const user = await signIn(ctx, 'user', 'User@123456');
    const names: string[] = [];
    const walk = (routes: { name: string; children?: unknown[] }[]) => {
      for (const r of routes) {
        names.push(r.name);
        walk((r.children ?? []) as typeof routes);
      }
    };
    walk((await user.post('/api/system/user/menu', {})).body.data);
    expect(names).toEqual(expect.arrayContaining(['erp', 'erpProducts', 'arcoWebsite', 'faq']));
    // the release catalogue and the mall's goods would only open on "no permission" (ADR 037)
    expect(names).not.toContain('releaseProject');
    expect(names).not.toContain('mallGoods');
    // what they may do there is still the server's decision
    expect((await user.post('/api/system/post', { code: 'p', name: 'p' })).status).toBe(403);
  });

  it('keeps login_logs under forced row-level security: each tenant sees its own rows only', async () => {
    const acmeCaller = await signIn(ctx, 'acme', 'Acme@123456');
    await signIn(ctx, 'admin', 'Admin@123456');
    await login('acme', 'Wrong#password1');
    const tenantOf = async (code: string) =>
      Number((await ctx.database.query<{ id: string }>(`select id from tenants where code = $1`, [code]))[0]?.id);
    const [hq, acme] = [await tenantOf('hq'), await tenantOf('acme')];
    const counted = (tenantId: number | null) => {
      const work = async (tx: Parameters<Parameters<typeof withTenant>[2]>[0]) => {
        const result = (await tx.execute(
          sql`select count(*)::int as n, count(*) filter (where tenant_ref = ${acme})::int as acme, count(*) filter (where tenant_ref = ${hq})::int as hq,
                     count(*) filter (where tenant_ref is null)::int as none from login_logs`,
        )) as unknown as { rows: { n: number; acme: number; hq: number; none: number }[] };
        return result.rows[0];
      };
      return tenantId ? withTenant(ctx.database.db, tenantId, work) : ctx.database.db.transaction(work);
    };
    // as atrium_app with a tenant set: that tenant's rows and nothing else
    const asAcme = await counted(acme);
    expect(asAcme?.acme).toBeGreaterThan(0);
    expect(asAcme).toMatchObject({ n: asAcme?.acme, hq: 0, none: 0 });
    const asHq = await counted(hq);
    expect(asHq?.hq).toBeGreaterThan(0);
    expect(asHq).toMatchObject({ n: asHq?.hq, acme: 0, none: 0 });
    // with none set (the sign-in service): only the attempts that reached no tenant
    const asNone = await counted(null);
    expect(asNone?.none).toBeGreaterThan(0);
    expect(asNone).toMatchObject({ n: asNone?.none, acme: 0, hq: 0 });
    // nor may a tenant write a row of another
    const refused = await withTenant(ctx.database.db, acme, (tx) =>
      tx.insert(loginLogs).values({ account: 'forged', result: 'success', tenantRef: hq }),
    ).then(
      () => null,
      (error: Error) => error,
    );
    expect(String(refused?.cause ?? refused)).toMatch(/row-level security/);
    // the login log page and the profile's previous sign-in still read them
    const page = await acmeCaller.get('/api/system/loginlog?page=1&size=50');
    expect(page.status).toBe(200);
    expect(page.body.data.list.length).toBeGreaterThan(0);
    await signIn(ctx, 'acme', 'Acme@123456');
    expect((await acmeCaller.get('/api/user/info')).body.data.lastLoginTime).toEqual(expect.any(String));
  });

  it('rate-limits the 409s that tell a caller which account numbers exist in any tenant', async () => {
    const probe = await signIn(ctx, 'acme', 'Acme@123456');
    const statuses: number[] = [];
    for (let i = 0; i <= TAKEN_PROBES.limit; i++)
      statuses.push((await probe.post('/api/system/user/info', { accountId: 'admin', name: 'Probe' })).status);
    expect(statuses.slice(0, TAKEN_PROBES.limit).every((s) => s === 409)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('answers a NUL character anywhere with 400 naming the field, and logs the refused write', async () => {
    const filter = await admin.get('/api/system/user/user?accountId=a%00b');
    expect([filter.status, fieldsOf(filter.body)]).toEqual([400, ['accountId']]);
    const name = await admin.get('/api/system/user/user?name=%00');
    expect([name.status, fieldsOf(name.body)]).toEqual([400, ['name']]);
    for (const [url, body, field] of [
      ['/api/system/post', { code: 'nul', name: 'a\u0000b' }, 'name'],
      ['/api/system/dept', { name: 'a\u0000b' }, 'name'],
      ['/api/system/user/info', { accountId: 'nul.user', name: 'N', remark: 'x\u0000' }, 'remark'],
      ['/api/system/notice', { title: 'T', content: 'c\u0000' }, 'content'],
    ] as const) {
      const answer = await admin.post(url, body);
      expect([url, answer.status, fieldsOf(answer.body)]).toEqual([url, 400, [field]]);
    }
    const [last] = await withTenant(ctx.database.db, 1, (tx) =>
      tx.select({ url: operLogs.url, result: operLogs.result }).from(operLogs).orderBy(desc(operLogs.id)).limit(1),
    );
    expect(last).toMatchObject({ url: '/api/system/notice' });
  });

  it('logs a refused write whose path id holds a NUL (the entry is not lost)', async () => {
    const lastEntry = async () =>
      (
        await withTenant(ctx.database.db, 1, (tx) =>
          tx
            .select({ url: operLogs.url, target: operLogs.target, result: operLogs.result })
            .from(operLogs)
            .orderBy(desc(operLogs.id))
            .limit(1),
        )
      )[0];
    for (const id of ['%00', 'a%00b']) {
      const answer = await admin.put(`/api/system/post/${id}`, { code: 'x', name: 'x' });
      expect([id, answer.status]).toEqual([id, 400]);
      expect(await lastEntry()).toMatchObject({ url: `/api/system/post/${id}`, result: 'failure' });
    }
  });

  it('refuses a printer pointed at another tenant’s warehouse (400 naming warehouseId), on create and update', async () => {
    const acme = await signIn(ctx, 'acme', 'Acme@123456');
    const theirs = (await admin.post('/api/erp/warehouse', { name: 'Theirs', code: `T${Date.now().toString(36)}` })).body.data.id;
    const mine = (await acme.post('/api/erp/warehouse', { name: 'Mine', code: `M${Date.now().toString(36)}` })).body.data.id;
    const body = { name: 'Till', vendor: 'simulator', deviceKey: 'secret-123', paperWidth: 58, triggers: [] };
    const refused = await acme.post('/api/mall/printer', { ...body, sn: `SN${Date.now()}a`, warehouseId: theirs });
    expect([refused.status, fieldsOf(refused.body)]).toEqual([400, ['warehouseId']]);
    const made = await acme.post('/api/mall/printer', { ...body, sn: `SN${Date.now()}b`, warehouseId: mine });
    expect(made.status).toBe(200);
    const moved = await acme.put(`/api/mall/printer/${made.body.data.id}`, {
      ...made.body.data,
      deviceKey: undefined,
      warehouseId: theirs,
    });
    expect([moved.status, fieldsOf(moved.body)]).toEqual([400, ['warehouseId']]);
    expect((await acme.get(`/api/mall/printer/${made.body.data.id}`)).body.data.warehouseId).toBe(mine);
  });

  it('bounds date filters to the years 1900–9999', async () => {
    for (const value of ['+275760-09-13', '1899-12-31', '10000-01-01']) {
      const answer = await admin.get(`/api/system/user/user?createTimeFrom=${encodeURIComponent(value)}`);
      expect([value, answer.status, fieldsOf(answer.body)]).toEqual([value, 400, ['createTimeFrom']]);
    }
    expect((await admin.get('/api/system/user/user?createTimeFrom=2020-01-01&createTimeTo=2999-12-31')).status).toBe(200);
  });

  it('accepts digits only as path ids', async () => {
    for (const id of ['0x10', '1e3', '+1', '1.0', '%201']) {
      expect([id, (await admin.get(`/api/system/post/${id}`)).status]).toEqual([id, 400]);
    }
  });

  it('answers a wrong method on an existing path with 405 and Allow', async () => {
    const answer = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/system/post/1',
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect([answer.statusCode, answer.json().code]).toEqual([405, 405]);
    expect(answer.headers.allow?.toString().split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'PUT']);
    const post = await ctx.app.inject({ method: 'DELETE', url: '/api/system/user/login' });
    expect([post.statusCode, post.headers.allow]).toEqual([405, 'POST']);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/no/such/path' })).statusCode).toBe(404);
  });

  it('takes the body-less calls with Content-Type: application/json and an empty body', async () => {
    const session = await signIn(ctx, 'admin', 'Admin@123456');
    for (const url of ['/api/system/user/userInfoLogin', '/api/system/user/menu', '/api/system/user/logout']) {
      const answer = await ctx.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
        payload: '',
      });
      expect([url, answer.statusCode]).toEqual([url, 200]);
    }
    // a body that is there but broken is still 40002
    const broken = await ctx.app.inject({
      method: 'POST',
      url: '/api/system/user/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"account":',
    });
    expect(broken.json().code).toBe(40002);
  });
});
