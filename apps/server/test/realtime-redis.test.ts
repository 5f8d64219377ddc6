import { realtimeSubscription } from '@atrium/contracts/realtime';
import { Redis } from 'ioredis';
import type { MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openDatabase } from '../src/db/client';
import { seed } from '../src/seed';
import { createTestDatabase, engines, redisReachable, redisTestUrl, testConfig } from './helper';
import { brokerUrl, closed, collect, connect, type SignedIn, signIn } from './realtime-helpers';

const REDIS_URL = redisTestUrl;

const redisUp = await redisReachable();
if (!redisUp) console.warn(`Redis at ${REDIS_URL} is unreachable: the two-instance broker test is skipped`);

/** Two server instances on one database and one Redis, as behind a load balancer. */
describe.skipIf(!redisUp).each(engines)('two instances sharing Redis on %s', (engine) => {
  let a: Awaited<ReturnType<typeof buildApp>>;
  let b: Awaited<ReturnType<typeof buildApp>>;
  let drop: () => Promise<void>;
  let admin: SignedIn;
  let user: SignedIn;
  const open: MqttClient[] = [];

  beforeAll(async () => {
    const testDatabase = await createTestDatabase(engine);
    drop = () => testDatabase.drop();
    const database = await openDatabase(testDatabase.options);
    const config = testConfig({ REDIS_URL, LOGIN_RATE_LIMIT: '100000' });
    a = await buildApp({ config, database, logger: false });
    b = await buildApp({ config, database, logger: false });
    await seed(database, config);
    await Promise.all([a.ready(), b.ready()]);
    admin = await signIn(b, 'admin', 'Admin@123456', 'hq');
    user = await signIn(a, 'user', 'User@123456');
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.endAsync(true).catch(() => {})));
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await drop?.();
  });

  it('runs one broker per instance, each on its own port', () => {
    expect(a.realtime.live && b.realtime.live).toBe(true);
    expect(a.realtime.port).not.toBe(b.realtime.port);
  });

  it('delivers a notice sent through instance B to a client connected to instance A', async () => {
    const onA = await connect(brokerUrl(a.realtime.port), user, user.token);
    const onB = await connect(brokerUrl(b.realtime.port), user, user.token);
    open.push(onA, onB);
    const [inboxA, inboxB] = [collect(onA), collect(onB)];
    await onA.subscribeAsync(realtimeSubscription(user.clientKey), { qos: 2 });
    await onB.subscribeAsync(realtimeSubscription(user.clientKey), { qos: 2 });

    const response = await b.inject({
      method: 'POST',
      url: '/api/system/notice',
      headers: admin.auth,
      payload: { title: 'Across instances', scope: 'users', targetIds: [user.userId] },
    });
    expect(response.json()).toMatchObject({ code: 200, data: { recipients: 1, live: true } });
    for (const inbox of [inboxA, inboxB]) {
      const [message] = await inbox.waitFor(1);
      expect(message?.qos).toBe(2);
      expect(message?.body).toMatchObject({ notification: { title: 'Across instances' } });
    }
    // one notification, stored once, whichever instance it went through
    const box = await a.inject({ method: 'GET', url: '/api/system/notification', headers: user.auth });
    expect(box.json().data.list.filter((n: { title: string }) => n.title === 'Across instances')).toHaveLength(1);
  });

  it('keeps broker traffic in Redis under REDIS_PREFIX, so deployments sharing a Redis stay apart', async () => {
    const onA = await connect(brokerUrl(a.realtime.port), user, user.token);
    open.push(onA);
    const inbox = collect(onA);
    await onA.subscribeAsync(realtimeSubscription(user.clientKey), { qos: 2 });
    // every channel published on this Redis while the notice goes out
    const watcher = new Redis(REDIS_URL);
    const channels: string[] = [];
    watcher.on('pmessage', (_pattern, channel) => channels.push(channel));
    await watcher.psubscribe('*');
    try {
      const response = await b.inject({
        method: 'POST',
        url: '/api/system/notice',
        headers: admin.auth,
        payload: { title: 'Namespaced', scope: 'users', targetIds: [user.userId] },
      });
      expect(response.json().code).toBe(200);
      await inbox.waitFor(1);
    } finally {
      await watcher.quit();
    }
    const ours = channels.filter((channel) => channel.includes(user.clientKey));
    expect(ours.length).toBeGreaterThan(0);
    for (const channel of ours) expect(channel.startsWith(`${a.config.REDIS_PREFIX}mqtt:`)).toBe(true);
  });

  it('disconnects a client on instance A when its session ends through instance B', async () => {
    const session = await signIn(a, 'user', 'User@123456');
    const onA = await connect(brokerUrl(a.realtime.port), session, session.token);
    open.push(onA);
    const gone = closed(onA);
    const logout = await b.inject({ method: 'POST', url: '/api/system/user/logout', headers: session.auth });
    expect(logout.json().code).toBe(200);
    await gone;
  });
});
