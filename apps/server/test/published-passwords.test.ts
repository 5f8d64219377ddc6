import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retirePublishedPasswords } from '../src/seed/published-passwords';
import { buildTestApp, oneEngine } from './helper';
import { signIn } from './system/api';

// A database first started with the demo data and later serving for real (SEED=none): the README's
// passwords must not open it (docs/operations.md, "Upgrading"; CHANGELOG 0.3.0)
describe.each(oneEngine)('published demo passwords on an instance serving real data (%s)', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    ctx = await buildTestApp(engine);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const login = (account: string, password: string) =>
    ctx.app.inject({ method: 'POST', url: '/api/system/user/login', payload: { account, password } }).then((r) => r.json());

  it('changes nothing while the instance runs the demo', async () => {
    expect(await retirePublishedPasswords(ctx.app, ctx.database, ctx.config)).toEqual([]);
    expect((await login('user', 'User@123456')).code).toBe(200);
  });

  it('withdraws them and ends their sessions, leaves a changed one alone, and lets ADMIN_PASSWORD give the administrator a way in', async () => {
    const user = await signIn(ctx, 'user', 'User@123456');
    const admin = await signIn(ctx, 'admin', 'Admin@123456');
    // acme chose its own password: not the published one any more
    const acme = await signIn(ctx, 'acme', 'Acme@123456');
    expect((await acme.put('/api/user/password', { oldPassword: 'Acme@123456', newPassword: 'Acme#own-choice9' })).status).toBe(200);

    // started without ADMIN_PASSWORD: nobody keeps a published password
    const none = { ...ctx.config, SEED: 'none' as const, ADMIN_ACCOUNT: 'admin', ADMIN_PASSWORD: undefined };
    const retired = await retirePublishedPasswords(ctx.app, ctx.database, none);
    expect(retired.map((r) => [r.accountId, r.outcome])).toEqual([
      ['admin', 'withdrawn'],
      ['user', 'withdrawn'],
    ]);
    expect((await login('admin', 'Admin@123456')).code).not.toBe(200);
    expect((await login('user', 'User@123456')).code).not.toBe(200);
    expect((await login('acme', 'Acme#own-choice9')).code).toBe(200);
    expect((await user.get('/api/user/info')).body.code).toBe(1302);
    expect((await admin.get('/api/user/info')).body.code).toBe(1302);

    // the next start with ADMIN_PASSWORD gives the administrator that one; nothing else changes
    const withPassword = { ...none, ADMIN_PASSWORD: 'Fresh#admin-pass7' };
    expect(await retirePublishedPasswords(ctx.app, ctx.database, withPassword)).toEqual([]);
    expect((await login('admin', 'Fresh#admin-pass7')).code).toBe(200);
    expect((await login('user', 'User@123456')).code).not.toBe(200);
    const fresh = await signIn(ctx, 'admin', 'Fresh#admin-pass7');
    const found = (await fresh.get('/api/system/user/user?accountId=user')).body.data.list.find(
      (row: { accountId: string }) => row.accountId === 'user',
    );
    expect((await fresh.put(`/api/system/user/resetPwd/${found.id}`, { password: 'Given#by-admin4' })).status).toBe(200);
    expect((await login('user', 'Given#by-admin4')).code).toBe(200);
  });
});
