import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../src/app';
import { openDatabase } from '../src/db/client';
import { SESSION_TTL_MS } from '../src/modules/auth/session.service';
import { seed } from '../src/seed';
import { createTestDatabase, engines, redisReachable, redisTestUrl, type TestDatabase, testConfig, testPort } from './helper';

const redisUrl = redisTestUrl;

// two server instances need a shared PostgreSQL (PGlite is one process's)
const variants = engines.includes('postgres')
  ? [['database', {}] as const, ...((await redisReachable()) ? [['redis', { REDIS_URL: redisUrl }] as const] : [])]
  : [];

type App = Awaited<ReturnType<typeof buildApp>>;

async function call(app: App, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options: { token?: string; body?: unknown } = {}) {
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
    const heard = new Promise((resolve) => two.events.once('session.ended', resolve));
    await call(one, 'POST', '/api/system/user/logout', { token });
    if (extra && 'REDIS_URL' in extra) {
      // with the backplane the other instance hears it from Redis, drops its cached row and tells its own
      // listeners (the broker): once it has heard, its very next answer is 1302 (waiting for the event,
      // not for a time, whatever the machine's speed)
      await heard;
      expect(ended).toEqual([expect.objectContaining({ reason: 'logout' })]);
      expect((await call(two, 'POST', '/api/system/user/userInfoLogin', { token })).body.code).toBe(1302);
      return;
    }
    const started = Date.now();
    let answer = await call(two, 'POST', '/api/system/user/userInfoLogin', { token });
    // without Redis the other instance trusts its cached session row for at most SESSION_TTL_MS
    while (answer.status === 200 && Date.now() - started < SESSION_TTL_MS + 30_000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      answer = await call(two, 'POST', '/api/system/user/userInfoLogin', { token });
    }
    expect(answer.body.code).toBe(1302);
  });

  it('refuses on one instance, at its very next request, a personal API token revoked on the other', async () => {
    const session = (await signIn(one, 'user', 'User@123456')).body.data.token;
    const body = { name: 'two instances', expiresAt: new Date(Date.now() + 86_400_000).toISOString(), permissions: ['system:role:query'] };
    const created = (await call(one, 'POST', '/api/user/token', { token: session, body })).body.data;
    // both instances have used it (and cached the owner's access)
    for (const app of [one, two])
      expect((await call(app, 'POST', '/api/system/user/userInfoLogin', { token: created.token })).status).toBe(200);
    expect((await call(one, 'DELETE', `/api/user/token/${created.id}`, { token: session })).status).toBe(200);
    // the token's row is read at every request: no cache to wait for, with or without Redis
    for (const app of [two, one]) {
      const answer = await call(app, 'POST', '/api/system/user/userInfoLogin', { token: created.token });
      expect([answer.status, answer.body.code]).toEqual([401, 1302]);
    }
  });

  it('disconnects on one instance a printer and an agent whose identity ended on the other', async () => {
    const login = await call(two, 'POST', '/api/system/user/login', {
      body: {
        account: 'admin',
        password: 'Admin@123456',
        captchaId: (await call(two, 'GET', '/api/system/captcha')).body.data.captchaId,
        code: 'kx7p',
      },
    });
    const token = login.body.data.token as string;
    const sn = `SN${randomBytes(4).toString('hex')}`;
    const printer = await call(two, 'POST', '/api/mall/printer', {
      token,
      body: { name: 'Desk', vendor: 'mqtt', sn, deviceKey: 'device-key-1', paperWidth: 58, triggers: [] },
    });
    expect(printer.status).toBe(200);
    const enrol = (await call(two, 'POST', '/api/release/client/enrol-token', { token, body: {} })).body.data.token;
    const agent = (await call(two, 'POST', '/api/release/client/enrol', { body: { token: enrol, hostname: 'host' } })).body.data;
    expect((await call(two, 'PUT', `/api/release/client/${agent.id}/approve`, { token, body: {} })).status).toBe(200);
    const url = `ws://127.0.0.1:${one.realtime.port}/mqtt`;
    const device = await mqtt.connectAsync(url, {
      clientId: `printer-${sn}`,
      username: `printer:${sn}`,
      password: 'device-key-1',
      reconnectPeriod: 0,
    });
    const agentClient = await mqtt.connectAsync(url, {
      clientId: `agent-${agent.tenantId}-${agent.id}`,
      username: agent.username,
      password: agent.secret,
      reconnectPeriod: 0,
    });
    // fails (never hangs) when a connection stays open
    const gone = [device, agentClient].map(
      (client) =>
        new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`${client.options.clientId} is still connected`)), 30_000);
          client.once('close', () => {
            clearTimeout(timer);
            resolve();
          });
        }),
    );
    expect((await call(two, 'DELETE', `/api/mall/printer/${printer.body.data.id}`, { token })).status).toBe(200);
    expect((await call(two, 'PUT', `/api/release/client/${agent.id}/revoke`, { token, body: {} })).status).toBe(200);
    // with Redis the other instance hears of it at once; without, its periodic check finds it
    if (!(extra && 'REDIS_URL' in extra)) await one.realtime.revalidate();
    await Promise.all(gone);
    expect([device.connected, agentClient.connected]).toEqual([false, false]);
  });
});

// The same, with two compiled servers (`node dist/main.js`), each a process of its own as in production:
// nothing in memory is shared, only PostgreSQL and Redis.
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const twoProcesses = engines.includes('postgres') && (await redisReachable());

describe.skipIf(!twoProcesses)('two compiled server processes on PostgreSQL and Redis', () => {
  let testDatabase: TestDatabase;
  const runs: { child: ChildProcess; output: () => string; base: string }[] = [];
  const dataDirs: string[] = [];

  async function ready(run: (typeof runs)[number]) {
    const until = Date.now() + 120_000;
    while (Date.now() < until) {
      if (run.child.exitCode !== null) throw new Error(`an instance exited: ${run.output()}`);
      if (
        await fetch(`${run.base}/readyz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`an instance did not become ready: ${run.output()}`);
  }

  beforeAll(async () => {
    testDatabase = await createTestDatabase('postgres');
    for (const _ of [0, 1]) {
      const port = testPort();
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'atrium-instances-'));
      dataDirs.push(dataDir);
      const child = spawn(process.execPath, [inject('serverBuild')], {
        cwd: serverDir,
        env: {
          ...process.env,
          PORT: String(port),
          MQTT_WS_PORT: '0',
          DATA_DIR: dataDir,
          DATABASE_URL: testDatabase.ownerUrl as string,
          REDIS_URL: redisUrl,
          SEED: 'demo',
          CAPTCHA: 'off',
          LOGIN_RATE_LIMIT: '100000',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout?.on('data', (d) => (output += d));
      child.stderr?.on('data', (d) => (output += d));
      runs.push({ child, output: () => output, base: `http://127.0.0.1:${port}` });
    }
    // started together on an empty database: the advisory lock lets one migrate and seed
    await Promise.all(runs.map(ready));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(
      runs.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    await testDatabase?.drop();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  });

  const request = async (base: string, method: 'GET' | 'POST', url: string, token?: string, body?: unknown) => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: (await response.json()) as { code: number; data: { token: string } } };
  };

  it('accepts on B a token issued by A, and refuses it on A once B signed it out', async () => {
    const [a, b] = runs.map((run) => run.base) as [string, string];
    const login = await request(a, 'POST', '/api/system/user/login', undefined, { account: 'user', password: 'User@123456' });
    expect(login.body.code).toBe(200);
    const token = login.body.data.token;
    // A has the session cached now; B has never seen it
    expect((await request(a, 'POST', '/api/system/user/userInfoLogin', token)).body.code).toBe(200);
    expect((await request(b, 'POST', '/api/system/user/userInfoLogin', token)).body.code).toBe(200);

    expect((await request(b, 'POST', '/api/system/user/logout', token)).body.code).toBe(200);
    // A learns it through Redis (that Redis makes it prompt is held by the in-process suite above, which
    // waits for the event itself; here a bound on time would only measure the machine's speed)
    const started = Date.now();
    let answer = await request(a, 'POST', '/api/system/user/userInfoLogin', token);
    while (answer.status === 200 && Date.now() - started < SESSION_TTL_MS + 30_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      answer = await request(a, 'POST', '/api/system/user/userInfoLogin', token);
    }
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe(1302);
    expect((await request(b, 'POST', '/api/system/user/userInfoLogin', token)).body.code).toBe(1302);
  });
});
