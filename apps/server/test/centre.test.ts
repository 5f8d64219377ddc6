import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayIn } from '../src/crud/business-day';
import { withTenant } from '../src/db/client';
import { erpSales, erpWarehouses, tenants } from '../src/db/schema';
import { arena } from './attack/escalation';
import { buildTestApp, engines } from './helper';
import { type Caller, caller, fieldsOf, signIn } from './system/api';
import { until } from './wait';

type Ctx = Awaited<ReturnType<typeof buildTestApp>>;

const certification = {
  accountType: 'enterprise',
  legalPerson: '王五',
  certificateType: 'idCard',
  certificateNumber: '110101199001011234',
  enterpriseName: 'Acme Trading Co.',
  organisationCode: '91310000MA1K4XXX0A',
};

describe.each(engines)('dashboard, approvals and the user centre on %s', (engine) => {
  let ctx: Ctx;
  let acme: Caller;
  let user: Caller;
  let acmeTenant: number;

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000' });
    acme = await signIn(ctx, 'acme', 'Acme@123456');
    user = await signIn(ctx, 'user', 'User@123456');
    const [row] = await ctx.database.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, 'acme'));
    acmeTenant = (row as { id: number }).id;
  });
  afterAll(async () => {
    await ctx?.close();
  });

  // first in the file: nobody has watched the monitor yet, so nothing has sampled since the app started
  it('samples the server when the monitor is first opened after a quiet period, not at the last watch', async () => {
    const quietFrom = process.uptime();
    await until('a quiet period', async () => process.uptime() > quietFrom + 2.5);
    const before = process.uptime();
    const res = await (await signIn(ctx, 'admin', 'Admin@123456')).get('/api/dashboard/monitor');
    expect(res.status).toBe(200);
    expect(res.body.data.frame.server.uptimeSeconds).toBeGreaterThanOrEqual(Math.floor(before));
  });

  it('sums sales by day and by warehouse exactly as the rows add up', async () => {
    // the days are the tenant's (ADR 034): the demo tenants keep Asia/Shanghai's calendar, whose today
    // may already be tomorrow in UTC
    const tenantDay = (date: Date) => dayIn('Asia/Shanghai', date);
    const to = tenantDay(new Date());
    const from = tenantDay(new Date(Date.now() - 90 * 86_400_000));
    const res = await acme.get(`/api/dashboard/analysis?from=${from}&to=${to}&tz=UTC`);
    expect(res.status).toBe(200);
    // the model: every sold order of the tenant, read straight from the table
    const sold = await withTenant(ctx.database.db, acmeTenant, (tx) =>
      tx
        .select({ amount: erpSales.totalAmount, confirmTime: erpSales.confirmTime, warehouse: erpWarehouses.name })
        .from(erpSales)
        .innerJoin(erpWarehouses, and(eq(erpWarehouses.tenantId, erpSales.tenantId), eq(erpWarehouses.id, erpSales.warehouseId)))
        .where(inArray(erpSales.status, ['confirmed', 'shipped', 'completed'])),
    );
    const inRange = sold.filter((s) => s.confirmTime && tenantDay(s.confirmTime) >= from && tenantDay(s.confirmTime) <= to);
    expect(inRange.length).toBeGreaterThan(0);
    const byDay = new Map<string, number>();
    const byWarehouse = new Map<string, number>();
    for (const s of inRange) {
      byDay.set(tenantDay(s.confirmTime as Date), (byDay.get(tenantDay(s.confirmTime as Date)) ?? 0) + s.amount);
      byWarehouse.set(s.warehouse, (byWarehouse.get(s.warehouse) ?? 0) + s.amount);
    }
    const data = res.body.data;
    // one point per day of the range, zero where nothing sold
    expect(data.sales).toHaveLength(91);
    for (const point of data.sales) expect(point.amount).toBe(byDay.get(point.period) ?? 0);
    expect(Object.fromEntries(data.byWarehouse.map((w: { name: string; amount: number }) => [w.name, w.amount]))).toEqual(
      Object.fromEntries(byWarehouse),
    );
    expect(data.totals.orders).toBe(inRange.length);
    // the category split adds up to the item amounts, the weekly series to the same total
    const weekly = await acme.get(`/api/dashboard/analysis?from=${from}&to=${to}&granularity=week`);
    const sum = (list: { amount: number }[]) => list.reduce((a, b) => a + b.amount, 0);
    expect(sum(weekly.body.data.sales)).toBe(sum(data.sales));
    expect(data.memberGrowth.at(-1).total).toBeGreaterThan(0);
  });

  it('refuses a reversed or too long range, an unknown time zone, and a role without the permission', async () => {
    const reversed = await acme.get('/api/dashboard/analysis?from=2026-02-01&to=2026-01-01');
    expect(reversed.status).toBe(400);
    expect(fieldsOf(reversed.body)).toContain('to');
    expect((await acme.get('/api/dashboard/analysis?from=2024-01-01&to=2026-01-01')).status).toBe(400);
    expect((await acme.get("/api/dashboard/analysis?from=2026-01-01&to=2026-01-02&tz=Mars/Olympus'")).status).toBe(400);
    expect((await user.get('/api/dashboard/analysis?from=2026-01-01&to=2026-01-02')).status).toBe(403);
    expect((await user.get('/api/dashboard/monitor')).status).toBe(403);
    expect((await user.get('/api/profile/approval')).status).toBe(403);
  });

  it('exports one chart as a spreadsheet', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/dashboard/analysis/export?from=2026-01-01&to=2026-12-31&dataset=warehouse`,
      headers: { authorization: `Bearer ${acme.token}`, 'accept-language': 'zh-CN' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('gives the monitor a snapshot of the tenant, and of the server (the platform’s figures) to a super admin only', async () => {
    const res = await acme.get('/api/dashboard/monitor');
    expect(res.status).toBe(200);
    expect(res.body.data.ordersPerMinute).toHaveLength(60);
    expect(res.body.data.frame.tenant.onlineSessions).toBeGreaterThanOrEqual(1);
    // a tenant administrator: its own tenant, not the host's CPU, memory, request rate or broker
    expect(res.body.data.frame.server).toBeNull();
    expect(res.body.data.frame.brokerClients).toBeNull();
    const platform = await (await signIn(ctx, 'admin', 'Admin@123456')).get('/api/dashboard/monitor');
    expect(platform.body.data.frame.server.rssMb).toBeGreaterThan(0);
    expect(platform.body.data.frame.tenant.onlineSessions).toBeGreaterThanOrEqual(1);
  });

  it('runs a parameter approval from commit to finish once, and names the broken field', async () => {
    const bad = await acme.post('/api/profile/approval', { title: '', parameter: '1bad', newValue: '' });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual(expect.arrayContaining(['title', 'parameter', 'newValue']));
    const created = await acme.post('/api/profile/approval', {
      title: 'Raise limit',
      parameter: 'sale.limit',
      oldValue: '5',
      newValue: '9',
    });
    expect(created.status).toBe(200);
    expect(created.body.data.stage).toBe('approval');
    expect(created.body.data.records.map((r: { stage: string; result: string }) => `${r.stage}:${r.result}`)).toEqual([
      'commit:pass',
      'approval:auditing',
    ]);
    const id = created.body.data.id as number;
    const second = await acme.post('/api/profile/approval', { title: 'And another', parameter: 'sale.limit', newValue: '1' });
    expect(second.status).toBe(200);
    // another tenant's approval is not there
    const admin = await signIn(ctx, 'admin', 'Admin@123456');
    expect((await admin.get(`/api/profile/approval/${id}`)).status).toBe(404);
    expect((await admin.put(`/api/profile/approval/${id}/decision`, { result: 'pass' })).status).toBe(404);
    // the person who committed the change does not decide it: refused, and it still waits
    const own = await acme.put(`/api/profile/approval/${id}/decision`, { result: 'pass', remark: 'mine' });
    expect(own.status).toBe(409);
    expect(own.body.data.fields).toEqual([
      expect.objectContaining({ field: 'createBy', message: 'You cannot decide a change you committed: someone else decides it' }),
    ]);
    expect((await acme.get(`/api/profile/approval/${id}`)).body.data.stage).toBe('approval');
    // someone else in the tenant does: the super admin, once in it
    const tenants = (await admin.get('/api/system/user/tenant')).body.data.list as { id: number; code: string }[];
    const enter = async (code: string, token: string) => {
      const tenantId = tenants.find((t) => t.code === code)?.id;
      const switched = await ctx.app.inject({
        method: 'POST',
        url: '/api/system/user/switchTenant',
        headers: { authorization: `Bearer ${token}` },
        payload: { tenantId },
      });
      return caller(ctx, switched.json().data.token as string);
    };
    const reviewer = await enter('acme', admin.token);
    // the change reached the reviewer's message box as a to-do linking to it; the committer got none
    const linked = async (caller: Caller) =>
      ((await caller.get('/api/system/notification?pageSize=50')).body.data.list as { type: string; link: string; title: string }[]).find(
        (n) => n.link === `/profile/basic?id=${id}`,
      );
    let note = await linked(reviewer);
    for (let i = 0; !note && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 100));
      note = await linked(reviewer);
    }
    expect(note).toMatchObject({ type: 'todo', title: `${created.body.data.number} · Raise limit` });
    expect(await linked(acme)).toBeUndefined();
    // both wait for someone else: they are the reviewer's to-dos, not acme's
    const waiting = async (caller: Caller) => (await caller.get('/api/user/workbench')).body.data.todos.approvals as number;
    expect(await waiting(reviewer)).toBe((await waiting(acme)) + 2);
    const decided = await reviewer.put(`/api/profile/approval/${id}/decision`, { result: 'pass', remark: 'ok' });
    await enter('hq', reviewer.token);
    expect(decided.status).toBe(200);
    expect(decided.body.data.stage).toBe('finish');
    expect(decided.body.data.records.map((r: { stage: string; result: string }) => `${r.stage}:${r.result}`)).toEqual([
      'commit:pass',
      'approval:pass',
      'finish:pass',
    ]);
    expect(decided.body.data.records[1]).toMatchObject({ operator: 'admin', remark: 'ok' });
    const again = await acme.put(`/api/profile/approval/${id}/decision`, { result: 'rejected' });
    expect(again.status).toBe(409);
    expect(fieldsOf(again.body)).toEqual(['stage']);
    const list = await acme.get('/api/profile/approval?stage=finish');
    expect(list.body.data.list.some((a: { id: number }) => a.id === id)).toBe(true);
  });

  it('keeps certifications to their owner: one under review at a time, withdrawn once, nobody else’s', async () => {
    const bad = await user.post('/api/user/certification', { ...certification, organisationCode: 'lower-case', certificateNumber: '12' });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual(expect.arrayContaining(['organisationCode', 'certificateNumber']));
    const created = await user.post('/api/user/certification', certification);
    expect(created.status).toBe(200);
    expect(created.body.data.status).toBe('auditing');
    expect((await user.post('/api/user/certification', certification)).status).toBe(409);
    const id = created.body.data.id as number;
    // someone else in the same tenant cannot withdraw it
    const admin = await signIn(ctx, 'admin', 'Admin@123456');
    expect((await admin.put(`/api/user/certification/${id}/withdraw`, {})).status).toBe(404);
    expect((await admin.get('/api/user/certification')).body.data.some((c: { id: number }) => c.id === id)).toBe(false);
    const withdrawn = await user.put(`/api/user/certification/${id}/withdraw`, {});
    expect(withdrawn.body.data.status).toBe('withdrawn');
    expect((await user.put(`/api/user/certification/${id}/withdraw`, {})).status).toBe(409);
  });

  it('lets only a platform administrator review a certification, in the tenant it belongs to, and tells the applicant', async () => {
    const created = await user.post('/api/user/certification', { ...certification, enterpriseName: 'Review Trading Co.' });
    expect(created.status).toBe(200);
    const id = created.body.data.id as number;
    const reject = { result: 'rejected', reason: 'The certificate number does not match the licence' };
    // a tenant administrator (every permission of its tenant) and an ordinary user cannot review, nor list
    for (const who of [acme, user]) {
      expect((await who.get('/api/system/certification')).status).toBe(403);
      expect((await who.put(`/api/system/certification/${id}/review`, reject)).status).toBe(403);
    }
    const platform = await signIn(ctx, 'admin', 'Admin@123456');
    const listed = await platform.get('/api/system/certification?status=auditing');
    expect(listed.status).toBe(200);
    const row = listed.body.data.list.find((c: { id: number }) => c.id === id);
    expect(row).toMatchObject({ account: 'user', enterpriseName: 'Review Trading Co.', status: 'auditing' });
    // from another tenant the request is not there: 404, and not listed
    const tenantList = (await platform.get('/api/system/user/tenant?code=acme')).body.data.list as { id: number; code: string }[];
    const elsewhere = await signIn(ctx, 'admin', 'Admin@123456');
    const switched = await ctx.app.inject({
      method: 'POST',
      url: '/api/system/user/switchTenant',
      headers: { authorization: `Bearer ${elsewhere.token}` },
      payload: { tenantId: tenantList.find((t) => t.code === 'acme')?.id },
    });
    const inAcme = caller(ctx, switched.json().data.token);
    expect((await inAcme.put(`/api/system/certification/${id}/review`, reject)).status).toBe(404);
    expect((await inAcme.get('/api/system/certification')).body.data.list.some((c: { id: number }) => c.id === id)).toBe(false);
    // back, so that the account's next sign-in lands where the other tests expect it
    const hq = (await platform.get('/api/system/user/tenant?code=hq')).body.data.list as { id: number; code: string }[];
    await inAcme.post('/api/system/user/switchTenant', { tenantId: hq.find((t) => t.code === 'hq')?.id });
    // a rejection without its reason names the field and changes nothing
    const bad = await platform.put(`/api/system/certification/${id}/review`, { result: 'rejected', reason: ' ' });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual(['reason']);
    expect((await user.get('/api/user/certification')).body.data.find((c: { id: number }) => c.id === id).status).toBe('auditing');

    const rejected = await platform.put(`/api/system/certification/${id}/review`, reject);
    expect(rejected.status).toBe(200);
    expect(rejected.body.data).toMatchObject({ status: 'rejected', reviewBy: 'admin', reviewReason: reject.reason });
    expect((await platform.put(`/api/system/certification/${id}/review`, { result: 'passed' })).status).toBe(409);
    expect((await user.put(`/api/user/certification/${id}/withdraw`, {})).status).toBe(409);
    const own = (await user.get('/api/user/certification')).body.data.find((c: { id: number }) => c.id === id);
    expect(own).toMatchObject({ status: 'rejected', reviewReason: reject.reason });
    const told = (title: string) =>
      until(`the applicant told: ${title}`, async () => {
        const box = (await user.get('/api/system/notification?type=message&pageSize=50')).body.data.list as {
          title: string;
          content: string;
          link: string;
        }[];
        return box.find((n) => n.title.includes(title));
      });
    expect(await told('Certification rejected')).toMatchObject({
      content: expect.stringContaining(reject.reason),
      link: '/user/setting?tab=certification',
    });

    // a new request, approved
    const again = await user.post('/api/user/certification', certification);
    const passed = await platform.put(`/api/system/certification/${again.body.data.id}/review`, { result: 'passed' });
    expect(passed.body.data).toMatchObject({ status: 'passed', reviewBy: 'admin', reviewReason: '' });
    expect((await told('Certification approved')).content).toContain(certification.enterpriseName);
  });

  it('shows the workplace sections a role may read, and keeps pins to valid route names', async () => {
    const full = await acme.get('/api/user/workplace?tz=Asia/Shanghai');
    expect(full.status).toBe(200);
    expect(full.body.data.sales.trend).toHaveLength(30);
    expect(full.body.data.members.total).toBeGreaterThan(0);
    // someone who may list members but not sales: the sales section is absent, not zero
    const { caller: clerk } = await (await arena(ctx)).limited(['erp:member:list']);
    const limited = await clerk.get('/api/user/workplace');
    expect(limited.status).toBe(200);
    expect(limited.body.data.sales).toBeNull();
    expect(limited.body.data.lowStock).toBeNull();
    expect(limited.body.data.members.total).toBeGreaterThan(0);

    expect((await user.put('/api/user/pins', { pins: ['SearchTable', 'Card'] })).status).toBe(200);
    expect((await user.get('/api/user/workbench')).body.data.pins).toEqual(['SearchTable', 'Card']);
    expect((await user.put('/api/user/pins', { pins: ['a/b'] })).status).toBe(400);
    expect((await user.put('/api/user/pins', { pins: ['A', 'A'] })).status).toBe(400);
    expect((await user.put('/api/user/pins', { pins: Array.from({ length: 13 }, (_, i) => `P${i}`) })).status).toBe(400);
    // pins are per account: acme's are its own
    expect((await acme.get('/api/user/workbench')).body.data.pins).toEqual([]);
    const activity = await user.get('/api/user/activity');
    expect(activity.body.data.logins.length).toBeGreaterThan(0);
  });

  it('lists and ends only the account’s own sessions, never the current one through this route', async () => {
    const other = await signIn(ctx, 'user', 'User@123456');
    const third = await signIn(ctx, 'user', 'User@123456');
    const mine = await other.get('/api/user/sessions');
    expect(mine.status).toBe(200);
    const list = mine.body.data as { id: number; current: boolean }[];
    const current = list.find((s) => s.current);
    expect(current).toBeDefined();
    // the session of `third` as `other` sees it: a live one that is not current
    const thirdId = (await third.get('/api/user/sessions')).body.data.find((s: { current: boolean }) => s.current).id as number;
    expect(list.some((s) => s.id === thirdId)).toBe(true);
    // acme cannot end the user's session, nor see it
    expect((await acme.del(`/api/user/sessions/${thirdId}`)).status).toBe(404);
    expect((await acme.get('/api/user/sessions')).body.data.some((s: { id: number }) => s.id === thirdId)).toBe(false);
    expect((await other.del(`/api/user/sessions/${current?.id}`)).status).toBe(409);
    expect((await other.del(`/api/user/sessions/${thirdId}`)).status).toBe(200);
    expect((await third.get('/api/user/info')).status).toBe(401);
    // everywhere else: the signed-in `user` of the suite ends too, `other` stays
    const ended = await other.del('/api/user/sessions');
    expect(ended.body.data.ended).toBeGreaterThanOrEqual(1);
    expect((await other.get('/api/user/info')).status).toBe(200);
    user = await signIn(ctx, 'user', 'User@123456');
  });
});
