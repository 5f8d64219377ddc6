// `npm run bench:faults [-- --drill kill|redis|restart]`: fault drills against a server process under
// read and write load. Every drill runs on a database of its own (created and dropped here) and, for
// Redis, a private redis-server on a free port: never on anything another process uses.
//   kill     pg_terminate_backend of the server's own connections, five times, one second apart
//            (a failover, a PgBouncer restart, an idle reaper)
//   redis    the private Redis stopped for 8 s under sign-ins, reads and writes, then started again
//   restart  stops and starts the local PostgreSQL cluster (pg_ctlcluster): only on a machine of your
//            own, never with other users of that cluster; not run unless asked for
// Reports answers by phase and status, answer times while faulty, time to recover, and acknowledged
// writes against stored rows.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { benchPostgresAdminUrl, postgresReachable } from './engines';
import { startProcess } from './server-process';

const argv = process.argv.slice(2);
const asked = argv.find((a) => a.startsWith('--drill='))?.split('=')[1] ?? argv[argv.indexOf('--drill') + 1];
const drills = asked && argv.some((a) => a.startsWith('--drill')) ? [asked] : ['kill', 'redis'];
for (const drill of drills) if (!['kill', 'redis', 'restart'].includes(drill)) throw new Error(`unknown drill ${drill}`);
const port = Number(process.env.FAULTS_PORT ?? 18940);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

if (!(await postgresReachable())) {
  console.error(`bench:faults needs PostgreSQL at ${benchPostgresAdminUrl} (BENCH_DATABASE_ADMIN_URL).`);
  process.exit(1);
}

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

async function startRedis(redisPort: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 100; i++) {
    try {
      execFileSync('redis-cli', ['-p', String(redisPort), 'ping'], { stdio: 'pipe' });
      return child;
    } catch {
      await sleep(100);
    }
  }
  throw new Error('private redis-server did not start');
}

async function stopRedis(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] : undefined;
};

async function drill(name: string) {
  const database = `atrium_faults_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: benchPostgresAdminUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const ownerUrl = new URL(benchPostgresAdminUrl);
  ownerUrl.pathname = `/${database}`;
  let redis: ChildProcess | undefined;
  const redisPort = name === 'redis' ? await freePort() : 0;
  if (name === 'redis') redis = await startRedis(redisPort);
  const env: Record<string, string> = {
    PORT: String(port),
    MQTT_WS_PORT: String(port + 3),
    CAPTCHA: 'off',
    SEED: 'demo',
    LOGIN_RATE_LIMIT: '100000',
    LOG_LEVEL: 'warn',
    SHUTDOWN_DRAIN_MS: '0',
    DATABASE_URL: ownerUrl.toString(),
    DATA_DIR: path.join(os.tmpdir(), `atrium-faults-${database}`),
    ...(redis ? { REDIS_URL: `redis://127.0.0.1:${redisPort}` } : {}),
  };
  const server = await startProcess('apps/server/src/main.ts', env, port);
  let phase: 'before' | 'fault' | 'after' = 'before';
  const statuses = new Map<string, number>();
  const faultTimes: number[] = [];
  const acknowledged: string[] = [];
  let faultEnded = 0;
  let recoveredAfter: number | undefined;
  let running = true;
  let n = 0;
  try {
    const login = async () =>
      fetch(`${server.url}/api/system/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ account: 'admin', password: 'Admin@123456' }),
      });
    const token = ((await (await login()).json()) as { data?: { token?: string } }).data?.token;
    if (!token) throw new Error('sign-in failed');
    const record = (kind: string, started: number, status: string, ok: boolean) => {
      const key = `${phase.padEnd(6)} ${kind.padEnd(7)} ${status}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      if (phase === 'fault') faultTimes.push(Date.now() - started);
      if (phase === 'after' && ok && recoveredAfter === undefined) recoveredAfter = Date.now() - faultEnded;
    };
    const loop = (kind: 'write' | 'read' | 'sign-in') => async () => {
      while (running) {
        const started = Date.now();
        const code = `fault-${++n}`;
        try {
          const response =
            kind === 'sign-in'
              ? await login()
              : await fetch(`${server.url}/api/system/post${kind === 'read' ? '?pageSize=20' : ''}`, {
                  method: kind === 'read' ? 'GET' : 'POST',
                  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
                  ...(kind === 'write' ? { body: JSON.stringify({ code, name: code, orderNum: 1, status: '0' }) } : {}),
                });
          const body = (await response.json()) as { code: number };
          if (kind === 'write' && body.code === 200) acknowledged.push(code);
          record(kind, started, `${response.status}/${body.code}`, body.code === 200);
        } catch (error) {
          record(kind, started, `transport error ${(error as { cause?: { code?: string } }).cause?.code ?? ''}`, false);
        }
      }
    };
    const kinds: ('write' | 'read' | 'sign-in')[] = ['write', 'write', 'write', 'read', 'read', 'read'];
    if (name === 'redis') kinds.push('sign-in', 'sign-in');
    const load = kinds.map((kind) => loop(kind)());
    await sleep(5000);
    phase = 'fault';
    let terminated = 0;
    if (name === 'kill') {
      for (let i = 0; i < 5; i++) {
        const result = await admin.query<{ n: number }>(
          `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and usename = 'atrium_app'`,
          [database],
        );
        terminated += result.rows[0]?.n ?? 0;
        await sleep(1000);
      }
    } else if (name === 'redis' && redis) {
      await stopRedis(redis);
      await sleep(8000);
      redis = await startRedis(redisPort);
    } else {
      const version = process.env.PG_CLUSTER_VERSION ?? readdirSync('/etc/postgresql')[0];
      const cluster = [version as string, process.env.PG_CLUSTER_NAME ?? 'main'];
      execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', ...cluster, 'restart', '-m', 'fast'], { stdio: 'inherit' });
      await sleep(3000);
    }
    faultEnded = Date.now();
    phase = 'after';
    let redisBackMs: number | undefined;
    if (name === 'redis') {
      while (redisBackMs === undefined && Date.now() - faultEnded < 30_000) {
        const ready = (await (await fetch(`${server.url}/readyz`)).json()) as { data: { checks?: { redis?: { status: string } } } };
        if (ready.data.checks?.redis?.status === 'up') redisBackMs = Date.now() - faultEnded;
        else await sleep(100);
      }
    }
    await sleep(5000);
    running = false;
    await Promise.all(load);
    const alive = server.child.exitCode === null;

    const owner = new pg.Client({ connectionString: ownerUrl.toString() });
    await owner.connect();
    const found = await owner.query('select code from posts where code = any($1::text[])', [acknowledged]);
    await owner.end();
    console.log(`\n== drill: ${name}${name === 'kill' ? ` (${terminated} backends terminated)` : ''}`);
    console.log('answers by phase, kind and HTTP status / envelope code:');
    for (const [key, count] of [...statuses].sort()) console.log(`  ${key.padEnd(40)} ${count}`);
    console.log(`while faulty: median answer ${percentile(faultTimes, 0.5) ?? '-'} ms, p99 ${percentile(faultTimes, 0.99) ?? '-'} ms`);
    console.log(`first success after the fault ended: ${recoveredAfter ?? '-'} ms`);
    if (name === 'redis') console.log(`readyz reports Redis up again after: ${redisBackMs ?? 'not within 30 s'} ms`);
    console.log(`acknowledged writes ${acknowledged.length}, stored ${found.rowCount}`);
    console.log(alive ? 'server process still running' : 'SERVER PROCESS EXITED');
    const unexpected = [...statuses.keys()].filter((k) => !/ (200\/200|503\/503)$/.test(k));
    if (unexpected.length) console.log(`unexpected answers: ${unexpected.join(', ')}`);
    return alive && found.rowCount === acknowledged.length && recoveredAfter !== undefined && unexpected.length === 0;
  } finally {
    running = false;
    await server.stop();
    if (redis) await stopRedis(redis);
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  }
}

let ok = true;
for (const name of drills) ok = (await drill(name)) && ok;
process.exitCode = ok ? 0 : 1;
