import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Aedes } from 'aedes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebSocketStream, WebSocket, WebSocketServer } from 'ws';
import { decodePublish, encodeAck, encodeConnect, encodeSubscribe, type MqttHandlers, MqttSubscriber, PacketReader } from './mqtt';

describe('MQTT packets', () => {
  it('writes CONNECT as MQTT 3.1.1 with a clean session, credentials and the keep-alive', () => {
    const bytes = encodeConnect({ clientId: 'c', username: 'u', password: 'p', keepaliveSec: 60 });
    // type 1, remaining length, "MQTT", level 4, flags user+password+clean, keep-alive 60, three strings
    expect(Array.from(bytes)).toEqual([0x10, 19, 0, 4, 77, 81, 84, 84, 4, 0xc2, 0, 60, 0, 1, 99, 0, 1, 117, 0, 1, 112]);
  });

  it('writes SUBSCRIBE with its reserved flags, and the acknowledgements (PUBREL with its own)', () => {
    expect(Array.from(encodeSubscribe(7, 'a/+', 2))).toEqual([0x82, 8, 0, 7, 0, 3, 97, 47, 43, 2]);
    expect(Array.from(encodeAck(4, 258))).toEqual([0x40, 2, 1, 2]);
    expect(Array.from(encodeAck(6, 1))).toEqual([0x62, 2, 0, 1]);
  });

  it('cuts a stream into packets whatever the split: several in one message, one over several, long lengths', () => {
    const long = new Uint8Array(200).fill(120);
    // PUBLISH qos 1, topic "t", id 5, 200 bytes: remaining length 205 = two bytes (0xcd 0x01)
    const publish = Uint8Array.from([0x32, 0xcd, 0x01, 0, 1, 116, 0, 5, ...long]);
    const pingresp = Uint8Array.from([0xd0, 0]);
    const stream = Uint8Array.from([...pingresp, ...publish, ...pingresp]);
    for (const cut of [1, 2, 3, 4, 10, stream.length - 1]) {
      const reader = new PacketReader();
      const packets = [...reader.push(stream.subarray(0, cut)), ...reader.push(stream.subarray(cut))];
      expect(packets.map((p) => p.type)).toEqual([13, 3, 13]);
      const message = decodePublish(packets[1] as (typeof packets)[number]);
      expect([message.topic, message.qos, message.packetId, message.payload.length]).toEqual(['t', 1, 5, 200]);
    }
  });

  it('refuses a remaining length longer than four bytes', () => {
    expect(() => new PacketReader().push(Uint8Array.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01]))).toThrow();
  });
});

// against a real broker (aedes over WebSocket, as the server embeds it), with the `ws` package as the
// browser's WebSocket
describe('MqttSubscriber against a broker', () => {
  let broker: Aedes;
  let server: Server;
  let wss: WebSocketServer;
  let url = '';
  const Browser = globalThis as { WebSocket?: unknown };

  beforeAll(async () => {
    Browser.WebSocket = WebSocket;
    broker = await Aedes.createBroker({
      authenticate: (_client, username, password, done) => done(null, username === 'u' && password?.toString() === 'p'),
    });
    server = createServer();
    wss = new WebSocketServer({ server });
    wss.on('connection', (socket) => broker.handle(createWebSocketStream(socket) as never));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    delete Browser.WebSocket;
  });

  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(check()).toBe(true);
  };
  const record = () => {
    const seen = { connects: 0, closes: 0, refused: [] as number[], messages: [] as string[] };
    const handlers: MqttHandlers = {
      onConnect: () => seen.connects++,
      onClose: () => seen.closes++,
      onRefused: (code) => seen.refused.push(code),
      onMessage: (topic, payload) => seen.messages.push(`${topic}:${new TextDecoder().decode(payload)}`),
    };
    return { seen, handlers };
  };
  const options = (password: string) => ({
    clientId: `c-${Math.random()}`,
    username: 'u',
    password,
    keepaliveSec: 30,
    connectTimeoutMs: 4000,
  });
  const publish = (topic: string, text: string, qos: 0 | 1 | 2) =>
    new Promise<void>((resolve, reject) =>
      broker.publish({ cmd: 'publish', topic, payload: Buffer.from(text), qos, retain: false, dup: false }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );

  it('subscribes at QoS 2 and gets each message once, at every QoS; ends with a DISCONNECT', async () => {
    const { seen, handlers } = record();
    // one 'ack' for the PUBACK of the QoS 1 message, one for the PUBCOMP that ends the QoS 2 flow
    let acks = 0;
    broker.on('ack', () => {
      acks++;
    });
    const client = new MqttSubscriber(url, options('p'), handlers);
    await until(() => client.connected);
    let granted: boolean | undefined;
    client.subscribe('web/+/x', 2, (ok) => {
      granted = ok;
    });
    await until(() => granted === true);
    await publish('web/1/x', 'zero', 0);
    await publish('web/1/x', 'one', 1);
    await publish('web/1/x', 'two', 2);
    await publish('web/1/other', 'not mine', 2);
    await until(() => seen.messages.length === 3);
    // the broker saw the QoS 1 message acknowledged (PUBACK) and the QoS 2 flow completed (PUBREC,
    // PUBREL, PUBCOMP); nothing is delivered again
    await until(() => acks === 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen.messages).toEqual(['web/1/x:zero', 'web/1/x:one', 'web/1/x:two']);
    expect(acks).toBe(2);
    client.end();
    expect([client.connected, seen.connects, seen.closes]).toEqual([false, 1, 1]);
  });

  it('reports a refused connection with its code, closes, and connects again on reconnect()', async () => {
    const { seen, handlers } = record();
    const client = new MqttSubscriber(url, options('wrong'), handlers);
    await until(() => seen.closes === 1);
    expect(seen.refused).toHaveLength(1);
    expect(seen.refused[0]).toBeGreaterThan(0);
    expect(seen.connects).toBe(0);
    client.reconnect();
    await until(() => seen.closes === 2);
    client.end();
  });

  it('closes when the broker goes away, and opens a new connection on reconnect()', async () => {
    const { seen, handlers } = record();
    const client = new MqttSubscriber(url, options('p'), handlers);
    await until(() => client.connected);
    for (const socket of wss.clients) socket.terminate();
    await until(() => seen.closes === 1 && !client.connected);
    client.reconnect();
    await until(() => client.connected && seen.connects === 2);
    client.end();
  });
});
