import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../src/plugins/errors';
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
});

describe.runIf(engines.includes('postgres'))('PostgreSQL going away under a running server', () => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let name: string;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });

  beforeAll(async () => {
    ctx = await buildTestApp('postgres', { LOGIN_RATE_LIMIT: '100000' });
    name = (await ctx.database.query<{ name: string }>('select current_database() as name'))[0]?.name as string;
    await admin.connect();
  });
  afterAll(async () => {
    await admin.query(`alter database ${name} allow_connections true`).catch(() => {});
    await admin.end();
    await ctx?.close();
  });

  const login = () =>
    ctx.app.inject({ method: 'POST', url: '/api/system/user/login', payload: { account: 'admin', password: 'Admin@123456' } });

  it('answers 503 while the database refuses connections, and recovers by itself', async () => {
    expect((await login()).json().code).toBe(200);
    await admin.query(`alter database ${name} allow_connections false`);
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
    const down = await login();
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ code: 503, data: null });
    await admin.query(`alter database ${name} allow_connections true`);
    const back = await login();
    expect(back.statusCode).toBe(200);
    expect(back.json().data.token).toEqual(expect.any(String));
  });
});
