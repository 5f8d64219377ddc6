import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { ConfigError } from '../src/config';
import { openDatabase } from '../src/db/client';
import { CAPTCHA_TTL_MS } from '../src/modules/auth/captcha.service';
import { LOCKOUT } from '../src/modules/auth/login.service';
import { seed } from '../src/seed';
import { buildTestApp, createTestDatabase, engines, testConfig } from './helper';
import { startMailbox } from './mailbox';

type Ctx = Awaited<ReturnType<typeof buildTestApp>>;
// biome-ignore lint/suspicious/noExplicitAny: envelopes are read field by field in assertions
type Answer = { status: number; body: { code: number; message: string; data: any } };

async function call(
  ctx: Ctx,
  method: 'GET' | 'POST',
  url: string,
  options: { token?: string; body?: unknown; ip?: string } = {},
): Promise<Answer> {
  const response = await ctx.app.inject({
    method,
    url,
    remoteAddress: options.ip,
    headers: { 'accept-language': 'en-US', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
    ...(options.body === undefined ? {} : { payload: options.body as Record<string, unknown> }),
  });
  return { status: response.statusCode, body: response.json() };
}

const codeIn = (mail: string) => /code is (\d{6})/.exec(mail)?.[1] as string;

describe.each(engines)('register and find password on %s', (engine) => {
  let ctx: Ctx;
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;

  beforeAll(async () => {
    mailbox = await startMailbox();
    ctx = await buildTestApp(engine, { SMTP_URL: mailbox.url, LOGIN_RATE_LIMIT: '100000' });
  });
  afterAll(async () => {
    await ctx?.close();
    await mailbox?.close();
  });

  it('registers a new account and a new tenant in which it is admin with every menu', async () => {
    const body = { accountId: 'newco', email: 'Owner@NewCo.example', password: 'Str0ng#Passphrase', tenantName: 'NewCo Ltd' };
    const registered = await call(ctx, 'POST', '/api/system/user/register', { body });
    expect(registered.status).toBe(200);
    expect(registered.body.data).toMatchObject({ tenantCode: 'newco', token: expect.any(String) });
    const info = await call(ctx, 'POST', '/api/system/user/userInfoLogin', { token: registered.body.data.token });
    expect(info.body.data).toMatchObject({
      accountId: 'newco',
      userType: '01',
      role: 'admin',
      tenantName: 'NewCo Ltd',
      tenantCode: 'newco',
    });
    expect(info.body.data.permissions).toEqual(expect.arrayContaining(['system:user:create', 'system:role:grant']));
    // the tenants page is the platform's: its role holds the menu, which grants nothing here
    expect(info.body.data.permissions.filter((p: string) => p.startsWith('system:tenant:'))).toEqual([]);
    const menu = await call(ctx, 'POST', '/api/system/user/menu', { token: registered.body.data.token });
    expect(JSON.stringify(menu.body.data)).toContain('"Monitor"');
    expect(JSON.stringify(menu.body.data)).not.toContain('"systemTenant"');
    expect((await call(ctx, 'GET', '/api/system/tenant', { token: registered.body.data.token })).status).toBe(403);
    // the new tenant is its own: the account sees only it, and signs in with what it registered
    const tenants = await call(ctx, 'GET', '/api/system/user/tenant', { token: registered.body.data.token });
    expect(tenants.body.data.list.map((t: { code: string }) => t.code)).toEqual(['newco']);
    expect(
      (await call(ctx, 'POST', '/api/system/user/login', { body: { account: 'owner@newco.example', password: body.password } })).status,
    ).toBe(200);
    // taken name or address: the same 409, naming neither; the address's owner is told by mail
    const mailsBefore = mailbox.messages.length;
    const again = await call(ctx, 'POST', '/api/system/user/register', { body: { ...body, accountId: 'NEWCO', email: 'x@y.example' } });
    expect(again).toMatchObject({ status: 409, body: { code: 1007, data: null } });
    const sameMail = await call(ctx, 'POST', '/api/system/user/register', {
      body: { ...body, accountId: 'other', email: 'OWNER@newco.example' },
    });
    expect(sameMail).toEqual(again);
    expect(again.body.message).not.toMatch(/e-mail address is already|邮箱已被/);
    const notice = await mailbox.next(mailsBefore + 1);
    expect(notice).toMatch(/^To: owner@newco\.example/im);
    expect(notice).toContain('someone tried to register');
    expect(mailbox.messages.length).toBe(mailsBefore + 1);
    const sameCode = await call(ctx, 'POST', '/api/system/user/register', {
      body: { ...body, accountId: 'Acme.', email: 'acme2@x.example' },
    });
    expect(sameCode.body.data?.tenantCode).toMatch(/^acme-[0-9a-f]{6}$/);
  });

  it('refuses weak and common passwords with a clear message naming the field', async () => {
    const base = { accountId: 'weakling', email: 'weak@x.example', tenantName: 'Weak' };
    const short = await call(ctx, 'POST', '/api/system/user/register', { body: { ...base, password: 'Ab1!' } });
    expect(short).toMatchObject({ status: 400, body: { code: 40001 } });
    expect(short.body.data.fields[0]).toMatchObject({ field: 'password', message: 'The password needs at least 10 characters' });
    const noSpecial = await call(ctx, 'POST', '/api/system/user/register', { body: { ...base, password: 'Abcdefgh123' } });
    expect(noSpecial.body.data.fields[0].message).toBe('The password needs letters, digits and special characters');
    const common = await call(ctx, 'POST', '/api/system/user/register', { body: { ...base, password: 'P@ssw0rd123' } });
    expect(common).toMatchObject({ status: 400, body: { code: 40001 } });
    expect(common.body.data.fields[0]).toMatchObject({
      field: 'password',
      rule: 'common',
      message: 'This password is too common, please choose another',
    });
    const [row] = await ctx.database.query(`select count(*)::int as n from accounts where account_id = 'weakling'`);
    expect(row).toEqual({ n: 0 });
  });

  it('resets a password by a mailed code, end to end through a real SMTP server, and ends the old sessions', async () => {
    const oldSession = (await call(ctx, 'POST', '/api/system/user/login', { body: { account: 'user', password: 'User@123456' } })).body.data
      .token;
    const before = mailbox.messages.length;
    const asked = await call(ctx, 'POST', '/api/system/user/password/reset-code', { body: { email: 'USER@atrium.example' } });
    expect(asked).toEqual({ status: 200, body: { code: 200, message: 'ok', data: null } });
    const mail = await mailbox.next(before + 1);
    expect(mail).toMatch(/^To: user@atrium\.example/m);
    expect(mail).toContain('Subject: Atrium password reset code');
    const code = codeIn(mail);
    expect(code).toMatch(/^\d{6}$/);
    const stored = await ctx.database.query<{ code_hash: string }>('select code_hash from password_resets');
    expect(stored.every((r) => r.code_hash !== code)).toBe(true);

    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await call(ctx, 'POST', '/api/system/user/password/reset', {
      body: { email: 'user@atrium.example', resetCode: wrongCode, password: 'N3w#Password!' },
    });
    expect(wrong).toMatchObject({ status: 400, body: { code: 1006 } });
    const weak = await call(ctx, 'POST', '/api/system/user/password/reset', {
      body: { email: 'user@atrium.example', resetCode: code, password: 'short' },
    });
    expect(weak.status).toBe(400);
    const done = await call(ctx, 'POST', '/api/system/user/password/reset', {
      body: { email: 'user@atrium.example', resetCode: code, password: 'N3w#Password!' },
    });
    expect(done).toMatchObject({ status: 200, body: { code: 200 } });
    expect(await call(ctx, 'POST', '/api/system/user/userInfoLogin', { token: oldSession })).toMatchObject({
      status: 401,
      body: { code: 1302 },
    });
    expect((await call(ctx, 'POST', '/api/system/user/login', { body: { account: 'user', password: 'User@123456' } })).body.code).toBe(
      1001,
    );
    expect((await call(ctx, 'POST', '/api/system/user/login', { body: { account: 'user', password: 'N3w#Password!' } })).status).toBe(200);
    // a code works once
    const reused = await call(ctx, 'POST', '/api/system/user/password/reset', {
      body: { email: 'user@atrium.example', resetCode: code, password: 'An0ther#Password' },
    });
    expect(reused.body.code).toBe(1006);
  });

  it('answers the same for an unknown address and sends nothing; a code expires and allows only five tries', async () => {
    const before = mailbox.messages.length;
    const unknown = await call(ctx, 'POST', '/api/system/user/password/reset-code', { body: { email: 'nobody@nowhere.example' } });
    expect(unknown).toEqual({ status: 200, body: { code: 200, message: 'ok', data: null } });
    const forUnknown = await call(ctx, 'POST', '/api/system/user/password/reset', {
      body: { email: 'nobody@nowhere.example', resetCode: '123456', password: 'N3w#Password!' },
    });
    expect(forUnknown).toMatchObject({ status: 400, body: { code: 1006 } });

    await call(ctx, 'POST', '/api/system/user/password/reset-code', { body: { email: 'ops@acme.example' } });
    const code = codeIn(await mailbox.next(before + 1));
    expect(mailbox.messages.length).toBe(before + 1);
    for (let i = 0; i < 5; i++) {
      const wrong = String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
      await call(ctx, 'POST', '/api/system/user/password/reset', {
        body: { email: 'ops@acme.example', resetCode: wrong, password: 'N3w#Password!' },
      });
    }
    const tooLate = await call(ctx, 'POST', '/api/system/user/password/reset', {
      body: { email: 'ops@acme.example', resetCode: code, password: 'N3w#Password!' },
    });
    expect(tooLate.body.code).toBe(1006);

    // twenty guesses at once (from as many addresses): one guarded UPDATE per attempt, so only five are checked
    await call(ctx, 'POST', '/api/system/user/password/reset-code', { body: { email: 'ops@acme.example' } });
    const raced = codeIn(await mailbox.next(before + 2));
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(ctx, 'POST', '/api/system/user/password/reset', {
          ip: `10.77.0.${i + 1}`,
          body: {
            email: 'ops@acme.example',
            resetCode: String((Number(raced) + 1 + i) % 1_000_000).padStart(6, '0'),
            password: 'N3w#Password!',
          },
        }),
      ),
    );
    const [attempts] = await ctx.database.query<{ n: number }>('select attempts::int as n from password_resets order by id desc limit 1');
    expect(attempts?.n).toBe(5);

    await call(ctx, 'POST', '/api/system/user/password/reset-code', { body: { email: 'ops@acme.example' } });
    const second = codeIn(await mailbox.next(before + 3));
    ctx.clock.advance(16 * 60_000);
    const expired = await call(ctx, 'POST', '/api/system/user/password/reset', {
      body: { email: 'ops@acme.example', resetCode: second, password: 'N3w#Password!' },
    });
    expect(expired.body.code).toBe(1006);
    expect((await call(ctx, 'POST', '/api/system/user/login', { body: { account: 'acme', password: 'Acme@123456' } })).status).toBe(200);
  });

  it('lets the owner of a locked account back in with a reset code', async () => {
    const signInFrom = (ip: string, password: string) =>
      call(ctx, 'POST', '/api/system/user/login', { body: { account: 'acme', password }, ip });
    // failures from many addresses lock the account for every new device
    for (let i = 0; i < LOCKOUT.accountThreshold; i++) await signInFrom(`10.8.${Math.floor(i / 4)}.1`, 'Wrong#password1');
    const owner = '10.8.99.1';
    expect((await signInFrom(owner, 'Acme@123456')).body.code).toBe(1003);
    const before = mailbox.messages.length;
    await call(ctx, 'POST', '/api/system/user/password/reset-code', { body: { email: 'ops@acme.example' }, ip: owner });
    const code = codeIn(await mailbox.next(before + 1));
    const reset = await call(ctx, 'POST', '/api/system/user/password/reset', {
      body: { email: 'ops@acme.example', resetCode: code, password: 'Acme#Renewed-2026' },
      ip: owner,
    });
    expect(reset.status).toBe(200);
    expect((await signInFrom(owner, 'Acme#Renewed-2026')).status).toBe(200);
    // and from the addresses that guessed, the new password is not locked either
    expect((await signInFrom('10.8.0.1', 'Acme#Renewed-2026')).status).toBe(200);
  });
});

describe.each(engines)('captcha, rate limits, switches off and the outbox on %s', (engine) => {
  let ctx: Ctx;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'atrium-outbox-'));
    ctx = await buildTestApp(engine, { CAPTCHA: 'on', REGISTRATION: 'off', LOGIN_RATE_LIMIT: '6', DATA_DIR: dataDir });
    ctx.app.captcha.draw = () => ({ text: 'Ab3D', data: '<svg xmlns="http://www.w3.org/2000/svg"><text>Ab3D</text></svg>' });
  });
  afterAll(async () => {
    await ctx?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const captcha = async (ip: string) =>
    (await call(ctx, 'GET', '/api/system/captcha', { ip })).body.data as { captchaId: string; image: string };

  it('issues SVG captchas whose answer is hashed, case-insensitive and good for one try', async () => {
    const issued = await captcha('10.0.0.1');
    expect(issued.captchaId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Buffer.from(issued.image.replace('data:image/svg+xml;base64,', ''), 'base64').toString()).toContain('<svg');
    const [stored] = await ctx.database.query<{ value: string }>('select value from kv_entries where key = $1', [
      `captcha:${issued.captchaId}`,
    ]);
    expect(stored?.value).toMatch(/^[0-9a-f]{64}$/);
    const login = (body: Record<string, unknown>) =>
      call(ctx, 'POST', '/api/system/user/login', { ip: '10.0.0.1', body: { account: 'admin', password: 'Admin@123456', ...body } });
    expect(await login({})).toMatchObject({ status: 400, body: { code: 1002 } });
    expect((await login({ captchaId: issued.captchaId, code: 'ab3d' })).status).toBe(200);
    expect((await login({ captchaId: issued.captchaId, code: 'ab3d' })).body.code).toBe(1002);
    const other = await captcha('10.0.0.1');
    expect((await login({ captchaId: other.captchaId, code: 'xxxx' })).body.code).toBe(1002);
    expect((await login({ captchaId: other.captchaId, code: 'Ab3D' })).body.code).toBe(1002);
    const late = await captcha('10.0.0.2');
    ctx.clock.advance(CAPTCHA_TTL_MS + 1000);
    const expired = await call(ctx, 'POST', '/api/system/user/login', {
      ip: '10.0.0.2',
      body: { account: 'admin', password: 'Admin@123456', captchaId: late.captchaId, code: 'AB3D' },
    });
    expect(expired.body.code).toBe(1002);
    const failures = await ctx.database.query(`select count(*)::int as n from login_logs where reason = 'captcha'`);
    expect(failures).toEqual([{ n: 5 }]);
  });

  it('rate limits sign-in per IP with a 429 envelope (LOGIN_RATE_LIMIT), other addresses unaffected', async () => {
    const attempt = (ip: string) => call(ctx, 'POST', '/api/system/user/login', { ip, body: { account: 'admin', password: 'nope' } });
    for (let i = 0; i < 6; i++) expect((await attempt('10.9.9.9')).status).not.toBe(429);
    const limited = await attempt('10.9.9.9');
    expect(limited).toMatchObject({ status: 429, body: { code: 429, message: 'Too many requests, please try again later' } });
    expect(limited.body.data.retryAfterSeconds).toBeGreaterThan(0);
    expect((await attempt('10.9.9.10')).status).toBe(400);
  });

  it('rate limits captcha, register and reset-code too', async () => {
    const statuses = async (method: 'GET' | 'POST', url: string, body: unknown, times: number) => {
      const seen: number[] = [];
      for (let i = 0; i < times; i++) seen.push((await call(ctx, method, url, { ip: '10.7.7.7', body })).status);
      return seen;
    };
    expect((await statuses('GET', '/api/system/captcha', undefined, 61)).at(-1)).toBe(429);
    expect((await statuses('POST', '/api/system/user/register', { accountId: 'x' }, 21)).at(-1)).toBe(429);
    expect((await statuses('POST', '/api/system/user/password/reset-code', { email: 'a@b.example' }, 11)).at(-1)).toBe(429);
  });

  it('refuses registration when REGISTRATION=off (1005)', async () => {
    const issued = await captcha('10.0.0.3');
    const answer = await call(ctx, 'POST', '/api/system/user/register', {
      ip: '10.0.0.3',
      body: {
        accountId: 'late',
        email: 'late@x.example',
        password: 'Str0ng#Passphrase',
        tenantName: 'Late',
        captchaId: issued.captchaId,
        code: 'ab3d',
      },
    });
    expect(answer).toMatchObject({ status: 403, body: { code: 1005 } });
    expect((await call(ctx, 'GET', '/api/system/meta')).body.data).toMatchObject({ captcha: true, registration: false });
  });

  it('writes mail as .eml files under DATA_DIR/outbox when no SMTP_URL is set', async () => {
    const issued = await captcha('10.0.0.4');
    const asked = await call(ctx, 'POST', '/api/system/user/password/reset-code', {
      ip: '10.0.0.4',
      body: { email: 'admin@atrium.example', captchaId: issued.captchaId, code: 'AB3D' },
    });
    expect(asked.status).toBe(200);
    await Promise.all([...ctx.app.pendingMail]);
    const files = await readdir(path.join(dataDir, 'outbox'));
    expect(files.filter((f) => f.endsWith('.eml'))).toHaveLength(1);
    const eml = await readFile(path.join(dataDir, 'outbox', files[0] as string), 'utf8');
    expect(eml).toMatch(/^To: admin@atrium\.example/m);
    // reset-code needs the captcha as well
    expect(
      (await call(ctx, 'POST', '/api/system/user/password/reset-code', { ip: '10.0.0.5', body: { email: 'admin@atrium.example' } })).body
        .code,
    ).toBe(1002);
  });
});

describe('first super admin with SEED=none', () => {
  it('refuses a weak ADMIN_PASSWORD with one clear line, and creates the first super admin from a good one', async () => {
    const testDatabase = await createTestDatabase('pglite');
    const database = await openDatabase(testDatabase.options);
    try {
      const weak = testConfig({ SEED: 'none', ADMIN_ACCOUNT: 'root', ADMIN_PASSWORD: 'password1' });
      await expect(seed(database, weak)).rejects.toThrow(ConfigError);
      await expect(seed(database, weak)).rejects.toThrow(/^Invalid configuration: ADMIN_PASSWORD is too weak/);
      await expect(seed(database, testConfig({ SEED: 'none' }))).rejects.toThrow(/ADMIN_PASSWORD is required/);
      const good = testConfig({ SEED: 'none', ADMIN_ACCOUNT: 'root', ADMIN_PASSWORD: 'Sup3r#Secret!x' });
      await seed(database, good);
      await seed(database, good);
      const app = await buildApp({ config: good, database, logger: false });
      const login = await app.inject({
        method: 'POST',
        url: '/api/system/user/login',
        payload: { account: 'root', password: 'Sup3r#Secret!x' },
      });
      const info = await app.inject({
        method: 'POST',
        url: '/api/system/user/userInfoLogin',
        headers: { authorization: `Bearer ${login.json().data.token}` },
      });
      expect(info.json().data).toMatchObject({ accountId: 'root', userType: '00', tenantCode: 'main', permissions: ['*:*:*'] });
      const demo = await database.query(`select count(*)::int as n from accounts where account_id in ('admin', 'user', 'acme')`);
      expect(demo).toEqual([{ n: 0 }]);
      await app.close();
    } finally {
      await database.close();
      await testDatabase.drop();
    }
  });
});
