// `npm run bench:soak [-- --engine pglite] [--duration 60]`: mixed read/write traffic at 50 connections;
// prints errors, 5xx and the server's RSS at the start, after warm-up and at the end.
import autocannon from 'autocannon';
import { BENCH_ACCOUNT, BENCH_PASSWORD, engineFromArgs, serverEnv } from './engines';
import { startProcess } from './server-process';

const engine = engineFromArgs();
const args = process.argv.slice(2);
const durationIndex = args.indexOf('--duration');
const duration = durationIndex >= 0 ? Number(args[durationIndex + 1]) : 60;

const port = 18930;
const server = await startProcess('apps/server/src/main.ts', serverEnv(engine, port), port);
try {
  const login = await fetch(`${server.url}/api/system/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: BENCH_ACCOUNT, password: BENCH_PASSWORD }),
  });
  const token = ((await login.json()) as { data?: { token?: string } }).data?.token;
  if (!token) throw new Error('bench sign-in failed; run npm run bench:seed first');
  const headers = { authorization: `Bearer ${token}` };
  const json = { ...headers, 'content-type': 'application/json' };
  let n = 0;
  const requests: autocannon.Request[] = [
    { method: 'POST', path: '/api/system/user/userInfoLogin', headers },
    { method: 'GET', path: '/api/system/user/user?pageNum=1&pageSize=20', headers },
    { method: 'POST', path: '/api/system/user/menu', headers },
    { method: 'GET', path: '/api/system/notification?pageNum=1&pageSize=20', headers },
    {
      method: 'POST',
      path: '/api/system/post',
      headers: json,
      setupRequest: (request) => {
        n++;
        return {
          ...request,
          body: JSON.stringify({ code: `soak-${process.pid}-${n}`, name: `Soak ${n}`, orderNum: n % 100, status: '0' }),
        };
      },
    },
    { method: 'GET', path: '/api/system/operlog?pageNum=1&pageSize=20', headers },
  ];
  const rssStart = server.rssKb();
  await autocannon({ url: server.url, connections: 50, duration: 10, requests });
  const rssWarm = server.rssKb();
  const result = await autocannon({ url: server.url, connections: 50, duration, requests });
  const rssEnd = server.rssKb();
  const fivexx = result['5xx'] ?? 0;
  console.log(`soak on ${engine}: ${duration} s at 50 connections, mixed reads and writes`);
  console.log(
    `requests ${result.requests.total}, ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`,
  );
  console.log(`errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx}, 5xx ${fivexx}`);
  console.log(
    `RSS ${(rssStart / 1024).toFixed(0)} MB at start, ${(rssWarm / 1024).toFixed(0)} MB after warm-up, ${(rssEnd / 1024).toFixed(0)} MB at end`,
  );
  process.exitCode = result.errors || fivexx || result.timeouts ? 1 : 0;
} finally {
  await server.stop();
}
