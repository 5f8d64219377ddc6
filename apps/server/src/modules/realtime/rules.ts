import { timingSafeEqual } from 'node:crypto';
import {
  ownsClientId,
  REALTIME_TOPIC_ROOT,
  realtimeKinds,
  realtimeLimits,
  realtimeSubscription,
  realtimeTopic,
} from '@atrium/contracts/realtime';
import type { BrokerIdentity, TokenCheck } from './broker';

/**
 * Who may connect to the broker and what a connection may do: the one set of decisions both the
 * embedded broker (aedes hooks) and the external broker's HTTP hook (EMQX) apply. Each decision is a
 * small function of its own, so a rule is changed in one place for both brokers.
 */

/** A session token is a few dozen characters; anything much longer is not worth a database lookup. */
export const MAX_TOKEN_BYTES = 512;

/** What a client presents when it connects. */
export type Credentials = { username: string | undefined; password: Buffer | string | undefined; clientId: string };

/** The token in a connection's password, or null when the credentials cannot be a browser's. */
export function tokenOf(credentials: Credentials): string | null {
  const { username, password } = credentials;
  if (!username || password === undefined) return null;
  const bytes = typeof password === 'string' ? Buffer.byteLength(password) : password.length;
  if (bytes === 0 || bytes > MAX_TOKEN_BYTES) return null;
  return typeof password === 'string' ? password : password.toString('utf8');
}

/** A token signs in only the account it belongs to: the MQTT username is that account's user number. */
export function signsInAs(identity: BrokerIdentity, username: string): boolean {
  return identity.accountId.toLowerCase() === username.toLowerCase();
}

/**
 * A browser's connection: the session behind the token, or null when the token is unknown, expired,
 * ended or another account's. A check that fails to run (database away) rejects, for the caller to
 * refuse the connection.
 */
export async function authenticateBrowser(checkToken: TokenCheck, credentials: Credentials): Promise<BrokerIdentity | null> {
  const token = tokenOf(credentials);
  if (!token || !credentials.username) return null;
  const identity = await checkToken(token);
  if (!identity || !signsInAs(identity, credentials.username)) return null;
  // a client id of another account would take its connection over (the broker closes the older one)
  if (!ownsClientId(identity.clientKey, credentials.clientId)) return null;
  return identity;
}

/** Whether an account may open one more connection on a broker that already holds `open` of its connections. */
export function mayConnectAgain(open: number): boolean {
  return open < realtimeLimits.maxConnectionsPerAccount;
}

/** A browser subscribes to its own account's topics only: the one wildcard subscription, or one kind's topic. */
export function maySubscribe(clientKey: string, topic: string): boolean {
  return topic === realtimeSubscription(clientKey) || realtimeKinds.some((kind) => topic === realtimeTopic(kind, clientKey));
}

/**
 * A browser publishes only to its own account's client topic (signals between its tabs), never
 * retained: a retained message would greet every later connection of the account.
 */
export function mayPublish(clientKey: string, topic: string, retain = false): boolean {
  return !retain && topic === realtimeTopic('client', clientKey);
}

/** Whatever was subscribed, a browser is sent only messages of its own account's topics. */
export function mayReceive(clientKey: string, topic: string): boolean {
  return topic.startsWith(`${REALTIME_TOPIC_ROOT}/`) && topic.endsWith(`/${clientKey}`);
}

/** The server's own MQTT credentials (the user and password of MQTT_URL). */
export type ServerCredentials = { username: string; password: string };

/** The server's own credentials from MQTT_URL; null when the URL carries none. */
export function serverCredentialsOf(mqttUrl: string | undefined): ServerCredentials | null {
  if (!mqttUrl) return null;
  const url = new URL(mqttUrl);
  if (!url.username) return null;
  return { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
}

/** Compares two secrets in constant time (for equal lengths; a different length answers false at once). */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The server's own connection: it publishes to every account's topics, as the embedded broker lets the
 * server do (its publishes there do not go through the client hooks at all).
 */
export function isServer(server: ServerCredentials | null, username: string | undefined, password: string | undefined): boolean {
  if (!server || username === undefined || password === undefined) return false;
  // both compared, always: how long the answer takes does not tell which one was wrong
  const user = sameSecret(username, server.username);
  const pass = sameSecret(password, server.password);
  return user && pass;
}
