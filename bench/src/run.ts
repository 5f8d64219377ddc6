// `npm run bench [-- --engine pglite] [--duration 10] [--slices 3]`: API scenarios with autocannon against the real
// server on the bench database (run `npm run bench:seed` first), each printed with its ratio to two
// ceilings measured in the same run on the same machine.
import { hash, verify } from '@node-rs/argon2';
import autocannon from 'autocannon';
import pg from 'pg';
import { measureColdLoads } from './browser';
import { BENCH_ACCOUNT, BENCH_PASSWORD, benchOwnerUrl, benchPort, engineFromArgs, postgresReachable, serverEnv } from './engines';
import { lighthouseLogin } from './lighthouse';
import { serverEntry, startProcess } from './server-process';

const engine = engineFromArgs();
const args = process.argv.slice(2);
const durationArg = args.indexOf('--duration');
const duration = durationArg >= 0 ? Number(args[durationArg + 1]) : 10;
const onlyArg = args.find((a) => a.startsWith('--only='))?.split('=')[1];
// `--only=a,b`: the scenarios whose names contain one of the parts
const onlyParts = onlyArg?.split(',');
const only = onlyArg;
const picked = (name: string) => !onlyParts || onlyParts.some((o) => name.includes(o));

type Row = {
  name: string;
  connections: number;
  rps: number;
  /** 2xx answers per second: what the login ratio counts (a 429 from the hashing gate is no sign-in) */
  okRps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  ceiling?: Ceiling;
  /** the ceiling's rate measured in slices alternating with this scenario's (see `load`) */
  beside?: number;
};

type Ceiling = 'json' | 'pg' | 'argon2id';

/**
 * How each ceiling is measured for a number of seconds, while the bench runs (set in `main`): the
 * ceilings keep running beside the API server, and every scenario is measured in SLICES slices, each
 * after a slice of its ceiling, so that the machine's speed, which moves by tens of per cent within
 * minutes on a shared VM, is the same for the scenario and the ceiling it is compared with.
 */
const ceilingRates: Partial<Record<Ceiling, (seconds: number) => Promise<number>>> = {};
// `--slices 1`: one unbroken run per scenario (after its warm-up), as a server under sustained load
// sees it; three short slices let the server idle between them, and V8 collects its old generation
// in those pauses instead of under load (docs/performance.md, ADR 022)
const slicesArg = args.indexOf('--slices');
const SLICES = slicesArg >= 0 ? Number(args[slicesArg + 1]) : 3;
if (!Number.isInteger(SLICES) || SLICES < 1) throw new Error('--slices takes a whole number from 1');

type LoadOptions = autocannon.Options & { ceiling?: Ceiling };

async function load(name: string, options: LoadOptions): Promise<Row> {
  const { ceiling, ...cannon } = options;
  const connections = cannon.connections ?? 50;
  const rate = ceiling ? ceilingRates[ceiling] : undefined;
  const slices = rate ? SLICES : 1;
  const beside: number[] = [];
  // one slice: its ceiling first, so that the warm-up leads straight into the measured run
  if (rate && slices === 1) beside.push(await rate(duration));
  // warm-up, not counted
  await autocannon({ ...cannon, connections, duration: Math.min(3, duration) });
  // a run's last requests are still being answered when autocannon returns (sign-ins queued at the
  // hashing gate for ~150 ms): they finish before the next run, measured or ceiling, begins
  const drain = () => new Promise((r) => setTimeout(r, 1000));
  await drain();
  const results: autocannon.Result[] = [];
  for (let i = 0; i < slices; i++) {
    if (rate && slices > 1) beside.push(await rate(duration / slices));
    results.push(await autocannon({ ...cannon, connections, duration: duration / slices }));
    if (rate) await drain();
  }
  const sum = (f: (r: autocannon.Result) => number) => results.reduce((total, r) => total + f(r), 0);
  const sorted = (f: (r: autocannon.Result) => number) => results.map(f).sort((a, b) => a - b);
  return {
    name,
    connections,
    rps: sum((r) => r.requests.total) / duration,
    okRps: sum((r) => r['2xx']) / duration,
    // the middle slice's median, and the worst slice's p99
    p50: sorted((r) => r.latency.p50)[Math.floor(slices / 2)] ?? 0,
    p99: Math.max(...results.map((r) => r.latency.p99)),
    errors: sum((r) => r.errors + r.timeouts),
    non2xx: sum((r) => r.non2xx),
    ceiling,
    beside: beside.length ? beside.reduce((a, b) => a + b, 0) / beside.length : undefined,
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

const CEILING_NAMES: Record<Ceiling, string> = { json: 'Fastify', pg: 'Fastify+pg', argon2id: 'argon2id verify' };

function print(rows: Row[], ceilings: Record<Ceiling, number>) {
  const header = ['scenario', 'conn', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'ceiling beside', 'vs ceiling'];
  const lines = rows.map((r) => {
    let ratio = '';
    let beside = '';
    // the Fastify+pg ceiling is measured on PostgreSQL only
    const ceiling = r.ceiling ? (r.beside ?? ceilings[r.ceiling]) : 0;
    if (r.ceiling && ceiling > 0) {
      // a sign-in is a 2xx: a 429 from the hashing gate is not one
      const measured = r.ceiling === 'argon2id' ? r.okRps : r.rps;
      ratio = `${((measured / ceiling) * 100).toFixed(0)}% of ${CEILING_NAMES[r.ceiling]}${r.ceiling === 'argon2id' ? ' (2xx)' : ''}`;
      if (r.beside !== undefined) beside = r.beside.toFixed(0);
    }
    return [
      r.name,
      String(r.connections),
      r.rps.toFixed(0),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      String(r.errors),
      String(r.non2xx),
      beside,
      ratio,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const format = (cells: string[]) =>
    cells.map((c, i) => (i === 0 || i === 8 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  console.log(format(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(format(l));
  console.log(
    SLICES === 1
      ? 'ratios are to the ceiling measured right before each scenario (--slices 1: one unbroken run after its warm-up)'
      : `ratios are to the ceiling measured beside each scenario (${SLICES} slices of each, alternating); "ceiling beside" is its mean rate`,
  );
}

async function main() {
  if (engine === 'postgres' && !(await postgresReachable())) {
    console.error('PostgreSQL is not reachable on 127.0.0.1:5432; use --engine pglite or start it.');
    process.exit(1);
  }
  console.log(`Atrium bench — engine ${engine}, ${duration} s per scenario after a warm-up, node ${process.version}`);

  const ceilings: Record<Ceiling, number> = { json: 0, pg: 0, argon2id: 0 };
  const rows: Row[] = [];
  // the ceilings run for the whole bench, beside the API server (idle while a scenario is measured)
  const ceilingServers: { stop(): Promise<void> }[] = [];
  const ceilingRate = (url: string) => async (seconds: number) =>
    (await autocannon({ url, connections: 50, duration: seconds })).requests.total / seconds;
  {
    const server = await startCeiling('json', benchPort + 1);
    ceilingServers.push(server);
    const row = await load('ceiling: bare Fastify JSON', { url: `${server.url}/ceiling` });
    ceilings.json = row.rps;
    ceilingRates.json = ceilingRate(`${server.url}/ceiling`);
    rows.push(row);
  }
  if (engine === 'postgres') {
    const server = await startCeiling('pg', benchPort + 2);
    ceilingServers.push(server);
    const row = await load('ceiling: Fastify + pg LIMIT 20', { url: `${server.url}/ceiling` });
    ceilings.pg = row.rps;
    ceilingRates.pg = ceilingRate(`${server.url}/ceiling`);
    rows.push(row);
  }
  ceilings.argon2id = await argonVerifyRate(5);
  ceilingRates.argon2id = argonVerifyRate;
  console.log(`argon2id verify ceiling: ${ceilings.argon2id.toFixed(0)} verifies/s (4 in flight, m=19456 t=2 p=1)`);

  const port = benchPort;
  const server = await startProcess(serverEntry(), serverEnv(engine, port), port);
  const rssStart = server.rssKb();
  try {
    const token = await signIn(server.url);
    // no content-type on bodiless POSTs: an empty JSON body is a 400, as it should be
    const auth = { authorization: `Bearer ${token}`, 'device-type': 'web' };
    const json = { ...auth, 'content-type': 'application/json' };
    const api = (path: string) => `${server.url}/api${path}`;
    // page 2,000 by keyset: after the last row of page 1,999 (the same rows as pageNum=2000, checked here)
    const pageOf = async (query: string) => {
      const answer = (await (await fetch(api(`/system/user/user?pageSize=20&${query}`), { headers: auth })).json()) as {
        data: { list: { id: number }[] };
      };
      return answer.data.list.map((u) => u.id);
    };
    const before2000 = (await pageOf('pageNum=1999')).at(-1) ?? 0;
    const sameRows = JSON.stringify(await pageOf('pageNum=2000')) === JSON.stringify(await pageOf(`after=${before2000}`));
    console.log(`user list page 2000 by keyset: after=${before2000}, the same rows as pageNum=2000: ${sameRows ? 'yes' : 'NO'}`);
    const scenarios: [string, LoadOptions][] = [
      ['userInfoLogin', { url: api('/system/user/userInfoLogin'), method: 'POST', headers: auth, ceiling: 'json' }],
      ['menu', { url: api('/system/user/menu'), method: 'POST', headers: auth, ceiling: 'json' }],
      ['user list page 1', { url: api('/system/user/user?pageNum=1&pageSize=20'), headers: auth, ceiling: 'pg' }],
      ['user list page 2000', { url: api('/system/user/user?pageNum=2000&pageSize=20'), headers: auth, ceiling: 'pg' }],
      ['user list page 2000 by keyset', { url: api(`/system/user/user?after=${before2000}&pageSize=20`), headers: auth, ceiling: 'pg' }],
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
    await vacuum('before the scenarios');
    for (const [name, options] of scenarios) {
      if (!picked(name)) continue;
      rows.push(await load(name, options));
    }
    if (engine === 'postgres' && (!onlyParts || onlyParts.includes('erp'))) {
      await vacuum('before the ERP scenarios');
      rows.push(...(await erpScenarios(api, auth)));
    }
    if (!onlyParts || onlyParts.some((o) => 'login'.includes(o))) {
      await vacuum('before the sign-ins');
      rows.push(
        await load('login (10 conn)', {
          url: api('/system/user/login'),
          method: 'POST',
          connections: 10,
          ceiling: 'argon2id',
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
        }),
        autocannon({
          url: api('/system/user/login'),
          method: 'POST',
          connections: 10,
          // as long as the `load` beside it: its warm-up, the second it waits after that, and its run
          duration: Math.min(3, duration) + 1 + duration,
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
    await Promise.all(ceilingServers.map((c) => c.stop()));
    await removeCreatedUsers();
    print(rows, ceilings);
    console.log(`server RSS: ${(rssStart / 1024).toFixed(0)} MB at start, ${(rssEnd / 1024).toFixed(0)} MB at end`);
  }
}

/** The ERP scenarios (`--only=erp`) on the data of seed-erp.ts; the race is reported on its own. */
async function erpScenarios(api: (path: string) => string, auth: Record<string, string>): Promise<Row[]> {
  const client = new pg.Client({ connectionString: benchOwnerUrl() });
  await client.connect();
  const rows: Row[] = [];
  try {
    const [info] = (
      await client.query(`select (select count(*) from erp_sales)::int orders, (select min(id) from erp_warehouses)::int warehouse,
                                 (select member_id from erp_sales where member_id is not null order by id limit 1)::int member`)
    ).rows as { orders: number; warehouse: number; member: number }[];
    if (!info?.orders) {
      console.log('no ERP data in the bench database (bench:seed -- --erp-only adds it): ERP scenarios skipped');
      return rows;
    }
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    const prefix = `SO${day(30).replaceAll('-', '')}`;
    const reads: [string, string, 'pg'][] = [
      ['erp order list page 1', '/erp/sale?pageNum=1&pageSize=20', 'pg'],
      ['erp order list status=confirmed', '/erp/sale?pageNum=1&pageSize=20&status=confirmed', 'pg'],
      ['erp order list date range (30 days)', `/erp/sale?pageNum=1&pageSize=20&from=${day(60)}&to=${day(30)}`, 'pg'],
      ['erp order list member', `/erp/sale?pageNum=1&pageSize=20&memberId=${info.member}`, 'pg'],
      ['erp order list number prefix', `/erp/sale?pageNum=1&pageSize=20&orderNo=${prefix}`, 'pg'],
      [
        'erp order list all filters',
        `/erp/sale?pageNum=1&pageSize=20&status=completed&from=${day(200)}&to=${day(10)}&memberId=${info.member}&orderNo=SO`,
        'pg',
      ],
      ['erp product list page 1', '/erp/product?pageNum=1&pageSize=20', 'pg'],
      ['mall goods list page 1', '/mall/goods?pageNum=1&pageSize=20', 'pg'],
    ];
    for (const [name, path, ceiling] of reads) rows.push(await load(name, { url: api(path), headers: auth, ceiling }));

    // confirmations: each request confirms another draft order (consecutive drafts are on different SKUs)
    const drafts = (await client.query(`select s.id from erp_sales s where s.status = 'draft' order by s.id limit 60000`)).rows.map((r) =>
      Number(r.id),
    );
    let next = 0;
    const confirm = await load('erp confirm orders (different SKUs)', {
      url: api('/erp/sale/0/confirm'),
      method: 'PUT',
      headers: auth,
      ceiling: 'pg',
      requests: [
        {
          method: 'PUT',
          setupRequest: (request) => ({ ...request, path: `/api/erp/sale/${drafts[next++ % drafts.length]}/confirm` }),
        },
      ],
    });
    rows.push(confirm);
    console.log(`confirmations sent: ${next.toLocaleString()} of ${drafts.length.toLocaleString()} draft orders`);

    rows.push(await race(api, auth, client, info.warehouse));
  } finally {
    await client.end();
  }
  return rows;
}

/**
 * 50 one-unit orders confirmed at once on a SKU with 5 units left: exactly 5 must be confirmed, the
 * stock end at 0 and the ledger read 4,3,2,1,0 after the opening balance of 5.
 */
async function race(api: (path: string) => string, auth: Record<string, string>, client: pg.Client, warehouseId: number): Promise<Row> {
  const N = 5;
  const RACERS = 50;
  const json = { ...auth, 'content-type': 'application/json' };
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(api(path), { method, headers: body ? json : auth, body: body ? JSON.stringify(body) : undefined });
    return (await response.json()) as { code: number; data: Record<string, unknown> };
  };
  // the newest SKU of an enabled product, so that the orders can be placed
  const [sku] = (
    await client.query(`select k.id from erp_skus k join erp_products p on p.tenant_id = k.tenant_id and p.id = k.product_id
                         where p.status = '0' and not k.deleted order by k.id desc limit 1`)
  ).rows as { id: string }[];
  const skuId = Number(sku?.id);
  const now = await call('GET', `/erp/stock?skuId=${skuId}&warehouseId=${warehouseId}`);
  const quantity = Number((now.data.list as { quantity: number }[])[0]?.quantity ?? 0);
  if (quantity !== N) await call('POST', '/erp/stock/adjust', { warehouseId, skuId, delta: N - quantity, remark: 'bench race' });
  const orders: number[] = [];
  for (let i = 0; i < RACERS; i++) {
    const created = await call('POST', '/erp/sale', { warehouseId, items: [{ skuId, quantity: 1 }] });
    if (created.code !== 200) throw new Error(`erp race: placing an order failed: ${JSON.stringify(created)}`);
    orders.push(Number(created.data.id));
  }
  const started = performance.now();
  const answers = await Promise.all(orders.map((id) => call('PUT', `/erp/sale/${id}/confirm`)));
  const seconds = (performance.now() - started) / 1000;
  const confirmed = answers.filter((a) => a.code === 200).length;
  const refused = answers.filter((a) => a.code === 409).length;
  const after = await call('GET', `/erp/stock?skuId=${skuId}&warehouseId=${warehouseId}`);
  const left = Number((after.data.list as { quantity: number }[])[0]?.quantity);
  const ledger = await call('GET', `/erp/stock/ledger?skuId=${skuId}&warehouseId=${warehouseId}&pageSize=${N + 1}`);
  const balances = (ledger.data.list as { balance: number }[]).map((l) => l.balance).reverse();
  const others = answers.filter((a) => a.code !== 200 && a.code !== 409).map((a) => a.code);
  if (others.length) console.log(`erp race: other answers ${others.join(',')}`);
  const correct = confirmed === N && refused === RACERS - N && left === 0 && balances.join() === [5, 4, 3, 2, 1, 0].join();
  console.log(
    `erp race: ${RACERS} confirmations of one-unit orders on ${N} units: ${confirmed} confirmed, ${refused} refused (409), ` +
      `stock ${left}, ledger balances ${balances.join(',')} — ${correct ? 'correct' : 'WRONG'}`,
  );
  return {
    name: `erp race: ${RACERS} confirms on ${N} units (${correct ? 'correct' : 'WRONG'}: ${confirmed} confirmed, stock ${left})`,
    connections: RACERS,
    rps: RACERS / seconds,
    okRps: confirmed / seconds,
    p50: seconds * 1000,
    p99: seconds * 1000,
    errors: answers.length - confirmed - refused,
    non2xx: refused,
  };
}

function startCeiling(mode: 'json' | 'pg', port: number) {
  return startProcess('bench/src/ceiling-server.ts', { CEILING_DATABASE_URL: benchOwnerUrl() }, port, [mode, String(port)]);
}

/**
 * VACUUM ANALYZE, as autovacuum would do between bursts of writes. Each sign-in without a cookie jar
 * makes a known device and prunes one, the write scenario inserts users and the ERP scenarios confirm
 * orders: with autovacuum off (as on the CI machines here) the dead rows stayed from run to run, and a
 * sign-in's device prune read 66,000 of them for the bench account (login 55 % of the verify ceiling;
 * 60 % after one vacuum).
 */
async function vacuum(when: string) {
  if (engine !== 'postgres') return;
  const client = new pg.Client({ connectionString: benchOwnerUrl() });
  await client.connect();
  try {
    const started = performance.now();
    const autovacuum = (await client.query<{ autovacuum: string }>('show autovacuum')).rows[0]?.autovacuum;
    await client.query('vacuum analyze');
    console.log(`vacuum analyze ${when}: ${((performance.now() - started) / 1000).toFixed(1)} s (autovacuum ${autovacuum})`);
  } finally {
    await client.end();
  }
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
    // and their operation-log entries: left behind, each run would make the next one's log search read
    // pages of large create summaries instead of the seed's rows
    const logged = await client.query(`delete from oper_logs where module = 'system:user' and target_name like $1`, [`b${process.pid}%`]);
    console.log(`removed ${result.rowCount} users the write scenario created and ${logged.rowCount} log entries`);
  } finally {
    await client.end();
  }
}

await main();
