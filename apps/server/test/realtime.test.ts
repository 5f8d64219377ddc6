import { realtimeClientId, realtimeLimits, realtimeSubscription, realtimeTopic } from '@atrium/contracts/realtime';
import { eq } from 'drizzle-orm';
import type { IClientOptions, MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../src/db/schema';
import { hashToken } from '../src/modules/auth/session.service';
import { oneEngine } from './helper';
import { activeUsers, brokerUrl, buildRealtimeApp, closed, collect, connect, type SignedIn, signIn, sleep } from './realtime-helpers';

describe.each(oneEngine)('realtime broker on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildRealtimeApp>>;
  let url: string;
  let admin: SignedIn;
  let user: SignedIn;
  let acme: SignedIn;
  const open: MqttClient[] = [];

  /** Connects and remembers the client so every test ends with its clients closed. */
  async function client(who: SignedIn, password = who.token, options: IClientOptions = {}) {
    const c = await connect(url, who, password, options);
    open.push(c);
    return c;
  }

  const sendNotice = (body: Record<string, unknown>, who = admin) =>
    ctx.app.inject({ method: 'POST', url: '/api/system/notice', headers: who.auth, payload: body });

  beforeAll(async () => {
    ctx = await buildRealtimeApp(engine);
    url = brokerUrl(ctx.app.realtime.port);
    admin = await signIn(ctx.app, 'admin', 'Admin@123456', 'hq');
    user = await signIn(ctx.app, 'user', 'User@123456');
    acme = await signIn(ctx.app, 'acme', 'Acme@123456');
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.endAsync(true).catch(() => {})));
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('listens on its own random port and gives every account a distinct key', () => {
    expect(ctx.app.realtime.port).toBeGreaterThan(0);
    expect(ctx.app.realtime.port).not.toBe(8083);
    expect(new Set([admin.clientKey, user.clientKey, acme.clientKey]).size).toBe(3);
  });

  it('accepts the account number with its session token', async () => {
    const c = await client(user);
    expect(c.connected).toBe(true);
  });

  it('refuses a wrong token, a token of another account and an empty password (CONNACK not authorized)', async () => {
    await expect(connect(url, user, 'not-a-token')).rejects.toThrow(/Not authorized/);
    await expect(connect(url, user, admin.token)).rejects.toThrow(/Not authorized/);
    await expect(connect(url, user, '')).rejects.toThrow(/Not authorized/);
    await expect(connect(url, { ...user, accountId: '' }, user.token)).rejects.toThrow(/Not authorized/);
  });

  it("refuses a client id that does not start with the account's client key, so nobody takes over another's connection", async () => {
    const victimId = realtimeClientId(admin.clientKey, 'victim-tab');
    const victim = await client(admin, admin.token, { clientId: victimId });
    const seen = collect(victim);
    await victim.subscribeAsync(realtimeSubscription(admin.clientKey), { qos: 2 });
    for (const clientId of [
      victimId,
      'atrium-web-0123456789abcdef',
      user.clientKey,
      `${user.clientKey}-`,
      `${user.clientKey}0123`,
      `x${user.clientKey}-1`,
    ]) {
      await expect(connect(url, user, user.token, { clientId }), clientId).rejects.toThrow(/Not authorized/);
    }
    // the victim's connection was never touched: it is still the one its messages reach
    expect(victim.connected).toBe(true);
    await victim.publishAsync(realtimeTopic('client', admin.clientKey), JSON.stringify({ kind: 'client', still: 'here' }), { qos: 1 });
    await seen.waitFor(1);
    expect(seen.messages[0]?.body).toMatchObject({ still: 'here' });
    // an id of the account's own is fine
    expect((await client(user, user.token, { clientId: realtimeClientId(user.clientKey, 'tab-2') })).connected).toBe(true);
  });

  it('disconnects a client that publishes a retained message, and keeps none', async () => {
    const c = await client(user);
    const gone = closed(c);
    c.publish(realtimeTopic('client', user.clientKey), JSON.stringify({ kind: 'client', retained: true }), { qos: 1, retain: true });
    await gone;
    // a later tab subscribes: the first thing it gets is what is published after, not a retained message
    const reader = await client(user);
    const seen = collect(reader);
    await reader.subscribeAsync(realtimeSubscription(user.clientKey), { qos: 2 });
    const writer = await client(user);
    await writer.publishAsync(realtimeTopic('client', user.clientKey), JSON.stringify({ kind: 'client', marker: 1 }), { qos: 1 });
    await seen.waitFor(1);
    expect(seen.messages.map((m) => m.body)).toEqual([{ kind: 'client', marker: 1 }]);
  });

  it('lets a client subscribe to its own account topics only (SUBACK failure otherwise)', async () => {
    const c = await client(user);
    const granted = await c.subscribeAsync(realtimeSubscription(user.clientKey), { qos: 2 });
    expect(granted[0]?.qos).toBe(2);
    // mqtt.js turns SUBACK 128 into an error (its `granted` would still echo the asked QoS)
    for (const topic of [realtimeSubscription(admin.clientKey), 'atrium-web/#', '#', 'atrium-web/+/+', '$SYS/#']) {
      await expect(c.subscribeAsync(topic, { qos: 2 }), topic).rejects.toThrow(/Subscribe error/);
    }
  });

  it('disconnects a client that publishes to another account topic', async () => {
    const c = await client(user);
    const other = await client(admin);
    const seen = collect(other);
    await other.subscribeAsync(realtimeSubscription(admin.clientKey), { qos: 2 });
    const gone = closed(c);
    c.publish(realtimeTopic('notification', admin.clientKey), JSON.stringify({ kind: 'notification', forged: true }), { qos: 1 });
    await gone;
    await sleep(200);
    expect(seen.messages).toEqual([]);
  });

  it('lets a client signal its own tabs, but not with oversized payloads or floods', async () => {
    const a = await client(user);
    const b = await client(user);
    const seen = collect(b);
    await b.subscribeAsync(realtimeSubscription(user.clientKey), { qos: 2 });
    await a.publishAsync(realtimeTopic('client', user.clientKey), JSON.stringify({ kind: 'client', hello: 1 }), { qos: 1 });
    await seen.waitFor(1);
    expect(seen.messages[0]?.body).toMatchObject({ hello: 1 });

    const big = await client(user);
    const bigGone = closed(big);
    big.publish(realtimeTopic('client', user.clientKey), 'x'.repeat(realtimeLimits.maxPacketBytes + 1), { qos: 0 });
    await bigGone;

    const flood = await client(user);
    const floodGone = closed(flood);
    for (let i = 0; i <= realtimeLimits.publishBurst; i++) flood.publish(realtimeTopic('client', user.clientKey), '{}', { qos: 0 });
    await floodGone;
  });

  it('delivers a notice at QoS 2 to every tab of the recipient as it is sent, and to nobody else', async () => {
    const tab1 = await client(user);
    const tab2 = await client(user);
    const adminTab = await client(admin);
    const acmeTab = await client(acme);
    const inbox = [tab1, tab2, adminTab, acmeTab].map(collect);
    await Promise.all(
      [
        [tab1, user],
        [tab2, user],
        [adminTab, admin],
        [acmeTab, acme],
      ].map(([c, who]) => (c as MqttClient).subscribeAsync(realtimeSubscription((who as SignedIn).clientKey), { qos: 2 })),
    );

    const response = await sendNotice({
      title: 'Fire drill at 3pm',
      content: 'Meet at the gate',
      scope: 'users',
      targetIds: [user.userId],
    });
    // the answer comes once the notice is stored and handed to the broker; delivery follows by itself,
    // without another request (how soon depends on the machine, so no time is asserted)
    expect(response.json()).toMatchObject({ code: 200, data: { recipients: 1, live: true } });
    const [first] = await inbox[0]!.waitFor(1);
    const [second] = await inbox[1]!.waitFor(1);
    for (const m of [first, second]) {
      expect(m?.qos).toBe(2);
      expect(m?.topic).toBe(realtimeTopic('notification', user.clientKey));
      expect(m?.body).toMatchObject({
        kind: 'notification',
        action: 'created',
        tenantId: user.tenantId,
        notification: { type: 'notice', title: 'Fire drill at 3pm', content: 'Meet at the gate', read: false },
      });
    }
    await sleep(300);
    expect(inbox[2]!.messages).toEqual([]);
    expect(inbox[3]!.messages).toEqual([]);
  });

  it('keeps a tenant-wide notice inside the tenant', async () => {
    const userTab = await client(user);
    const acmeTab = await client(acme);
    const [userInbox, acmeInbox] = [collect(userTab), collect(acmeTab)];
    await userTab.subscribeAsync(realtimeSubscription(user.clientKey), { qos: 2 });
    await acmeTab.subscribeAsync(realtimeSubscription(acme.clientKey), { qos: 2 });
    const response = await sendNotice({ title: 'HQ only', scope: 'tenant' });
    expect(response.json().data.recipients).toBe(await activeUsers(ctx.app, user.tenantId));
    await userInbox.waitFor(1);
    await sleep(300);
    expect(acmeInbox.messages).toEqual([]);
  });

  it('delivers what app.notify and app.publish send from other domains', async () => {
    const tab = await client(user);
    const inbox = collect(tab);
    await tab.subscribeAsync(realtimeSubscription(user.clientKey), { qos: 2 });
    const result = await ctx.app.notify({
      tenantId: user.tenantId,
      accountRefs: [user.accountRef, acme.accountRef],
      type: 'todo',
      title: 'Approve purchase order',
      link: '/erp/purchase/1',
      sender: 'erp',
    });
    // acme is not a user of hq: dropped, never stored in the wrong tenant
    expect(result).toMatchObject({ recipients: 1, live: true });
    expect(await ctx.app.publish({ accountRefs: [user.accountRef], kind: 'task', payload: { taskId: 'export-1', progress: 40 } })).toBe(
      true,
    );
    const messages = await inbox.waitFor(2);
    expect(messages.map((m) => m.topic)).toEqual([realtimeTopic('notification', user.clientKey), realtimeTopic('task', user.clientKey)]);
    expect(messages[0]?.body).toMatchObject({ notification: { type: 'todo', title: 'Approve purchase order', link: '/erp/purchase/1' } });
    expect(messages[1]?.body).toEqual({ kind: 'task', taskId: 'export-1', progress: 40 });
  });

  it('disconnects the clients of a session that ends, and refuses its token afterwards', async () => {
    const other = await signIn(ctx.app, 'user', 'User@123456');
    const ending = await client(other);
    const staying = await client(user);
    const gone = closed(ending);
    const logout = await ctx.app.inject({ method: 'POST', url: '/api/system/user/logout', headers: other.auth });
    expect(logout.json().code).toBe(200);
    await gone;
    await sleep(100);
    expect(staying.connected).toBe(true);
    await expect(connect(url, other, other.token)).rejects.toThrow(/Not authorized/);
  });

  it('refuses an expired session and drops a connected client whose session expired', async () => {
    const expire = (who: SignedIn) =>
      ctx.app.database.db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(sessions.tokenHash, hashToken(who.token)));
    // signed in through the login route only, so no cache holds the session yet
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/system/user/login',
      payload: { account: 'user', password: 'User@123456' },
    });
    const fresh = { ...user, token: login.json().data.token as string };
    await expire(fresh);
    await expect(connect(url, fresh, fresh.token)).rejects.toThrow(/Not authorized/);

    const other = await signIn(ctx.app, 'user', 'User@123456');
    const c = await client(other);
    const staying = await client(user);
    await expire(other);
    const gone = closed(c);
    await ctx.app.realtime.revalidate();
    await gone;
    expect(staying.connected).toBe(true);
  });

  it('lets clients go when the broker stops, and is back on the same port when it starts again', async () => {
    const port = ctx.app.realtime.port;
    const c = await client(user);
    const gone = closed(c);
    await ctx.app.realtime.stop();
    await gone;
    expect(ctx.app.realtime.live).toBe(false);
    const noticeWhileDown = await sendNotice({ title: 'While the broker was down', scope: 'users', targetIds: [user.userId] });
    expect(noticeWhileDown.json()).toMatchObject({ code: 200, data: { recipients: 1, live: false } });
    expect(noticeWhileDown.json().message).toMatch(/延迟/);

    await ctx.app.realtime.start();
    expect(ctx.app.realtime.port).toBe(port);
    // what a reconnecting browser does: connect to the same address, subscribe, read what it missed
    const again = await client(user);
    const inbox = collect(again);
    await again.subscribeAsync(realtimeSubscription(user.clientKey), { qos: 2 });
    const missed = await ctx.app.inject({ method: 'GET', url: '/api/system/notification?type=notice&read=false', headers: user.auth });
    expect(missed.json().data.list.map((n: { title: string }) => n.title)).toContain('While the broker was down');
    await sendNotice({ title: 'After the restart', scope: 'users', targetIds: [user.userId] });
    expect((await inbox.waitFor(1))[0]?.body).toMatchObject({ notification: { title: 'After the restart' } });
  });
});
