import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { realtimeSubscription } from '@atrium/contracts/realtime';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebSocketStream, WebSocketServer } from 'ws';
import { buildRealtimeApp, collect, type SignedIn, signIn, sleep } from './realtime-helpers';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A stand-in for a production broker such as EMQX: it only knows the server's own credentials. */
async function startExternalBroker(port: number) {
  const accepted: (string | undefined)[] = [];
  const serverIds: string[] = [];
  const broker = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      // browsers here use no credentials (the production ACL is the README's business); the server must send its own
      const ok = username === 'atrium-server' ? password?.toString() === 's3cret' : username === undefined;
      if (ok) accepted.push(username);
      if (ok && username === 'atrium-server') serverIds.push(client.id);
      done(null, ok);
    },
  });
  const disconnected: ((id: string) => void)[] = [];
  broker.on('clientDisconnect', (client) => {
    for (const listener of disconnected) listener(client.id);
  });
  const http: Server = createServer();
  const wss = new WebSocketServer({ server: http, path: '/mqtt' });
  wss.on('connection', (socket, request) => broker.handle(createWebSocketStream(socket), request));
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  return {
    accepted,
    serverIds,
    onDisconnect: (listener: (id: string) => void) => disconnected.push(listener),
    async close() {
      for (const socket of wss.clients) socket.terminate();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

// The external-broker path does not depend on the database engine; PGlite is enough.
describe('publishing through an external broker (MQTT_URL)', () => {
  let ctx: Awaited<ReturnType<typeof buildRealtimeApp>>;
  let port: number;
  let admin: SignedIn;
  let user: SignedIn;
  let external: Awaited<ReturnType<typeof startExternalBroker>> | undefined;

  const send = (title: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/system/notice',
      headers: { ...admin.auth, 'accept-language': 'en-US' },
      payload: { title, scope: 'users', targetIds: [user.userId] },
    });

  beforeAll(async () => {
    port = await freePort();
    ctx = await buildRealtimeApp('pglite', { MQTT_URL: `ws://atrium-server:s3cret@127.0.0.1:${port}/mqtt` });
    admin = await signIn(ctx.app, 'admin', 'Admin@123456', 'hq');
    user = await signIn(ctx.app, 'user', 'User@123456');
  });
  afterAll(async () => {
    await ctx?.close();
    await external?.close();
  });

  it('runs no broker of its own and gives browsers the external address without the server credentials', async () => {
    expect(ctx.app.realtime.mode).toBe('external');
    expect(ctx.app.realtime.port).toBeNull();
    const connection = await ctx.app.inject({ method: 'GET', url: '/api/system/notification/connection', headers: user.auth });
    expect(connection.json().data).toMatchObject({
      url: `ws://127.0.0.1:${port}/mqtt`,
      port: null,
      topic: realtimeSubscription(user.clientKey),
    });
  });

  it('keeps working while the broker is down: the notice is stored and the answer says delivery is delayed', async () => {
    const response = await send('Stored while the broker is down');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ code: 200, data: { recipients: 1, live: false } });
    expect(response.json().message).toMatch(/delayed/);
    const box = await ctx.app.inject({ method: 'GET', url: '/api/system/notification', headers: user.auth });
    expect(box.json().data.list[0]).toMatchObject({ title: 'Stored while the broker is down', read: false });
  });

  it('publishes through the broker once it is up, with the credentials from MQTT_URL', async () => {
    external = await startExternalBroker(port);
    for (let i = 0; i < 50 && !ctx.app.realtime.live; i++) await sleep(100);
    expect(ctx.app.realtime.live).toBe(true);
    expect(external.accepted).toEqual(['atrium-server']);
    const browser = await mqtt.connectAsync(`ws://127.0.0.1:${port}/mqtt`, { clean: true, reconnectPeriod: 0, connectTimeout: 30_000 });
    try {
      const inbox = collect(browser);
      await browser.subscribeAsync(realtimeSubscription(user.clientKey), { qos: 2 });
      const response = await send('Live through the external broker');
      expect(response.json()).toMatchObject({ code: 200, data: { live: true } });
      const [message] = await inbox.waitFor(1);
      expect(message?.qos).toBe(2);
      expect(message?.body).toMatchObject({ notification: { title: 'Live through the external broker' } });
    } finally {
      await browser.endAsync(true);
    }
  });

  it("ends the server's own connection, under its own client id form, when the server stops", async () => {
    const broker = external as NonNullable<typeof external>;
    expect(broker.serverIds).toHaveLength(1);
    expect(broker.serverIds[0]).toMatch(/^atrium-server-[0-9a-f]{12}$/);
    const gone = new Promise<string>((resolve) => broker.onDisconnect((id) => resolve(id)));
    await ctx.app.realtime.stop();
    expect(await gone).toBe(broker.serverIds[0]);
    expect(ctx.app.realtime.live).toBe(false);
  });
});
