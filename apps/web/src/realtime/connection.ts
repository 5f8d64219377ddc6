import type { RealtimeConnection } from '@atrium/contracts/realtime';
import { realtimeClientId } from '@atrium/contracts/realtime-ids';
import mqtt, { type MqttClient } from 'mqtt';
import type { RealtimeMessage } from './events';

export type RealtimeOptions = {
  connection: RealtimeConnection;
  username: string;
  /** The account's client key: the broker accepts only client ids that start with it. */
  clientKey: string;
  token: string;
  onMessage: (message: RealtimeMessage) => void;
  /** After every (re)connection: what was published while away is read from the stored notifications. */
  onConnected: () => void;
  /** The broker refused the connection (CONNACK with a failure code): after an upgrade, this tab may be out of date. */
  onRefused?: (code: number) => void;
};

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

/** ws(s)://{page host}:{port}{path}, unless the server names another address (proxy, external broker). */
export function brokerUrl(connection: RealtimeConnection, location: Location = window.location): string | null {
  if (connection.url) return connection.url;
  if (!connection.port) return null;
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.hostname}:${connection.port}${connection.path}`;
}

/**
 * The broker's refusal code when an error is a refused connection (mqtt.js: a CONNACK with a failure
 * code, e.g. 2 identifier rejected, 5 not authorized, 135 in MQTT 5); undefined for a transport failure.
 */
export function refusalCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' && code > 0 ? code : undefined;
}

/**
 * A client id of its own for each tab (and each page load): two tabs never push each other out. It
 * starts with the account's client key, as the broker requires.
 */
function tabClientId(clientKey: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return realtimeClientId(clientKey, Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(''));
}

/**
 * Connects this tab to the broker (clean session, 4000 ms connect timeout, QoS 2) and keeps it
 * connected: after a broker restart or a network loss it retries with a growing, jittered delay.
 * Answers the function that disconnects for good.
 */
export function startRealtime(options: RealtimeOptions): () => void {
  const url = brokerUrl(options.connection);
  if (!url) return () => {};
  let stopped = false;
  let delay = FIRST_RETRY_MS;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const client: MqttClient = mqtt.connect(url, {
    clientId: tabClientId(options.clientKey),
    clean: true,
    connectTimeout: options.connection.connectTimeout,
    username: options.username,
    password: options.token,
    // retries are scheduled below, with backoff
    reconnectPeriod: 0,
  });

  const scheduleRetry = () => {
    if (stopped || retry) return;
    const wait = delay / 2 + Math.random() * (delay / 2);
    delay = Math.min(delay * 2, MAX_RETRY_MS);
    retry = setTimeout(() => {
      retry = undefined;
      if (!stopped && !client.connected) client.reconnect();
    }, wait);
  };
  const retryNow = () => {
    clearTimeout(retry);
    retry = undefined;
    delay = FIRST_RETRY_MS;
    if (!stopped && !client.connected) client.reconnect();
  };

  client.on('connect', () => {
    delay = FIRST_RETRY_MS;
    client.subscribe(options.connection.topic, { qos: options.connection.qos }, (error) => {
      // the spec's subscription log lines
      if (error) console.error('订阅失败', error);
      else console.log('订阅成功');
    });
    options.onConnected();
  });
  client.on('message', (_topic, payload) => {
    try {
      options.onMessage(JSON.parse(payload.toString()) as RealtimeMessage);
    } catch {
      // not JSON: nothing a page could use
    }
  });
  client.on('close', scheduleRetry);
  // mqtt.js reports refused connections and transport failures here; the retry follows on close
  client.on('error', (error) => {
    const code = refusalCode(error);
    if (code !== undefined) options.onRefused?.(code);
  });
  window.addEventListener('online', retryNow);

  return () => {
    stopped = true;
    clearTimeout(retry);
    window.removeEventListener('online', retryNow);
    client.end(true);
  };
}
