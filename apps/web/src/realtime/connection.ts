import type { RealtimeConnection } from '@atrium/contracts/realtime';
import { realtimeClientId } from '@atrium/contracts/realtime-ids';
import type { RealtimeMessage } from './events';
import { MqttSubscriber } from './mqtt';

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
// a ping every half of it when nothing else arrives; the broker drops a client silent for 1.5 of it
const KEEPALIVE_SEC = 60;

/** ws(s)://{page host}:{port}{path}, unless the server names another address (proxy, external broker). */
export function brokerUrl(connection: RealtimeConnection, location: Location = window.location): string | null {
  if (connection.url) return connection.url;
  if (!connection.port) return null;
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.hostname}:${connection.port}${connection.path}`;
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
  const onMessage = (_topic: string, payload: Uint8Array) => {
    try {
      options.onMessage(JSON.parse(new TextDecoder().decode(payload)) as RealtimeMessage);
    } catch {
      // not JSON: nothing a page could use
    }
  };
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
  const client = new MqttSubscriber(
    url,
    {
      clientId: tabClientId(options.clientKey),
      username: options.username,
      password: options.token,
      keepaliveSec: KEEPALIVE_SEC,
      connectTimeoutMs: options.connection.connectTimeout,
    },
    {
      onConnect: () => {
        delay = FIRST_RETRY_MS;
        client.subscribe(options.connection.topic, options.connection.qos, (granted) => {
          // the spec's subscription log lines
          if (granted) console.log('订阅成功');
          else console.error('订阅失败', options.connection.topic);
        });
        options.onConnected();
      },
      onMessage,
      onRefused: (code) => options.onRefused?.(code),
      onClose: scheduleRetry,
    },
  );
  window.addEventListener('online', retryNow);

  return () => {
    stopped = true;
    clearTimeout(retry);
    window.removeEventListener('online', retryNow);
    client.end();
  };
}
