// `npm run bench:seed [-- --engine pglite] [--skip-erp | --erp-only]`: a fresh bench database holding one
// tenant with 100,000 users across 500 departments (with posts and roles), 200,000 operation-log rows,
// 20,000 notifications and the ERP data of seed-erp.ts (100,000 SKUs, 1,000,000 sales orders, 5,000 mall goods).
// `--erp-only` replaces just the ERP data of an existing bench database. Rows are generated inside the
// database (generate_series) in chunks, with a progress bar.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { hash } from '@node-rs/argon2';
import pg from 'pg';
import {
  BENCH_ACCOUNT,
  BENCH_PASSWORD,
  type BenchEngine,
  benchDatabaseName,
  benchDataDir,
  benchOwnerUrl,
  benchPort,
  benchPostgresAdminUrl,
  engineFromArgs,
  serverEnv,
} from './engines';
import { clearErp, ERP_MEMBERS, ERP_ORDERS, ERP_SKUS, fillErp, MALL_GOODS } from './seed-erp';
import { startProcess } from './server-process';

export const USERS = Number(process.env.BENCH_USERS ?? 100_000);
export const DEPTS = 500;
export const OPER_LOGS = Number(process.env.BENCH_OPER_LOGS ?? 200_000);
export const NOTIFICATIONS = Number(process.env.BENCH_NOTIFICATIONS ?? 20_000);
// explicit ids far above anything the app generates, so the sequences can be moved past them afterwards
export const BASE = 1_000_000;
const CHUNK = 10_000;

type Exec = (text: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

function bar(label: string, done: number, total: number) {
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stdout.write(
    `\r  ${label.padEnd(14)} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round((done / total) * 100)).padStart(3)}% ${done.toLocaleString()}/${total.toLocaleString()}`,
  );
  if (done >= total) process.stdout.write('\n');
}

async function chunked(label: string, total: number, exec: Exec, sql: string) {
  for (let start = 1; start <= total; start += CHUNK) {
    const end = Math.min(total, start + CHUNK - 1);
    await exec(sql, [start, end]);
    bar(label, end, total);
  }
}

const surnames =
  "array['王','李','张','刘','陈','杨','赵','黄','周','吴','徐','孙','胡','朱','高','林','何','郭','马','罗','Smith','Johnson','Brown','Taylor','Wilson']";
const given =
  "array['伟','芳','娜','敏','静','丽','强','磊','军','洋','勇','艳','杰','娟','涛','明','超','秀英','霞','平','James','Emma','Olivia','Liam','Noah','Ava','Mia','Lucas']";

async function fill(exec: Exec): Promise<number> {
  const [tenant] = (await exec(`insert into tenants (code, name) values ('bench', 'Bench Industries') returning id`)).rows;
  const t = Number(tenant?.id);
  const passwordHash = await hash(BENCH_PASSWORD, { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });

  bar('departments', 0, DEPTS);
  await exec(
    `insert into depts (tenant_id, id, parent_id, ancestors, name, leader, order_num, status) overriding system value
     select ${t}, ${BASE} + i,
            case when i = 1 then null when i <= 20 then ${BASE} + 1 else ${BASE} + 2 + ((i - 21) % 19) end,
            case when i = 1 then '[]'::jsonb when i <= 20 then jsonb_build_array(${BASE} + 1)
                 else jsonb_build_array(${BASE} + 1, ${BASE} + 2 + ((i - 21) % 19)) end,
            case when i = 1 then '总部' when i <= 20 then '事业部 ' || i else '小组 ' || i end,
            'leader' || i, i, '0'
       from generate_series(1, ${DEPTS}) i`,
  );
  bar('departments', DEPTS, DEPTS);

  await exec(
    `insert into posts (tenant_id, id, code, name, order_num) overriding system value values
       (${t}, ${BASE} + 1, 'ceo', '董事长', 1), (${t}, ${BASE} + 2, 'pm', '项目经理', 2), (${t}, ${BASE} + 3, 'hr', '人力资源', 3),
       (${t}, ${BASE} + 4, 'dev', '工程师', 4), (${t}, ${BASE} + 5, 'sales', '销售', 5)`,
  );
  await exec(
    `insert into roles (tenant_id, id, name, code, data_scope, is_default, order_num) overriding system value values
       (${t}, ${BASE} + 1, '管理员', 'admin', '1', false, 1), (${t}, ${BASE} + 2, '普通用户', 'user', '4', true, 2)`,
  );
  await exec(`insert into role_menus (tenant_id, role_id, menu_id) select ${t}, ${BASE} + 1, id from menus`);
  await exec(
    `insert into role_menus (tenant_id, role_id, menu_id)
     select ${t}, ${BASE} + 2, id from menus where permission is null or permission like '%:list' or permission like '%:query'`,
  );

  // the account the benchmark signs in with: an administrator of the bench tenant
  await exec(
    `insert into accounts (id, account_id, email, password_hash, nickname, name, client_key) overriding system value
     values (${BASE}, $1, 'bench-admin@bench.example', $2, 'Bench Admin', 'Bench', md5('bench-admin'))`,
    [BENCH_ACCOUNT, passwordHash],
  );
  await exec(`insert into memberships (account_id, tenant_ref) values (${BASE}, ${t})`);
  await exec(
    `insert into tenant_users (tenant_id, id, account_ref, user_type, dept_id) overriding system value values (${t}, ${BASE}, ${BASE}, '01', ${BASE} + 1)`,
  );
  await exec(`insert into user_roles (tenant_id, user_id, role_id) values (${t}, ${BASE}, ${BASE} + 1)`);
  await exec(`update accounts set last_tenant_id = ${t} where id = ${BASE}`);

  await chunked(
    'accounts',
    USERS,
    exec,
    `insert into accounts (id, account_id, phone, email, nickname, name, sex, client_key, create_time) overriding system value
     select ${BASE} + i, 'u' || lpad(i::text, 7, '0'), '139' || lpad(i::text, 8, '0'), 'user' || i || '@bench.example',
            (${surnames})[1 + i % 25] || (${given})[1 + (i / 25) % 28],
            (${surnames})[1 + i % 25] || (${given})[1 + (i / 25) % 28],
            (i % 3)::text, md5('bench' || i), now() - make_interval(secs => i * 60)
       from generate_series($1::int, $2::int) i`,
  );
  await chunked(
    'memberships',
    USERS,
    exec,
    `insert into memberships (account_id, tenant_ref) select ${BASE} + i, ${t} from generate_series($1::int, $2::int) i`,
  );
  await chunked(
    'tenant users',
    USERS,
    exec,
    `insert into tenant_users (tenant_id, id, account_ref, user_type, dept_id, status, create_by, create_time) overriding system value
     select ${t}, ${BASE} + i, ${BASE} + i, '02', ${BASE} + 21 + (i % ${DEPTS - 20}),
            case when i % 50 = 0 then '1' else '0' end, 'bench-admin', now() - make_interval(secs => i * 60)
       from generate_series($1::int, $2::int) i`,
  );
  await chunked(
    'user roles',
    USERS,
    exec,
    `insert into user_roles (tenant_id, user_id, role_id) select ${t}, ${BASE} + i, ${BASE} + 2 from generate_series($1::int, $2::int) i`,
  );
  await chunked(
    'user posts',
    USERS,
    exec,
    `insert into user_posts (tenant_id, user_id, post_id) select ${t}, ${BASE} + i, ${BASE} + 1 + (i % 5) from generate_series($1::int, $2::int) i`,
  );
  await chunked(
    'operation log',
    OPER_LOGS,
    exec,
    `insert into oper_logs (tenant_id, account_ref, operator, module, action, target, method, url, ip, result, duration_ms, create_time)
     select ${t}, ${BASE} + (i % 1000), 'u' || lpad((i % 1000)::text, 7, '0'),
            (array['system:user','system:role','system:dept','system:post','system:menu'])[1 + i % 5], (array['create','update','delete','status'])[1 + i % 4],
            'target ' || i, (array['POST','PUT','DELETE','PUT'])[1 + i % 4], '/api/system/user/info/' || i, '10.0.' || (i % 255) || '.' || (i % 253),
            case when i % 20 = 0 then 'failure' else 'success' end, i % 300, now() - make_interval(secs => i * 30)
       from generate_series($1::int, $2::int) i`,
  );
  await chunked(
    'notifications',
    NOTIFICATIONS,
    exec,
    `insert into notifications (tenant_id, account_ref, type, title, content, sender, read, create_time)
     select ${t}, case when i % 10 = 0 then ${BASE} else ${BASE} + (i % ${USERS}) end,
            (array['message','notice','todo'])[1 + i % 3], '通知 ' || i, '内容 ' || i, 'system', i % 4 = 0,
            now() - make_interval(secs => i * 90)
       from generate_series($1::int, $2::int) i`,
  );
  for (const table of ['accounts', 'depts', 'posts', 'roles', 'tenant_users']) {
    await exec(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`);
  }
  return t;
}

const args = process.argv.slice(2);
const withErp = !args.includes('--skip-erp');
const erpOnly = args.includes('--erp-only');

async function fillAll(exec: Exec) {
  let t: number;
  if (erpOnly) {
    const [row] = (await exec(`select id from tenants where code = 'bench'`)).rows;
    if (!row) throw new Error('no bench tenant: run npm run bench:seed first');
    t = Number(row.id);
    await clearErp(exec);
  } else {
    t = await fill(exec);
  }
  if (withErp || erpOnly) await fillErp(exec, t, bar);
  // as autovacuum would soon after a bulk load: statistics, and a visibility map for index-only scans
  await exec('vacuum analyze');
}

export async function seedBench(engine: BenchEngine) {
  const started = Date.now();
  console.log(
    erpOnly
      ? `bench:seed on ${engine}: the ERP data only`
      : `bench:seed on ${engine}: ${USERS.toLocaleString()} users, ${DEPTS} departments, ${OPER_LOGS.toLocaleString()} log rows, ${NOTIFICATIONS.toLocaleString()} notifications`,
  );
  if (withErp || erpOnly)
    console.log(
      `  ERP: ${ERP_SKUS.toLocaleString()} SKUs, ${ERP_MEMBERS.toLocaleString()} members, ${ERP_ORDERS.toLocaleString()} sales orders with lines, stock and ledger, ${MALL_GOODS.toLocaleString()} mall goods`,
    );
  if (erpOnly) {
    // the schema exists; only the ERP rows are replaced
  } else if (engine === 'postgres') {
    const admin = new pg.Client({ connectionString: benchPostgresAdminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${benchDatabaseName} with (force)`);
    await admin.query(`create database ${benchDatabaseName}`);
    await admin.end();
  } else {
    await rm(benchDataDir, { recursive: true, force: true });
  }
  // one real start migrates the schema and seeds the menu catalogue and the first super admin
  if (!erpOnly) {
    const port = benchPort;
    const server = await startProcess('apps/server/src/main.ts', serverEnv(engine, port), port);
    await server.stop();
  }

  if (engine === 'postgres') {
    const owner = new pg.Client({ connectionString: benchOwnerUrl() });
    await owner.connect();
    try {
      await fillAll((text, params) => owner.query(text, params));
    } finally {
      await owner.end();
    }
  } else {
    const owner = await PGlite.create(path.join(benchDataDir, 'pglite'));
    try {
      await fillAll(async (text, params) => ({ rows: (await owner.query(text, params)).rows as Record<string, unknown>[] }));
    } finally {
      await owner.close();
    }
  }
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await seedBench(engineFromArgs());
}
