import { randomBytes } from 'node:crypto';
import { REALTIME_CONNECT_TIMEOUT_MS, REALTIME_QOS } from '@atrium/contracts/realtime';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import type { AgentBridge } from './broker';
import { AGENT_TOPIC_ROOT, agentUpOf, SERVER_CLIENT_ID_PREFIX } from './rules';
import { BrokerWork } from './work';

/** Release agents' reports, shared among the server's instances (each message goes to one of them). */
const AGENT_UP_SUBSCRIPTION = `$share/atrium/${AGENT_TOPIC_ROOT}/+/c/+/up/+`;

/**
 * Publishing through an external broker (MQTT_URL, e.g. EMQX): the server is one more MQTT client,
 * with the credentials in the URL. Browsers connect to that broker directly; it asks the server's
 * hook (./hook.ts) who may connect and what they may do, with the embedded broker's rules.
 */
export class ExternalPublisher {
  private client?: MqttClient;

  constructor(
    private readonly url: string,
    private readonly log: FastifyBaseLogger,
    /** Release agents' reports; the external broker's hook has already checked who published them. */
    private readonly agents: () => AgentBridge | null = () => null,
    /** Where agents' reports are stored, a few at a time. */
    private readonly work = new BrokerWork(2, 1000),
  ) {}

  get live(): boolean {
    return !!this.client?.connected;
  }

  start() {
    const client = mqtt.connect(this.url, {
      clientId: `${SERVER_CLIENT_ID_PREFIX}${randomBytes(6).toString('hex')}`,
      clean: true,
      connectTimeout: REALTIME_CONNECT_TIMEOUT_MS,
      reconnectPeriod: 2000,
      queueQoSZero: false,
    });
    // one line when the broker goes away, one when it is back with the failed attempts between, not one per retry
    let away = false;
    let failures = 0;
    client.on('error', (error) => {
      failures += 1;
      if (!away) this.log.warn({ err: error }, 'external mqtt broker error');
      away = true;
    });
    client.on('offline', () => {
      if (!away) this.log.warn('external mqtt broker unreachable; live delivery is delayed');
      away = true;
    });
    client.on('connect', () => {
      this.log.info({ failedAttempts: failures }, 'connected to the external mqtt broker');
      away = false;
      failures = 0;
      client.subscribe(AGENT_UP_SUBSCRIPTION, { qos: 1 }, (error) => {
        if (error) this.log.warn({ err: error }, 'could not subscribe to release agents');
      });
    });
    client.on('message', (topic, payload) => {
      const up = agentUpOf(topic);
      const bridge = this.agents();
      if (!up || !bridge) return;
      this.work
        .run(() => bridge.onMessage(up.agent, up.kind, payload))
        .catch((error: unknown) => this.log.warn({ err: error, topic }, 'agent message not stored'));
    });
    this.client = client;
  }

  /** False when the broker is away or did not acknowledge in time; stored notifications are read later. */
  publish(topic: string, payload: string, timeoutMs = 2000): Promise<boolean> {
    const client = this.client;
    // not connected: do not let mqtt.js queue messages without bound while the broker is down
    if (!client?.connected) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      client.publish(topic, payload, { qos: REALTIME_QOS }, (error) => {
        clearTimeout(timer);
        resolve(!error);
      });
    });
  }

  async stop(): Promise<void> {
    await this.client?.endAsync(true).catch(() => {});
  }
}
