// A disabled tenant's printers and release agents are signed out with its sessions, and cannot sign in
// again until it is enabled: a device or agent is only ever who it was allowed to be, in a tenant that is.
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, oneEngine } from './helper';
import { type Caller, signIn } from './system/api';
import { unique } from './wait';

describe.each(oneEngine)('a disabled tenant’s devices and agents on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let admin: Caller;
  let acme: Caller;
  let acmeId: number;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    ctx = await buildTestApp(engine, { LOGIN_RATE_LIMIT: '100000' });
    admin = await signIn(ctx, 'admin', 'Admin@123456');
    acme = await signIn(ctx, 'acme', 'Acme@123456');
    acmeId = (await acme.get('/api/user/info')).body.data.tenantId as number;
  });
  afterAll(async () => {
    for (const client of clients) client.end(true);
    await ctx?.close();
  });

  const url = () => `ws://127.0.0.1:${ctx.app.realtime.port}/mqtt`;
  const open = async (options: mqtt.IClientOptions) => {
    const client = await mqtt.connectAsync(url(), { reconnectPeriod: 0, protocolVersion: 4, ...options });
    clients.push(client);
    return client;
  };
  /** Resolves when the broker closes the connection; fails after a bound only a connection left open reaches. */
  const closed = (client: MqttClient) =>
    new Promise<void>((resolve, reject) => {
      if (!client.connected) return resolve();
      const timer = setTimeout(() => reject(new Error(`${client.options.clientId} is still connected`)), 30_000);
      client.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });

  it('signs its printers and agents out when it is disabled, and lets them in again once it is enabled', async () => {
    const sn = unique('TEN');
    const printer = await acme.post('/api/mall/printer', {
      name: 'Counter',
      vendor: 'mqtt',
      sn,
      deviceKey: 'tenant-device-key',
      paperWidth: 58,
      triggers: [],
    });
    expect(printer.status).toBe(200);
    const token = (await acme.post('/api/release/client/enrol-token', {})).body.data.token as string;
    const enrolled = await ctx.app.inject({ method: 'POST', url: '/api/release/client/enrol', payload: { token, hostname: 'host' } });
    const agent = enrolled.json().data as { id: number; tenantId: number; username: string; secret: string };
    expect((await acme.put(`/api/release/client/${agent.id}/approve`, {})).status).toBe(200);
    const device = { clientId: `printer-${sn}`, username: `printer:${sn}`, password: 'tenant-device-key' };
    const agentLogin = { clientId: `agent-${agent.tenantId}-${agent.id}`, username: agent.username, password: agent.secret };
    const connected = [await open(device), await open(agentLogin)];
    const gone = connected.map(closed);

    expect((await admin.put(`/api/system/tenant/${acmeId}/status`, { status: '1' })).status).toBe(200);
    await Promise.all(gone);
    await expect(open(device)).rejects.toThrow(/Not authorized/);
    await expect(open(agentLogin)).rejects.toThrow(/Not authorized/);

    expect((await admin.put(`/api/system/tenant/${acmeId}/status`, { status: '0' })).status).toBe(200);
    expect((await open(device)).connected).toBe(true);
    expect((await open(agentLogin)).connected).toBe(true);
  });
});
