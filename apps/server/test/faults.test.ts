import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../src/plugins/external/errors';
import { buildTestApp, engines, postgresAdminUrl } from './helper';

describe('database faults', () => {
  it('recognises a database that is down or restarting', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(new Error('Failed query', { cause: Object.assign(new Error('x'), { code: '08006' }) }))).toBe(true);
    const refusing = Object.assign(new Error('database "atrium" is not currently accepting connections'), { code: '55000' });
    expect(isDatabaseUnavailable(new Error('Failed query', { cause: refusing }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('currval of sequence "s" is not yet defined'), { code: '55000' }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
  });

  it.runIf(engines.includes('postgres'))(
    'counts an exhausted pool (no connection free before the pool’s timeout) as unavailable: 503',
    async () => {
      // the error pg-pool itself gives when every connection stays busy
      const pool = new pg.Pool({ connectionString: postgresAdminUrl, max: 1, connectionTimeoutMillis: 50 });
      const held = await pool.connect();
      try {
        const error = await pool.connect().then(
          (c) => {
            c.release();
            return null;
          },
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(Error);
        expect(isDatabaseUnavailable(error)).toBe(true);
        expect(isDatabaseUnavailable(new Error('Failed query', { cause: error }))).toBe(true);
      } finally {
        held.release();
        await pool.end();
      }
    },
  );
});

/**
 * A test app on a PostgreSQL database of its own and an administrator's connection to break it with, for
 * the suite that calls it; the database takes connections again and both close after the suite.
 */
function postgresUnderFault() {
  let ctx: Awaited<ReturnType<typeof buildTestApp>> | undefined;
  let name = '';
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  beforeAll(async () => {
    ctx = await buildTestApp('postgres', { LOGIN_RATE_LIMIT: '100000' });
    name = (await ctx.database.query<{ name: string }>('select current_database() as name'))[0]?.name as string;
    await admin.connect();
  });
  afterAll(async () => {
    if (name) await admin.query(`alter database ${name} allow_connections true`).catch(() => {});
    await admin.end();
    await ctx?.close();
  });
  return { app: () => ({ ctx: ctx as Awaited<ReturnType<typeof buildTestApp>>, name }), admin };
}

describe.runIf(engines.includes('postgres'))('PostgreSQL going away under a running server', () => {
  const { app: appOf, admin } = postgresUnderFault();
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let name: string;
  beforeAll(() => ({ ctx, name } = appOf()));

  const login = () =>
    ctx.app.inject({ method: 'POST', url: '/api/system/user/login', payload: { account: 'admin', password: 'Admin@123456' } });

  it('answers 503 while the database refuses connections, and recovers by itself', async () => {
    expect((await login()).json().code).toBe(200);
    await admin.query(`alter database ${name} allow_connections false`);
    // waits (up to 5 s) until each backend has gone: without the wait, a busy machine could still run one when
    // the next sign-in came, or end it in the middle of the sign-in after connections were allowed again
    await admin.query('select pg_terminate_backend(pid, 5000) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [
      name,
    ]);
    const down = await login();
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ code: 503, data: null });
    await admin.query(`alter database ${name} allow_connections true`);
    const back = await login();
    expect(back.statusCode).toBe(200);
    expect(back.json().data.token).toEqual(expect.any(String));
  });
});

describe.runIf(engines.includes('postgres'))('PostgreSQL connections terminated under read and write load', () => {
  const { app: appOf, admin } = postgresUnderFault();
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let name: string;
  beforeAll(() => ({ ctx, name } = appOf()));

  // only this test database's application connections, never anyone else's
  const terminate = async () =>
    (
      await admin.query<{ n: number }>(
        `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
          where datname = $1 and usename = 'atrium_app' and pid <> pg_backend_pid()`,
        [name],
      )
    ).rows[0]?.n ?? 0;

  it('keeps serving: in-flight requests fail with 503 or are retried, acknowledged writes are stored whole', async () => {
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/system/user/login',
      payload: { account: 'admin', password: 'Admin@123456' },
    });
    const token = login.json().data.token as string;
    // the test database's owner sees every tenant's rows (row-level security does not apply to it)
    const ownerUrl = new URL(postgresAdminUrl);
    ownerUrl.pathname = `/${name}`;
    const owner = new pg.Client({ connectionString: ownerUrl.toString() });
    await owner.connect();
    const menus = (await owner.query<{ id: number }>('select id::int as id from menus order by id limit 3')).rows;
    const call = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
      ctx.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

    const statuses = new Map<string, number>();
    const acknowledged: string[] = [];
    const attempted: string[] = [];
    let done = 0;
    let running = true;
    let n = 0;
    const count = (kind: string, status: number) => {
      statuses.set(`${kind} ${status}`, (statuses.get(`${kind} ${status}`) ?? 0) + 1);
      done += 1;
    };
    const writer = async () => {
      while (running) {
        const code = `kill_${++n}`;
        attempted.push(code);
        const response = await call('POST', '/api/system/role', { name: code, code, dataScope: '1', menuIds: menus.map((m) => m.id) });
        count('write', response.statusCode);
        if (response.statusCode === 200 && response.json().code === 200) acknowledged.push(code);
      }
    };
    const reader = async () => {
      while (running) {
        count('read', (await call('GET', '/api/system/role?pageSize=20')).statusCode);
        count('read', (await call('GET', '/api/system/post?pageSize=20')).statusCode);
      }
    };
    const load = [writer(), writer(), writer(), reader(), reader(), reader()];
    let terminated = 0;
    for (let round = 0; round < 4; round++) {
      // let some requests complete between terminations (counted, not timed)
      const target = done + 15;
      while (done < target) await new Promise((r) => setImmediate(r));
      terminated += await terminate();
    }
    const target = done + 15;
    while (done < target) await new Promise((r) => setImmediate(r));
    running = false;
    await Promise.all(load);

    expect(terminated).toBeGreaterThan(0);
    // never a 500, never a crash: 200, or 503 for a request whose connection was lost
    for (const key of statuses.keys()) expect(key).toMatch(/ (200|503)$/);
    // after the terminations both reads and writes succeed again
    expect((await call('GET', '/api/system/role?pageSize=1')).statusCode).toBe(200);
    expect((await call('POST', '/api/system/post', { code: 'after_kill', name: 'After', orderNum: 1, status: '0' })).statusCode).toBe(200);

    // every acknowledged role is stored, and every stored role has all its menus (nothing half-done)
    const { rows } = await owner.query<{ code: string; menus: number }>(
      `select r.code, (select count(*)::int from role_menus m where m.role_id = r.id and m.tenant_id = r.tenant_id) as menus
         from roles r where r.code like 'kill\\_%'`,
    );
    await owner.end();
    const stored = new Map(rows.map((r) => [r.code, r.menus]));
    for (const code of acknowledged) expect(stored.has(code), code).toBe(true);
    for (const [code, linked] of stored) {
      expect(attempted).toContain(code);
      expect(linked, code).toBe(menus.length);
    }
  });
});
