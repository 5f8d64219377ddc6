import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client';
import { databaseStore, redisStore, type SharedStore } from '../src/plugins/external/store';
import { createTestDatabase, engines, redisReachable, redisTestUrl, type TestDatabase, testClock } from './helper';

type Backend = { name: string; open(): Promise<{ store: SharedStore; clock: ReturnType<typeof testClock>; close(): Promise<void> }> };

const backends: Backend[] = engines.map((engine) => ({
  name: `database (${engine})`,
  async open() {
    const testDatabase: TestDatabase = await createTestDatabase(engine);
    const database: Database = await openDatabase(testDatabase.options);
    const clock = testClock();
    return {
      store: databaseStore(database, clock),
      clock,
      async close() {
        await database.close();
        await testDatabase.drop();
      },
    };
  },
}));
if (await redisReachable()) {
  backends.push({
    name: 'redis',
    async open() {
      const redis = new Redis(redisTestUrl, { maxRetriesPerRequest: 1 });
      // a prefix of its own: nothing another suite keeps is read or deleted
      const prefix = `atrium-store-test-${randomBytes(4).toString('hex')}:`;
      return {
        store: redisStore(redis, prefix),
        clock: testClock(),
        async close() {
          const keys = await redis.keys(`${prefix}*`);
          if (keys.length) await redis.del(keys);
          redis.disconnect();
        },
      };
    },
  });
}

/** The shared store's batch calls answer like their one-key twins, on every backend. */
describe.each(backends)('shared store on $name', (backend) => {
  let opened: Awaited<ReturnType<Backend['open']>> | undefined;
  const store = async () => {
    opened ??= await backend.open();
    return opened.store;
  };
  afterAll(async () => {
    await opened?.close();
  });

  it('reads several keys in the order asked, null for a missing one', async () => {
    const s = await store();
    await s.set('batch-a', 'one', 60_000);
    await s.set('batch-b', 'two', 60_000);
    expect(await s.getMany(['batch-b', 'batch-missing', 'batch-a'])).toEqual(['two', null, 'one']);
    expect(await s.getMany([])).toEqual([]);
  });

  it('deletes every key named at once and leaves the others', async () => {
    const s = await store();
    await s.set('del-a', '1', 60_000);
    await s.set('del-b', '2', 60_000);
    await s.set('del-c', '3', 60_000);
    await s.del('del-a', 'del-b', 'del-missing');
    expect(await s.getMany(['del-a', 'del-b', 'del-c'])).toEqual([null, null, '3']);
    await s.del('del-c');
    expect(await s.get('del-c')).toBeNull();
    await s.del();
  });

  it('reads a counter as its count, alone or in a batch', async () => {
    const s = await store();
    await s.incr('counted', 60_000);
    await s.incr('counted', 60_000);
    expect(await s.get('counted')).toBe('2');
    expect(await s.getMany(['counted', 'uncounted'])).toEqual(['2', null]);
  });

  it('answers a taken value once, and a value set again as the new one', async () => {
    const s = await store();
    await s.set('taken', 'first', 60_000);
    await s.set('taken', 'second', 60_000);
    expect(await s.take('taken')).toBe('second');
    expect(await s.take('taken')).toBeNull();
    expect(await s.get('taken')).toBeNull();
  });

  it.runIf(backend.name !== 'redis')('counts within a window from the first hit, says when it ends, then starts over', async () => {
    const s = await store();
    const clock = opened?.clock as ReturnType<typeof testClock>;
    const start = clock.now().getTime();
    const first = await s.incr('window', 10_000);
    expect(first.count).toBe(1);
    // the test clock runs on with real time between the calls: a few milliseconds at most
    expect(first.resetAt - start).toBeGreaterThanOrEqual(10_000);
    expect(first.resetAt - start).toBeLessThan(10_500);
    clock.advance(4_000);
    // a later hit counts on in the same window: its end does not move
    expect(await s.incr('window', 10_000)).toEqual({ count: 2, resetAt: first.resetAt });
    clock.advance(6_500);
    const next = await s.incr('window', 10_000);
    expect(next.count).toBe(1);
    expect(next.resetAt - first.resetAt).toBeGreaterThanOrEqual(10_500);
    // a counter set to a value reads as that value, and counting on it starts afresh
    await s.set('window', 'x', 10_000);
    expect(await s.get('window')).toBe('x');
  });

  it.runIf(backend.name !== 'redis')('does not answer an expired key in a batch', async () => {
    const s = await store();
    await s.set('expiring', 'x', 1_000);
    await s.set('lasting', 'y', 60_000);
    opened?.clock.advance(2_000);
    expect(await s.getMany(['expiring', 'lasting'])).toEqual([null, 'y']);
  });
});
