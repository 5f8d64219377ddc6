import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, unreachable } from './helper';

// `npm test` installs Debian's redis-server when it is missing; run alone outside CI, a machine without
// one skips this suite, and with CI set a missing one fails it (a CI run cannot pass without it)
const hasRedisServer =
  spawnSync('redis-server', ['--version']).status === 0 ||
  unreachable('redis-server (the binary, for a Redis this suite stops and starts)', 'PATH');

/** A free TCP port on loopback for a private redis-server this suite may stop and start. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts a private, non-persisting redis-server and waits until it answers. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  probe.on('error', () => {});
  for (let i = 0; i < 100; i++) {
    try {
      await probe.connect();
      await probe.ping();
      probe.disconnect();
      return child;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('private redis-server did not start');
}

async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Redis away while the server runs and when it starts: sign-in keeps working on the database's shared
 * store (never a 500, never a hang — REQUEST_TIMEOUT_MS is 15 s here, so an answer that waited for Redis
 * to come back would be a 503, not the 200 asked for; generous, so a busy machine's slow sign-in is not one), and Redis is used again once it is back, without a restart.
 */
describe.skipIf(!hasRedisServer)('Redis outage', () => {
  const children: ChildProcess[] = [];
  const apps: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const child of children) await stopRedis(child);
  });

  const signIn = (ctx: Awaited<ReturnType<typeof buildTestApp>>) =>
    ctx.app.inject({ method: 'POST', url: '/api/system/user/login', payload: { account: 'admin', password: 'Admin@123456' } });
  const keys = async (port: number, pattern: string) => {
    const redis = new Redis({ port, host: '127.0.0.1' });
    try {
      return await redis.keys(pattern);
    } finally {
      redis.disconnect();
    }
  };

  it('signs in while Redis is stopped and goes back to Redis when it returns', async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    children.push(redis);
    const ctx = await buildTestApp('pglite', { REDIS_URL: `redis://127.0.0.1:${port}`, REQUEST_TIMEOUT_MS: '15000' });
    apps.push(ctx);
    expect((await signIn(ctx)).statusCode).toBe(200);
    // the sign-in rate-limit counter lives in Redis while it answers
    expect((await keys(port, '*rl:*')).length).toBeGreaterThan(0);

    await stopRedis(redis);
    for (let i = 0; i < 3; i++) {
      const down = await signIn(ctx);
      expect(down.statusCode, down.body).toBe(200);
      expect(down.json().data.token).toEqual(expect.any(String));
    }
    const ready = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().data).toMatchObject({ status: 'degraded', checks: { database: { status: 'up' }, redis: { status: 'down' } } });

    redis = await startRedis(port);
    children.push(redis);
    expect(await ctx.app.redis?.ready(30_000)).toBe(true);
    expect((await signIn(ctx)).statusCode).toBe(200);
    expect((await keys(port, '*rl:*')).length).toBeGreaterThan(0);
    expect((await ctx.app.inject({ method: 'GET', url: '/readyz' })).json().data.status).toBe('ready');
  });

  it('starts while Redis is down and uses it once it is up', async () => {
    const port = await freePort();
    const ctx = await buildTestApp('pglite', { REDIS_URL: `redis://127.0.0.1:${port}`, REQUEST_TIMEOUT_MS: '15000' });
    apps.push(ctx);
    expect((await signIn(ctx)).statusCode).toBe(200);
    const redis = await startRedis(port);
    children.push(redis);
    expect(await ctx.app.redis?.ready(30_000)).toBe(true);
    expect((await signIn(ctx)).statusCode).toBe(200);
    expect((await keys(port, '*rl:*')).length).toBeGreaterThan(0);
  });
});
