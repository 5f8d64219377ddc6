import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withTenant } from '../src/db/client';
import { DEVICE_COOKIE, LOCKOUT, MAX_KNOWN_DEVICES } from '../src/modules/auth/login.service';
import { ABSOLUTE_MS, IDLE_MS, REMEMBER_MS } from '../src/modules/auth/session.service';
import { buildTestApp, engines } from './helper';

type Ctx = Awaited<ReturnType<typeof buildTestApp>>;
const MINUTE = 60_000;

/** Test helpers bound to one app: raw calls answering status and envelope. */
function api(ctx: Ctx) {
  const call = async (
    method: 'GET' | 'POST',
    url: string,
    options: { token?: string; body?: unknown; lang?: string; ip?: string; device?: string } = {},
  ) => {
    const response = await ctx.app.inject({
      method,
      url,
      remoteAddress: options.ip,
      ...(options.device ? { cookies: { [DEVICE_COOKIE]: options.device } } : {}),
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        'accept-language': options.lang ?? 'en-US',
        'user-agent': 'vitest',
      },
      ...(options.body === undefined ? {} : { payload: options.body as Record<string, unknown> }),
    });
    const device = response.cookies.find((c) => c.name === DEVICE_COOKIE);
    return {
      status: response.statusCode,
      // biome-ignore lint/suspicious/noExplicitAny: envelopes are read field by field in assertions
      body: response.json() as { code: number; message: string; data: any },
      ...(device ? { device } : {}),
    };
  };
  const login = (account: string, password: string, extra: Record<string, unknown> = {}, from: { ip?: string; device?: string } = {}) =>
    call('POST', '/api/system/user/login', { body: { account, password, ...extra }, ...from });
  const token = async (account: string, password: string, extra: Record<string, unknown> = {}) => {
    const answer = await login(account, password, extra);
    if (answer.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(answer.body)}`);
    return answer.body.data.token as string;
  };
  const info = (t: string) => call('POST', '/api/system/user/userInfoLogin', { token: t });
  return { call, login, token, info };
}

describe.each(engines)('sign-in and sessions on %s', (engine) => {
  let ctx: Ctx;
  let a: ReturnType<typeof api>;

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000' });
    a = api(ctx);
  });
  afterAll(async () => {
    await ctx?.close();
  });
  beforeEach(async () => {
    // every test starts unlocked and with the demo tenants open
    await ctx.database.query(`delete from known_devices`);
    await ctx.database.query(`update tenants set status = '0', expire_time = null`);
    await ctx.database.query(`delete from kv_entries`);
    ctx.app.sessions.invalidate();
  });

  it('signs in by user number, phone or e-mail, with a fresh 256-bit token each time, stored only as a hash', async () => {
    const byName = await a.token('admin', 'Admin@123456');
    const byPhone = await a.token('13800000001', 'Admin@123456');
    const byEmail = await a.token('ADMIN@atrium.example', 'Admin@123456');
    expect(new Set([byName, byPhone, byEmail]).size).toBe(3);
    expect(Buffer.from(byName, 'base64url').length).toBeGreaterThanOrEqual(32);
    for (const t of [byName, byPhone, byEmail]) expect((await a.info(t)).body.data.accountId).toBe('admin');
    const stored = await ctx.database.query<{ token_hash: string }>('select token_hash from sessions');
    expect(stored.some((s) => s.token_hash === byName)).toBe(false);
    expect(stored.every((s) => /^[0-9a-f]{64}$/.test(s.token_hash))).toBe(true);
  });

  it('stores passwords as argon2id with m=19456, t=2, p=1', async () => {
    const [row] = await ctx.database.query<{ password_hash: string }>(`select password_hash from accounts where account_id = 'user'`);
    expect(row?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('answers a wrong password and an unknown account alike (1001, HTTP 401) and logs both without the password', async () => {
    const wrong = await a.login('user', 'Wrong#password1');
    const unknown = await a.login('nobody-here', 'Wrong#password1');
    expect(wrong).toEqual({ status: 401, body: { code: 1001, message: 'Wrong account or password', data: null } });
    expect(wrong).not.toHaveProperty('device');
    expect(unknown).toEqual(wrong);
    const logs = await ctx.database.query<Record<string, unknown>>(
      `select * from login_logs where account in ('user', 'nobody-here') and result = 'failure' order by id`,
    );
    expect(logs.map((l) => [l.account, l.reason])).toEqual([
      ['user', 'wrong password'],
      ['nobody-here', 'unknown account'],
    ]);
    expect(logs[0]).toMatchObject({ ip: '127.0.0.1', user_agent: 'vitest' });
    expect(JSON.stringify(logs)).not.toContain('Wrong#password1');
    const zh = await a.call('POST', '/api/system/user/login', { body: { account: 'user', password: 'x' }, lang: 'zh-CN' });
    expect(zh.body.message).toBe('账号或密码错误');
  });

  it('logs a successful sign-in with its tenant and device, beside its session, its known device and the last tenant', async () => {
    const deviceId = '0b9f8a3e-2f7c-4f5e-9f6a-1c2d3e4f5a6b';
    await ctx.database.query(`update accounts set last_tenant_id = null where account_id = 'acme'`);
    const signedIn = await a.login('acme', 'Acme@123456', { deviceId });
    expect(signedIn.status).toBe(200);
    // written in the same statement as the log entry: the session, the device and the tenant entered
    const [written] = await ctx.database.query<{ sessions: number; devices: number; last: string }>(
      `select (select count(*)::int from sessions s where s.account_id = a.id and s.device_id = $1) as sessions,
              (select count(*)::int from known_devices d where d.account_ref = a.id) as devices,
              (select code from tenants where id = a.last_tenant_id) as last
         from accounts a where a.account_id = 'acme'`,
      [deviceId],
    );
    expect(written).toEqual({ sessions: 1, devices: 1, last: 'acme' });
    expect(signedIn.device?.value).toBeTruthy();
    // login_logs is under row-level security: a tenant's rows are read with that tenant set
    const [tenant] = await ctx.database.query<{ id: number }>(`select id::int from tenants where code = 'acme'`);
    const [log] = await withTenant(ctx.database.db, tenant?.id ?? 0, async (tx) => {
      const result = await tx.execute(
        sql`select l.result, t.code as tenant_code, l.device_id from login_logs l join tenants t on t.id = l.tenant_ref
             where l.account = 'acme' order by l.id desc limit 1`,
      );
      return (result as unknown as { rows: { result: string; tenant_code: string; device_id: string }[] }).rows;
    });
    expect(log).toEqual({ result: 'success', tenant_code: 'acme', device_id: deviceId });
  });

  it('locks after five failures for ten minutes, saying until when, and unlocks after the window', async () => {
    for (let i = 0; i < 4; i++) expect((await a.login('user', 'Wrong#password1')).body.code).toBe(1001);
    const fifth = await a.login('user', 'Wrong#password1');
    expect(fifth.status).toBe(401);
    expect(fifth.body.code).toBe(1003);
    const until = new Date(fifth.body.data.lockedUntil);
    expect(until.getTime() - ctx.clock.now().getTime()).toBeGreaterThan(9 * MINUTE);
    expect(until.getTime() - ctx.clock.now().getTime()).toBeLessThanOrEqual(10 * MINUTE);
    expect(fifth.body.message).toContain(`locked until ${until.toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    // the right password does not help while locked
    const locked = await a.login('user', 'User@123456');
    expect(locked.body.code).toBe(1003);
    ctx.clock.advance(9 * MINUTE);
    expect((await a.login('user', 'User@123456')).body.code).toBe(1003);
    ctx.clock.advance(MINUTE + 1000);
    expect((await a.login('user', 'User@123456')).status).toBe(200);
    // success starts the count again
    for (let i = 0; i < 4; i++) await a.login('user', 'Wrong#password1');
    expect((await a.login('user', 'User@123456')).status).toBe(200);
    expect((await a.login('user', 'Wrong#password1')).body.code).toBe(1001);
  });

  it('locks an unknown name the same way, so locking does not reveal which accounts exist', async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await a.login('ghost-account', 'Wrong#password1')).body.code);
    expect(answers).toEqual([1001, 1001, 1001, 1001, 1003, 1003]);
    ctx.clock.advance(10 * MINUTE + 1000);
    expect((await a.login('ghost-account', 'Wrong#password1')).body.code).toBe(1001);
  });

  /** Failed sign-ins of `account` spread over addresses 10.1.n.1, `perIp` from each; answers their codes. */
  const spread = async (account: string, total: number, perIp: number) => {
    const codes: number[] = [];
    for (let i = 0; i < total; i++)
      codes.push((await a.login(account, 'Wrong#password1', {}, { ip: `10.1.${Math.floor(i / perIp)}.1` })).body.code);
    return codes;
  };
  const lockMinutes = (answer: { body: { data: { lockedUntil: string } } }) =>
    Math.round((new Date(answer.body.data.lockedUntil).getTime() - ctx.clock.now().getTime()) / MINUTE);

  it('locks an address for its account only: the owner elsewhere still signs in', async () => {
    const attacker = { ip: '10.0.0.66' };
    for (let i = 0; i < 4; i++) expect((await a.login('user', 'Wrong#password1', {}, attacker)).body.code).toBe(1001);
    expect((await a.login('user', 'Wrong#password1', {}, attacker)).body.code).toBe(1003);
    expect((await a.login('user', 'User@123456', {}, attacker)).body.code).toBe(1003);
    // the same account from another address, and another account from the locked address
    expect((await a.login('user', 'User@123456', {}, { ip: '10.0.0.7' })).status).toBe(200);
    expect((await a.login('acme', 'Acme@123456', {}, attacker)).status).toBe(200);
  });

  it(`locks the account for every new device at ${LOCKOUT.accountThreshold} failures from any addresses`, async () => {
    const codes = await spread('user', LOCKOUT.accountThreshold, LOCKOUT.sourceThreshold - 1);
    expect(codes.slice(0, -1).every((c) => c === 1001)).toBe(true);
    expect(codes.at(-1)).toBe(1003);
    const fresh = await a.login('user', 'User@123456', {}, { ip: '10.2.0.1' });
    expect(fresh.body.code).toBe(1003);
    expect(lockMinutes(fresh)).toBe(10);
  });

  it('lets the owner in from a device that signed in before, whoever locked the account from elsewhere', async () => {
    const home = { ip: '192.0.2.10' };
    const first = await a.login('user', 'User@123456', {}, home);
    expect(first.status).toBe(200);
    expect(first.device).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    const device = first.device?.value as string;
    // only a hash of the device token is stored
    expect(await ctx.database.query(`select 1 from known_devices where token_hash = $1`, [device])).toEqual([]);
    // attackers lock the owner's own address, then the account from many addresses
    for (let i = 0; i < LOCKOUT.sourceThreshold; i++) await a.login('user', 'Wrong#password1', {}, home);
    await spread('user', LOCKOUT.accountThreshold, LOCKOUT.sourceThreshold);
    expect((await a.login('user', 'User@123456', {}, home)).body.code).toBe(1003);
    expect((await a.login('user', 'User@123456', {}, { ip: '10.3.0.1' })).body.code).toBe(1003);
    // the known device gets in, from home or anywhere; its cookie is no key to another account
    expect((await a.login('user', 'User@123456', {}, { ...home, device })).status).toBe(200);
    expect((await a.login('user', 'User@123456', {}, { ip: '10.1.0.1', device })).status).toBe(200);
    expect((await a.login('13800000002', 'User@123456', {}, { ip: '10.1.0.1', device })).status).toBe(200);
    await spread('acme', LOCKOUT.accountThreshold, LOCKOUT.sourceThreshold);
    expect((await a.login('acme', 'Acme@123456', {}, { ip: '10.3.0.1', device })).body.code).toBe(1003);
    // a known device guessing wrong is locked itself, at the low threshold
    const guesses = [];
    for (let i = 0; i < LOCKOUT.sourceThreshold; i++) guesses.push((await a.login('user', 'Wrong#password1', {}, { device })).body.code);
    expect(guesses).toEqual([1001, 1001, 1001, 1001, 1003]);
    expect((await a.login('user', 'User@123456', {}, { device })).body.code).toBe(1003);
    // a forged or unknown cookie is just a new device
    expect((await a.login('user', 'User@123456', {}, { ...home, device: 'forged' })).body.code).toBe(1003);
  });

  it('keeps an account’s most recently used devices only', async () => {
    const first = (await a.login('acme', 'Acme@123456', {}, { ip: '10.9.0.1' })).device?.value as string;
    for (let i = 0; i < MAX_KNOWN_DEVICES; i++) expect((await a.login('acme', 'Acme@123456', {}, { ip: '10.9.0.1' })).status).toBe(200);
    const kept = await ctx.database.query<{ n: number }>(
      `select count(*)::int as n from known_devices d join accounts a on a.id = d.account_ref where a.account_id = 'acme'`,
    );
    expect(kept[0]?.n).toBe(MAX_KNOWN_DEVICES);
    // the oldest is no longer known: locked out like any new device
    for (let i = 0; i < LOCKOUT.accountThreshold; i++) await a.login('acme', 'Wrong#password1', {}, { ip: `10.9.${i}.2` });
    expect((await a.login('acme', 'Acme@123456', {}, { device: first })).body.code).toBe(1003);
  });

  it('doubles the lock each time it is locked again, up to the cap', async () => {
    const from = { ip: '10.4.0.1' };
    const minutes = [];
    for (let round = 0; round < 6; round++) {
      let last = await a.login('user', 'Wrong#password1', {}, from);
      for (let i = 1; i < LOCKOUT.sourceThreshold; i++) last = await a.login('user', 'Wrong#password1', {}, from);
      expect(last.body.code).toBe(1003);
      minutes.push(lockMinutes(last));
      ctx.clock.advance(new Date(last.body.data.lockedUntil).getTime() - ctx.clock.now().getTime() + 1000);
    }
    expect(minutes).toEqual([10, 20, 40, 80, 160, 240]);
    // once a lock ends, failures are counted afresh
    expect((await a.login('user', 'Wrong#password1', {}, from)).body.code).toBe(1001);
  });

  it('answers an unknown name exactly as a known account, through every lock', async () => {
    const run = async (account: string) => {
      const answers: Record<string, unknown>[] = [];
      const record = (r: Awaited<ReturnType<typeof a.login>>) =>
        answers.push({
          status: r.status,
          code: r.body.code,
          message: r.body.message.replace(/\d{4}-\d\d-\d\d \d\d:\d\d/, 'T'),
          minutes: r.body.data ? lockMinutes(r) : null,
          device: !!r.device,
        });
      for (let i = 0; i < LOCKOUT.sourceThreshold + 1; i++) record(await a.login(account, 'Wrong#password1', {}, { ip: '10.5.0.1' }));
      for (let i = 0; i < LOCKOUT.accountThreshold; i++) record(await a.login(account, 'Wrong#password1', {}, { ip: `10.6.${i}.1` }));
      record(await a.login(account, 'Wrong#password1', {}, { ip: '10.7.0.1' }));
      return answers;
    };
    const known = await run('user');
    const unknown = await run('nobody-at-all');
    expect(unknown).toEqual(known);
    expect(known.slice(0, LOCKOUT.sourceThreshold + 1).map((k) => k.code)).toEqual([1001, 1001, 1001, 1001, 1003, 1003]);
    expect(known.at(-1)).toMatchObject({ status: 401, code: 1003, minutes: 10 });
  });

  it('answers 11000 for a missing, unknown or expired token and 1302 for an ended one', async () => {
    expect(await a.info('')).toMatchObject({ status: 401, body: { code: 11000 } });
    expect(await a.info('not-a-token')).toMatchObject({ status: 401, body: { code: 11000 } });
    const t = await a.token('user', 'User@123456');
    expect((await a.info(t)).status).toBe(200);
    expect(await a.call('POST', '/api/system/user/logout', { token: t })).toMatchObject({ status: 200, body: { code: 200 } });
    expect(await a.info(t)).toMatchObject({ status: 401, body: { code: 1302 } });
    // logout always succeeds, even for an ended or unknown session
    expect((await a.call('POST', '/api/system/user/logout', { token: t })).body.code).toBe(200);
    expect((await a.call('POST', '/api/system/user/logout')).body.code).toBe(200);
  });

  it('ends a session left idle for two hours (11000)', async () => {
    const t = await a.token('user', 'User@123456');
    ctx.clock.advance(IDLE_MS - MINUTE);
    expect((await a.info(t)).status).toBe(200);
    // that request counted as activity: another almost-two-hours later it still works
    ctx.clock.advance(IDLE_MS - MINUTE);
    expect((await a.info(t)).status).toBe(200);
    ctx.clock.advance(IDLE_MS + 1000);
    expect(await a.info(t)).toMatchObject({ status: 401, body: { code: 11000 } });
  });

  it('ends any session after 24 hours, a remembered one after 7 days (11000)', async () => {
    const plain = await a.token('user', 'User@123456');
    const remembered = await a.token('user', 'User@123456', { remember: true });
    const step = IDLE_MS - 10 * MINUTE;
    let elapsed = 0;
    while (elapsed + step < ABSOLUTE_MS) {
      ctx.clock.advance(step);
      elapsed += step;
      expect((await a.info(plain)).status).toBe(200);
      expect((await a.info(remembered)).status).toBe(200);
    }
    ctx.clock.advance(ABSOLUTE_MS - elapsed + 1000);
    elapsed = ABSOLUTE_MS + 1000;
    expect(await a.info(plain)).toMatchObject({ status: 401, body: { code: 11000 } });
    expect((await a.info(remembered)).status).toBe(200);
    while (elapsed + step < REMEMBER_MS) {
      ctx.clock.advance(step);
      elapsed += step;
      expect((await a.info(remembered)).status).toBe(200);
    }
    ctx.clock.advance(REMEMBER_MS - elapsed + 1000);
    expect(await a.info(remembered)).toMatchObject({ status: 401, body: { code: 11000 } });
  });

  it('ends sessions with 1302 when the user is disabled or the tenant is disabled, and announces it', async () => {
    const ended: unknown[] = [];
    const listener = (event: unknown) => ended.push(event);
    ctx.app.events.on('session.ended', listener);
    try {
      const t = await a.token('acme', 'Acme@123456');
      await ctx.database.query(`update tenants set status = '1' where code = 'acme'`);
      ctx.app.sessions.invalidate({});
      expect(await a.info(t)).toMatchObject({ status: 401, body: { code: 1302 } });
      expect(ended).toEqual([expect.objectContaining({ reason: 'tenant_disabled', sessionIds: [expect.any(Number)] })]);
      // a disabled tenant cannot be signed into either
      expect(await a.login('acme', 'Acme@123456')).toMatchObject({ status: 403, body: { code: 1004 } });
    } finally {
      ctx.app.events.off('session.ended', listener);
    }
  });

  it('answers userInfoLogin with the spec fields, role, permissions and client key', async () => {
    const admin = await a.info(await a.token('admin', 'Admin@123456'));
    expect(admin.body.data).toMatchObject({
      accountId: 'admin',
      userType: '00',
      role: 'admin',
      tenantCode: 'hq',
      tenantName: 'Atrium HQ',
      password: true,
      permissions: ['*:*:*'],
    });
    expect(admin.body.data.clientKey).toMatch(/^[0-9a-f]{32}$/);
    const user = await a.info(await a.token('user', 'User@123456'));
    expect(user.body.data).toMatchObject({ accountId: 'user', userType: '02', role: 'user', tenantCode: 'hq', sex: null });
    expect(user.body.data.permissions).toContain('system:user:list');
    expect(user.body.data.permissions).not.toContain('system:user:create');
    const acme = await a.info(await a.token('acme', 'Acme@123456'));
    expect(acme.body.data).toMatchObject({ userType: '01', role: 'admin', tenantCode: 'acme' });
    expect(acme.body.data.permissions).toContain('system:user:create');
    const profile = await a.call('GET', '/api/user/info', { token: await a.token('user', 'User@123456') });
    expect(profile.body.data).toMatchObject({ accountId: 'user', roleNames: ['普通用户'], tenantCode: 'hq' });
  });

  it('serves the menu tree by role grants and meta.roles; a super admin sees everything', async () => {
    const names = (routes: { name: string; children?: unknown[] }[]): string[] =>
      routes.flatMap((r) => [r.name, ...names((r.children ?? []) as never)]);
    const adminMenu = (await a.call('POST', '/api/system/user/menu', { token: await a.token('admin', 'Admin@123456') })).body.data;
    const userMenu = (await a.call('POST', '/api/system/user/menu', { token: await a.token('user', 'User@123456') })).body.data;
    const acmeMenu = (await a.call('POST', '/api/system/user/menu', { token: await a.token('acme', 'Acme@123456') })).body.data;
    expect(names(adminMenu)).toEqual(expect.arrayContaining(['Monitor', 'Step', 'DataAnalysis', '403', 'systemUser', 'arcoWebsite']));
    expect(names(acmeMenu)).toEqual(expect.arrayContaining(['Monitor', 'systemRole']));
    // tenants are the platform's page: the super admin's, not a tenant administrator's
    expect(names(adminMenu)).toContain('systemTenant');
    expect(names(acmeMenu)).not.toContain('systemTenant');
    const userNames = names(userMenu);
    expect(userNames).toEqual(expect.arrayContaining(['Staging', 'Workplace', 'SearchTable', '404', '500', 'Info', 'systemUser', 'erp']));
    for (const hidden of ['Monitor', 'form', 'Step', 'visualization', 'profile', 'result', '403']) expect(userNames).not.toContain(hidden);
    const workplace = userMenu.find((r: { name: string }) => r.name === 'dashboard');
    expect(workplace).toMatchObject({ path: '/dashboard', meta: { locale: 'menu.dashboard', icon: 'IconDashboard', order: 0 } });
    expect(workplace.children).toEqual([
      { name: 'Workplace', path: '/dashboard/workplace', meta: expect.objectContaining({ roles: ['*'], requiresAuth: true }) },
    ]);
    // buttons are permissions, not routes
    expect(names(adminMenu).some((n) => n.includes(':'))).toBe(false);
  });

  it('lists the tenants an account may enter, paged and searchable; a super admin sees all', async () => {
    const admin = await a.token('admin', 'Admin@123456');
    const all = await a.call('GET', '/api/system/user/tenant', { token: admin });
    expect(all.body.data).toMatchObject({ total: 2, pageNum: 1, pageSize: 20 });
    expect(all.body.data.list.map((t: { code: string; current: boolean }) => [t.code, t.current])).toEqual([
      ['hq', true],
      ['acme', false],
    ]);
    const byName = await a.call('GET', '/api/system/user/tenant?name=acme%20tr', { token: admin });
    expect(byName.body.data.list.map((t: { code: string }) => t.code)).toEqual(['acme']);
    const byCode = await a.call('GET', '/api/system/user/tenant?code=H&pageSize=1', { token: admin });
    expect(byCode.body.data).toMatchObject({ total: 1, pageSize: 1, list: [{ code: 'hq' }] });
    const wildcard = await a.call('GET', '/api/system/user/tenant?name=%25', { token: admin });
    expect(wildcard.body.data.total).toBe(0);
    // the switch dialog's one box: a keyword in the name or the code
    const codes = async (query: string, token = admin) =>
      (await a.call('GET', `/api/system/user/tenant?${query}`, { token })).body.data.list.map((t: { code: string }) => t.code);
    expect(await codes('keyword=TRADING')).toEqual(['acme']);
    expect(await codes('keyword=hq')).toEqual(['hq']);
    expect(await codes('keyword=zzz')).toEqual([]);
    expect(await codes('keyword=_')).toEqual([]);
    const userToken = await a.token('user', 'User@123456');
    expect(await codes('keyword=acme', userToken)).toEqual([]);
    const user = await a.call('GET', '/api/system/user/tenant', { token: userToken });
    expect(user.body.data.list.map((t: { code: string }) => t.code)).toEqual(['hq']);
    const bad = await a.call('GET', '/api/system/user/tenant?pageSize=0', { token: admin });
    expect(bad.status).toBe(400);
  });

  it('switches tenant with a fresh token, ends the old session, and remembers the tenant for the next sign-in', async () => {
    const before = await a.token('admin', 'Admin@123456');
    const tenants = (await a.call('GET', '/api/system/user/tenant', { token: before })).body.data.list as { id: number; code: string }[];
    const acme = tenants.find((t) => t.code === 'acme') as { id: number };
    const switched = await a.call('POST', '/api/system/user/switchTenant', { token: before, body: { tenantId: acme.id } });
    expect(switched.status).toBe(200);
    const after = switched.body.data.token as string;
    expect(after).not.toBe(before);
    expect((await a.info(after)).body.data).toMatchObject({ tenantCode: 'acme', tenantName: 'Acme Trading', role: 'admin' });
    expect(await a.info(before)).toMatchObject({ status: 401, body: { code: 1302 } });
    expect((await a.info(await a.token('admin', 'Admin@123456'))).body.data.tenantCode).toBe('acme');
    const hq = tenants.find((t) => t.code === 'hq') as { id: number };
    await a.call('POST', '/api/system/user/switchTenant', { token: after, body: { tenantId: hq.id } });
  });

  it('refuses to switch into a tenant the account may not enter, or a disabled, expired or missing one (403)', async () => {
    const ids = Object.fromEntries(
      (await ctx.database.query<{ id: number; code: string }>('select id, code from tenants')).map((t) => [t.code, Number(t.id)]),
    );
    const user = await a.token('user', 'User@123456');
    const refused = await a.call('POST', '/api/system/user/switchTenant', { token: user, body: { tenantId: ids.acme } });
    expect(refused).toMatchObject({ status: 403, body: { code: 1301 } });
    expect((await a.info(user)).status).toBe(200);
    const admin = await a.token('admin', 'Admin@123456');
    expect((await a.call('POST', '/api/system/user/switchTenant', { token: admin, body: { tenantId: 999999 } })).status).toBe(403);
    await ctx.database.query(`update tenants set status = '1' where code = 'acme'`);
    expect((await a.call('POST', '/api/system/user/switchTenant', { token: admin, body: { tenantId: ids.acme } })).body.code).toBe(1301);
    await ctx.database.query(`update tenants set status = '0', expire_time = now() - interval '1 minute' where code = 'acme'`);
    expect((await a.call('POST', '/api/system/user/switchTenant', { token: admin, body: { tenantId: ids.acme } })).body.code).toBe(1301);
    expect((await a.call('POST', '/api/system/user/switchTenant', { token: admin, body: { tenantId: 'x' } })).status).toBe(400);
    // the refused attempts left the session where it was
    expect((await a.info(admin)).body.data.tenantCode).toBe('hq');
  });

  it('refuses /api calls without a session and lets the public ones through', async () => {
    expect(await a.call('POST', '/api/system/user/menu')).toMatchObject({ status: 401, body: { code: 11000 } });
    expect(await a.call('GET', '/api/user/info')).toMatchObject({ status: 401, body: { code: 11000 } });
    expect((await a.call('GET', '/api/system/captcha')).body.data).toEqual({ enabled: false });
    expect((await a.call('GET', '/api/system/meta')).status).toBe(200);
  });

  it('documents every auth call in OpenAPI with its schemas', async () => {
    const document = (await ctx.app.inject('/api/docs/json')).json();
    const calls: [string, string][] = [
      ['post', '/api/system/user/login'],
      ['post', '/api/system/user/logout'],
      ['post', '/api/system/user/userInfoLogin'],
      ['post', '/api/system/user/menu'],
      ['get', '/api/system/user/tenant'],
      ['post', '/api/system/user/switchTenant'],
      ['get', '/api/user/info'],
      ['get', '/api/system/captcha'],
      ['post', '/api/system/user/register'],
      ['post', '/api/system/user/password/reset-code'],
      ['post', '/api/system/user/password/reset'],
    ];
    for (const [method, path] of calls) {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.responses['200'].content['application/json'].schema, path).toBeDefined();
    }
    expect(document.paths['/api/system/user/login'].post.requestBody.content['application/json'].schema.properties).toHaveProperty(
      'account',
    );
    expect(document.paths['/api/system/user/login'].post.responses).toHaveProperty('429');
    expect(document.info.description).toContain('1302');
  });
});
