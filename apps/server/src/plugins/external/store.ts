import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Database, Db, Tx } from '../../db/client';
import { kvEntries } from '../../db/schema';
import { builtStatements, statementCache } from '../../db/statements';

/**
 * Short-lived state every server instance must see alike: captcha answers, rate-limit counters,
 * lockouts. In Redis when REDIS_URL is set, otherwise in the database (`kv_entries`) — never only in
 * one process's memory, so a second instance behind the same load balancer agrees.
 */
export type SharedStore = {
  get(key: string): Promise<string | null>;
  /** Several keys in one round trip, in the order asked. */
  getMany(keys: string[]): Promise<(string | null)[]>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Reads and deletes in one step: a second `take` of the same key answers null (single use). */
  take(key: string): Promise<string | null>;
  /** Counts within a window that starts with the first hit; answers the count and when the window ends. */
  incr(key: string, ttlMs: number): Promise<{ count: number; resetAt: number }>;
  /** Deletes every key named, in one round trip. */
  del(...keys: string[]): Promise<void>;
  close(): Promise<void>;
};

declare module 'fastify' {
  interface FastifyInstance {
    store: SharedStore;
  }
}

/** A row's value; a counter (written by `incr`, no value) reads as its count, as an INCR key does in Redis. */
const storedValue = (row: { value: string | null; counter: number }) => row.value ?? String(row.counter);

// every store call sends one statement: each is built once (crud/statements.ts) and then only bound
const p = sql.placeholder;
const reads = statementCache('shared store');
const writes = builtStatements('shared store');
const stored = { key: kvEntries.key, value: kvEntries.value, counter: kvEntries.counter };
/** `key in ($keys.0, $keys.1, …)`, one shape per number of keys */
const keysIn = (count: number) =>
  sql`${kvEntries.key} in (${sql.join(
    Array.from({ length: count }, (_, i) => p(`keys.${i}`)),
    sql`, `,
  )})`;
const keyValues = (keys: string[], values: Record<string, unknown> = {}) => {
  keys.forEach((key, i) => {
    values[`keys.${i}`] = key;
  });
  return values;
};
const incrStatement = (db: Db | Tx) =>
  db
    .insert(kvEntries)
    .values({ key: p('key'), counter: sql`1`, expiresAt: p('expiresAt') } as never)
    .onConflictDoUpdate({
      target: kvEntries.key,
      set: {
        counter: sql`case when ${kvEntries.expiresAt} <= ${p('now')} then 1 else ${kvEntries.counter} + 1 end`,
        expiresAt: sql`case when ${kvEntries.expiresAt} <= ${p('now')} then ${p('expiresAt')} else ${kvEntries.expiresAt} end`,
      },
    })
    .returning({ counter: kvEntries.counter, expiresAt: kvEntries.expiresAt });

export function databaseStore(database: Database, clock: Clock): SharedStore {
  const db = database.db;
  let sweeps = 0;
  const sweep = async () => {
    // expired rows are deleted now and then rather than on a timer
    sweeps += 1;
    if (sweeps % 100 === 0) await db.delete(kvEntries).where(lte(kvEntries.expiresAt, clock.now()));
  };
  const many = (keys: string[]) =>
    reads<{ key: string; value: string | null; counter: number }>(
      db,
      `get:${keys.length}`,
      (tx) =>
        tx
          .select(stored)
          .from(kvEntries)
          .where(and(keysIn(keys.length), gt(kvEntries.expiresAt, p('now')))),
      keyValues(keys, { now: clock.now() }),
    );
  return {
    async get(key) {
      const [row] = await many([key]);
      return row ? storedValue(row) : null;
    },
    async getMany(keys) {
      if (keys.length === 0) return [];
      const found = new Map((await many(keys)).map((r) => [r.key, storedValue(r)]));
      return keys.map((k) => found.get(k) ?? null);
    },
    async set(key, value, ttlMs) {
      const expiresAt = new Date(clock.now().getTime() + ttlMs);
      await writes(
        db,
        'set',
        (tx) =>
          tx
            .insert(kvEntries)
            .values({ key: p('key'), value: p('value'), counter: sql`0`, expiresAt: p('expiresAt') } as never)
            .onConflictDoUpdate({ target: kvEntries.key, set: { value: p('value'), counter: sql`0`, expiresAt: p('expiresAt') } as never }),
        { key, value, expiresAt },
      );
      await sweep();
    },
    async take(key) {
      const { rows } = await writes<{ value: string | null }>(
        db,
        'take',
        (tx) =>
          tx
            .delete(kvEntries)
            .where(and(eq(kvEntries.key, p('key')), gt(kvEntries.expiresAt, p('now'))))
            .returning({ value: kvEntries.value }),
        { key, now: clock.now() },
      );
      return rows[0]?.value ?? null;
    },
    async incr(key, ttlMs) {
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + ttlMs);
      const { rows } = await writes<{ counter: number; expires_at: unknown }>(db, 'incr', incrStatement, { key, now, expiresAt });
      await sweep();
      const row = rows[0];
      // raw rows: the column decodes its own value, as drizzle's mapping would
      const resetAt = row ? (kvEntries.expiresAt.mapFromDriverValue(row.expires_at as string) as Date) : expiresAt;
      return { count: Number(row?.counter ?? 1), resetAt: resetAt.getTime() };
    },
    async del(...keys) {
      if (keys.length === 0) return;
      await writes(db, `del:${keys.length}`, (tx) => tx.delete(kvEntries).where(keysIn(keys.length)), keyValues(keys));
    },
    async close() {},
  };
}

/** The shared store in Redis, through a fail-fast client (see `failFast`: no queueing while Redis is away). */
export function redisStore(redis: Redis, prefix = 'atrium:'): SharedStore & { redis: Redis } {
  return {
    redis,
    get: (key) => redis.get(prefix + key),
    getMany: async (keys) => (keys.length === 0 ? [] : redis.mget(keys.map((k) => prefix + k))),
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
    async del(...keys) {
      if (keys.length > 0) await redis.del(keys.map((k) => prefix + k));
    },
    // the client belongs to the Redis watch, which closes it
    async close() {},
  };
}

/**
 * The key prefix of one deployment in Redis (REDIS_PREFIX, see config.ts): deployments (and test
 * databases) sharing a Redis server never see each other's captchas, counters or session events.
 */
export function redisNamespace(config: Pick<Config, 'REDIS_PREFIX'>): string {
  return config.REDIS_PREFIX;
}

/**
 * Redis while it answers, the database (`kv_entries`) while it does not: captcha answers, rate-limit
 * counters and lockouts stay shared by every instance through an outage, so limits keep holding and
 * sign-in keeps working. A key written on one side is not seen on the other: a captcha shown before the
 * switch must be asked again, and a counter starts over once on each switch.
 */
export function failoverStore(primary: SharedStore, fallback: SharedStore, usable: () => boolean): SharedStore {
  const run =
    <A extends unknown[], R>(pick: (store: SharedStore) => (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (!usable()) return pick(fallback)(...args);
      try {
        return await pick(primary)(...args);
      } catch {
        // Redis failed this command (connection lost, timed out): the watch logs the outage once
        return pick(fallback)(...args);
      }
    };
  return {
    get: run((s) => s.get),
    getMany: run((s) => s.getMany),
    set: run((s) => s.set),
    take: run((s) => s.take),
    incr: run((s) => s.incr),
    del: run((s) => s.del),
    async close() {
      await Promise.allSettled([primary.close(), fallback.close()]);
    },
  };
}

/** Decorates `app.store`: Redis when REDIS_URL is set (with the database while Redis is away), the database otherwise. */
export const storePlugin = fp(
  async (app: FastifyInstance) => {
    const database = databaseStore(app.database, app.clock);
    let store = database;
    if (app.redis) {
      const redis = app.redis.client('store');
      store = failoverStore(redisStore(redis, redisNamespace(app.config)), database, () => redis.status === 'ready');
      // start-up waits a moment for Redis, then goes on without it
      await app.redis.ready(2000);
    }
    app.decorate('store', store);
    app.addHook('onClose', async () => {
      await store.close();
    });
  },
  { name: 'store', dependencies: ['database', 'redis'] },
);
