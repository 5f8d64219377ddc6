import { groupFormDefaults } from '@atrium/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, engines } from './helper';
import { type Caller, fieldsOf, signIn } from './system/api';

type Ctx = Awaited<ReturnType<typeof buildTestApp>>;

const step = {
  activityName: '春季上新2026',
  channelType: 'web',
  promotionTime: '2026-12-01T08:00:00.000Z',
  promotionLink: 'https://shop.example.com/spring',
  advertisingSource: 'newsletter',
  advertisingMedia: 'email',
  keyword: ['tea', '春茶'],
  pushNotify: true,
  advertisingContent: 'Fresh spring tea from the hills, 新茶上市',
};

const group = {
  ...groupFormDefaults,
  acquisitionFrameRate: 24,
  minEncodingRate: 300,
  maxEncodingRate: 1500,
  defaultEncodingRate: 800,
  description: 'studio',
};

describe.each(engines)('template forms on %s', (engine) => {
  let ctx: Ctx;
  let acme: Caller;
  let hq: Caller;
  let user: Caller;

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000' });
    acme = await signIn(ctx, 'acme', 'Acme@123456');
    hq = await signIn(ctx, 'admin', 'Admin@123456');
    user = await signIn(ctx, 'user', 'User@123456');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('saves a step-form submission and reads it back; another tenant gets a 404', async () => {
    const saved = await acme.post('/api/form/step', step);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ ...step, id: expect.any(Number), createBy: 'acme' });
    const id = saved.body.data.id as number;
    expect((await acme.get(`/api/form/step/${id}`)).body.data.activityName).toBe(step.activityName);
    const list = await acme.get('/api/form/step?activityName=春季');
    expect(list.body.data.list.map((r: { id: number }) => r.id)).toContain(id);
    expect((await hq.get(`/api/form/step/${id}`)).status).toBe(404);
    expect((await hq.get('/api/form/step')).body.data.list.map((r: { id: number }) => r.id)).not.toContain(id);
  });

  it('refuses each broken step-form rule with a 400 naming the field, and stores nothing', async () => {
    const before = (await acme.get('/api/form/step')).body.data.total as number;
    const cases: [Record<string, unknown>, string][] = [
      [{ activityName: '' }, 'activityName'],
      [{ activityName: 'a'.repeat(21) }, 'activityName'],
      [{ activityName: 'spring sale!' }, 'activityName'],
      [{ channelType: 'fax' }, 'channelType'],
      [{ promotionTime: 'tomorrow' }, 'promotionTime'],
      [{ promotionLink: 'ftp://example.com' }, 'promotionLink'],
      [{ promotionLink: 'example.com' }, 'promotionLink'],
      [{ advertisingSource: '' }, 'advertisingSource'],
      [{ advertisingMedia: undefined }, 'advertisingMedia'],
      [{ keyword: [] }, 'keyword'],
      [{ pushNotify: 'yes' }, 'pushNotify'],
      [{ advertisingContent: '' }, 'advertisingContent'],
      [{ advertisingContent: '字'.repeat(201) }, 'advertisingContent'],
      [{ advertisingContent: Array.from({ length: 201 }, () => 'word').join(' ') }, 'advertisingContent'],
    ];
    for (const [change, field] of cases) {
      const res = await acme.post('/api/form/step', { ...step, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(fieldsOf(res.body), JSON.stringify(change)).toContain(field);
    }
    // 200 words exactly is allowed
    const atLimit = await acme.post('/api/form/step', { ...step, advertisingContent: '字'.repeat(200) });
    expect(atLimit.status).toBe(200);
    expect((await acme.get('/api/form/step')).body.data.total).toBe(before + 1);
  });

  it('keeps the step and group forms to administrators (403 for an ordinary user)', async () => {
    expect((await user.post('/api/form/step', step)).status).toBe(403);
    expect((await user.get('/api/form/step')).status).toBe(403);
    expect((await user.get('/api/form/group')).status).toBe(403);
    expect((await user.put('/api/form/group', group)).status).toBe(403);
  });

  it('reads the group-form defaults, saves the parameters per tenant and reads them back', async () => {
    const fresh = await hq.get('/api/form/group');
    expect(fresh.status).toBe(200);
    const saved = await acme.put('/api/form/group', group);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ ...group, updateBy: 'acme' });
    expect((await acme.get('/api/form/group')).body.data).toMatchObject(group);
    // another tenant's parameters are untouched
    expect((await hq.get('/api/form/group')).body.data).toEqual(fresh.body.data);
  });

  it('refuses out-of-range group parameters naming the field, and keeps what was saved', async () => {
    await acme.put('/api/form/group', group);
    const cases: [Record<string, unknown>, string][] = [
      [{ acquisitionFrameRate: 0 }, 'acquisitionFrameRate'],
      [{ acquisitionFrameRate: 31 }, 'acquisitionFrameRate'],
      [{ encodingFrameRate: 2.5 }, 'encodingFrameRate'],
      [{ minEncodingRate: 149 }, 'minEncodingRate'],
      [{ maxEncodingRate: 1801 }, 'maxEncodingRate'],
      [{ defaultEncodingRate: 1600 }, 'defaultEncodingRate'],
      [{ minEncodingRate: 1600, defaultEncodingRate: 1600 }, 'minEncodingRate'],
      [{ videoMode: 'auto' }, 'videoMode'],
      [{ acquisitionChannels: 3 }, 'acquisitionChannels'],
      [{ audioEncodingRate: 128 }, 'audioEncodingRate'],
      [{ audioEncodingRate: 1801 }, 'audioEncodingRate'],
      [{ description: 'x'.repeat(201) }, 'description'],
    ];
    for (const [change, field] of cases) {
      const res = await acme.put('/api/form/group', { ...group, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(fieldsOf(res.body), JSON.stringify(change)).toContain(field);
    }
    expect((await acme.get('/api/form/group')).body.data).toMatchObject(group);
  });

  it("saves the user's own settings and reads them back; rules name the field; the e-mail changes only with the password", async () => {
    // the e-mail is sent back as stored (PUT /api/user/contact changes it, with the current password)
    const stored = (await user.get('/api/user/info')).body.data.email as string;
    expect(stored).toBeTruthy();
    const settings = {
      email: stored,
      nickname: '小普',
      countryRegion: 'China',
      area: 'Hangzhou',
      address: '1 West Lake Road',
      profile: 'Tea lover',
    };
    const saved = await user.put('/api/user/info', settings);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject(settings);
    expect((await user.get('/api/user/info')).body.data).toMatchObject(settings);
    // the cached user info follows at once
    const info = await ctx.app.inject({
      method: 'POST',
      url: '/api/system/user/userInfoLogin',
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(info.json().data.nickname).toBe('小普');

    const cases: [Record<string, unknown>, string][] = [
      [{ email: '' }, 'email'],
      [{ email: 'not-an-email' }, 'email'],
      [{ nickname: '' }, 'nickname'],
      [{ nickname: 'n'.repeat(31) }, 'nickname'],
      [{ countryRegion: undefined }, 'countryRegion'],
      [{ area: '' }, 'area'],
      [{ address: 'a'.repeat(501) }, 'address'],
      [{ profile: '字'.repeat(201) }, 'profile'],
    ];
    for (const [change, field] of cases) {
      const res = await user.put('/api/user/info', { ...settings, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(fieldsOf(res.body), JSON.stringify(change)).toContain(field);
    }
    // another e-mail, new or another account's, is refused by name without a word about who holds it:
    // a session alone cannot move where the password's recovery goes
    const acmeEmail = (await acme.get('/api/user/info')).body.data.email as string;
    for (const email of [`ordinary.${engine}@example.com`, acmeEmail.toUpperCase()]) {
      const moved = await user.put('/api/user/info', { ...settings, nickname: '改了', email });
      expect(moved.status, email).toBe(400);
      expect(fieldsOf(moved.body), email).toEqual(['email']);
    }
    expect((await user.get('/api/user/info')).body.data).toMatchObject(settings);
    // the same e-mail in other letter case is the same e-mail
    expect((await user.put('/api/user/info', { ...settings, email: stored.toUpperCase() })).status).toBe(200);
    expect((await user.put('/api/user/info', settings)).status).toBe(200);
  });

  it('serves the search table: the seeded sets with filters, prefix search, sort and paging; writes need the permission', async () => {
    const all = await acme.get('/api/list/set?pageSize=10');
    expect(all.status).toBe(200);
    expect(all.body.data.total).toBeGreaterThanOrEqual(300);
    expect(all.body.data.list).toHaveLength(10);
    const video = await acme.get('/api/list/set?contentType=verticalVideo&status=0&pageSize=200');
    expect(video.body.data.list.length).toBeGreaterThan(0);
    expect(
      video.body.data.list.every((s: { contentType: string; status: string }) => s.contentType === 'verticalVideo' && s.status === '0'),
    ).toBe(true);
    const prefix = await acme.get('/api/list/set?number=S1001&pageSize=200');
    expect(prefix.body.data.list.map((s: { number: string }) => s.number).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `S1001${i}`),
    );
    const byCount = (await acme.get('/api/list/set?sort=count:desc&pageSize=50')).body.data.list.map((s: { count: number }) => s.count);
    expect(byCount).toEqual([...byCount].sort((a: number, b: number) => b - a));
    expect((await acme.get('/api/list/set?sort=tenantId:asc')).status).toBe(400);

    const created = await acme.post('/api/list/set', {
      number: 'T1',
      name: '测试集合',
      contentType: 'imageText',
      filterType: 'rules',
      count: 3,
    });
    expect(created.status).toBe(200);
    const again = await acme.post('/api/list/set', { number: 'T1', name: 'x', contentType: 'imageText', filterType: 'rules' });
    expect(again.status).toBe(409);
    expect(fieldsOf(again.body)).toEqual(['number']);
    // a day's date as the end of the range takes in the whole day; the day before leaves the set out
    const day = created.body.data.createTime.slice(0, 10);
    const dayBefore = new Date(Date.parse(day) - 86_400_000).toISOString().slice(0, 10);
    const inRange = (query: string) => acme.get(`/api/list/set?number=T1&${query}`);
    expect((await inRange(`createTimeFrom=${day}&createTimeTo=${day}`)).body.data.list.map((s: { id: number }) => s.id)).toEqual([
      created.body.data.id,
    ]);
    expect((await inRange(`createTimeTo=${dayBefore}`)).body.data.total).toBe(0);
    const offline = await acme.put(`/api/list/set/${created.body.data.id}/status`, { status: '1' });
    expect(offline.body.data.status).toBe('1');
    expect((await hq.get(`/api/list/set/${created.body.data.id}`)).status).toBe(404);
    // the ordinary user reads the list and exports it, but writes nothing
    expect((await user.get('/api/list/set')).status).toBe(200);
    expect((await user.post('/api/list/set', { number: 'T2', name: 'x', contentType: 'imageText', filterType: 'rules' })).status).toBe(403);
    expect((await user.del(`/api/list/set/${all.body.data.list[0].id}`)).status).toBe(403);
    const exported = await ctx.app.inject({
      method: 'GET',
      url: '/api/list/set/export?number=T1',
      headers: { authorization: `Bearer ${acme.token}`, 'accept-language': 'zh-CN' },
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('spreadsheetml');
    // coded values in the words of the requester's language (the contracts' label registry), not the codes
    const cells = async (file: unknown) => {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(file as ArrayBuffer);
      return ((workbook.worksheets[0]?.getRow(2).values ?? []) as unknown[]).slice(1);
    };
    expect(await cells(exported.rawPayload)).toEqual(expect.arrayContaining(['图文', '规则筛选', '已下线']));
    const english = await ctx.app.inject({
      method: 'GET',
      url: '/api/list/set/export?number=T1',
      headers: { authorization: `Bearer ${acme.token}`, 'accept-language': 'en-US' },
    });
    expect(await cells(english.rawPayload)).toEqual(expect.arrayContaining(['Image and text', 'By rules', 'Offline']));
  });

  it('card list: services in every state, and each action only from the states it starts from, once', async () => {
    const all = (await acme.get('/api/list/service?pageSize=50')).body.data.list as { id: number; status: string; expireTime: string }[];
    expect(new Set(all.map((s) => s.status))).toEqual(new Set(['opened', 'expired', 'cancelled', 'renewed']));
    const expired = all.find((s) => s.status === 'expired') as { id: number };
    const cancelled = all.find((s) => s.status === 'cancelled') as { id: number };
    const opened = all.find((s) => s.status === 'opened') as { id: number };
    expect(
      (await acme.get('/api/list/service?status=expired')).body.data.list.every((s: { status: string }) => s.status === 'expired'),
    ).toBe(true);

    // cancelling an expired service is not a transition; renewing it is, and it runs a year from now
    const bad = await acme.put(`/api/list/service/${expired.id}/cancel`, {});
    expect(bad.status).toBe(409);
    expect(fieldsOf(bad.body)).toEqual(['status']);
    const renewed = await acme.put(`/api/list/service/${expired.id}/renew`, {});
    expect(renewed.status).toBe(200);
    expect(renewed.body.data.status).toBe('renewed');
    expect(new Date(renewed.body.data.expireTime).getTime()).toBeGreaterThan(Date.now() + 360 * 86_400_000);
    expect((await acme.put(`/api/list/service/${cancelled.id}/open`, {})).body.data.status).toBe('opened');

    // two cancels racing: one wins, the other is told it cannot
    const race = await Promise.all([
      acme.put(`/api/list/service/${opened.id}/cancel`, {}),
      acme.put(`/api/list/service/${opened.id}/cancel`, {}),
    ]);
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);

    expect((await hq.put(`/api/list/service/${opened.id}/open`, {})).status).toBe(404);
    expect((await acme.put('/api/list/service/0x10/open', {})).status).toBe(400);
    // the ordinary user sees the services and may not act on them
    const theirs = (await user.get('/api/list/service')).body.data.list[0] as { id: number };
    expect((await user.put(`/api/list/service/${theirs.id}/renew`, {})).status).toBe(403);
  });

  it("changes the own phone and e-mail only with the current password, never to another account's", async () => {
    const before = (await user.get('/api/user/info')).body.data;
    const wrong = await user.put('/api/user/contact', { password: 'Nope@123456', phone: '13900000009', email: 'me@user.example' });
    expect(wrong.status).toBe(400);
    expect(fieldsOf(wrong.body)).toEqual(['password']);
    const badPhone = await user.put('/api/user/contact', { password: 'User@123456', phone: "1' or '1'='1", email: before.email });
    expect(badPhone.status).toBe(400);
    expect(fieldsOf(badPhone.body)).toEqual(['phone']);
    // the administrator's phone and e-mail (any case) belong to another account
    const takenPhone = await user.put('/api/user/contact', { password: 'User@123456', phone: '13800000001', email: before.email });
    expect(takenPhone.status).toBe(409);
    expect(fieldsOf(takenPhone.body)).toEqual(['phone']);
    const takenEmail = await user.put('/api/user/contact', { password: 'User@123456', phone: before.phone, email: 'ADMIN@atrium.example' });
    expect(takenEmail.status).toBe(409);
    expect(fieldsOf(takenEmail.body)).toEqual(['email']);
    // nothing of the refused attempts was kept
    const unchanged = (await user.get('/api/user/info')).body.data;
    expect([unchanged.phone, unchanged.email]).toEqual([before.phone, before.email]);

    const saved = await user.put('/api/user/contact', { password: 'User@123456', phone: '13900000009', email: 'Me@User.example' });
    expect(saved.status).toBe(200);
    expect([saved.body.data.phone, saved.body.data.email]).toEqual(['13900000009', 'Me@User.example']);
    // the new phone signs in; then everything goes back for the tests that follow
    expect((await (await signIn(ctx, '13900000009', 'User@123456')).get('/api/user/info')).status).toBe(200);
    const cleared = await user.put('/api/user/contact', { password: 'User@123456', phone: '', email: before.email });
    expect(cleared.body.data.phone).toBeNull();
    await user.put('/api/user/contact', { password: 'User@123456', phone: before.phone, email: before.email });
  });

  it('changes the own password: the current one must match, the new one must be strong; other sessions end', async () => {
    const other = await signIn(ctx, 'user', 'User@123456');
    expect((await other.get('/api/user/info')).status).toBe(200);
    const wrong = await user.put('/api/user/password', { oldPassword: 'Nope@123456', newPassword: 'Brand-new@2026x' });
    expect(wrong.status).toBe(400);
    expect(fieldsOf(wrong.body)).toEqual(['oldPassword']);
    const weak = await user.put('/api/user/password', { oldPassword: 'User@123456', newPassword: 'short' });
    expect(weak.status).toBe(400);
    expect(fieldsOf(weak.body)).toEqual(['newPassword']);
    const changed = await user.put('/api/user/password', { oldPassword: 'User@123456', newPassword: 'Brand-new@2026x' });
    expect(changed.status).toBe(200);
    expect(changed.body.data.endedSessions).toBeGreaterThanOrEqual(1);
    // this session goes on, the other one is over, and only the new password signs in
    expect((await user.get('/api/user/info')).status).toBe(200);
    expect((await other.get('/api/user/info')).status).toBe(401);
    await expect(signIn(ctx, 'user', 'User@123456')).rejects.toThrow();
    expect((await (await signIn(ctx, 'user', 'Brand-new@2026x')).get('/api/user/info')).status).toBe(200);
  });
});
