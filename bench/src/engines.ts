import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export type BenchEngine = 'postgres' | 'pglite';

export const benchPostgresAdminUrl = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const benchDatabaseName = process.env.BENCH_DATABASE ?? 'atrium_bench';
/** The first of the ports a bench uses (server, ceilings): `BENCH_PORT`, so two benches can run side by side. */
export const benchPort = Number(process.env.BENCH_PORT ?? 18900);
export const benchDataDir = process.env.BENCH_DATA_DIR ?? path.join(os.tmpdir(), 'atrium-bench-data');

export function benchOwnerUrl(): string {
  const url = new URL(benchPostgresAdminUrl);
  url.pathname = `/${benchDatabaseName}`;
  return url.toString();
}

export function engineFromArgs(argv = process.argv.slice(2)): BenchEngine {
  const index = argv.indexOf('--engine');
  const value = index >= 0 ? argv[index + 1] : argv.find((a) => a.startsWith('--engine='))?.split('=')[1];
  if (value === 'pglite' || value === 'postgres') return value;
  if (value) throw new Error(`--engine must be postgres or pglite, not ${value}`);
  return 'postgres';
}

export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: benchPostgresAdminUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The server's environment for a bench run on the given engine. */
export function serverEnv(engine: BenchEngine, port: number): Record<string, string> {
  const base = {
    PORT: String(port),
    MQTT_WS_PORT: String(port + 3),
    CAPTCHA: 'off',
    SEED: 'none',
    ADMIN_ACCOUNT: 'bench-root',
    ADMIN_PASSWORD: 'Bench-Root@2026!',
    LOGIN_RATE_LIMIT: '100000',
    LOG_LEVEL: 'warn',
    // a bench stops its server at once: no load balancer to drain from
    SHUTDOWN_DRAIN_MS: '0',
  };
  return engine === 'postgres'
    ? { ...base, DATABASE_URL: benchOwnerUrl(), DATA_DIR: path.join(os.tmpdir(), 'atrium-bench-pg-files') }
    : { ...base, DATA_DIR: benchDataDir };
}

export const BENCH_ACCOUNT = 'bench-admin';
export const BENCH_PASSWORD = 'Bench@2026-Admin';
