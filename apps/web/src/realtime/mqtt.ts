/**
 * A subscribe-only MQTT 3.1.1 client over WebSocket: what a tab needs to receive its live updates and
 * nothing more (CONNECT with a clean session and credentials, one SUBSCRIBE, PUBLISH received at QoS 0, 1
 * or 2 with their acknowledgements, keep-alive pings, DISCONNECT). It never publishes. Written for the
 * browser's own WebSocket and Uint8Array (ADR 045): the general client weighed 83 KB on the wire with
 * its Node.js polyfills, a quarter of what the signed-in layout loads.
 */

/** The control packets a subscriber sends or receives, by type (the high nibble of a packet's first byte). */
const packetType = {
  CONNECT: 1,
  CONNACK: 2,
  PUBLISH: 3,
  PUBACK: 4,
  PUBREC: 5,
  PUBREL: 6,
  PUBCOMP: 7,
  SUBSCRIBE: 8,
  SUBACK: 9,
  PINGREQ: 12,
  PINGRESP: 13,
  DISCONNECT: 14,
} as const;
const { CONNECT, CONNACK, PUBLISH, PUBACK, PUBREC, PUBREL, PUBCOMP, SUBSCRIBE, SUBACK, PINGREQ, PINGRESP, DISCONNECT } = packetType;
/** The acknowledgements of a message received at QoS 1 or 2. */
type AckType = typeof PUBACK | typeof PUBREC | typeof PUBREL | typeof PUBCOMP;

export type Packet = { type: number; flags: number; body: Uint8Array };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The "remaining length" of a fixed header: 7 bits a byte, least significant first (at most 4 bytes). */
function remainingLength(length: number): number[] {
  const bytes: number[] = [];
  let rest = length;
  do {
    let byte = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest > 0);
  return bytes;
}

/** A UTF-8 string as MQTT writes it: two bytes of length, then the bytes. */
function text(value: string): number[] {
  const bytes = encoder.encode(value);
  return [bytes.length >> 8, bytes.length & 0xff, ...bytes];
}

function packet(type: number, flags: number, body: number[]): Uint8Array {
  return Uint8Array.from([(type << 4) | flags, ...remainingLength(body.length), ...body]);
}

export type ConnectOptions = { clientId: string; username: string; password: string; keepaliveSec: number };

export function encodeConnect({ clientId, username, password, keepaliveSec }: ConnectOptions): Uint8Array {
  // user name, password, clean session
  const flags = 0x80 | 0x40 | 0x02;
  return packet(CONNECT, 0, [
    ...text('MQTT'),
    4,
    flags,
    keepaliveSec >> 8,
    keepaliveSec & 0xff,
    ...text(clientId),
    ...text(username),
    ...text(password),
  ]);
}

export function encodeSubscribe(packetId: number, topic: string, qos: number): Uint8Array {
  return packet(SUBSCRIBE, 0b0010, [packetId >> 8, packetId & 0xff, ...text(topic), qos]);
}

/** PUBACK, PUBREC, PUBCOMP (flags 0) and PUBREL (flags 2): the type and the packet id. */
export function encodeAck(type: AckType, packetId: number): Uint8Array {
  return packet(type, type === PUBREL ? 0b0010 : 0, [packetId >> 8, packetId & 0xff]);
}

/**
 * Cuts a stream of bytes into packets. A WebSocket message may hold several packets or part of one
 * (the standard lets a broker split them as it likes), so what is left over waits for the next.
 */
export class PacketReader {
  private pending = new Uint8Array(0);

  push(chunk: Uint8Array): Packet[] {
    const joined = new Uint8Array(this.pending.length + chunk.length);
    joined.set(this.pending);
    joined.set(chunk, this.pending.length);
    const packets: Packet[] = [];
    let at = 0;
    for (;;) {
      if (joined.length - at < 2) break;
      let length = 0;
      let multiplier = 1;
      let cursor = at + 1;
      let complete = false;
      for (let i = 0; i < 4 && cursor < joined.length; i++) {
        const byte = joined[cursor++] as number;
        length += (byte & 0x7f) * multiplier;
        multiplier *= 128;
        if ((byte & 0x80) === 0) {
          complete = true;
          break;
        }
      }
      if (!complete) {
        if (cursor - at > 4) throw new Error('malformed remaining length');
        break;
      }
      if (joined.length - cursor < length) break;
      const first = joined[at] as number;
      packets.push({ type: first >> 4, flags: first & 0x0f, body: joined.slice(cursor, cursor + length) });
      at = cursor + length;
    }
    this.pending = joined.slice(at);
    return packets;
  }
}

export type ReceivedPublish = { topic: string; payload: Uint8Array; qos: number; packetId?: number };

export function decodePublish({ flags, body }: Packet): ReceivedPublish {
  const qos = (flags >> 1) & 0b11;
  const topicLength = ((body[0] ?? 0) << 8) | (body[1] ?? 0);
  const topic = decoder.decode(body.subarray(2, 2 + topicLength));
  let at = 2 + topicLength;
  let packetId: number | undefined;
  if (qos > 0) {
    packetId = ((body[at] ?? 0) << 8) | (body[at + 1] ?? 0);
    at += 2;
  }
  return { topic, payload: body.subarray(at), qos, packetId };
}

const idOf = (body: Uint8Array) => ((body[0] ?? 0) << 8) | (body[1] ?? 0);

export type MqttHandlers = {
  onConnect: () => void;
  onMessage: (topic: string, payload: Uint8Array) => void;
  /** The broker answered CONNACK with a refusal (1–5: protocol, identifier, unavailable, credentials, not authorised). */
  onRefused: (code: number) => void;
  /** The connection is gone (refused, timed out, lost or ended); `reconnect()` opens a new one. */
  onClose: () => void;
};

export type MqttOptions = ConnectOptions & { connectTimeoutMs: number };

/** One tab's connection: opens at once; after a close, `reconnect()` opens the next one. */
export class MqttSubscriber {
  connected = false;
  private socket?: WebSocket;
  private ended = false;
  private nextId = 1;
  private readonly subscriptions = new Map<number, (granted: boolean) => void>();
  // QoS 2 messages delivered and waiting for their PUBREL: the broker may send them again until then
  private readonly received = new Set<number>();
  private connectTimer?: ReturnType<typeof setTimeout>;
  private pingTimer?: ReturnType<typeof setInterval>;

  constructor(
    private readonly url: string,
    private readonly options: MqttOptions,
    private readonly handlers: MqttHandlers,
  ) {
    this.open();
  }

  reconnect(): void {
    if (!this.ended && !this.socket) this.open();
  }

  /** Asks for a topic at a QoS; `done` learns whether the broker granted it. */
  subscribe(topic: string, qos: number, done: (granted: boolean) => void): void {
    const id = this.packetId();
    this.subscriptions.set(id, done);
    this.send(encodeSubscribe(id, topic, qos));
  }

  /** Says goodbye to the broker and closes for good. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.connected) this.send(packet(DISCONNECT, 0, []));
    this.close();
  }

  private open(): void {
    const socket = new WebSocket(this.url, 'mqtt');
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    this.received.clear();
    const reader = new PacketReader();
    let lastHeard = Date.now();
    const keepaliveMs = this.options.keepaliveSec * 1000;
    // no CONNACK in time: give up on this socket (the caller retries)
    this.connectTimer = setTimeout(() => {
      if (this.socket === socket && !this.connected) this.close();
    }, this.options.connectTimeoutMs);
    socket.onopen = () => socket.send(encodeConnect(this.options));
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      lastHeard = Date.now();
      let packets: Packet[];
      try {
        packets = reader.push(new Uint8Array(event.data as ArrayBuffer));
      } catch {
        this.close();
        return;
      }
      for (const p of packets) this.handle(p);
    };
    socket.onclose = () => {
      if (this.socket === socket) this.close();
    };
    socket.onerror = () => {
      if (this.socket === socket) this.close();
    };
    // a ping when nothing was sent for a while; a broker silent for one and a half periods is gone
    this.pingTimer = setInterval(() => {
      if (this.socket !== socket || !this.connected) return;
      if (Date.now() - lastHeard > keepaliveMs * 1.5) this.close();
      else this.send(packet(PINGREQ, 0, []));
    }, keepaliveMs / 2);
  }

  private handle(p: Packet): void {
    switch (p.type) {
      case CONNACK: {
        const code = p.body[1] ?? 0;
        if (code !== 0) {
          this.handlers.onRefused(code);
          this.close();
          return;
        }
        this.connected = true;
        this.handlers.onConnect();
        return;
      }
      case PUBLISH: {
        const message = decodePublish(p);
        if (message.qos === 1 && message.packetId !== undefined) this.send(encodeAck(PUBACK, message.packetId));
        if (message.qos === 2 && message.packetId !== undefined) {
          this.send(encodeAck(PUBREC, message.packetId));
          // delivered once: a resent PUBLISH with this id before its PUBREL is the same message
          if (this.received.has(message.packetId)) return;
          this.received.add(message.packetId);
        }
        this.handlers.onMessage(message.topic, message.payload);
        return;
      }
      case PUBREL: {
        const id = idOf(p.body);
        this.received.delete(id);
        this.send(encodeAck(PUBCOMP, id));
        return;
      }
      case SUBACK: {
        const id = idOf(p.body);
        const done = this.subscriptions.get(id);
        this.subscriptions.delete(id);
        done?.((p.body[2] ?? 0x80) !== 0x80);
        return;
      }
      case PINGRESP:
        return;
      default:
        // nothing else is sent to a client that only subscribes
        return;
    }
  }

  private send(bytes: Uint8Array): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(bytes);
  }

  private packetId(): number {
    const id = this.nextId;
    this.nextId = id >= 0xffff ? 1 : id + 1;
    return id;
  }

  private close(): void {
    const socket = this.socket;
    clearTimeout(this.connectTimer);
    clearInterval(this.pingTimer);
    this.subscriptions.clear();
    if (!socket) return;
    this.socket = undefined;
    this.connected = false;
    socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
    if (socket.readyState === WebSocket.CONNECTING || socket.readyState === WebSocket.OPEN) socket.close();
    this.handlers.onClose();
  }
}
