import { timingSafeEqual } from 'node:crypto';
import {
  PRINTER_TOPIC_ROOT,
  PRINTER_USERNAME_PREFIX,
  parsePrinterTopic,
  printerClientId,
  snOfUsername,
} from '@atrium/contracts/printer-protocol';
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

/**
 * Publishes one connection may send per window (`realtimeLimits.publishWindowMs`) before it is
 * disconnected: a browser's tabs signal each other now and then; an agent sends heartbeats and its
 * steps' log chunks (at most one per run every 300 ms); a printer its acks and status.
 */
export const publishBursts = { browser: realtimeLimits.publishBurst, agent: 600, printer: 60 } as const;

/**
 * Counts one publish of a connection whose earlier publishes were at `times` (kept in place); false
 * when it is one too many for the window.
 */
export function mayPublishNow(times: number[], burst: number, now = Date.now()): boolean {
  while (times.length > 0 && now - (times[0] as number) >= realtimeLimits.publishWindowMs) times.shift();
  if (times.length >= burst) return false;
  times.push(now);
  return true;
}

/**
 * Client ids. Each kind of connection has an id form of its own, bound to who it is: a browser
 * `{its account's client key}-{tab}`, an agent `agent-{tenant}-{client}`, a printer `printer-{sn}`, the
 * server (on an external broker) `atrium-server-{12 hex}`. A broker drops the older of two connections
 * with one id, so a kind that could take another's id could push that connection off.
 */
export const SERVER_CLIENT_ID_PREFIX = 'atrium-server-';
export function isServerClientId(clientId: string): boolean {
  return /^atrium-server-[0-9a-f]{12}$/.test(clientId);
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
  // an empty user or password is nobody's: the configuration refuses it, and so does the hook
  if (!server?.username || !server.password || username === undefined || password === undefined) return false;
  // both compared, always: how long the answer takes does not tell which one was wrong
  const user = sameSecret(username, server.username);
  const pass = sameSecret(password, server.password);
  return user && pass;
}

// ---------------------------------------------------------------------------------------------------
// Release agents. An agent signs in with username `agent:{tenantId}:{clientId}` and the secret it got
// at enrolment; it subscribes only to its own `down` topic and publishes only to its own `up/…` topics.

/** The topic root of release agents. */
export const AGENT_TOPIC_ROOT = 'rm';
/** What an agent publishes about: run status, log chunks, heartbeats, its in-flight runs on (re)connect, presence. */
export const agentUpKinds = ['status', 'log', 'hb', 'hello', 'presence'] as const;
export type AgentUpKind = (typeof agentUpKinds)[number];

/** An agent's connection: its tenant and client number. */
export type AgentIdentity = { tenantId: number; clientId: number };

/** The commands topic of one agent (the server publishes, the agent subscribes). */
export function agentDownTopic(agent: AgentIdentity): string {
  return `${AGENT_TOPIC_ROOT}/${agent.tenantId}/c/${agent.clientId}/down`;
}

/** One of an agent's own topics it publishes to. */
export function agentUpTopic(agent: AgentIdentity, kind: AgentUpKind): string {
  return `${AGENT_TOPIC_ROOT}/${agent.tenantId}/c/${agent.clientId}/up/${kind}`;
}

/** The MQTT username an agent signs in with. */
export function agentUsername(agent: AgentIdentity): string {
  return `agent:${agent.tenantId}:${agent.clientId}`;
}

/** The agent a username names, or null when it is not an agent's (a browser's account number). */
export function agentOf(username: string | undefined): AgentIdentity | null {
  const match = /^agent:([1-9]\d{0,15}):([1-9]\d{0,15})$/.exec(username ?? '');
  if (!match) return null;
  const tenantId = Number(match[1]);
  const clientId = Number(match[2]);
  return Number.isSafeInteger(tenantId) && Number.isSafeInteger(clientId) ? { tenantId, clientId } : null;
}

/** An agent subscribes to exactly its own commands topic: no wildcard, no other agent's, no `$SYS`. */
export function agentMaySubscribe(agent: AgentIdentity, topic: string): boolean {
  return topic === agentDownTopic(agent);
}

/** An agent publishes only to its own `up` topics, never retained. */
export function agentMayPublish(agent: AgentIdentity, topic: string, retain = false): boolean {
  return !retain && agentUpKinds.some((kind) => topic === agentUpTopic(agent, kind));
}

/** Whatever was subscribed, an agent is sent only its own commands. */
export function agentMayReceive(agent: AgentIdentity, topic: string): boolean {
  return topic === agentDownTopic(agent);
}

/** Which agent and kind an `up` topic belongs to; null for anything else. */
export function agentUpOf(topic: string): { agent: AgentIdentity; kind: AgentUpKind } | null {
  const match = /^rm\/([1-9]\d{0,15})\/c\/([1-9]\d{0,15})\/up\/([a-z]+)$/.exec(topic);
  if (!match || !(agentUpKinds as readonly string[]).includes(match[3] as string)) return null;
  return { agent: { tenantId: Number(match[1]), clientId: Number(match[2]) }, kind: match[3] as AgentUpKind };
}

// ---------------------------------------------------------------------------------------------------
// Printers: devices of the built-in MQTT printer protocol (`@atrium/contracts/printer-protocol`).
// A device signs in as `printer:{sn}` with its device key and lives under `atrium-printer/{sn}/…`.
// ---------------------------------------------------------------------------------------------------

/**
 * Which printer a device connection belongs to, as it signed in: the tenant, the printer, its serial
 * number and the version of its key (a fingerprint of the stored hash; a new key is a new version).
 */
export type PrinterIdentity = { sn: string; tenantId: number; printerId: number; keyVersion: string };
/** Checks a device's serial number and key; null when either is wrong or the printer is disabled. */
export type DeviceCheck = (sn: string, key: string) => Promise<PrinterIdentity | null>;

/** A device key is at most 128 characters. */
export const MAX_DEVICE_KEY_BYTES = 128;

/** Whether a connection presents itself as a printer (then only the printer rules apply to it). */
export function isPrinterLogin(username: string | undefined): boolean {
  return !!username?.startsWith(PRINTER_USERNAME_PREFIX);
}

/**
 * A device's connection: its printer, or null for an unknown serial number, a wrong key, a disabled
 * printer, or a client id other than `printer-{sn}` (with another kind's id it would push that
 * connection off the broker).
 */
export async function authenticatePrinter(checkDevice: DeviceCheck, credentials: Credentials): Promise<PrinterIdentity | null> {
  const sn = snOfUsername(credentials.username);
  const { password } = credentials;
  if (!sn || password === undefined) return null;
  const key = typeof password === 'string' ? password : password.toString('utf8');
  if (key.length === 0 || Buffer.byteLength(key) > MAX_DEVICE_KEY_BYTES) return null;
  if (credentials.clientId !== printerClientId(sn)) return null;
  const identity = await checkDevice(sn, key);
  return identity && identity.sn === sn ? identity : null;
}

/** A device subscribes only under its own serial number: its job topic, or its own `…/#`. */
export function printerMaySubscribe(sn: string, topic: string): boolean {
  return topic === `${PRINTER_TOPIC_ROOT}/${sn}/#` || parsePrinterTopic(topic)?.sn === sn;
}

/** A device publishes its acks (not retained) and its status (retained or not) under its own serial number only. */
export function printerMayPublish(sn: string, topic: string, retain = false): boolean {
  const parsed = parsePrinterTopic(topic);
  if (!parsed || parsed.sn !== sn) return false;
  return parsed.kind === 'status' || (parsed.kind === 'ack' && !retain);
}

/** Whatever was subscribed, a device is sent only messages of its own topics. */
export function printerMayReceive(sn: string, topic: string): boolean {
  return topic.startsWith(`${PRINTER_TOPIC_ROOT}/${sn}/`);
}
