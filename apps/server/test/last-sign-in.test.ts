import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, oneEngine } from './helper';
import { signIn } from './system/api';

type Ctx = Awaited<ReturnType<typeof buildTestApp>>;
const PASSWORD = 'First-sign-in@123456';

// one source: the user-info page's "last sign-in" and its recent activity read the same sign-ins
describe.each(oneEngine)('the user centre’s last sign-in on %s', (engine) => {
  let ctx: Ctx;
  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000' });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('is the newest sign-in of the recent activity, from the very first one on', async () => {
    const admin = await signIn(ctx, 'admin', 'Admin@123456');
    expect((await admin.post('/api/system/user/info', { accountId: 'first.signin', name: 'First', password: PASSWORD })).status).toBe(200);
    const session = await signIn(ctx, 'first.signin', PASSWORD);
    const agree = async () => {
      const profile = (await session.get('/api/user/info')).body.data;
      const logins = (await session.get('/api/user/activity')).body.data.logins as { time: string; ip: string | null; ok: boolean }[];
      const newest = logins.find((l) => l.ok);
      expect(newest).toBeDefined();
      expect({ time: profile.lastLoginTime, ip: profile.lastLoginIp }).toEqual({ time: newest?.time, ip: newest?.ip });
    };
    await agree();
    ctx.clock.advance(60_000);
    await signIn(ctx, 'first.signin', PASSWORD);
    await agree();
  });
});
