import { printerClientId } from '@atrium/contracts/printer-protocol';
import { type NotificationEvent, type RealtimeKind, realtimeTopic } from '@atrium/contracts/realtime';
import { inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { withTenant } from '../../db/client';
import { accounts } from '../../db/schema';
import type { RedisWatch } from '../../redis';
import {
  type AgentBridge,
  agentClientId,
  EmbeddedBroker,
  type EndedIdentity,
  type PrinterHooks,
  type SessionCheck,
  type TokenCheck,
} from './broker';
import { ExternalPublisher } from './external';
import type { EmqxApi } from './hook';
import { type NotificationRow, type NotifyInput, storeNotifications, toNotification } from './notification.repository';
import { BrokerWork } from './work';

export type RealtimeOptions = {
  database: Database;
  log: FastifyBaseLogger;
  host: string;
  wsPort: number;
  /** plain MQTT over TCP on the embedded broker too (devices without WebSocket); null: none */
  tcpPort?: number | null;
  mqttUrl?: string;
  /** What browsers connect to, when it is not this host's WebSocket port. */
  publicUrl?: string;
  redis?: RedisWatch | null;
  redisPrefix?: string;
  checkToken: TokenCheck;
  checkSession: SessionCheck;
  revalidateMs?: number;
  /** Between attempts to bring the embedded broker up after a failure (port taken, Redis away). */
  retryMs?: number;
  /** EMQX's REST API, with an external broker: ended agents and devices are disconnected through it. */
  emqx?: EmqxApi | null;
  /** Broker work (sign-ins, agents' and devices' messages) that may use database connections at once. */
  workConcurrency?: number;
};

/** Events for other domains: task progress, printer status… delivered to accounts' `atrium-web/{kind}/…` topics. */
export type PublishInput = { accountRefs: number[]; kind: Exclude<RealtimeKind, 'client'>; payload: Record<string, unknown> };

export type NotifyResult = { ids: number[]; recipients: number; live: boolean };

const PUBLISH_CONCURRENCY = 100;
const START_TIMEOUT_MS = 5000;
// broker jobs that may wait for a turn; beyond it a publishing client is disconnected (it retries)
const WORK_QUEUE = 2000;

/**
 * Live delivery for the whole server: the embedded broker (default) or an external one (MQTT_URL).
 * Everything is stored before it is published, so a failed publish only delays what a person sees.
 */
export class Realtime {
  readonly mode: 'embedded' | 'external';
  private embedded?: EmbeddedBroker;
  private external?: ExternalPublisher;
  private retryTimer?: NodeJS.Timeout;
  private stopped = false;
  /** Release agents' connections (set by the release domain); agents are refused while it is null. */
  agentBridge: AgentBridge | null = null;
  private printers?: PrinterHooks;
  /** The database work broker connections cause, a few at a time (HTTP requests keep the rest of the pool). */
  readonly work: BrokerWork;

  constructor(private readonly options: RealtimeOptions) {
    this.mode = options.mqttUrl ? 'external' : 'embedded';
    this.work = new BrokerWork(options.workConcurrency ?? 2, WORK_QUEUE);
  }

  /** The embedded broker's WebSocket port (null with an external broker or while it is down). */
  get port(): number | null {
    return this.embedded?.port ?? null;
  }

  /** The embedded broker's plain-TCP port, when it has one. */
  get tcpPort(): number | null {
    return this.embedded?.tcpPort ?? null;
  }

  /** The broker URL browsers use; null means "this host, `port`, /mqtt" (embedded) or none (external over TCP). */
  get publicUrl(): string | null {
    if (this.options.publicUrl) return this.options.publicUrl;
    if (!this.options.mqttUrl) return null;
    const url = new URL(this.options.mqttUrl);
    if (url.protocol !== 'ws:' && url.protocol !== 'wss:') return null;
    // the server's own credentials never go to browsers
    url.username = '';
    url.password = '';
    return url.toString();
  }

  /** Browsers connected to the embedded broker of this instance (0 with an external broker). */
  get connectedClients(): number {
    return this.embedded?.connectedClients ?? 0;
  }

  /** True when a publish now would reach connected browsers. */
  get live(): boolean {
    return this.mode === 'external' ? !!this.external?.live : !!this.embedded?.live;
  }

  /** Lets devices of the built-in printer protocol sign in to the embedded broker (set before start). */
  usePrinters(hooks: PrinterHooks): void {
    this.printers = hooks;
  }

  /** Whether a device of the tenant's printer is connected to this instance's embedded broker. */
  deviceConnected(tenantId: number, printerId: number): boolean {
    return this.embedded?.deviceConnected(tenantId, printerId) ?? false;
  }

  /**
   * Disconnects the connections of an agent or device identity that ended: on the embedded broker of
   * every instance (through the backplane), or through EMQX's REST API with an external broker.
   */
  async endIdentity(ended: EndedIdentity): Promise<void> {
    if (this.embedded) await this.embedded.endIdentity(ended);
    const emqx = this.options.emqx;
    if (this.mode === 'external' && emqx) {
      const clientId = ended.kind === 'agent' ? agentClientId(ended) : printerClientId(ended.sn);
      await emqx.disconnect(clientId);
    }
  }

  /** Whether other instances share the broker (a device may be connected to one of them). */
  get shared(): boolean {
    return !!this.options.redis;
  }

  /** Publishes a job to a device at QoS 1; false when no embedded broker took it. */
  publishToDevice(topic: string, payload: string): Promise<boolean> {
    if (this.embedded) return this.embedded.publishToDevice(topic, payload);
    return Promise.resolve(false);
  }

  async start(): Promise<void> {
    this.stopped = false;
    if (this.options.mqttUrl) {
      this.external = new ExternalPublisher(this.options.mqttUrl, this.options.log, () => this.agentBridge, this.work);
      this.external.start();
      return;
    }
    await this.startEmbedded();
  }

  private async startEmbedded(): Promise<void> {
    const broker = new EmbeddedBroker({
      host: this.options.host,
      port: this.options.wsPort,
      tcpPort: this.options.tcpPort,
      redis: this.options.redis,
      redisPrefix: this.options.redisPrefix,
      checkToken: this.options.checkToken,
      checkSession: this.options.checkSession,
      log: this.options.log,
      revalidateMs: this.options.revalidateMs,
      agents: () => this.agentBridge,
      printers: this.printers,
      work: this.work,
    });
    const starting = broker.start();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        starting,
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`did not start within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
        }),
      ]);
      if (this.stopped) {
        await broker.stop();
        return;
      }
      this.embedded = broker;
      // keep the port chosen first (0 = any): after a restart, browsers find the broker where it was
      this.options.wsPort ||= broker.port ?? 0;
      if (this.options.tcpPort === 0) this.options.tcpPort = broker.tcpPort;
      this.options.log.info({ port: broker.port, tcpPort: broker.tcpPort ?? undefined }, 'mqtt broker listening (websocket /mqtt)');
    } catch (error) {
      // The app keeps serving without live delivery; browsers reconnect once the broker is up.
      this.options.log.error({ err: error }, 'mqtt broker failed to start; live delivery is delayed, retrying');
      starting.finally(() => broker.stop()).catch(() => {});
      if (!this.stopped) {
        this.retryTimer = setTimeout(() => void this.startEmbedded(), this.options.retryMs ?? 10_000);
        this.retryTimer.unref();
      }
    } finally {
      clearTimeout(timer);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    await this.embedded?.stop();
    this.embedded = undefined;
    await this.external?.stop();
    this.external = undefined;
  }

  private publishTopic(topic: string, payload: string): Promise<boolean> {
    if (this.external) return this.external.publish(topic, payload);
    if (this.embedded) return this.embedded.publish(topic, payload);
    return Promise.resolve(false);
  }

  /** Publishes to one MQTT topic (a release agent's commands); false when no broker took it. */
  publishRaw(topic: string, payload: string): Promise<boolean> {
    return this.publishTopic(topic, payload);
  }

  /** Each account's opaque topic key. */
  async clientKeysOf(accountRefs: number[]): Promise<Map<number, string>> {
    const ids = [...new Set(accountRefs)];
    const keys = new Map<number, string>();
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await this.options.database.db
        .select({ id: accounts.id, clientKey: accounts.clientKey })
        .from(accounts)
        .where(inArray(accounts.id, ids.slice(i, i + 1000)));
      for (const row of rows) keys.set(row.id, row.clientKey);
    }
    return keys;
  }

  /** Publishes one payload per account; true only if every publish was taken by the broker. */
  async publishToAccounts(accountRefs: number[], kind: RealtimeKind, payloadOf: (accountRef: number) => unknown): Promise<boolean> {
    if (accountRefs.length === 0) return this.live;
    const keys = await this.clientKeysOf(accountRefs);
    const jobs = accountRefs.flatMap((ref) => {
      const key = keys.get(ref);
      return key ? [() => this.publishTopic(realtimeTopic(kind, key), JSON.stringify(payloadOf(ref)))] : [];
    });
    let ok = true;
    for (let i = 0; i < jobs.length; i += PUBLISH_CONCURRENCY) {
      const results = await Promise.all(jobs.slice(i, i + PUBLISH_CONCURRENCY).map((job) => job()));
      if (results.includes(false)) ok = false;
    }
    return ok;
  }

  /** Publishes stored notifications to their owners. */
  async deliver(tenantId: number, rows: NotificationRow[]): Promise<boolean> {
    const byAccount = new Map(rows.map((row) => [row.accountRef, row]));
    return this.publishToAccounts([...byAccount.keys()], 'notification', (ref): NotificationEvent => {
      const row = byAccount.get(ref) as NotificationRow;
      return { kind: 'notification', action: 'created', tenantId, notification: toNotification(row) };
    });
  }

  /** Tells accounts' open tabs that some of their notifications were read or removed, so badges follow. */
  changed(tenantId: number, action: 'read' | 'removed', idsByAccount: Map<number, number[] | 'all'>): Promise<boolean> {
    return this.publishToAccounts(
      [...idsByAccount.keys()],
      'notification',
      (ref): NotificationEvent => ({
        kind: 'notification',
        action,
        tenantId,
        ids: idsByAccount.get(ref) ?? 'all',
      }),
    );
  }

  /** Stores, then publishes. The one function other domains call to notify people. */
  async notify(input: NotifyInput): Promise<NotifyResult> {
    const rows = await withTenant(this.options.database.db, input.tenantId, (tx) => storeNotifications(tx, input));
    const live = await this.deliver(input.tenantId, rows).catch((error: unknown) => {
      this.options.log.warn({ err: error }, 'notification stored but not published');
      return false;
    });
    return { ids: rows.map((row) => row.id), recipients: rows.length, live };
  }

  /** Events that are not stored (progress, status): live only. */
  publish(input: PublishInput): Promise<boolean> {
    return this.publishToAccounts(input.accountRefs, input.kind, () => ({ ...input.payload, kind: input.kind }));
  }

  /** Checks every connected client's session now (the broker also does it every minute). */
  async revalidate(): Promise<void> {
    await this.embedded?.revalidate();
  }

  /** Disconnects an account's clients of ended sessions from the embedded broker (the external one: BrokerHook). */
  async endSessions(accountRef: number, sessionIds: number[]): Promise<void> {
    if (!this.embedded || sessionIds.length === 0) return;
    const key = (await this.clientKeysOf([accountRef])).get(accountRef);
    if (key) await this.embedded.endSessions(key, sessionIds);
  }
}
