import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { realtimeSubscription, realtimeTopic } from '@atrium/contracts/realtime';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { sessions } from '../src/db/schema';
import { hashToken } from '../src/modules/auth/session.service';
import { isServer, serverCredentialsOf } from '../src/modules/realtime/rules';
import { oneEngine } from './helper';
import { buildRealtimeApp, type SignedIn, signIn, sleep } from './realtime-helpers';

const HOOK_SECRET = 'hook-secret-for-the-tests-0123';
const SERVER_USER = 'atrium-server';
const SERVER_PASSWORD = 'server-Pass#1';
const API_KEY = 'atrium-key';
const API_SECRET = 'atrium-api-secret';

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function freePort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

type Received = { method: string; path: string; authorization: string | undefined };

/**
 * A stand-in for EMQX's REST API: it records what it is sent, answers 401 without the API key and
 * secret, 204 for `DELETE /api/v5/clients/{clientid}` and 404 for anything else, or `failWith` when set.
 */
async function startEmqxApi() {
  const received: Received[] = [];
  const expected = `Basic ${Buffer.from(`${API_KEY}:${API_SECRET}`).toString('base64')}`;
  const state = { failWith: 0 };
  const server = createServer((request: IncomingMessage, response) => {
    const path = request.url ?? '';
    received.push({ method: request.method ?? '', path, authorization: request.headers.authorization });
    if (state.failWith) return response.writeHead(state.failWith).end('{"code":"INTERNAL_ERROR"}');
    if (request.headers.authorization !== expected) return response.writeHead(401).end('{"code":"BAD_API_KEY_OR_SECRET"}');
    if (request.method === 'DELETE' && /^\/api\/v5\/clients\/[^/]+$/.test(path)) return response.writeHead(204).end();
    response.writeHead(404).end('{"code":"NOT_FOUND"}');
  });
  const port = await listen(server);
  return {
    port,
    received,
    state,
    /** The client ids EMQX was asked to disconnect, decoded. */
    deleted: () =>
      received
        .filter((r) => r.method === 'DELETE' && r.authorization === expected)
        .map((r) => decodeURIComponent(r.path.split('/').pop() ?? '')),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Waits until `check` holds (the DELETE is sent after the logout answered); fails only after a generous 30 s. */
async function until(check: () => boolean, what: string) {
  const end = Date.now() + 30_000;
  while (Date.now() < end) {
    if (check()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.each(oneEngine)('the external broker hook (EMQX HTTP authentication and authorization) on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildRealtimeApp>>;
  let emqx: Awaited<ReturnType<typeof startEmqxApi>>;
  let admin: SignedIn;
  let user: SignedIn;
  let acme: SignedIn;
  let clientSeq = 0;
  const clientId = (who: SignedIn) => `${who.clientKey}-test${++clientSeq}`;

  /** What EMQX sends, with its headers: JSON body, the secret as a bearer token. */
  const post = (url: string, payload: Record<string, unknown>, authorization: string | null = `Bearer ${HOOK_SECRET}`) =>
    ctx.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', ...(authorization === null ? {} : { authorization }) },
      payload: JSON.stringify(payload),
    });
  const authenticate = (clientid: string, username: string, password: string) =>
    post('/api/mqtt/authenticate', { clientid, username, password });
  const authorize = (clientid: string, username: string, action: 'publish' | 'subscribe', topic: string) =>
    post('/api/mqtt/authorize', { clientid, username, topic, action });
  /** Connects like a browser through EMQX: answers the client id the hook let in. */
  async function connected(who: SignedIn, id = clientId(who)) {
    const response = await authenticate(id, who.accountId, who.token);
    expect(response.json()).toMatchObject({ result: 'allow', is_superuser: false });
    return id;
  }
  const sessionIdOf = async (who: SignedIn) => {
    const [row] = await ctx.app.database.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(who.token)));
    return (row as { id: number }).id;
  };

  beforeAll(async () => {
    emqx = await startEmqxApi();
    // nothing listens there: the server's own publisher keeps retrying, which these tests do not need
    const brokerPort = await freePort();
    ctx = await buildRealtimeApp(engine, {
      MQTT_URL: `mqtt://${SERVER_USER}:${encodeURIComponent(SERVER_PASSWORD)}@127.0.0.1:${brokerPort}`,
      MQTT_HOOK_SECRET: HOOK_SECRET,
      EMQX_API_URL: `http://127.0.0.1:${emqx.port}`,
      EMQX_API_KEY: API_KEY,
      EMQX_API_SECRET: API_SECRET,
    });
    admin = await signIn(ctx.app, 'admin', 'Admin@123456', 'hq');
    user = await signIn(ctx.app, 'user', 'User@123456');
    acme = await signIn(ctx.app, 'acme', 'Acme@123456');
  });
  beforeEach(() => {
    emqx.state.failWith = 0;
  });
  afterAll(async () => {
    await ctx?.close();
    await emqx?.close();
  });

  it('answers only callers that send the shared secret as a bearer token (401 otherwise, whatever the body)', async () => {
    const body = { clientid: 'c', username: user.accountId, password: user.token };
    for (const authorization of [
      null,
      '',
      `Bearer ${HOOK_SECRET}x`,
      `Bearer ${HOOK_SECRET.slice(0, -1)}X`,
      `Basic ${HOOK_SECRET}`,
      HOOK_SECRET,
    ]) {
      for (const url of ['/api/mqtt/authenticate', '/api/mqtt/authorize']) {
        const response = await post(url, url.endsWith('authenticate') ? body : { nonsense: true }, authorization);
        expect(response.statusCode, `${url} with ${authorization}`).toBe(401);
        expect(response.json().code).toBe(11000);
      }
    }
    const right = await post('/api/mqtt/authenticate', body);
    expect(right.statusCode).toBe(200);
    expect(right.headers['content-type']).toMatch(/^application\/json/);
  });

  it('lets a browser in with its user number and live session token, and no one with anything else', async () => {
    // EMQX disconnects the client when the session reaches its end of life (the embedded broker's minute check)
    const [session] = await ctx.app.database.db
      .select({ expiresAt: sessions.expiresAt })
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(user.token)));
    expect((await authenticate(clientId(user), user.accountId, user.token)).json()).toEqual({
      result: 'allow',
      is_superuser: false,
      expire_at: Math.ceil((session?.expiresAt.getTime() ?? 0) / 1000),
    });
    // the user number is not case-sensitive, as in the embedded broker
    expect((await authenticate(clientId(user), user.accountId.toUpperCase(), user.token)).json().result).toBe('allow');
    const denied = [
      [clientId(user), user.accountId, 'not-a-token'],
      [clientId(user), user.accountId, admin.token],
      [clientId(user), admin.accountId, user.token],
      [clientId(user), user.accountId, ''],
      [clientId(user), '', user.token],
      ['', user.accountId, user.token],
      [clientId(user), user.accountId, 'x'.repeat(600)],
    ] as const;
    for (const [id, username, password] of denied) {
      const response = await authenticate(id, username, password);
      expect(response.statusCode).toBe(200);
      expect(response.json(), `${id} / ${username} / ${password.slice(0, 20)}`).toEqual({ result: 'deny', is_superuser: false });
    }
  });

  it('refuses an expired session and a logged-out one', async () => {
    // signed in through the login route only, so no cache holds the session yet
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/system/user/login',
      payload: { account: 'user', password: 'User@123456' },
    });
    const expired = { ...user, token: login.json().data.token as string };
    await ctx.app.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, hashToken(expired.token)));
    expect((await authenticate(clientId(user), user.accountId, expired.token)).json().result).toBe('deny');

    const out = await signIn(ctx.app, 'user', 'User@123456');
    expect((await authenticate(clientId(out), out.accountId, out.token)).json().result).toBe('allow');
    await ctx.app.inject({ method: 'POST', url: '/api/system/user/logout', headers: out.auth });
    expect((await authenticate(clientId(out), out.accountId, out.token)).json().result).toBe('deny');
  });

  it("lets the server in with MQTT_URL's own user and password, as a superuser (it publishes to every account)", async () => {
    const server = await authenticate('atrium-server-0123456789ab', SERVER_USER, SERVER_PASSWORD);
    expect(server.json()).toEqual({ result: 'allow', is_superuser: true });
    for (const password of ['', 'server-Pass#2', `${SERVER_PASSWORD} `, user.token]) {
      expect((await authenticate('atrium-server-0123456789ab', SERVER_USER, password)).json()).toEqual({
        result: 'deny',
        is_superuser: false,
      });
    }
    // the server's user name on a connection the hook did not let in as the server gives no rights
    expect(
      (await authorize('atrium-server-0123456789ab', SERVER_USER, 'publish', realtimeTopic('notification', user.clientKey))).json(),
    ).toEqual({
      result: 'deny',
    });
  });

  it("lets each kind of connection in under its own client id form only: no kind takes another's", async () => {
    // the server's credentials with an agent's, a printer's or a browser's client id
    for (const id of ['agent-1-1', 'printer-SN0001', `${user.clientKey}-tab`, 'atrium-server-zz'])
      expect((await authenticate(id, SERVER_USER, SERVER_PASSWORD)).json(), id).toEqual({ result: 'deny', is_superuser: false });
    expect((await authenticate('atrium-server-0123456789ab', SERVER_USER, SERVER_PASSWORD)).json().result).toBe('allow');
    // a browser's token with an agent's or the server's client id
    for (const id of ['agent-1-1', 'atrium-server-0123456789ab', 'printer-SN0001'])
      expect((await authenticate(id, user.accountId, user.token)).json().result, id).toBe('deny');
    // a printer's authorization is for its own client id only
    expect((await authorize('agent-1-1', 'printer:SN0001', 'subscribe', 'atrium-printer/SN0001/job')).json().result).toBe('deny');
    expect((await authorize('printer-SN0001', 'printer:SN0001', 'subscribe', 'atrium-printer/SN0001/job')).json().result).toBe('allow');
  });

  it("disconnects a disabled or revoked agent and a deleted or re-keyed printer through EMQX's REST API", async () => {
    const call = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
      ctx.app.inject({ method, url, headers: admin.auth, ...(payload ? { payload } : {}) });
    const enrolled = async () => {
      const token = (await call('POST', '/api/release/client/enrol-token', {})).json().data.token as string;
      const agent = await ctx.app.inject({ method: 'POST', url: '/api/release/client/enrol', payload: { token, hostname: 'host' } });
      const { id, tenantId } = agent.json().data as { id: number; tenantId: number };
      expect((await call('PUT', `/api/release/client/${id}/approve`, {})).statusCode).toBe(200);
      return `agent-${tenantId}-${id}`;
    };
    for (const action of ['disable', 'revoke']) {
      const clientId = await enrolled();
      const id = clientId.split('-')[2];
      expect(emqx.deleted()).not.toContain(clientId);
      expect((await call('PUT', `/api/release/client/${id}/${action}`, {})).statusCode).toBe(200);
      // at once: the answer comes after the disconnection
      expect(emqx.deleted()).toContain(clientId);
    }
    const sn = `SN${Date.now().toString(36)}`;
    const body = { name: 'Desk', vendor: 'mqtt', sn, paperWidth: 58, triggers: [] };
    const printer = await call('POST', '/api/mall/printer', { ...body, deviceKey: 'device-key-1' });
    expect(printer.statusCode).toBe(200);
    const printerId = printer.json().data.id as number;
    expect((await call('PUT', `/api/mall/printer/${printerId}`, { ...body, deviceKey: 'device-key-2' })).statusCode).toBe(200);
    expect(emqx.deleted().filter((id) => id === `printer-${sn}`)).toHaveLength(1);
    expect((await call('DELETE', `/api/mall/printer/${printerId}`)).statusCode).toBe(200);
    expect(emqx.deleted().filter((id) => id === `printer-${sn}`)).toHaveLength(2);
  });

  it("lets a browser subscribe to its own account's topics only, as the embedded broker does", async () => {
    const id = await connected(user);
    const subscribe = async (topic: string) => (await authorize(id, user.accountId, 'subscribe', topic)).json().result;
    expect(await subscribe(realtimeSubscription(user.clientKey))).toBe('allow');
    expect(await subscribe(realtimeTopic('notification', user.clientKey))).toBe('allow');
    expect(await subscribe(realtimeTopic('client', user.clientKey))).toBe('allow');
    // a colleague of the same tenant, an account of another tenant, and wildcards
    expect(await subscribe(realtimeSubscription(admin.clientKey))).toBe('deny');
    expect(await subscribe(realtimeTopic('notification', acme.clientKey))).toBe('deny');
    expect(await subscribe('atrium-web/#')).toBe('deny');
    expect(await subscribe('atrium-web/+/+')).toBe('deny');
    expect(await subscribe('#')).toBe('deny');
    expect(await subscribe(`$share/g/${realtimeSubscription(user.clientKey)}`)).toBe('deny');
  });

  it("lets a browser publish to its own account's client topic only", async () => {
    const id = await connected(user);
    const publish = async (topic: string, clientid = id, username = user.accountId) =>
      (await authorize(clientid, username, 'publish', topic)).json().result;
    expect(await publish(realtimeTopic('client', user.clientKey))).toBe('allow');
    expect(await publish(realtimeTopic('notification', user.clientKey))).toBe('deny');
    expect(await publish(realtimeTopic('client', admin.clientKey))).toBe('deny');
    expect(await publish(realtimeTopic('client', acme.clientKey))).toBe('deny');
    // a client id the hook never let in, and a user name that is not the one that connection signed in with
    expect(await publish(realtimeTopic('client', user.clientKey), 'never-authenticated')).toBe('deny');
    expect(await publish(realtimeTopic('client', user.clientKey), id, admin.accountId)).toBe('deny');
  });

  it('answers 400 naming the field for a body that is not what EMQX sends', async () => {
    const missing = await post('/api/mqtt/authenticate', { clientid: 'c', username: user.accountId });
    expect(missing.statusCode).toBe(400);
    expect(JSON.stringify(missing.json())).toContain('password');
    const action = await post('/api/mqtt/authorize', { clientid: 'c', username: user.accountId, topic: 't', action: 'all' });
    expect(action.statusCode).toBe(400);
    expect(JSON.stringify(action.json())).toContain('action');
  });

  it("disconnects a session's clients through EMQX's REST API when it logs out, and only that session's", async () => {
    const leaving = await signIn(ctx.app, 'user', 'User@123456');
    const tab1 = await connected(leaving);
    const tab2 = await connected(leaving);
    // a reconnection of the same tab is asked for again; it is still one client
    await connected(leaving, tab1);
    const staying = await connected(user);
    const logout = await ctx.app.inject({ method: 'POST', url: '/api/system/user/logout', headers: leaving.auth });
    expect(logout.json().code).toBe(200);
    await until(() => emqx.deleted().includes(tab1) && emqx.deleted().includes(tab2), 'the two DELETEs');
    await sleep(200);
    const mine = [tab1, tab2, staying].map((id) => `/api/v5/clients/${encodeURIComponent(id)}`);
    const sent = emqx.received.filter((r) => mine.includes(r.path));
    // one DELETE per client, with the API key and secret, and none for the session that goes on
    expect(sent.map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      mine
        .slice(0, 2)
        .map((path) => `DELETE ${path}`)
        .sort(),
    );
    expect(new Set(sent.map((r) => r.authorization))).toEqual(
      new Set([`Basic ${Buffer.from(`${API_KEY}:${API_SECRET}`).toString('base64')}`]),
    );
    // what the ended session's clients could still ask is denied; the other session's is not
    expect((await authorize(tab1, leaving.accountId, 'subscribe', realtimeSubscription(leaving.clientKey))).json().result).toBe('deny');
    expect((await authorize(staying, user.accountId, 'subscribe', realtimeSubscription(user.clientKey))).json().result).toBe('allow');
  });

  it('disconnects them on force-logout and on a password reset too', async () => {
    const forced = await signIn(ctx.app, 'user', 'User@123456');
    const tab = await connected(forced);
    const end = await ctx.app.inject({ method: 'DELETE', url: `/api/system/session/${await sessionIdOf(forced)}`, headers: admin.auth });
    expect(end.json().code).toBe(200);
    await until(() => emqx.deleted().includes(tab), 'the DELETE after force-logout');

    const other = await signIn(ctx.app, 'user', 'User@123456');
    const otherTab = await connected(other);
    const reset = await ctx.app.inject({
      method: 'PUT',
      url: `/api/system/user/resetPwd/${user.userId}`,
      headers: admin.auth,
      payload: { password: 'Zq7#another-ledger' },
    });
    expect(reset.json().code).toBe(200);
    await until(() => emqx.deleted().includes(otherTab), 'the DELETE after a password reset');
    // every session of the account ended with the password: sign in again with the new one for the next tests
    user = await signIn(ctx.app, 'user', 'Zq7#another-ledger');
  });

  it('signs out normally when EMQX fails, and still denies the ended session from then on', async () => {
    emqx.state.failWith = 500;
    const leaving = await signIn(ctx.app, 'user', 'Zq7#another-ledger');
    const tab = await connected(leaving);
    const before = emqx.received.length;
    const logout = await ctx.app.inject({ method: 'POST', url: '/api/system/user/logout', headers: leaving.auth });
    expect(logout.statusCode).toBe(200);
    expect(logout.json().code).toBe(200);
    await until(() => emqx.received.length > before, 'the failed DELETE');
    expect((await authorize(tab, leaving.accountId, 'subscribe', realtimeSubscription(leaving.clientKey))).json().result).toBe('deny');
    // the server is fine
    const info = await ctx.app.inject({ method: 'POST', url: '/api/system/user/userInfoLogin', headers: user.auth });
    expect(info.json().code).toBe(200);
  });
});

describe('without MQTT_HOOK_SECRET', () => {
  let ctx: Awaited<ReturnType<typeof buildRealtimeApp>>;
  beforeAll(async () => {
    ctx = await buildRealtimeApp('pglite');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('does not serve the hook (404)', async () => {
    for (const url of ['/api/mqtt/authenticate', '/api/mqtt/authorize']) {
      const response = await ctx.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${HOOK_SECRET}` },
        payload: { clientid: 'c', username: 'user', password: 'x', topic: 't', action: 'publish' },
      });
      expect(response.statusCode).toBe(404);
    }
    expect(ctx.app.brokerHook).toBeNull();
  });
});

describe('external broker settings', () => {
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    return null;
  };
  const withServer = 'mqtt://atrium-server:pw@emqx:1883';

  it('refuses settings that do not work together, naming the variable', () => {
    expect(refusal({ MQTT_HOOK_SECRET: 'short' })).toMatch(/^Invalid configuration: MQTT_HOOK_SECRET=/);
    expect(refusal({ MQTT_HOOK_SECRET: HOOK_SECRET })).toMatch(/^Invalid configuration: MQTT_URL=.*required/);
    expect(refusal({ MQTT_HOOK_SECRET: HOOK_SECRET, MQTT_URL: 'mqtt://emqx:1883' })).toMatch(
      /^Invalid configuration: MQTT_URL=.*user and password/,
    );
    expect(refusal({ MQTT_URL: withServer, MQTT_HOOK_SECRET: HOOK_SECRET, EMQX_API_URL: 'ftp://emqx' })).toMatch(
      /^Invalid configuration: EMQX_API_URL=/,
    );
    const api = { MQTT_URL: withServer, EMQX_API_URL: 'http://emqx:18083', EMQX_API_KEY: 'k', EMQX_API_SECRET: 's' };
    expect(refusal({ ...api, EMQX_API_KEY: '' })).toMatch(/^Invalid configuration: EMQX_API_KEY=/);
    expect(refusal({ ...api, EMQX_API_SECRET: '' })).toMatch(/^Invalid configuration: EMQX_API_SECRET=/);
    expect(refusal(api)).toMatch(/^Invalid configuration: MQTT_HOOK_SECRET=.*required/);
    expect(refusal({ ...api, MQTT_HOOK_SECRET: HOOK_SECRET })).toBeNull();
  });

  it("refuses an MQTT_URL user without a password with the hook: the hook would sign in anyone giving that user and '' as a superuser", () => {
    for (const MQTT_URL of ['mqtt://atrium-server@emqx:1883', 'mqtt://atrium-server:@emqx:1883']) {
      const message = refusal({ MQTT_URL, MQTT_HOOK_SECRET: HOOK_SECRET });
      expect(message).toMatch(/^Invalid configuration: MQTT_URL=.*password/);
      expect(message?.split('\n')).toHaveLength(1);
    }
    // and should such credentials reach the hook anyway, nobody is the server with them
    expect(isServer(serverCredentialsOf('mqtt://atrium-server@emqx:1883'), 'atrium-server', '')).toBe(false);
    expect(isServer(serverCredentialsOf('mqtt://:pw@emqx:1883'), '', 'pw')).toBe(false);
  });
});
