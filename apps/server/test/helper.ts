import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp } from '../src/app';
import { type Config, loadConfig } from '../src/config';
import { type Database, type DatabaseOptions, type Engine, openDatabase } from '../src/db/client';
import { seed } from '../src/seed';

import { dropPostgresDatabase, postgresAdminUrl, postgresDatabaseUrl } from './postgres-admin';

export { postgresAdminUrl };

async function postgresReachable(): Promise<boolean> {
  if (process.env.ATRIUM_TEST_ENGINES === 'pglite') return false;
  const client = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Outside CI a missing PostgreSQL or Redis skips the suites that need it; with CI set it fails them,
 * so a CI run cannot pass without testing the production engines.
 */
export function unreachable(service: string, url: string): false {
  const ci = process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0';
  if (ci)
    throw new Error(
      service === 'Redis' || service === 'PostgreSQL'
        ? `${service} at ${url} is unreachable, and CI is set: start it (or point ${service === 'Redis' ? 'REDIS_URL_TEST' : 'DATABASE_URL_TEST'} at one)`
        : `${service} is not on ${url}, and CI is set: install it`,
    );
  return false;
}

/** PGlite always; PostgreSQL too when one answers (ATRIUM_TEST_ENGINES=pglite leaves it out). API suites run once per engine. */
export const engines: Engine[] =
  (await postgresReachable()) || (process.env.ATRIUM_TEST_ENGINES !== 'pglite' && unreachable('PostgreSQL', postgresAdminUrl))
    ? ['pglite', 'postgres']
    : ['pglite'];

/**
 * For suites whose assertions do not pass through SQL the two engines could answer differently: the broker's
 * own rules, the external broker's hook, and what the route layer decides before any query (the HTTP
 * contract, the authorization matrix of every route, fuzzing every route from its schema; PGlite is the same
 * PostgreSQL, so what differs between the engines is the driver, the pool and concurrency, which the domain
 * suites and the NUL-and-surrogate probes cover on both). One engine, PostgreSQL when it answers.
 */
export const oneEngine: Engine[] = [engines.includes('postgres') ? 'postgres' : 'pglite'];

/** The Redis server tests use: REDIS_URL_TEST or the local default. */
/**
 * A port for a server a test starts itself: 20000–32767, below Linux's ephemeral range (32768–60999),
 * where the suite's own outgoing connections take source ports: one of those held the chosen port
 * while `npm start` was still building, and the server could not bind it.
 */
export const testPort = () => 20000 + Math.floor(Math.random() * 12_768);

export const redisTestUrl = process.env.REDIS_URL_TEST ?? 'redis://127.0.0.1:6379';

/** Whether Redis answers (with CI set, an unreachable Redis fails the suite instead). */
export async function redisReachable(): Promise<boolean> {
  const client = new Redis(redisTestUrl, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
    if ((await client.ping()) === 'PONG') return true;
  } catch {
  } finally {
    client.disconnect();
  }
  return unreachable('Redis', redisTestUrl);
}

export type TestDatabase = { options: DatabaseOptions; ownerUrl?: string; drop(): Promise<void> };

/**
 * A fresh database of the given engine: a temp PGlite directory, or a new PostgreSQL database dropped
 * afterwards. Empty (migrated), or with `seeded` the demo data of `SEED=demo` in it already, copied from
 * the run's templates (global-setup.ts).
 */
export async function createTestDatabase(
  engine: Engine,
  migrationsFolder?: string,
  { seeded = false }: { seeded?: boolean } = {},
): Promise<TestDatabase> {
  if (seeded && migrationsFolder) throw new Error('a seeded test database has the real migrations');
  if (engine === 'pglite') {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'atrium-test-'));
    // a copy of the run's migrated template instead of a fresh initdb (see global-setup.ts)
    await cp(inject(seeded ? 'pgliteSeededTemplate' : 'pgliteTemplate'), dir, { recursive: true });
    return {
      options: { engine, dataDir: dir, migrationsFolder },
      drop: () => rm(dir, { recursive: true, force: true }),
    };
  }
  const name = `atrium_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  const template = seeded ? inject('postgresSeededTemplate') : '';
  if (seeded && !template) throw new Error('no seeded PostgreSQL template: was PostgreSQL reachable when the run started?');
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const ownerUrl = postgresDatabaseUrl(name);
  return {
    options: { engine, ownerUrl, migrationsFolder, poolSize: 4 },
    ownerUrl,
    drop: () => dropPostgresDatabase(name),
  };
}

/** The secrets key test apps run with (secrets/box.ts); a suite about keys passes its own. */
export const TEST_SECRETS_KEY = 'dGVzdC1rZXktZm9yLWF0cml1bS1zZWNyZXRzLTMyYiE=';

export function testConfig(overrides: Record<string, string> = {}): Config {
  // MQTT_WS_PORT 0: each test app's broker takes a free port, so parallel suites never collide
  return loadConfig({
    LOG_LEVEL: 'silent',
    CAPTCHA: 'off',
    SEED: 'demo',
    DATA_DIR: os.tmpdir(),
    MQTT_WS_PORT: '0',
    SECRETS_KEY: TEST_SECRETS_KEY,
    ...overrides,
  });
}

/** A clock tests move instead of sleeping: real time plus an offset. */
export function testClock() {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms: number) {
      offset += ms;
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof buildApp>> & { testDatabase: TestDatabase; database: Database };

/**
 * The whole app on a fresh database of `engine`, seeded like `npm start`; `close()` drops the database.
 * With the demo seed (the default) the database is a copy of the run's seeded template, which is what
 * seeding it here would give; another SEED seeds here.
 */
export async function buildTestApp(
  engine: Engine,
  overrides: Record<string, string> = {},
  extend?: (app: Awaited<ReturnType<typeof buildApp>>) => void | Promise<void>,
) {
  const seeded = (overrides.SEED ?? 'demo') === 'demo';
  const testDatabase = await createTestDatabase(engine, undefined, { seeded });
  const config = testConfig(overrides);
  const database = await openDatabase(testDatabase.options);
  const clock = testClock();
  const app = await buildApp({ config, database, logger: false, clock });
  // a suite may add routes of its own (fixtures) before the app is sealed
  await extend?.(app);
  if (!seeded) await seed(database, config);
  await app.ready();
  return {
    app,
    database,
    config,
    clock,
    async close() {
      await app.close();
      await testDatabase.drop();
    },
  };
}

/**
 * No account has a second factor, a recovery code or a pending sign-in or lock (the key-value entries),
 * every tenant's second-factor policy is optional, and no session is read from the cache.
 */
export async function withoutSecondFactors(ctx: Pick<Awaited<ReturnType<typeof buildTestApp>>, 'app' | 'database'>) {
  await ctx.database.query(`delete from account_factors`);
  await ctx.database.query(`delete from recovery_codes`);
  await ctx.database.query(`delete from kv_entries`);
  await ctx.database.query(`update tenants set mfa_policy = 'optional'`);
  ctx.app.sessions.invalidate();
}

/**
 * A suite's app on `engine` with sign-ins not rate-limited: built before the suite's tests and handed to
 * `ready` (which keeps it and signs in whom the tests need), closed after them.
 */
export function suiteApp(engine: Engine, ready: (ctx: Awaited<ReturnType<typeof buildTestApp>>) => Promise<void>) {
  let built: Awaited<ReturnType<typeof buildTestApp>> | undefined;
  beforeAll(async () => {
    built = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000' });
    await ready(built);
  });
  afterAll(async () => {
    await built?.close();
  });
}
