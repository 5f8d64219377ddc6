import type { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket, type Server as TcpServer } from 'node:net';
import { Readable } from 'node:stream';
import { REALTIME_PATH, realtimeLimits } from '@atrium/contracts/realtime';
import { Aedes, type AedesOptions, type AuthenticateError, type Client, type Subscription } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { createWebSocketStream, WebSocketServer } from 'ws';
import type { RedisWatch } from '../../redis';
import {
  type AgentIdentity,
  type AgentUpKind,
  agentMayPublish,
  agentMayReceive,
  agentMaySubscribe,
  agentOf,
  agentUpOf,
  authenticateBrowser,
  authenticatePrinter,
  type DeviceCheck,
  isPrinterLogin,
  mayConnectAgain,
  mayPublish,
  mayPublishNow,
  mayReceive,
  maySubscribe,
  type PrinterIdentity,
  printerMayPublish,
  printerMayReceive,
  printerMaySubscribe,
  publishBursts,
  tokenOf,
} from './rules';
import { BrokerBusy, BrokerWork } from './work';

/** Who a broker connection belongs to, as the session token says. */
export type BrokerIdentity = {
  accountRef: number;
  accountId: string;
  clientKey: string;
  sessionId: number;
  tenantId: number;
};

/**
 * What the release domain does with agent connections: checks an agent's secret, takes what it
 * publishes (awaited before the broker acknowledges a QoS 1 message) and hears of presence.
 */
export type AgentBridge = {
  authenticate(agent: AgentIdentity, secret: string): Promise<boolean>;
  /** Whether the agent is still ACTIVE (the periodic check of connected agents). */
  isActive(agent: AgentIdentity): Promise<boolean>;
  onMessage(agent: AgentIdentity, kind: AgentUpKind, payload: Buffer): Promise<void>;
  onPresence(agent: AgentIdentity, online: boolean): void;
};

/** The MQTT client id an agent connects with: one connection per agent. */
export const agentClientId = (agent: AgentIdentity) => `agent-${agent.tenantId}-${agent.clientId}`;

/** Checks a session token; null when it is unknown, expired or ended. */
export type TokenCheck = (token: string) => Promise<BrokerIdentity | null>;
/** Whether a session is still running, without counting the check as activity. */
export type SessionCheck = (sessionId: number) => Promise<boolean>;

export type EmbeddedBrokerOptions = {
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** Plain MQTT over TCP as well (devices that speak no WebSocket), on this port; 0 picks a free one. */
  tcpPort?: number | null;
  /** With Redis, messages and sessions are shared with the brokers of the other instances. */
  redis?: RedisWatch | null;
  /** The deployment's Redis namespace (REDIS_PREFIX): broker keys and channels live under it. */
  redisPrefix?: string;
  checkToken: TokenCheck;
  checkSession: SessionCheck;
  log: FastifyBaseLogger;
  /** How often connected clients' sessions are checked again (expiry, ends seen by another instance). */
  revalidateMs?: number;
  /** Release agents' connections; without it, agents are refused. */
  agents?: () => AgentBridge | null;
  /** Printers of the built-in protocol: without it, `printer:` logins are refused. */
  printers?: PrinterHooks;
  /** Where the database work of connections runs, a few at a time (a queue of its own without it). */
  work?: BrokerWork;
};

/**
 * A device or agent identity that ended (printer deleted, key rotated, serial number changed,
 * disabled; agent disabled or revoked): its connections are closed on every instance.
 */
export type EndedIdentity =
  | { kind: 'printer'; tenantId: number; printerId: number; sn: string }
  | { kind: 'agent'; tenantId: number; clientId: number };

/** What the broker asks and tells the printing module about devices. */
export type PrinterHooks = {
  checkDevice: DeviceCheck;
  /** Whether the printer a connection signed in as is still that printer, with that key, enabled. */
  isCurrent(identity: PrinterIdentity): Promise<boolean>;
  /** A device published its ack or status (also its last will): applied to the printer it signed in as. */
  onMessage(identity: PrinterIdentity, kind: 'ack' | 'status', payload: Buffer): Promise<void>;
  /** A device's connection closed, cleanly or not (its printer's last connection here). */
  onDisconnect(identity: PrinterIdentity): Promise<void>;
};

type Tracked = BrokerIdentity & { subscriptions: Set<string>; publishes: number[] };

const NOT_AUTHORIZED = 5;
const SESSION_ENDED_TOPIC = '$SYS/atrium/session-ended';
const IDENTITY_ENDED_TOPIC = '$SYS/atrium/identity-ended';
const STOP_STEP_MS = 2000;

/** Waits for `promise`, but not longer than `ms`: shutting down must not hang on one stuck connection. */
function within(ms: number, promise: Promise<unknown>): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      () => {
        clearTimeout(timer);
        resolve();
      },
    );
  });
}
// Bytes one connection may send per window: bounds a client that drips one huge MQTT packet in small frames.
const BYTES_PER_WINDOW = 256 * 1024;

/**
 * The embedded MQTT broker: aedes behind a WebSocket listener at `/mqtt`. Clients sign in with the
 * account number and the session token, may subscribe only to their own account's topics and publish
 * only to their own client topic. With a Redis URL, messages and sessions are shared with the brokers
 * of other server instances.
 */
export class EmbeddedBroker {
  private aedes?: Aedes;
  private http?: Server;
  private tcp?: TcpServer;
  private readonly tcpSockets = new Set<Socket>();
  private wss?: WebSocketServer;
  private persistence?: { destroy(): Promise<void> };
  private revalidateTimer?: NodeJS.Timeout;
  private readonly clients = new Map<Client, Tracked>();
  private readonly agents = new Map<Client, AgentIdentity>();
  // devices, kept apart from browsers; weak: the last will is authorised after the client is gone
  private readonly printers = new WeakMap<Client, PrinterIdentity>();
  // a printer's open connections, by tenant and printer
  private readonly printerConnections = new Map<string, Set<Client>>();
  // when agents and devices published last (their publish limit)
  private readonly publishTimes = new WeakMap<Client, number[]>();
  private listening = false;
  private readonly work: BrokerWork;

  constructor(private readonly options: EmbeddedBrokerOptions) {
    this.work = options.work ?? new BrokerWork(2, 1000);
  }

  /** The port the WebSocket listener is bound to (the real one when 0 was asked for). */
  get port(): number | null {
    const address = this.http?.address();
    return address && typeof address === 'object' ? (address as AddressInfo).port : null;
  }
  /** The plain-TCP port, when one was asked for. */
  get tcpPort(): number | null {
    const address = this.tcp?.address();
    return address && typeof address === 'object' ? (address as AddressInfo).port : null;
  }

  /** Browsers connected to this broker now. */
  get connectedClients(): number {
    return this.clients.size;
  }

  /** True when the broker runs and browsers can reach it. */
  get live(): boolean {
    return this.listening && !!this.aedes && !this.aedes.closed;
  }

  async start(): Promise<void> {
    const aedesOptions: AedesOptions = {
      // browser ids are the account's client key (32 characters), a dash and 16 of the tab's own
      maxClientsIdLength: 64,
      maxTopicLevels: 8,
      connectTimeout: 10_000,
      queueLimit: 64,
      authenticate: (client, username, password, done) => this.authenticate(client, username, password, done),
      authorizeSubscribe: (client, subscription, done) => this.authorizeSubscribe(client, subscription, done),
      authorizePublish: (client, packet, done) => {
        if (!client) return done(null);
        const agent = this.agents.get(client);
        if (agent) return this.agentPublish(client, agent, packet.topic, packet.payload, packet.retain, done);
        const printer = this.printers.get(client);
        if (printer) return this.printerPublish(client, printer, packet.topic, packet.payload, packet.retain, done);
        done(this.checkPublish(client, packet.topic, packet.payload, packet.retain));
      },
      authorizeForward: (client, packet) => {
        const agent = this.agents.get(client);
        if (agent) return agentMayReceive(agent, packet.topic) ? packet : null;
        const printer = this.printers.get(client);
        if (printer) return printerMayReceive(printer.sn, packet.topic) ? packet : null;
        // Defence in depth: whatever was subscribed, only the account's own topics are ever forwarded.
        const tracked = this.clients.get(client);
        if (!tracked || !mayReceive(tracked.clientKey, packet.topic)) return null;
        return packet;
      },
    };
    if (this.options.redis) {
      const backplane = await createRedisBackplane(this.options.redis, this.options.redisPrefix ?? 'atrium:', this.options.log);
      aedesOptions.mq = backplane.mq;
      aedesOptions.persistence = backplane.persistence;
      this.persistence = backplane.persistence;
    }
    const aedes = await Aedes.createBroker(aedesOptions);
    this.aedes = aedes;
    aedes.on('clientDisconnect', (client) => {
      this.clients.delete(client);
      const printer = this.printers.get(client);
      if (printer) {
        const key = printerKey(printer.tenantId, printer.printerId);
        const open = this.printerConnections.get(key);
        open?.delete(client);
        if (!open?.size) {
          this.printerConnections.delete(key);
          const hooks = this.options.printers;
          if (hooks)
            this.work
              .run(() => hooks.onDisconnect(printer))
              .catch((error: unknown) => this.options.log.warn({ err: error }, 'printer state not recorded'));
        }
      }
      const agent = this.agents.get(client);
      if (!agent) return;
      this.agents.delete(client);
      // a reconnect that took the connection over keeps the agent online
      const still = [...this.agents.values()].some((a) => a.tenantId === agent.tenantId && a.clientId === agent.clientId);
      if (!still) this.options.agents?.()?.onPresence(agent, false);
    });
    aedes.on('clientError', (client, error) => this.options.log.debug({ clientId: client.id, err: error }, 'mqtt client error'));
    aedes.on('unsubscribe', (topics, client) => {
      const tracked = this.clients.get(client);
      for (const topic of topics) tracked?.subscriptions.delete(topic);
    });
    await new Promise<void>((resolve) =>
      aedes.subscribe(SESSION_ENDED_TOPIC, (packet, done) => this.onSessionEnded(packet.payload, done), resolve),
    );
    await new Promise<void>((resolve) =>
      aedes.subscribe(IDENTITY_ENDED_TOPIC, (packet, done) => this.onIdentityEnded(packet.payload, done), resolve),
    );

    this.http = createServer((_request, response) => {
      response.writeHead(426, { 'content-type': 'text/plain' }).end('MQTT over WebSocket only, at /mqtt\n');
    });
    this.wss = new WebSocketServer({
      server: this.http,
      path: REALTIME_PATH,
      maxPayload: realtimeLimits.maxPacketBytes,
      perMessageDeflate: false,
    });
    this.wss.on('connection', (socket, request: IncomingMessage) => {
      let windowStart = Date.now();
      let bytes = 0;
      socket.on('message', (data: Buffer) => {
        const now = Date.now();
        if (now - windowStart > realtimeLimits.publishWindowMs) {
          windowStart = now;
          bytes = 0;
        }
        bytes += data.length;
        if (bytes > BYTES_PER_WINDOW) socket.terminate();
      });
      const stream = createWebSocketStream(socket);
      stream.on('error', () => socket.terminate());
      aedes.handle(stream, request);
    });
    this.wss.on('error', (error) => this.options.log.warn({ err: error }, 'mqtt websocket error'));
    if (this.options.tcpPort !== undefined && this.options.tcpPort !== null) {
      // the same broker, rules and limits; only the transport differs
      this.tcp = createTcpServer((socket: Socket) => {
        this.tcpSockets.add(socket);
        socket.once('close', () => this.tcpSockets.delete(socket));
        let windowStart = Date.now();
        let bytes = 0;
        socket.on('data', (data: Buffer) => {
          const now = Date.now();
          if (now - windowStart > realtimeLimits.publishWindowMs) {
            windowStart = now;
            bytes = 0;
          }
          bytes += data.length;
          if (bytes > BYTES_PER_WINDOW) socket.destroy();
        });
        socket.on('error', () => socket.destroy());
        aedes.handle(socket);
      });
      const tcp = this.tcp;
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(this.options.tcpPort ?? 0, this.options.host, () => {
          tcp.off('error', reject);
          resolve();
        });
      });
    }
    await new Promise<void>((resolve, reject) => {
      const server = this.http as Server;
      server.once('error', reject);
      server.listen(this.options.port, this.options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.listening = true;
    const revalidateMs = this.options.revalidateMs ?? 60_000;
    this.revalidateTimer = setInterval(() => void this.revalidate(), revalidateMs);
    this.revalidateTimer.unref();
  }

  /** Publishes at QoS 2; false when the broker did not take the message within `timeoutMs`. */
  publish(topic: string, payload: string, timeoutMs = 2000): Promise<boolean> {
    const aedes = this.aedes;
    if (!aedes || aedes.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      aedes.publish({ cmd: 'publish', topic, payload: Buffer.from(payload), qos: 2, retain: false, dup: false }, (error) => {
        clearTimeout(timer);
        resolve(!error);
      });
    });
  }

  /** Whether a device of this printer is connected to this broker. */
  deviceConnected(tenantId: number, printerId: number): boolean {
    return (this.printerConnections.get(printerKey(tenantId, printerId))?.size ?? 0) > 0;
  }

  /** Publishes to a device at QoS 1 (the printer protocol's job topic); false when the broker did not take it. */
  publishToDevice(topic: string, payload: string, timeoutMs = 2000): Promise<boolean> {
    const aedes = this.aedes;
    if (!aedes || aedes.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      aedes.publish({ cmd: 'publish', topic, payload: Buffer.from(payload), qos: 1, retain: false, dup: false }, (error) => {
        clearTimeout(timer);
        resolve(!error);
      });
    });
  }

  /** Disconnects the clients of ended sessions, on this instance and, through the backplane, on the others. */
  endSessions(clientKey: string, sessionIds: number[]): Promise<boolean> {
    this.closeSessions(clientKey, sessionIds);
    return this.publish(SESSION_ENDED_TOPIC, JSON.stringify({ clientKey, sessionIds }));
  }

  /**
   * Disconnects the connections of an identity that ended, on this instance and, through the
   * backplane, on the others (as ending a session does for browsers).
   */
  endIdentity(ended: EndedIdentity): Promise<boolean> {
    this.closeIdentity(ended);
    return this.publish(IDENTITY_ENDED_TOPIC, JSON.stringify(ended));
  }

  async stop(): Promise<void> {
    this.listening = false;
    if (this.revalidateTimer) clearInterval(this.revalidateTimer);
    const tcp = this.tcp;
    const tcpClosed = tcp?.listening ? new Promise<void>((resolve) => tcp.close(() => resolve())) : Promise.resolve();
    for (const socket of this.tcpSockets) socket.destroy();
    const http = this.http;
    // stop taking connections first, then cut the open ones: nothing may keep the server from closing
    const httpClosed = http?.listening ? new Promise<void>((resolve) => http.close(() => resolve())) : Promise.resolve();
    for (const socket of this.wss?.clients ?? []) socket.terminate();
    http?.closeAllConnections();
    const aedes = this.aedes;
    if (aedes) await within(STOP_STEP_MS, new Promise<void>((resolve) => aedes.close(() => resolve())));
    const wss = this.wss;
    if (wss) await within(STOP_STEP_MS, new Promise<void>((resolve) => wss.close(() => resolve())));
    await within(STOP_STEP_MS, httpClosed);
    await within(STOP_STEP_MS, tcpClosed);
    if (this.persistence)
      await within(
        STOP_STEP_MS,
        this.persistence.destroy().catch(() => {}),
      );
    this.clients.clear();
  }

  private authenticate(
    client: Client,
    username: string | undefined,
    password: Buffer | undefined,
    done: (error: AuthenticateError | null, success: boolean | null) => void,
  ) {
    const refuse = () => done(Object.assign(new Error('not authorized'), { returnCode: NOT_AUTHORIZED }) as AuthenticateError, false);
    const agent = agentOf(username);
    if (agent) return this.authenticateAgent(client, agent, password, done, refuse);
    if (isPrinterLogin(username)) {
      const checkDevice = this.options.printers?.checkDevice;
      if (!checkDevice) return refuse();
      this.work
        .run(() => authenticatePrinter(checkDevice, { username, password, clientId: client.id }))
        .then(
          (printer) => {
            if (!printer) return refuse();
            this.printers.set(client, printer);
            const key = printerKey(printer.tenantId, printer.printerId);
            const open = this.printerConnections.get(key) ?? new Set<Client>();
            open.add(client);
            this.printerConnections.set(key, open);
            done(null, true);
          },
          (error: unknown) => {
            this.options.log.warn({ err: error }, 'mqtt device authentication failed to run');
            refuse();
          },
        );
      return;
    }
    this.work
      .run(() => authenticateBrowser(this.options.checkToken, { username, password, clientId: client.id }))
      .then(
        (identity) => {
          // authenticateBrowser also refuses a client id that is not the account's (it would take over a connection)
          if (!identity) return refuse();
          let connections = 0;
          for (const tracked of this.clients.values()) if (tracked.clientKey === identity.clientKey) connections++;
          if (!mayConnectAgain(connections)) return refuse();
          this.clients.set(client, { ...identity, subscriptions: new Set(), publishes: [] });
          done(null, true);
        },
        (error: unknown) => {
          this.options.log.warn({ err: error }, 'mqtt authentication failed to run');
          refuse();
        },
      );
  }

  private authenticateAgent(
    client: Client,
    agent: AgentIdentity,
    password: Buffer | undefined,
    done: (error: AuthenticateError | null, success: boolean | null) => void,
    refuse: () => void,
  ) {
    const bridge = this.options.agents?.();
    const secret = tokenOf({ username: 'agent', password, clientId: client.id });
    // one client id per agent: nobody else can take its connection over without its secret
    if (!bridge || !secret || client.id !== agentClientId(agent)) return refuse();
    this.work
      .run(() => bridge.authenticate(agent, secret))
      .then(
        (ok) => {
          if (!ok) return refuse();
          this.agents.set(client, agent);
          bridge.onPresence(agent, true);
          done(null, true);
        },
        (error: unknown) => {
          this.options.log.warn({ err: error }, 'agent authentication failed to run');
          refuse();
        },
      );
  }

  /** Counts a publish of an agent or device; false when it publishes faster than its kind may. */
  private publishAllowed(client: Client, burst: number): boolean {
    let times = this.publishTimes.get(client);
    if (!times) {
      times = [];
      this.publishTimes.set(client, times);
    }
    return mayPublishNow(times, burst);
  }

  /**
   * An agent publishes only to its own `up` topics, not too often; what it sends is stored, for the
   * agent it signed in as, before the broker acknowledges it.
   */
  private agentPublish(
    client: Client,
    agent: AgentIdentity,
    topic: string,
    payload: Buffer | string,
    retain: boolean,
    done: (error?: Error | null) => void,
  ) {
    if (!agentMayPublish(agent, topic, retain)) return done(new Error('publishing to this topic is not allowed'));
    if (Buffer.byteLength(payload) > realtimeLimits.maxPacketBytes) return done(new Error('payload too large'));
    if (!this.publishAllowed(client, publishBursts.agent)) return done(new Error('publishing too fast'));
    const up = agentUpOf(topic);
    const bridge = this.options.agents?.();
    if (!up || !bridge) return done(new Error('no release domain'));
    const body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
    this.work
      .run(() => bridge.onMessage(agent, up.kind, body))
      .then(
        () => done(null),
        (error: unknown) => {
          if (!(error instanceof BrokerBusy)) this.options.log.warn({ err: error, topic }, 'agent message not stored');
          done(error as Error);
        },
      );
  }

  /**
   * A device publishes its acks and status under its own serial number only, not too often; they are
   * applied to the printer it signed in as (never to whoever holds the serial number now).
   */
  private printerPublish(
    client: Client,
    printer: PrinterIdentity,
    topic: string,
    payload: Buffer | string,
    retain: boolean,
    done: (error?: Error | null) => void,
  ) {
    if (!printerMayPublish(printer.sn, topic, retain)) return done(new Error('publishing to this topic is not allowed'));
    if (Buffer.byteLength(payload) > realtimeLimits.maxPacketBytes) return done(new Error('payload too large'));
    if (!this.publishAllowed(client, publishBursts.printer)) return done(new Error('publishing too fast'));
    const hooks = this.options.printers;
    const kind = topic.split('/')[2];
    if (!hooks || (kind !== 'ack' && kind !== 'status')) return done(null);
    const body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
    this.work
      .run(() => hooks.onMessage(printer, kind, body))
      .then(
        () => done(null),
        (error: unknown) => {
          if (!(error instanceof BrokerBusy)) this.options.log.warn({ err: error, topic }, 'printer message not recorded');
          done(error as Error);
        },
      );
  }

  private authorizeSubscribe(
    client: Client,
    subscription: Subscription,
    done: (error: Error | null, subscription?: Subscription | null) => void,
  ) {
    const agent = this.agents.get(client);
    if (agent) return done(null, agentMaySubscribe(agent, subscription.topic) ? subscription : null);
    const printer = this.printers.get(client);
    if (printer) return done(null, printerMaySubscribe(printer.sn, subscription.topic) ? subscription : null);
    const tracked = this.clients.get(client);
    if (!tracked || !maySubscribe(tracked.clientKey, subscription.topic)) return done(null, null);
    if (!tracked.subscriptions.has(subscription.topic) && tracked.subscriptions.size >= realtimeLimits.maxSubscriptions) {
      return done(null, null);
    }
    tracked.subscriptions.add(subscription.topic);
    done(null, subscription);
  }

  /** A client may publish only small, not retained messages, not too often, to its own account's client topic. */
  private checkPublish(client: Client, topic: string, payload: Buffer | string, retain: boolean): Error | null {
    const tracked = this.clients.get(client);
    if (!tracked || !mayPublish(tracked.clientKey, topic, retain)) return new Error('publishing to this topic is not allowed');
    if (Buffer.byteLength(payload) > realtimeLimits.maxPacketBytes) return new Error('payload too large');
    if (!mayPublishNow(tracked.publishes, publishBursts.browser)) return new Error('publishing too fast');
    return null;
  }

  private onSessionEnded(payload: Buffer | string, done: () => void) {
    try {
      const { clientKey, sessionIds } = JSON.parse(payload.toString()) as { clientKey: string; sessionIds: number[] };
      if (typeof clientKey === 'string' && Array.isArray(sessionIds)) this.closeSessions(clientKey, sessionIds);
    } catch {
      // not ours to fail on: a malformed control message is ignored
    }
    done();
  }

  private onIdentityEnded(payload: Buffer | string, done: () => void) {
    try {
      const ended = JSON.parse(payload.toString()) as EndedIdentity;
      if (ended && (ended.kind === 'printer' || ended.kind === 'agent')) this.closeIdentity(ended);
    } catch {
      // a malformed control message is ignored
    }
    done();
  }

  private closeIdentity(ended: EndedIdentity) {
    if (ended.kind === 'agent') {
      for (const [client, agent] of this.agents) if (agent.tenantId === ended.tenantId && agent.clientId === ended.clientId) client.close();
      return;
    }
    for (const client of this.printerConnections.get(printerKey(ended.tenantId, ended.printerId)) ?? []) client.close();
  }

  private closeSessions(clientKey: string, sessionIds: number[]) {
    for (const [client, tracked] of this.clients) {
      if (tracked.clientKey === clientKey && sessionIds.includes(tracked.sessionId)) {
        this.clients.delete(client);
        client.close();
      }
    }
  }

  /**
   * Sessions expire (idle, absolute) without an event, and an identity's end may not have reached this
   * instance (no Redis between instances, or it was away): check every connected client again.
   */
  async revalidate(): Promise<void> {
    // a check that fails to run (database busy) keeps the client rather than dropping everyone
    const still = (check: () => Promise<boolean>) => this.work.run(check).catch(() => true);
    for (const [client, tracked] of [...this.clients]) {
      if (client.closed) {
        this.clients.delete(client);
        continue;
      }
      if (!(await still(() => this.options.checkSession(tracked.sessionId)))) {
        this.clients.delete(client);
        client.close();
      }
    }
    const bridge = this.options.agents?.();
    for (const [client, agent] of [...this.agents]) {
      if (!client.closed && (!bridge || !(await still(() => bridge.isActive(agent))))) client.close();
    }
    const hooks = this.options.printers;
    for (const open of [...this.printerConnections.values()]) {
      for (const client of [...open]) {
        const printer = this.printers.get(client);
        if (!client.closed && (!hooks || !printer || !(await still(() => hooks.isCurrent(printer))))) client.close();
      }
    }
  }
}

const printerKey = (tenantId: number, printerId: number) => `${tenantId}:${printerId}`;

type Backplane = { mq: unknown; persistence: { destroy(): Promise<void> } };

async function createRedisBackplane(watch: RedisWatch, namespace: string, log: FastifyBaseLogger): Promise<Backplane> {
  const prefix = `${namespace}mqtt:`;
  const { default: mqemitterRedis } = await import('mqemitter-redis');
  const { default: RedisPersistence } = await import('aedes-persistence-redis/asyncPersistence.js');
  // the watch's clients: an outage is logged once for all of them; subscriptions wait for Redis
  const waiting = { enableOfflineQueue: true, maxRetriesPerRequest: null, commandTimeout: undefined };
  // publishes and persistence queue while connecting (start-up), bounded by a command timeout
  const queued = { enableOfflineQueue: true, commandTimeout: 5000 };
  const mq = mqemitterRedis(
    prefixedChannels(watch.client('broker-publish', queued), watch.client('broker-subscribe', waiting), prefix) as never,
  );
  // the emitter re-emits its clients' errors: without a listener it would throw and end the process
  (mq as unknown as { state: EventEmitter }).state.on('error', (error: Error) => log.debug({ err: error }, 'mqtt backplane (redis) error'));
  // aedes 1.2 pipes the retained-message stream; this persistence answers an async iterator
  class RetainedAsStream extends RedisPersistence {
    override createRetainedStreamCombi(patterns: string[]) {
      return Readable.from(super.createRetainedStreamCombi(patterns)) as unknown as AsyncIterable<unknown>;
    }
  }
  // ioredis prefixes every key of the persistence (sessions, retained messages, wills)
  const persistence = new RetainedAsStream({
    conn: watch.client('broker-persistence', { enableOfflineQueue: true, commandTimeout: 5000, keyPrefix: prefix }),
  } as never);
  return { mq, persistence };
}

/**
 * The emitter's publish and subscribe connections, with each MQTT topic's Redis channel under the
 * deployment's prefix (ioredis's keyPrefix covers keys, not pub/sub channels). Messages carry their
 * topic inside, so what arrives needs no unprefixing.
 */
function prefixedChannels(pubConn: Redis, subConn: Redis, prefix: string) {
  const publish = pubConn.publish.bind(pubConn);
  pubConn.publish = ((channel: string, message: Buffer) => publish(prefix + channel, message)) as typeof pubConn.publish;
  for (const name of ['subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe'] as const) {
    const original = subConn[name].bind(subConn) as (channel: string, callback?: unknown) => unknown;
    (subConn as unknown as Record<string, unknown>)[name] = (channel: string, callback?: unknown) => original(prefix + channel, callback);
  }
  return { pubConn, subConn };
}
