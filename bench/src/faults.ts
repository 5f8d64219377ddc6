// `npm run bench:faults`: on PostgreSQL, stop the database during write load and start it again.
// While it is down requests must fail fast with a 503 envelope; afterwards the server must recover on
// its own, and every write acknowledged with code 200 must be in the database.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import pg from 'pg';
import { BENCH_ACCOUNT, BENCH_PASSWORD, benchOwnerUrl, postgresReachable, serverEnv } from './engines';
import { startProcess } from './server-process';

const cluster = () => {
  const version = process.env.PG_CLUSTER_VERSION ?? readdirSync('/etc/postgresql')[0];
  return [version as string, process.env.PG_CLUSTER_NAME ?? 'main'];
};
const pgctl = (action: 'stop' | 'start') =>
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', ...cluster(), action, ...(action === 'stop' ? ['-m', 'fast'] : [])], {
    stdio: 'inherit',
  });

if (!(await postgresReachable())) {
  console.error('bench:faults needs the local PostgreSQL cluster (pg_ctlcluster) and the bench database.');
  process.exit(1);
}
const port = 18940;
const server = await startProcess('apps/server/src/main.ts', serverEnv('postgres', port), port);
const acknowledged: string[] = [];
const statuses = new Map<string, number>();
let downLatencies: number[] = [];
let phase: 'before' | 'down' | 'after' = 'before';
try {
  const login = await fetch(`${server.url}/api/system/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: BENCH_ACCOUNT, password: BENCH_PASSWORD }),
  });
  const token = ((await login.json()) as { data?: { token?: string } }).data?.token;
  if (!token) throw new Error('bench sign-in failed; run npm run bench:seed first');
  let n = 0;
  let running = true;
  const writer = async () => {
    while (running) {
      const code = `fault-${process.pid}-${++n}`;
      const started = Date.now();
      try {
        const response = await fetch(`${server.url}/api/system/post`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ code, name: `Fault ${n}`, orderNum: 1, status: '0' }),
        });
        const body = (await response.json()) as { code: number };
        const key = `${phase} ${response.status}/${body.code}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        if (body.code === 200) acknowledged.push(code);
        if (phase === 'down') downLatencies.push(Date.now() - started);
      } catch (error) {
        const key = `${phase} transport error`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        void error;
      }
    }
  };
  const writers = Array.from({ length: 10 }, writer);
  await new Promise((r) => setTimeout(r, 5000));
  phase = 'down';
  pgctl('stop');
  await new Promise((r) => setTimeout(r, 8000));
  pgctl('start');
  phase = 'after';
  await new Promise((r) => setTimeout(r, 10_000));
  running = false;
  await Promise.all(writers);
  downLatencies = downLatencies.sort((a, b) => a - b);

  const client = new pg.Client({ connectionString: benchOwnerUrl() });
  await client.connect();
  const found = await client.query('select code from posts where code = any($1::text[])', [acknowledged]);
  await client.end();
  const missing = acknowledged.length - found.rowCount!;
  console.log('answers by phase (HTTP status / envelope code):');
  for (const [key, count] of [...statuses].sort()) console.log(`  ${key.padEnd(28)} ${count}`);
  console.log(
    `while down: median answer ${downLatencies[Math.floor(downLatencies.length / 2)] ?? '-'} ms, p99 ${downLatencies[Math.floor(downLatencies.length * 0.99)] ?? '-'} ms`,
  );
  console.log(`acknowledged writes ${acknowledged.length}, missing afterwards ${missing}`);
  const recovered = [...statuses.keys()].some((k) => k.startsWith('after 200/200'));
  console.log(recovered ? 'recovered without a restart' : 'DID NOT RECOVER');
  process.exitCode = missing === 0 && recovered ? 0 : 1;
} finally {
  await server.stop();
}
