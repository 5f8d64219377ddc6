import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openDatabase } from '../src/db/client';
import { SESSION_TTL_MS } from '../src/modules/auth/session.service';
import { seed } from '../src/seed';
import { createTestDatabase, engines, redisReachable, redisTestUrl, type TestDatabase, testConfig } from './helper';

const redisUrl = redisTestUrl;

// two server instances need a shared PostgreSQL (PGlite is one process's)
const variants = engines.includes('postgres')
  ? [['database', {}] as const, ...((await redisReachable()) ? [['redis', { REDIS_URL: redisUrl }] as const] : [])]
  : [];

type App = Awaited<ReturnType<typeof buildApp>>;

async function call(app: App, method: 'GET' | 'POST', url: string, options: { token?: string; body?: unknown } = {}) {
  const response = await app.inject({
    method,
    url,
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    ...(options.body === undefined ? {} : { payload: options.body as Record<string, unknown> }),
  });
  return { status: response.statusCode, body: response.json() };
}

describe.skipIf(variants.length === 0).each(variants)('two server instances sharing state through the %s', (_name, extra) => {
  let testDatabase: TestDatabase;
  let one: App;
  let two: App;

  beforeAll(async () => {
    testDatabase = await createTestDatabase('postgres');
    const config = testConfig({ CAPTCHA: 'on', LOGIN_RATE_LIMIT: '100000', ...extra });
    one = await buildApp({ config, database: await openDatabase(testDatabase.options), logger: false });
    two = await buildApp({ config, database: await openDatabase(testDatabase.options), logger: false });
    await seed(one.database, config);
    for (const app of [one, two]) app.captcha.draw = () => ({ text: 'Kx7p', data: '<svg xmlns="http://www.w3.org/2000/svg"/>' });
    await Promise.all([one.ready(), two.ready()]);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await testDatabase?.drop();
  });

  const signIn = async (app: App, account: string, password: string) => {
    const captcha = (await call(app, 'GET', '/api/system/captcha')).body.data;
    return call(app, 'POST', '/api/system/user/login', { body: { account, password, captchaId: captcha.captchaId, code: 'kx7p' } });
  };

  it('checks on one instance a captcha issued by the other, once', async () => {
    const captcha = (await call(one, 'GET', '/api/system/captcha')).body.data;
    const body = { account: 'admin', password: 'Admin@123456', captchaId: captcha.captchaId, code: 'KX7P' };
    expect((await call(two, 'POST', '/api/system/user/login', { body })).status).toBe(200);
    expect((await call(one, 'POST', '/api/system/user/login', { body })).body.code).toBe(1002);
  });

  it('counts failed sign-ins across instances', async () => {
    for (const app of [one, two, one, two]) expect((await signIn(app, 'user', 'Wrong#password1')).body.code).toBe(1001);
    expect((await signIn(one, 'user', 'Wrong#password1')).body.code).toBe(1003);
    expect((await signIn(two, 'user', 'User@123456')).body.code).toBe(1003);
    // sign-in counts belong to the password: a new one starts them afresh
    await one.database.query(`update accounts set password_changed_at = now() where account_id = 'user'`);
  });

  it('refuses on one instance a session ended on the other (1302)', async () => {
    const token = (await signIn(one, 'user', 'User@123456')).body.data.token;
    // both instances have the session cached now
    expect((await call(one, 'POST', '/api/system/user/userInfoLogin', { token })).status).toBe(200);
    expect((await call(two, 'POST', '/api/system/user/userInfoLogin', { token })).status).toBe(200);
    const ended: unknown[] = [];
    two.events.on('session.ended', (event) => ended.push(event));
    await call(one, 'POST', '/api/system/user/logout', { token });
    const started = Date.now();
    let answer = await call(two, 'POST', '/api/system/user/userInfoLogin', { token });
    // without Redis the other instance trusts its cached session row for at most SESSION_TTL_MS
    while (answer.status === 200 && Date.now() - started < SESSION_TTL_MS + 2000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      answer = await call(two, 'POST', '/api/system/user/userInfoLogin', { token });
    }
    expect(answer.body.code).toBe(1302);
    if (extra && 'REDIS_URL' in extra) {
      // with the backplane the other instance knew at once, and told its own listeners (the broker)
      expect(Date.now() - started).toBeLessThan(1000);
      expect(ended).toEqual([expect.objectContaining({ reason: 'logout' })]);
    }
  });
});
