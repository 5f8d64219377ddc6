import { realtimeClientId } from '@atrium/contracts/realtime';
import { and, count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { withTenant } from '../src/db/client';
import { accounts, tenants, tenantUsers, userRoles } from '../src/db/schema';
import { BrokerHook, type BrokerHookOptions } from '../src/modules/realtime/hook';
import { buildTestApp } from './helper';

export type SignedIn = {
  token: string;
  accountId: string;
  accountRef: number;
  clientKey: string;
  tenantId: number;
  /** tenant_users.id in the signed-in tenant */
  userId: number;
  auth: { authorization: string };
};

/** Signs in through the API like the browser does and collects what the realtime client needs. */
export async function signIn(app: FastifyInstance, account: string, password: string, tenantCode?: string): Promise<SignedIn> {
  const login = await app.inject({ method: 'POST', url: '/api/system/user/login', payload: { account, password } });
  if (login.json().code !== 200) throw new Error(`sign-in of ${account} failed: ${login.body}`);
  let token: string = login.json().data.token;
  if (tenantCode) {
    const [tenant] = await app.database.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, tenantCode));
    const switched = await app.inject({
      method: 'POST',
      url: '/api/system/user/switchTenant',
      headers: { authorization: `Bearer ${token}` },
      payload: { tenantId: tenant?.id },
    });
    if (switched.json().code !== 200) throw new Error(`switching ${account} to ${tenantCode} failed: ${switched.body}`);
    token = switched.json().data.token;
  }
  const auth = { authorization: `Bearer ${token}` };
  const info = await app.inject({ method: 'POST', url: '/api/system/user/userInfoLogin', headers: auth });
  const data = info.json().data as { accountId: string; clientKey: string; tenantId: number };
  const [row] = await app.database.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.accountId, data.accountId));
  const accountRef = (row as { id: number }).id;
  const [member] = await withTenant(app.database.db, data.tenantId, (tx) =>
    tx.select({ id: tenantUsers.id }).from(tenantUsers).where(eq(tenantUsers.accountRef, accountRef)),
  );
  return {
    token,
    accountId: data.accountId,
    accountRef,
    clientKey: data.clientKey,
    tenantId: data.tenantId,
    userId: member?.id ?? 0,
    auth,
  };
}

export function brokerUrl(port: number | null): string {
  if (!port) throw new Error('the embedded broker is not listening');
  return `ws://127.0.0.1:${port}/mqtt`;
}

let clientSeq = 0;

/**
 * A real mqtt.js client over WebSocket, the way the browser connects (no reconnect, so failures show):
 * as `who`'s account number, with a client id that starts with its client key, as the browser's does.
 */
export function connect(
  url: string,
  who: { accountId: string; clientKey: string },
  password: string,
  options: IClientOptions = {},
): Promise<MqttClient> {
  const client = mqtt.connect(url, {
    username: who.accountId,
    password,
    clientId: realtimeClientId(who.clientKey, `test${process.pid}x${++clientSeq}`),
    clean: true,
    connectTimeout: 30_000,
    reconnectPeriod: 0,
    ...options,
  });
  return new Promise((resolve, reject) => {
    client.once('connect', () => resolve(client));
    client.once('error', (error) => {
      client.end(true);
      reject(error);
    });
  });
}

/** Messages a client receives, parsed, with the time each arrived. */
export function collect(client: MqttClient) {
  const messages: { topic: string; qos: number; body: Record<string, unknown>; at: number }[] = [];
  const waiters: (() => void)[] = [];
  client.on('message', (topic, payload, packet) => {
    messages.push({ topic, qos: packet.qos, body: JSON.parse(payload.toString()), at: performance.now() });
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    messages,
    /**
     * Waits until `count` messages arrived; fails after `timeoutMs`, a bound only a message that never comes
     * reaches (it returns as soon as the messages are there, so a generous bound costs nothing).
     */
    async waitFor(count: number, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} messages, got ${messages.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return messages;
    },
  };
}

/** Resolves when the client's connection closes. */
export function closed(client: MqttClient, timeoutMs = 30_000): Promise<void> {
  if (!client.connected) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the broker did not close the connection')), timeoutMs);
    client.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A test app whose sign-ins are not rate limited (the suites sign in often). */
export function buildRealtimeApp(engine: Parameters<typeof buildTestApp>[0], overrides: Record<string, string> = {}) {
  return buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000', ...overrides });
}

/** How many active users a tenant (or one of its roles) has: who a tenant- or role-wide notice reaches. */
export async function activeUsers(app: FastifyInstance, tenantId: number, roleId?: number): Promise<number> {
  const [row] = await withTenant(app.database.db, tenantId, (tx) => {
    const active = and(eq(tenantUsers.tenantId, tenantId), eq(tenantUsers.status, '0'));
    return roleId === undefined
      ? tx.select({ n: count() }).from(tenantUsers).where(active)
      : tx
          .select({ n: count() })
          .from(tenantUsers)
          .innerJoin(userRoles, and(eq(userRoles.tenantId, tenantUsers.tenantId), eq(userRoles.userId, tenantUsers.id)))
          .where(and(active, eq(userRoles.roleId, roleId)));
  });
  return row?.n ?? 0;
}

/**
 * The external broker's hook over an app's store and log, with no session checks, no server login and no
 * EMQX API: only the clients `extra` lets in (release agents, printer devices) sign in.
 */
export function brokerHookOf(app: FastifyInstance, extra: Pick<BrokerHookOptions, 'agents' | 'checkDevice'>) {
  return new BrokerHook({
    store: app.store,
    checkToken: async () => null,
    sessionEnd: async () => null,
    server: null,
    emqx: null,
    log: app.log,
    ...extra,
  });
}
