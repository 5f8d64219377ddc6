import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { kvEntries } from '../db/schema';

/**
 * Short-lived state every server instance must see alike: captcha answers, rate-limit counters,
 * lockouts. In Redis when REDIS_URL is set, otherwise in the database (`kv_entries`) — never only in
 * one process's memory, so a second instance behind the same load balancer agrees.
 */
export type SharedStore = {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Reads and deletes in one step: a second `take` of the same key answers null (single use). */
  take(key: string): Promise<string | null>;
  /** Counts within a window that starts with the first hit; answers the count and when the window ends. */
  incr(key: string, ttlMs: number): Promise<{ count: number; resetAt: number }>;
  del(key: string): Promise<void>;
  close(): Promise<void>;
};

declare module 'fastify' {
  interface FastifyInstance {
    store: SharedStore;
  }
}

export function databaseStore(database: Database, clock: Clock): SharedStore {
  const db = database.db;
  const live = (key: string) => and(eq(kvEntries.key, key), gt(kvEntries.expiresAt, clock.now()));
  let sweeps = 0;
  const sweep = async () => {
    // expired rows are deleted now and then rather than on a timer
    sweeps += 1;
    if (sweeps % 100 === 0) await db.delete(kvEntries).where(lte(kvEntries.expiresAt, clock.now()));
  };
  return {
    async get(key) {
      const [row] = await db.select({ value: kvEntries.value }).from(kvEntries).where(live(key));
      return row?.value ?? null;
    },
    async set(key, value, ttlMs) {
      const expiresAt = new Date(clock.now().getTime() + ttlMs);
      await db
        .insert(kvEntries)
        .values({ key, value, counter: 0, expiresAt })
        .onConflictDoUpdate({ target: kvEntries.key, set: { value, counter: 0, expiresAt } });
      await sweep();
    },
    async take(key) {
      const [row] = await db.delete(kvEntries).where(live(key)).returning({ value: kvEntries.value });
      return row?.value ?? null;
    },
    async incr(key, ttlMs) {
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + ttlMs);
      const [row] = await db
        .insert(kvEntries)
        .values({ key, counter: 1, expiresAt })
        .onConflictDoUpdate({
          target: kvEntries.key,
          set: {
            counter: sql`case when ${kvEntries.expiresAt} <= ${now} then 1 else ${kvEntries.counter} + 1 end`,
            expiresAt: sql`case when ${kvEntries.expiresAt} <= ${now} then ${expiresAt} else ${kvEntries.expiresAt} end`,
          },
        })
        .returning({ counter: kvEntries.counter, expiresAt: kvEntries.expiresAt });
      await sweep();
      return { count: row?.counter ?? 1, resetAt: (row?.expiresAt ?? expiresAt).getTime() };
    },
    async del(key) {
      await db.delete(kvEntries).where(eq(kvEntries.key, key));
    },
    async close() {},
  };
}

export function redisStore(url: string, prefix = 'atrium:'): SharedStore & { redis: Redis } {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true });
  return {
    redis,
    get: (key) => redis.get(prefix + key),
    async set(key, value, ttlMs) {
      await redis.set(prefix + key, value, 'PX', Math.max(1, Math.round(ttlMs)));
    },
    take: (key) => redis.getdel(prefix + key),
    async incr(key, ttlMs) {
      const k = prefix + key;
      const [[, count], [, ttl]] = (await redis.multi().incr(k).pttl(k).exec()) as [[null, number], [null, number]];
      let left = ttl;
      if (left < 0) {
        await redis.pexpire(k, Math.max(1, Math.round(ttlMs)));
        left = ttlMs;
      }
      return { count, resetAt: Date.now() + left };
    },
    async del(key) {
      await redis.del(prefix + key);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/**
 * The key prefix of one deployment in Redis (REDIS_PREFIX, see config.ts): deployments (and test
 * databases) sharing a Redis server never see each other's captchas, counters or session events.
 */
export function redisNamespace(config: Pick<Config, 'REDIS_PREFIX'>): string {
  return config.REDIS_PREFIX;
}

/** Decorates `app.store`: Redis when REDIS_URL is set, the database otherwise. */
export const storePlugin = fp(
  async (app: FastifyInstance) => {
    const store = app.config.REDIS_URL
      ? redisStore(app.config.REDIS_URL, redisNamespace(app.config))
      : databaseStore(app.database, app.clock);
    app.decorate('store', store);
    app.addHook('onClose', async () => {
      await store.close();
    });
  },
  { name: 'store', dependencies: ['database'] },
);
