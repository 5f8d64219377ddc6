// `npm run bench [-- --engine pglite] [--duration 10]`: API scenarios with autocannon against the real
// server on the bench database (run `npm run bench:seed` first), each printed with its ratio to two
// ceilings measured in the same run on the same machine.
import { hash, verify } from '@node-rs/argon2';
import autocannon from 'autocannon';
import pg from 'pg';
import { measureColdLoads } from './browser';
import { BENCH_ACCOUNT, BENCH_PASSWORD, benchOwnerUrl, engineFromArgs, postgresReachable, serverEnv } from './engines';
import { lighthouseLogin } from './lighthouse';
import { serverEntry, startProcess } from './server-process';

const engine = engineFromArgs();
const args = process.argv.slice(2);
const durationArg = args.indexOf('--duration');
const duration = durationArg >= 0 ? Number(args[durationArg + 1]) : 10;
const only = args.find((a) => a.startsWith('--only='))?.split('=')[1];

type Row = {
  name: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  ceiling?: 'json' | 'pg';
};

async function load(name: string, options: autocannon.Options & { ceiling?: 'json' | 'pg' }): Promise<Row> {
  const connections = options.connections ?? 50;
  // warm-up, not counted
  await autocannon({ ...options, connections, duration: Math.min(3, duration) });
  const result = await autocannon({ ...options, connections, duration });
  return {
    name,
    connections,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    ceiling: options.ceiling,
  };
}

async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/api/system/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: BENCH_ACCOUNT, password: BENCH_PASSWORD }),
  });
  const body = (await response.json()) as { code: number; message: string; data?: { token?: string } };
  if (body.code !== 200 || !body.data?.token)
    throw new Error(`bench sign-in failed (${body.code} ${body.message}); run npm run bench:seed first`);
  return body.data.token;
}

async function argonVerifyRate(seconds: number): Promise<number> {
  const stored = await hash(BENCH_PASSWORD, { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
  const until = Date.now() + seconds * 1000;
  let done = 0;
  // as many in flight as libuv has threads, like a busy server
  const worker = async () => {
    while (Date.now() < until) {
      await verify(stored, BENCH_PASSWORD);
      done++;
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return done / seconds;
}

function print(rows: Row[], ceilings: { json: number; pg: number }, loginCeiling: number) {
  const header = ['scenario', 'conn', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'vs ceiling'];
  const lines = rows.map((r) => {
    let ratio = '';
    // the Fastify+pg ceiling is measured on PostgreSQL only
    if (r.ceiling && ceilings[r.ceiling] > 0) {
      ratio = `${((r.rps / ceilings[r.ceiling]) * 100).toFixed(0)}% of ${r.ceiling === 'json' ? 'Fastify' : 'Fastify+pg'}`;
    }
    if (r.name.startsWith('login')) ratio = `${((r.rps / loginCeiling) * 100).toFixed(0)}% of argon2id verify`;
    return [r.name, String(r.connections), r.rps.toFixed(0), r.p50.toFixed(1), r.p99.toFixed(1), String(r.errors), String(r.non2xx), ratio];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const format = (cells: string[]) =>
    cells.map((c, i) => (i === 0 || i === 7 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  console.log(format(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(format(l));
}

async function main() {
  if (engine === 'postgres' && !(await postgresReachable())) {
    console.error('PostgreSQL is not reachable on 127.0.0.1:5432; use --engine pglite or start it.');
    process.exit(1);
  }
  console.log(`Atrium bench — engine ${engine}, ${duration} s per scenario after a warm-up, node ${process.version}`);

  const ceilings = { json: 0, pg: 0 };
  const rows: Row[] = [];
  {
    const server = await startCeiling('json', 18911);
    const row = await load('ceiling: bare Fastify JSON', { url: `${server.url}/ceiling` });
    ceilings.json = row.rps;
    rows.push(row);
    await server.stop();
  }
  if (engine === 'postgres') {
    const server = await startCeiling('pg', 18912);
    const row = await load('ceiling: Fastify + pg LIMIT 20', { url: `${server.url}/ceiling` });
    ceilings.pg = row.rps;
    rows.push(row);
    await server.stop();
  }
  const loginCeiling = await argonVerifyRate(5);
  console.log(`argon2id verify ceiling: ${loginCeiling.toFixed(0)} verifies/s (4 in flight, m=19456 t=2 p=1)`);

  const port = 18920;
  const server = await startProcess(serverEntry(), serverEnv(engine, port), port);
  const rssStart = server.rssKb();
  try {
    const token = await signIn(server.url);
    // no content-type on bodiless POSTs: an empty JSON body is a 400, as it should be
    const auth = { authorization: `Bearer ${token}`, 'device-type': 'web' };
    const json = { ...auth, 'content-type': 'application/json' };
    const api = (path: string) => `${server.url}/api${path}`;
    const scenarios: [string, autocannon.Options & { ceiling?: 'json' | 'pg' }][] = [
      ['userInfoLogin', { url: api('/system/user/userInfoLogin'), method: 'POST', headers: auth, ceiling: 'json' }],
      ['menu', { url: api('/system/user/menu'), method: 'POST', headers: auth, ceiling: 'json' }],
      ['user list page 1', { url: api('/system/user/user?pageNum=1&pageSize=20'), headers: auth, ceiling: 'pg' }],
      ['user list page 2000', { url: api('/system/user/user?pageNum=2000&pageSize=20'), headers: auth, ceiling: 'pg' }],
      [
        'user list name prefix',
        { url: api(`/system/user/user?pageNum=1&pageSize=20&name=${encodeURIComponent('王')}`), headers: auth, ceiling: 'pg' },
      ],
      ['user list dept and below', { url: api('/system/user/user?pageNum=1&pageSize=20&deptId=1000002'), headers: auth, ceiling: 'pg' }],
      ['user detail', { url: api('/system/user/user/1000500'), headers: auth, ceiling: 'pg' }],
      ['notification list', { url: api('/system/notification?pageNum=1&pageSize=20'), headers: auth, ceiling: 'pg' }],
      ['operation-log search', { url: api('/system/operlog?pageNum=1&pageSize=20&module=system%3Auser'), headers: auth, ceiling: 'pg' }],
    ];
    let created = 0;
    scenarios.push([
      'create user (write)',
      {
        url: api('/system/user/info'),
        method: 'POST',
        headers: json,
        ceiling: 'pg',
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => {
              created++;
              const n = `${process.pid}${Date.now() % 100000}${created}`;
              const body = {
                accountId: `b${n}`.slice(0, 30),
                name: `压测${created % 1000}`,
                nickname: `bench ${created}`,
                status: '0',
                sex: '2',
              };
              return { ...request, body: JSON.stringify(body) };
            },
          },
        ],
      },
    ]);
    for (const [name, options] of scenarios) {
      if (only && !name.includes(only)) continue;
      rows.push(await load(name, options));
    }
    if (!only || 'login'.includes(only)) {
      rows.push(
        await load('login (10 conn)', {
          url: api('/system/user/login'),
          method: 'POST',
          connections: 10,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ account: BENCH_ACCOUNT, password: BENCH_PASSWORD }),
        }),
      );
      // hashing must not block the event loop: userInfoLogin latency while logins run
      const [during] = await Promise.all([
        load('userInfoLogin during logins', {
          url: api('/system/user/userInfoLogin'),
          method: 'POST',
          headers: auth,
          connections: 10,
          ceiling: 'json',
        }),
        autocannon({
          url: api('/system/user/login'),
          method: 'POST',
          connections: 10,
          duration: duration + Math.min(3, duration),
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ account: BENCH_ACCOUNT, password: BENCH_PASSWORD }),
        }),
      ]);
      rows.push(during);
    }
    if (!only || only === 'browser') await measureColdLoads(server.url, { account: BENCH_ACCOUNT, password: BENCH_PASSWORD });
    if (!only || only === 'browser' || only === 'lighthouse') await lighthouseLogin(server.url);
  } finally {
    const rssEnd = server.rssKb();
    await server.stop();
    await removeCreatedUsers();
    print(rows, ceilings, loginCeiling);
    console.log(`server RSS: ${(rssStart / 1024).toFixed(0)} MB at start, ${(rssEnd / 1024).toFixed(0)} MB at end`);
  }
}

function startCeiling(mode: 'json' | 'pg', port: number) {
  return startProcess('bench/src/ceiling-server.ts', { CEILING_DATABASE_URL: benchOwnerUrl() }, port, [mode, String(port)]);
}

/**
 * The write scenario's users would sit at the head of the newest-first list in every later run, so
 * they go again (PostgreSQL; a PGlite bench database is simply seeded afresh).
 */
async function removeCreatedUsers() {
  if (engine !== 'postgres') return;
  const client = new pg.Client({ connectionString: benchOwnerUrl() });
  await client.connect();
  try {
    const result = await client.query('delete from accounts where account_id like $1', [`b${process.pid}%`]);
    console.log(`removed ${result.rowCount} users the write scenario created`);
  } finally {
    await client.end();
  }
}

await main();
