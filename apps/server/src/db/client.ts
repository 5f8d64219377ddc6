import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type ExtractTablesWithRelations, sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg, NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { AnyPgColumn, PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { serverDir } from '../paths';
import { APP_ROLE, createAppRoleSql, grantAppRoleSql } from './roles';
import * as schema from './schema';

export const migrationsFolder = path.join(serverDir, 'drizzle');

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** What a raw `execute` answers on either engine. */
export type RawResult<T = Record<string, unknown>> = { rows: T[]; rowCount?: number | null; affectedRows?: number };

/** The target column list of an INSERT written out in SQL: the columns' own names, unqualified. */
export const columnList = (...columns: AnyPgColumn[]) =>
  sql.join(
    columns.map((c) => sql.identifier(c.name)),
    sql`, `,
  );
export type Engine = 'pglite' | 'postgres';

export type Database = {
  engine: Engine;
  migrationsFolder: string;
  db: Db;
  /** Told about every connection that fails outside a query (a backend terminated, a reset socket); set by the server to log. */
  onConnectionError?: (error: Error) => void;
  /** Connections in use and requests waiting for one (PostgreSQL; PGlite has one in-process connection). */
  poolStats(): { total: number; idle: number; waiting: number };
  /** Runs a raw statement and returns its rows (for health checks and catalog queries). */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /**
   * Runs `work` while holding the deployment's start-up lock (a PostgreSQL advisory lock), so that of
   * several instances starting at once one seeds at a time. Embedded: DATA_DIR is one process's anyway.
   */
  exclusively<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

/** The advisory lock key instances take to migrate and seed one at a time ("atrium" in ASCII). */
export const STARTUP_LOCK = 107_075_862_148_461n;

export type DatabaseOptions = { migrationsFolder?: string } & (
  | { engine: 'pglite'; dataDir: string }
  | { engine: 'postgres'; ownerUrl: string; appUrl?: string; poolSize?: number }
);

export class DatabaseError extends Error {}

/** The number of migrations committed in `drizzle/`; `/readyz` compares it with what the database applied. */
export function committedMigrationCount(folder = migrationsFolder): number {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
  return journal.entries.length;
}

/**
 * Migrates through the owner (superuser) connection, makes sure the application role exists with its
 * grants, closes the owner connection and returns a connection as the application role — which row-level
 * security applies to. Refuses to return a connection that could bypass row-level security.
 */
/** What the configuration says to open: PGlite in DATA_DIR, or PostgreSQL at DATABASE_URL (the owner) and DATABASE_APP_URL. */
export function configuredDatabase(config: {
  DATABASE_URL?: string;
  DATABASE_APP_URL?: string;
  DATABASE_POOL_SIZE?: number;
  DATA_DIR: string;
}): DatabaseOptions {
  return config.DATABASE_URL
    ? { engine: 'postgres', ownerUrl: config.DATABASE_URL, appUrl: config.DATABASE_APP_URL, poolSize: config.DATABASE_POOL_SIZE }
    : { engine: 'pglite', dataDir: path.join(config.DATA_DIR, 'pglite') };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const folder = options.migrationsFolder ?? migrationsFolder;
  const database = options.engine === 'pglite' ? await openPglite(options.dataDir, folder) : await openPostgres(options, folder);
  try {
    await assertNoRlsBypass(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

async function openPglite(dataDir: string, folder: string): Promise<Database> {
  const owner = await PGlite.create(dataDir);
  try {
    await owner.exec(createAppRoleSql());
    await migratePglite(drizzlePglite(owner, { schema }), { migrationsFolder: folder });
    await owner.exec(grantAppRoleSql());
  } finally {
    await owner.close();
  }
  const client = await PGlite.create(dataDir, { username: APP_ROLE });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    engine: 'pglite',
    migrationsFolder: folder,
    db,
    poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
    async query(text, params) {
      const result = await client.query(text, params as unknown[]);
      return result.rows as never[];
    },
    exclusively: (work) => work(),
    async close() {
      if (!client.closed) await client.close();
    },
  };
}

/** The application role's URL: DATABASE_APP_URL, or the owner URL with the application role as user. */
export function appUrlFor(ownerUrl: string, appUrl?: string): string {
  if (appUrl) return appUrl;
  const url = new URL(ownerUrl);
  url.username = APP_ROLE;
  url.password = '';
  return url.toString();
}

async function openPostgres(options: { ownerUrl: string; appUrl?: string; poolSize?: number }, folder: string): Promise<Database> {
  const owner = new pg.Client({ connectionString: options.ownerUrl, connectionTimeoutMillis: 5000 });
  // a connection lost while migrating fails the pending query (and start-up) instead of throwing from the emitter
  owner.on('error', () => {});
  try {
    await owner.connect();
  } catch (error) {
    throw new DatabaseError(`cannot connect to DATABASE_URL: ${(error as Error).message || String(error)}`);
  }
  try {
    // instances starting together on an empty database would each run the migrations (and race on
    // CREATE TABLE); the first to get the lock migrates, the others wait and then find nothing to do
    await owner.query('select pg_advisory_lock($1)', [STARTUP_LOCK.toString()]);
    await owner.query(createAppRoleSql());
    await migrateNodePg(drizzleNodePg(owner, { schema }), { migrationsFolder: folder });
    await owner.query(grantAppRoleSql());
  } finally {
    // ending the session releases the lock too
    await owner.end();
  }
  const database: Database = {
    engine: 'postgres',
    migrationsFolder: folder,
    db: undefined as unknown as Db,
    async query(text, params) {
      const result = await pool.query(text, params as unknown[]);
      return result.rows as never[];
    },
    poolStats: () => ({
      total: pool.totalCount + readPool.totalCount + statementPool.totalCount,
      idle: pool.idleCount + readPool.idleCount + statementPool.idleCount,
      waiting: pool.waitingCount + readPool.waitingCount + statementPool.waitingCount,
    }),
    async exclusively(work) {
      // a session-level lock on a connection of its own, held while `work` uses the pool
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK.toString()]);
        try {
          return await work();
        } finally {
          await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK.toString()]).catch((error: Error) => {
            broken = error;
          });
        }
      } finally {
        client.release(broken);
      }
    },
    async close() {
      await Promise.all([pool, readPool, statementPool].map((p) => (p.ended ? null : p.end())));
    },
  };
  const pool = makePool(options, database);
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  database.db = db;
  pools.set(db, pool);
  // reads of tenant rows (GET requests) go through connections of their own: read-only, each keeping
  // the tenant it last served, so a read is one statement instead of BEGIN, statement and COMMIT
  const readPool = makePool(options, database, '-c default_transaction_read_only=on');
  readPools.set(db, readPool);
  // lone writes that need no transaction of their own (log entries) go through connections that keep
  // their tenant as well: one statement instead of BEGIN with the tenant, the statement and COMMIT
  const statementPool = makePool({ ...options, poolSize: Math.ceil((options.poolSize ?? 10) / 2) }, database);
  statementPools.set(db, statementPool);
  return database;
}

/**
 * A pool whose every connection has an `error` listener for its whole life, checked out or idle: a
 * backend terminated by the server (failover, restart, pg_terminate_backend, an idle reaper) then fails
 * the query that runs on it — or the next one — instead of throwing from the emitter and ending the
 * process. pg-pool drops such a connection when it is released (it is no longer queryable).
 */
function makePool(options: { ownerUrl: string; appUrl?: string; poolSize?: number }, database: Database, settings?: string) {
  const pool = new pg.Pool({
    connectionString: appUrlFor(options.ownerUrl, options.appUrl),
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    ...(settings ? { options: settings } : {}),
  });
  const report = (error: Error) => database.onConnectionError?.(error);
  // an idle connection losing its server: pg-pool removes it; we only report it
  pool.on('error', report);
  pool.on('connect', (client) => {
    client.on('error', (error: Error) => {
      brokenClients.add(client);
      report(error);
    });
    preparedStatements(client);
  });
  return pool;
}

/** Connections that reported a lost server: never used again, never rolled back, discarded on release. */
const brokenClients = new WeakSet<pg.PoolClient>();

async function assertNoRlsBypass(database: Database): Promise<void> {
  const [role] = await database.query<{ rolname: string; rolsuper: boolean; rolbypassrls: boolean }>(
    'select rolname, rolsuper, rolbypassrls from pg_roles where rolname = current_user',
  );
  if (!role || role.rolsuper || role.rolbypassrls) {
    throw new DatabaseError(
      `refusing to serve as database role "${role?.rolname ?? 'unknown'}": it bypasses row-level security (superuser or BYPASSRLS)`,
    );
  }
}

/**
 * How the database's schema stands to this release: `current` (every migration this release ships is
 * applied, and no other), `behind` (some are missing: this release's code would read what is not there),
 * `ahead` (a newer release migrated it: by the expand-then-contract rule, ADR 031, the release just
 * before the one that migrated still works on it).
 */
export type SchemaState = { status: 'current' | 'behind' | 'ahead'; applied: number; known: number };

/** Database reachable and every committed migration applied (`schema` says how the two counts compare). */
export async function isReady(database: Database): Promise<{ ready: boolean; reason?: string; schema?: SchemaState }> {
  try {
    const [row] = await database.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
    const applied = row?.n ?? 0;
    const known = committedMigrationCount(database.migrationsFolder);
    const status = applied < known ? 'behind' : applied > known ? 'ahead' : 'current';
    const schema: SchemaState = { status, applied, known };
    if (status === 'behind')
      return { ready: false, reason: `schema behind: ${applied} of the ${known} migrations this release needs are applied`, schema };
    return { ready: true, schema };
  } catch (error) {
    return { ready: false, reason: (error as Error).message };
  }
}

/**
 * The transaction every tenant-scoped request runs in: `app.tenant_id` is set for this transaction only,
 * so row-level security shows and accepts that tenant's rows and nothing else.
 */
export async function withTenant<T>(db: Db, tenantId: number, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (!Number.isSafeInteger(tenantId) || tenantId <= 0) throw new Error('withTenant needs a tenant id');
  const pool = pools.get(db);
  if (pool) return pooledTenantTransaction(db, pool, tenantId, work);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('app.tenant_id', ${String(tenantId)}, true)`);
    return work(tx);
  });
}

/** The pool behind each PostgreSQL `Db`, for `pooledTenantTransaction`, its read-only pool and its pool for lone statements. */
const pools = new WeakMap<Db, pg.Pool>();
const readPools = new WeakMap<Db, pg.Pool>();
const statementPools = new WeakMap<Db, pg.Pool>();
/** The tenant a read or lone-statement connection's session is set to (`app.tenant_id`, session-wide). */
const servedTenant = new WeakMap<pg.PoolClient, number>();

/**
 * Runs reads of the tenant's rows. On PostgreSQL: on a read-only connection whose session is set to
 * this tenant (set first when it last served another: one extra statement), without a transaction —
 * under READ COMMITTED every statement takes its own snapshot inside a transaction too, so a read
 * loses nothing. The connection refuses writes (default_transaction_read_only). Row-level security
 * scopes the rows exactly as in `withTenant`. On PGlite: `withTenant`.
 */
export async function withTenantRead<T>(db: Db, tenantId: number, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (!Number.isSafeInteger(tenantId) || tenantId <= 0) throw new Error('withTenantRead needs a tenant id');
  const pool = readPools.get(db);
  if (!pool) return withTenant(db, tenantId, work);
  try {
    return await onKeptTenant(db, pool, tenantId, work);
  } catch (error) {
    // a read changes nothing: one that met a lost connection runs again on a fresh one
    if (!isConnectionError(error)) throw error;
    return onKeptTenant(db, pool, tenantId, work, 2);
  }
}

/**
 * Runs ONE writing statement of the tenant's, committed on its own: for a row that needs nothing else
 * in its transaction (an operation-log or sign-in-log entry). On PostgreSQL: on a connection of a pool
 * kept for this, whose session keeps the tenant it last served (set first when it served another: one
 * extra statement), without BEGIN and COMMIT — a lone statement is its own transaction, and row-level
 * security checks it exactly as in `withTenant`. `work` must run a single statement: a second one
 * would commit on its own. On PGlite: `withTenant`.
 */
export async function withTenantStatement<T>(db: Db, tenantId: number, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (!Number.isSafeInteger(tenantId) || tenantId <= 0) throw new Error('withTenantStatement needs a tenant id');
  const pool = statementPools.get(db);
  if (!pool) return withTenant(db, tenantId, work);
  return onKeptTenant(db, pool, tenantId, work);
}

/**
 * Runs `work` on a connection of a pool whose connections keep their tenant (reads, lone statements):
 * its session is set to the tenant first when it last served another, and the setting is recorded
 * only once it succeeded. A connection that lost its server is not reused.
 */
async function onKeptTenant<T>(db: Db, pool: pg.Pool, tenantId: number, work: (tx: Tx) => Promise<T>, attempt = 1): Promise<T> {
  const client = await pool.connect();
  if (servedTenant.get(client) !== tenantId) {
    servedTenant.delete(client);
    try {
      await client.query(`select set_config('app.tenant_id', '${tenantId}', false)`);
    } catch (error) {
      const lost = isConnectionError(error) || brokenClients.has(client);
      client.release(lost ? (error as Error) : undefined);
      // lost before the work began: nothing was done, so it may start again on a fresh connection
      if (lost && attempt === 1) return onKeptTenant(db, pool, tenantId, work, 2);
      throw error;
    }
    servedTenant.set(client, tenantId);
  }
  let broken: Error | undefined;
  try {
    return await work(clientTx(db, client));
  } catch (error) {
    // without a transaction, a statement that failed left nothing open on the connection
    if (isConnectionError(error) || brokenClients.has(client)) broken = error as Error;
    throw error;
  } finally {
    client.release(broken);
  }
}

/** A lost or refused connection, anywhere in the cause chain (drizzle wraps the driver's error). */
export function isConnectionError(error: unknown): boolean {
  for (
    let e = error as { code?: string; cause?: unknown; message?: string } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    const code = e.code ?? '';
    if (code.startsWith('08') || code.startsWith('57P') || code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNREFUSED')
      return true;
    if (/Connection terminated|not queryable|Client was closed/i.test(e.message ?? '')) return true;
  }
  return false;
}

/**
 * Drizzle's transaction object for a pooled connection, made once per connection: building one builds
 * the query helpers of every table (4 % of a list request's CPU when made per request). A pooled
 * connection serves one request at a time, and so does its transaction object.
 */
const clientTxs = new WeakMap<pg.PoolClient, Tx>();
function clientTx(db: Db, client: pg.PoolClient): Tx {
  let tx = clientTxs.get(client);
  if (!tx) {
    const { dialect, session: base } = db as unknown as DrizzleInternals;
    const session = new NodePgSession(client, dialect, base.schema, base.options);
    tx = new NodePgTransaction(dialect, session, base.schema) as unknown as Tx;
    clientTxs.set(client, tx);
  }
  return tx;
}

type DrizzleInternals = { dialect: ConstructorParameters<typeof NodePgSession>[1]; session: { schema: never; options: never } };

/**
 * `withTenant` on PostgreSQL in one round trip fewer: BEGIN and the tenant setting go as one simple
 * query (the id is a checked integer, never text), then drizzle's own transaction object runs the
 * work on that connection (savepoints included), then COMMIT — or ROLLBACK, and a connection that
 * cannot even roll back is discarded rather than returned to the pool.
 */
async function pooledTenantTransaction<T>(db: Db, pool: pg.Pool, tenantId: number, work: (tx: Tx) => Promise<T>, attempt = 1): Promise<T> {
  const client = await pool.connect();
  const tx = clientTx(db, client);
  try {
    await client.query(`begin; select set_config('app.tenant_id', '${tenantId}', true)`);
  } catch (error) {
    const lost = isConnectionError(error) || brokenClients.has(client);
    const rolledBack = lost
      ? false
      : await client.query('rollback').then(
          () => true,
          () => false,
        );
    client.release(rolledBack ? undefined : (error as Error));
    // lost before the work began: nothing was done, so it may start again on a fresh connection
    if (lost && attempt === 1) return pooledTenantTransaction(db, pool, tenantId, work, 2);
    throw error;
  }
  let broken: Error | undefined;
  try {
    const result = await work(tx);
    await client.query('commit');
    return result;
  } catch (error) {
    // a connection that lost its server cannot roll back (the server already did) and is not reused
    if (brokenClients.has(client) || isConnectionError(error)) broken = error as Error;
    else
      await client.query('rollback').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
    throw error;
  } finally {
    client.release(broken);
  }
}

const STATEMENTS_PER_CONNECTION = 500;

/**
 * Names every parameterised statement after a hash of its text, so each pooled connection parses and
 * plans a statement once and then only binds and executes it: planning a list query with its joins
 * and row-level-security quals costs more than running it. A connection keeps at most
 * STATEMENTS_PER_CONNECTION of them (texts beyond that run unnamed); idle connections close after 30 s.
 */
// statement texts are few and long: their names are kept rather than hashed again on every query
const names = new Map<string, string>();
function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `s${createHash('sha1').update(text).digest('base64url')}`;
    if (names.size < STATEMENTS_PER_CONNECTION * 4) names.set(text, name);
  }
  return name;
}

function preparedStatements(client: pg.PoolClient) {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const named = new Set<string>();
  client.query = ((config: unknown, ...rest: unknown[]) => {
    const c = config as { text?: unknown; name?: string; values?: unknown[] } | null;
    if (c && typeof c === 'object' && typeof c.text === 'string' && !c.name && (c.values?.length || rest[0])) {
      const name = statementName(c.text);
      if (named.has(name) || named.size < STATEMENTS_PER_CONNECTION) {
        named.add(name);
        return query({ ...c, name }, ...rest);
      }
    }
    return query(config, ...rest);
  }) as typeof client.query;
}

type Step = PromiseLike<unknown> | (() => unknown);

/**
 * Runs the queries of one transaction (one connection) one after the other and answers their results
 * like `Promise.all`. A connection runs one query at a time anyway: `Promise.all` on a transaction
 * only queued them inside pg, which is deprecated (pg 9 refuses it). Pass drizzle query builders (they
 * start when awaited) or functions that start the work (and may answer a value at once).
 */
export async function oneAtATime<const T extends readonly Step[]>(
  steps: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K] extends () => infer R ? R : T[K]> }> {
  const results: unknown[] = [];
  for (const step of steps) results.push(await (typeof step === 'function' ? step() : step));
  return results as never;
}
