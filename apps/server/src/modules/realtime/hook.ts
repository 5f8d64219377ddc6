import { createHash } from 'node:crypto';
import { printerClientId, snOfUsername } from '@atrium/contracts/printer-protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { SharedStore } from '../../plugins/external/store';
import { REMEMBER_MS } from '../auth/session.service';
import { type AgentBridge, agentClientId, type BrokerIdentity, type TokenCheck } from './broker';
import {
  type AgentIdentity,
  agentMayPublish,
  agentMaySubscribe,
  agentOf,
  authenticateBrowser,
  authenticatePrinter,
  type DeviceCheck,
  isPrinterLogin,
  isServer,
  isServerClientId,
  mayPublish,
  maySubscribe,
  printerMayPublish,
  printerMaySubscribe,
  type ServerCredentials,
  signsInAs,
} from './rules';

/** What EMQX's HTTP authenticator sends (the body template of docs/operations.md). */
export type HookAuthenticateInput = { clientid: string; username: string; password: string };
/** What EMQX's HTTP authorizer sends. */
export type HookAuthorizeInput = { clientid: string; username: string; topic: string; action: 'publish' | 'subscribe'; retain?: boolean };
/**
 * EMQX's answer format: 200 with a result; `is_superuser` skips its authorization for that client;
 * `expire_at` (Unix seconds, EMQX 5.8 and later) disconnects the client then.
 */
export type HookAnswer = { result: 'allow' | 'deny'; is_superuser?: boolean; expire_at?: number };
/** When a running session expires at the latest; null when it is not running (ended, expired, idle). */
export type SessionEnd = (sessionId: number) => Promise<Date | null>;

// a binding lives as long as the longest session can
const BINDING_TTL_MS = REMEMBER_MS;
const TAKE_CONCURRENCY = 50;

type Binding = BrokerIdentity & { clientId: string };

/**
 * Which session each browser connection of the external broker belongs to, learnt when the hook lets
 * it in, kept in the shared store so every instance knows them: the authorizer reads a connection's
 * account from it, and ending a session finds the connections to disconnect. Per session, client ids
 * sit in numbered slots (the store's atomic counter numbers them), so two connections bound at once on
 * two instances never overwrite each other, and each slot is taken by one instance only.
 */
export class BrokerClients {
  constructor(private readonly store: SharedStore) {}

  private clientKey(clientId: string) {
    // client ids may be long (EMQX allows 64 KiB); the store's keys are short
    return `mqtt:client:${createHash('sha256').update(clientId).digest('hex').slice(0, 40)}`;
  }

  private slotKey(sessionId: number, slot: number | 'n') {
    return `mqtt:session:${sessionId}:${slot}`;
  }

  async bind(clientId: string, identity: BrokerIdentity): Promise<void> {
    const key = this.clientKey(clientId);
    const before = await this.lookup(clientId);
    const binding: Binding = {
      accountRef: identity.accountRef,
      accountId: identity.accountId,
      clientKey: identity.clientKey,
      sessionId: identity.sessionId,
      tenantId: identity.tenantId,
      clientId,
    };
    await this.store.set(key, JSON.stringify(binding), BINDING_TTL_MS);
    // a reconnection with the same client id: the session lists it already
    if (before?.sessionId === identity.sessionId) return;
    const { count } = await this.store.incr(this.slotKey(identity.sessionId, 'n'), BINDING_TTL_MS);
    await this.store.set(this.slotKey(identity.sessionId, count), clientId, BINDING_TTL_MS);
  }

  /** The session a client id was let in for, or null. */
  async lookup(clientId: string): Promise<Binding | null> {
    const raw = await this.store.get(this.clientKey(clientId));
    if (!raw) return null;
    try {
      const binding = JSON.parse(raw) as Binding;
      return binding.clientId === clientId ? binding : null;
    } catch {
      return null;
    }
  }

  async forget(clientId: string): Promise<void> {
    await this.store.del(this.clientKey(clientId));
  }

  /**
   * Takes a session's client ids and forgets their bindings (the authorizer denies them from now on).
   * A client id bound again since to another session is left to that one.
   */
  async takeSession(sessionId: number): Promise<string[]> {
    // one more than the last slot handed out (the counter moves on: a slot number is never reused)
    const { count } = await this.store.incr(this.slotKey(sessionId, 'n'), BINDING_TTL_MS);
    const taken: string[] = [];
    for (let first = 1; first < count; first += TAKE_CONCURRENCY) {
      const slots = Array.from({ length: Math.min(TAKE_CONCURRENCY, count - first) }, (_, i) => first + i);
      const ids = await Promise.all(slots.map((slot) => this.store.take(this.slotKey(sessionId, slot))));
      for (const id of ids) if (id !== null && !taken.includes(id)) taken.push(id);
    }
    const ours: string[] = [];
    for (const clientId of taken) {
      const binding = await this.lookup(clientId);
      if (binding?.sessionId !== sessionId) continue;
      await this.forget(clientId);
      ours.push(clientId);
    }
    return ours;
  }
}

/** Disconnects clients through EMQX's REST API (`DELETE /api/v5/clients/{clientid}`, API key and secret). */
export class EmqxApi {
  private readonly base: string;
  private readonly authorization: string;

  constructor(
    url: string,
    key: string,
    secret: string,
    private readonly timeoutMs = 5000,
  ) {
    this.base = url.endsWith('/') ? url : `${url}/`;
    this.authorization = `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
  }

  /** True when EMQX disconnected the client, false when it was not connected (404); throws otherwise. */
  async disconnect(clientId: string): Promise<boolean> {
    const target = new URL(`api/v5/clients/${encodeURIComponent(clientId)}`, this.base);
    const response = await fetch(target, {
      method: 'DELETE',
      headers: { authorization: this.authorization },
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const body = await response.text().catch(() => '');
    if (response.ok) return true;
    if (response.status === 404) return false;
    throw new Error(`EMQX answered ${response.status} to DELETE ${target.pathname}: ${body.slice(0, 200)}`);
  }
}

export type BrokerHookOptions = {
  store: SharedStore;
  checkToken: TokenCheck;
  sessionEnd: SessionEnd;
  /** The user and password of MQTT_URL: the server's own connection. */
  server: ServerCredentials | null;
  /** EMQX's REST API, when configured: ended sessions' clients are disconnected through it. */
  emqx: EmqxApi | null;
  log: FastifyBaseLogger;
  /** Release agents (their id and secret are checked by the release domain); refused without it. */
  agents?: () => AgentBridge | null;
  /** Printer devices of the built-in protocol; without it `printer:` logins are denied. */
  checkDevice?: DeviceCheck;
};

/**
 * The external broker's authentication and authorization, as EMQX's HTTP authenticator and authorizer
 * ask for them, with the embedded broker's rules (./rules.ts), and the disconnection of ended sessions'
 * clients through EMQX's REST API.
 */
export class BrokerHook {
  readonly clients: BrokerClients;
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly options: BrokerHookOptions) {
    this.clients = new BrokerClients(options.store);
  }

  async authenticate(input: HookAuthenticateInput): Promise<HookAnswer> {
    // the server's own connection, under the server's client id form only (it would push another kind's connection off)
    if (isServer(this.options.server, input.username, input.password))
      return isServerClientId(input.clientid) ? { result: 'allow', is_superuser: true } : { result: 'deny', is_superuser: false };
    // the session's connections are found by client id: a connection without one cannot be let in
    if (!input.clientid) return { result: 'deny', is_superuser: false };
    const agent = agentOf(input.username);
    if (agent) return this.authenticateAgent(agent, input);
    if (isPrinterLogin(input.username)) return this.authenticatePrinter(input);
    const identity = await authenticateBrowser(this.options.checkToken, {
      username: input.username,
      password: input.password,
      clientId: input.clientid,
    });
    if (!identity) return { result: 'deny', is_superuser: false };
    await this.clients.bind(input.clientid, identity);
    // a session that ended while its connection was being bound would not be found by endSessions
    const expiresAt = await this.options.sessionEnd(identity.sessionId);
    if (!expiresAt) {
      await this.clients.forget(input.clientid);
      return { result: 'deny', is_superuser: false };
    }
    // the embedded broker drops a client whose session expired; EMQX does it at this time
    return { result: 'allow', is_superuser: false, expire_at: Math.ceil(expiresAt.getTime() / 1000) };
  }

  /** An agent signs in with its own client id and its secret, as on the embedded broker. */
  private async authenticateAgent(agent: AgentIdentity, input: HookAuthenticateInput): Promise<HookAnswer> {
    const bridge = this.options.agents?.();
    if (!bridge || !input.password || input.clientid !== agentClientId(agent)) return { result: 'deny', is_superuser: false };
    const ok = await bridge.authenticate(agent, input.password);
    return { result: ok ? 'allow' : 'deny', is_superuser: false };
  }

  /** A device: its serial number and key; EMQX then authorises it by its (authenticated) username. */
  private async authenticatePrinter(input: HookAuthenticateInput): Promise<HookAnswer> {
    const checkDevice = this.options.checkDevice;
    const printer = checkDevice
      ? await authenticatePrinter(checkDevice, { username: input.username, password: input.password, clientId: input.clientid })
      : null;
    return { result: printer ? 'allow' : 'deny', is_superuser: false };
  }

  async authorize(input: HookAuthorizeInput): Promise<HookAnswer> {
    const agent = agentOf(input.username);
    if (agent) {
      if (input.clientid !== agentClientId(agent)) return { result: 'deny' };
      const allowed =
        input.action === 'subscribe' ? agentMaySubscribe(agent, input.topic) : agentMayPublish(agent, input.topic, input.retain ?? false);
      return { result: allowed ? 'allow' : 'deny' };
    }
    if (isPrinterLogin(input.username)) {
      const sn = snOfUsername(input.username);
      const allowed =
        !!sn &&
        input.clientid === printerClientId(sn) &&
        (input.action === 'subscribe' ? printerMaySubscribe(sn, input.topic) : printerMayPublish(sn, input.topic, input.retain ?? false));
      return { result: allowed ? 'allow' : 'deny' };
    }
    const binding = await this.clients.lookup(input.clientid);
    if (!binding || !signsInAs(binding, input.username)) return { result: 'deny' };
    const allowed =
      input.action === 'subscribe'
        ? maySubscribe(binding.clientKey, input.topic)
        : mayPublish(binding.clientKey, input.topic, input.retain ?? false);
    return { result: allowed ? 'allow' : 'deny' };
  }

  /**
   * Ended sessions: their connections are forgotten (denied from now on) and, with EMQX's REST API
   * configured, disconnected. Never throws; failures are logged. Every instance hears of an ended
   * session, but each connection is taken, and disconnected, by one of them.
   */
  endSessions(sessionIds: number[]): Promise<void> {
    const work = this.disconnectSessions(sessionIds).catch((error: unknown) =>
      this.options.log.warn({ err: error, sessionIds }, 'could not disconnect the external broker clients of ended sessions'),
    );
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
    return work;
  }

  private async disconnectSessions(sessionIds: number[]) {
    for (const sessionId of sessionIds) {
      const clientIds = await this.clients.takeSession(sessionId);
      const emqx = this.options.emqx;
      if (!emqx) continue;
      await Promise.all(
        clientIds.map((clientId) =>
          emqx.disconnect(clientId).then(
            (disconnected) => this.options.log.debug({ clientId, sessionId, disconnected }, 'external broker client of an ended session'),
            (error: unknown) =>
              this.options.log.warn(
                { err: error, clientId, sessionId },
                'could not disconnect an external broker client of an ended session',
              ),
          ),
        ),
      );
    }
  }

  /** Waits for disconnections under way (shutdown). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }
}
