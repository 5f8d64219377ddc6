import { type PrinterJobMessage, printerTopic, printerUsername } from '@atrium/contracts/printer-protocol';
import { and, eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { openDatabase, withTenant } from '../../src/db/client';
import { mallPrintJobs, operLogs, printOutbox, tenants } from '../../src/db/schema';
import { checkDevice } from '../../src/modules/mall/printer.service';
import { seed } from '../../src/seed';
import { buildTestApp, createTestDatabase, engines, testClock, testConfig } from '../helper';
import { brokerHookOf, brokerUrl, collect, connect, signIn as signInRealtime } from '../realtime-helpers';
import { type Caller, fieldsOf, signIn } from '../system/api';
import { unique } from '../wait';
import { addPrinter, printerBody } from './printers';

/** A device of the built-in protocol, as a real printer connects: its will says offline. */
function device(url: string, sn: string, key: string): Promise<MqttClient> {
  const client = mqtt.connect(url, {
    username: printerUsername(sn),
    password: key,
    // the built-in protocol's client id: `printer-{sn}`
    clientId: `printer-${sn}`,
    clean: true,
    connectTimeout: 30_000,
    reconnectPeriod: 0,
    will: { topic: printerTopic(sn, 'status'), payload: Buffer.from(JSON.stringify({ state: 'offline' })), qos: 1, retain: true },
  });
  return new Promise((resolve, reject) => {
    client.once('connect', () => resolve(client));
    client.once('error', (error) => {
      client.end(true);
      reject(error);
    });
  });
}

/** Waits until `read` answers what `done` accepts (fails after a deadline, so a wrong state shows). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Resolves when the broker closes the device's connection; rejects if it stays open for `timeoutMs`. */
function closedByServer(client: MqttClient, timeoutMs = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!client.connected) return resolve();
    const timer = setTimeout(() => reject(new Error('the device is still connected')), timeoutMs);
    client.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The job messages a device receives. */
function jobsOf(client: MqttClient) {
  const jobs: PrinterJobMessage[] = [];
  client.on('message', (_topic, payload) => jobs.push(JSON.parse(payload.toString()) as PrinterJobMessage));
  return jobs;
}

async function order(api: Caller) {
  const product = await api.post('/api/erp/product', { name: '乌龙茶 Oolong', code: unique('P'), skus: [{ price: 1250 }] });
  const skuId = product.body.data.skus[0].id as number;
  const w = await api.post('/api/erp/warehouse', { name: 'Main', code: unique('W') });
  const warehouseId = w.body.data.id as number;
  await api.post('/api/erp/stock/adjust', { warehouseId, skuId, delta: 10 });
  const sale = await api.post('/api/erp/sale', { warehouseId, items: [{ skuId, quantity: 2 }] });
  expect(sale.status).toBe(200);
  return sale.body.data as { id: number; orderNo: string };
}

/** A device of printer `p` connected, listening for its jobs and reported online, as the API shows it. */
async function connectOnline(api: Caller, url: string, p: { id: number; sn: string; key: string }) {
  const dev = await device(url, p.sn, p.key);
  const jobs = jobsOf(dev);
  await dev.subscribeAsync(printerTopic(p.sn, 'job'), { qos: 1 });
  await dev.publishAsync(printerTopic(p.sn, 'status'), JSON.stringify({ state: 'online' }), { qos: 1, retain: true });
  await until(
    () => api.get(`/api/mall/printer/${p.id}`),
    (r) => r.body.data.state === 'online',
  );
  return { dev, jobs };
}

describe.each(engines)('printers over MQTT on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let api: Caller;
  let url: string;
  const open: MqttClient[] = [];

  beforeAll(async () => {
    ctx = await buildTestApp(engine, {
      LOGIN_RATE_LIMIT: '100000',
      PRINT_POLL_MS: '100',
      PRINT_RETRY_MS: '20',
      // device jobs are checked for acks this often (their timeout, PRINT_ACK_MS, stays the default)
      PRINT_QUERY_MS: '200',
      // nothing listens there: every request to "Feie" is refused by the network
      PRINTER_FEIE_URL: 'http://127.0.0.1:9',
      // plain MQTT over TCP as well, on a free port
      MQTT_TCP_PORT: '0',
    });
    api = await signIn(ctx, 'acme', 'Acme@123456');
    url = brokerUrl(ctx.app.realtime.port);
  });
  afterAll(async () => {
    for (const c of open) c.end(true);
    await ctx?.close();
  });

  it('registers a printer: an unknown vendor is a 400, the key is never answered, it starts offline', async () => {
    const bad = await api.post('/api/mall/printer', printerBody({ name: 'x', vendor: 'acme', deviceKey: 'secret-123', triggers: [] }));
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual(['vendor']);
    const p = await addPrinter(api);
    const got = await api.get(`/api/mall/printer/${p.id}`);
    expect(got.body.data).toMatchObject({ sn: p.sn, vendor: 'mqtt', state: 'offline', paperWidth: 58 });
    expect(JSON.stringify(got.body)).not.toContain(p.key);
    expect(got.body.data).not.toHaveProperty('deviceKey');
    const taken = await api.post('/api/mall/printer', {
      name: 'y',
      vendor: 'simulator',
      sn: p.sn,
      deviceKey: 'another-key',
      paperWidth: 80,
      triggers: [],
    });
    expect(taken.status).toBe(409);
    expect(fieldsOf(taken.body)).toEqual(['sn']);
  });

  it('refuses a wrong device key with CONNACK "not authorized", and a browser on printer topics', async () => {
    const p = await addPrinter(api);
    await expect(device(url, p.sn, 'wrong-key-1')).rejects.toMatchObject({ code: 5 });
    await expect(device(url, unique('NOPE'), 'whatever-1')).rejects.toMatchObject({ code: 5 });
    const browser = await signInRealtime(ctx.app, 'acme', 'Acme@123456');
    const tab = await connect(url, browser, browser.token);
    open.push(tab);
    // the broker grants nothing (SUBACK 128), which mqtt.js reports as an error
    await expect(tab.subscribeAsync(printerTopic(p.sn, 'job'), { qos: 1 })).rejects.toThrow();
    await expect(tab.subscribeAsync('atrium-printer/#', { qos: 1 })).rejects.toThrow();
  });

  it('prints exactly one job for a confirmed order, PRINTED on the ack, live to the browsers; a foreign topic is refused', async () => {
    const p = await addPrinter(api);
    const other = await addPrinter(api, { triggers: [] });
    const browser = await signInRealtime(ctx.app, 'acme', 'Acme@123456');
    const tab = await connect(url, browser, browser.token);
    open.push(tab);
    const live = collect(tab);
    await tab.subscribeAsync(`atrium-web/+/${browser.clientKey}`, { qos: 2 });

    const dev = await device(url, p.sn, p.key);
    open.push(dev);
    const jobs = jobsOf(dev);
    const subs = await dev.subscribeAsync(printerTopic(p.sn, 'job'), { qos: 1 });
    expect(subs.map((s) => s.qos)).toEqual([1]);
    await expect(dev.subscribeAsync(printerTopic(other.sn, 'job'), { qos: 1 })).rejects.toThrow();
    await dev.publishAsync(printerTopic(p.sn, 'status'), JSON.stringify({ state: 'online' }), { qos: 1, retain: true });
    const online = await until(
      () => api.get(`/api/mall/printer/${p.id}`),
      (r) => r.body.data.state === 'online',
    );
    expect(online.body.data.state).toBe('online');

    const sale = await order(api);
    expect((await api.put(`/api/erp/sale/${sale.id}/confirm`, {})).status).toBe(200);
    // a retried confirm is refused and prints nothing more
    expect((await api.put(`/api/erp/sale/${sale.id}/confirm`, {})).status).toBe(409);
    const list = await api.get(`/api/mall/print-job?printerId=${p.id}`);
    expect(list.body.data.total).toBe(1);
    const job = list.body.data.list[0];
    expect(job).toMatchObject({ printerId: p.id, bizNo: sale.orderNo });
    expect(job.text).toContain(sale.orderNo);
    expect((await api.get(`/api/mall/print-job?printerId=${other.id}`)).body.data.total).toBe(0);

    await until(
      async () => jobs.length,
      (n) => n > 0,
    );
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ jobId: job.id, copies: 1, paperWidth: 58 });
    expect(jobs[0]?.text).toContain(sale.orderNo);
    expect(Buffer.from(jobs[0]?.escpos ?? '', 'base64').includes(Buffer.from(sale.orderNo))).toBe(true);
    // SENT is written once the broker took the message, which the device may see first
    const sent = await until(
      async () => (await api.get(`/api/mall/print-job/${job.id}`)).body.data.status,
      (status) => status !== 'PENDING',
    );
    expect(sent).toBe('SENT');

    // an ack for the other printer's topic is refused; for a job of another printer it changes nothing
    await dev.publishAsync(printerTopic(other.sn, 'ack'), JSON.stringify({ jobId: job.id, status: 'failed' }), { qos: 0 }).catch(() => {});
    const dev2 = await device(url, p.sn === other.sn ? unique('X') : other.sn, other.key);
    open.push(dev2);
    await dev2.publishAsync(printerTopic(other.sn, 'ack'), JSON.stringify({ jobId: job.id, status: 'failed' }), { qos: 1 });
    expect((await api.get(`/api/mall/print-job/${job.id}`)).body.data.status).toBe('SENT');

    const d = dev.connected ? dev : await device(url, p.sn, p.key);
    if (d !== dev) open.push(d);
    await d.publishAsync(printerTopic(p.sn, 'ack'), JSON.stringify({ jobId: job.id, status: 'printed' }), { qos: 1 });
    const printed = await until(
      () => api.get(`/api/mall/print-job/${job.id}`),
      (r) => r.body.data.status === 'PRINTED',
    );
    expect(printed.body.data.status).toBe('PRINTED');
    const messages = await live.waitFor(1);
    await until(
      async () => messages.filter((m) => m.body.event === 'job' && m.body.jobId === job.id && m.body.status === 'PRINTED').length,
      (n) => n > 0,
    );
    expect(messages.some((m) => m.topic === `atrium-web/printer/${browser.clientKey}` && m.body.status === 'PRINTED')).toBe(true);
  });

  it('serves a device over plain MQTT on TCP the same: a wrong key is refused, a job prints and is acked', async () => {
    const tcp = `mqtt://127.0.0.1:${ctx.app.realtime.tcpPort}`;
    const p = await addPrinter(api, { triggers: [] });
    await expect(device(tcp, p.sn, 'not-the-key')).rejects.toMatchObject({ code: 5 });
    const dev = await device(tcp, p.sn, p.key);
    open.push(dev);
    const jobs = jobsOf(dev);
    await new Promise<void>((resolve, reject) =>
      dev.subscribe(printerTopic(p.sn, 'job'), { qos: 1 }, (error) => (error ? reject(error) : resolve())),
    );
    dev.publish(printerTopic(p.sn, 'status'), JSON.stringify({ state: 'online' }), { qos: 1, retain: true });
    const test = (await api.post(`/api/mall/printer/${p.id}/test`, {})).body.data;
    const got = await until(
      async () => jobs,
      (list) => list.length > 0,
    );
    expect(got[0]?.jobId).toBe(test.id);
    dev.publish(printerTopic(p.sn, 'ack'), JSON.stringify({ jobId: test.id, status: 'printed' }), { qos: 1 });
    const printed = await until(
      () => api.get(`/api/mall/print-job/${test.id}`),
      (r) => r.body.data.status === 'PRINTED',
    );
    expect(printed.body.data.status).toBe('PRINTED');
    // a device of one printer may not subscribe to another's jobs over TCP either
    await expect(dev.subscribeAsync('atrium-printer/SOMEONE-ELSE/job', { qos: 1 })).rejects.toThrow();
  });

  it('marks a job FAILED on a failed ack, and the printer offline when its connection dies', async () => {
    const p = await addPrinter(api, { triggers: [] });
    const { dev, jobs } = await connectOnline(api, url, p);
    const test = await api.post(`/api/mall/printer/${p.id}/test`, {});
    expect(test.status).toBe(200);
    await until(
      async () => jobs.length,
      (n) => n > 0,
    );
    expect(jobs.map((j) => j.jobId)).toEqual([test.body.data.id]);
    await dev.publishAsync(printerTopic(p.sn, 'ack'), JSON.stringify({ jobId: test.body.data.id, status: 'failed', reason: 'paper jam' }), {
      qos: 1,
    });
    const failed = await until(
      () => api.get(`/api/mall/print-job/${test.body.data.id}`),
      (r) => r.body.data.status === 'FAILED',
    );
    expect(failed.body.data).toMatchObject({ status: 'FAILED', lastError: 'paper jam' });

    // the connection dies without a DISCONNECT: the broker publishes the will
    dev.stream.destroy();
    const offline = await until(
      () => api.get(`/api/mall/printer/${p.id}`),
      (r) => r.body.data.state === 'offline',
    );
    expect(offline.body.data.state).toBe('offline');
    dev.end(true);
  });

  it('lets the external broker hook apply the same printer rules', async () => {
    const p = await addPrinter(api, { triggers: [] });
    const hook = brokerHookOf(ctx.app, { checkDevice: (sn, key) => checkDevice(ctx.app.database.db, sn, key) });
    const login = { clientid: `printer-${p.sn}`, username: printerUsername(p.sn) };
    expect((await hook.authenticate({ ...login, password: p.key })).result).toBe('allow');
    expect((await hook.authenticate({ ...login, password: 'wrong-key-1' })).result).toBe('deny');
    const may = (action: 'publish' | 'subscribe', topic: string, retain = false) =>
      hook.authorize({ ...login, action, topic, retain }).then((a) => a.result);
    expect(await may('subscribe', printerTopic(p.sn, 'job'))).toBe('allow');
    expect(await may('publish', printerTopic(p.sn, 'status'), true)).toBe('allow');
    expect(await may('publish', printerTopic(p.sn, 'ack'))).toBe('allow');
    expect(await may('subscribe', printerTopic('OTHER-SN', 'job'))).toBe('deny');
    expect(await may('publish', printerTopic('OTHER-SN', 'ack'))).toBe('deny');
    expect(await may('subscribe', 'atrium-web/+/x')).toBe('deny');
  });

  it('disconnects a device at once when its printer is deleted, its key rotated, its serial number changed or it is disabled', async () => {
    const body = (p: { sn: string }) => ({ name: 'Front desk', vendor: 'mqtt', sn: p.sn, paperWidth: 58, triggers: [] });
    const changes: [string, (p: { id: number; sn: string }) => Promise<{ status: number }>][] = [
      ['deleted', (p) => api.del(`/api/mall/printer/${p.id}`)],
      ['key rotated', (p) => api.put(`/api/mall/printer/${p.id}`, { ...body(p), deviceKey: 'a-brand-new-key' })],
      ['serial number changed', (p) => api.put(`/api/mall/printer/${p.id}`, { ...body(p), sn: unique('SN') })],
      ['disabled', (p) => api.put(`/api/mall/printer/${p.id}`, { ...body(p), status: '1' })],
    ];
    for (const [what, change] of changes) {
      const p = await addPrinter(api, { triggers: [] });
      const dev = await device(url, p.sn, p.key);
      open.push(dev);
      const gone = closedByServer(dev);
      expect((await change(p)).status, what).toBe(200);
      await expect(gone, what).resolves.toBeUndefined();
      // and it cannot sign in again with what it had
      await expect(device(url, p.sn, p.key), what).rejects.toMatchObject({ code: 5 });
    }
    // a renamed printer keeps its connection
    const kept = await addPrinter(api, { triggers: [] });
    const dev = await device(url, kept.sn, kept.key);
    open.push(dev);
    expect((await api.put(`/api/mall/printer/${kept.id}`, { ...body(kept), name: 'Back office' })).status).toBe(200);
    await dev.publishAsync(printerTopic(kept.sn, 'status'), JSON.stringify({ state: 'online' }), { qos: 1 });
    expect(dev.connected).toBe(true);
  });

  it('refuses a disabled printer at sign-in', async () => {
    const p = await addPrinter(api, { triggers: [], status: '1' });
    await expect(device(url, p.sn, p.key)).rejects.toMatchObject({ code: 5 });
  });

  it('gives a device nothing of the tenant that registers its serial number after it: no job, no status or ack applied there', async () => {
    const p = await addPrinter(api, { triggers: [] });
    const dev = await device(url, p.sn, p.key);
    open.push(dev);
    const jobs = jobsOf(dev);
    await dev.subscribeAsync(printerTopic(p.sn, 'job'), { qos: 1 });
    expect((await api.del(`/api/mall/printer/${p.id}`)).status).toBe(200);
    // another tenant registers the serial number with its own key
    const other = await signIn(ctx, 'admin', 'Admin@123456');
    const theirs = await other.post('/api/mall/printer', {
      name: 'Theirs',
      vendor: 'mqtt',
      sn: p.sn,
      deviceKey: 'their-own-key-1',
      paperWidth: 58,
      triggers: [],
    });
    expect(theirs.status).toBe(200);
    // what the old connection (if it were still open) says is not theirs
    if (dev.connected)
      await dev.publishAsync(printerTopic(p.sn, 'status'), JSON.stringify({ state: 'online' }), { qos: 1 }).catch(() => {});
    expect((await other.get(`/api/mall/printer/${theirs.body.data.id}`)).body.data.state).toBe('offline');
    const test = await other.post(`/api/mall/printer/${theirs.body.data.id}/test`, {});
    expect(test.status).toBe(200);
    if (dev.connected)
      await dev
        .publishAsync(printerTopic(p.sn, 'ack'), JSON.stringify({ jobId: test.body.data.id, status: 'printed' }), { qos: 1 })
        .catch(() => {});
    // their own device then signs in, goes online and gets the job
    const real = await device(url, p.sn, 'their-own-key-1');
    open.push(real);
    const realJobs = jobsOf(real);
    await real.subscribeAsync(printerTopic(p.sn, 'job'), { qos: 1 });
    await real.publishAsync(printerTopic(p.sn, 'status'), JSON.stringify({ state: 'online' }), { qos: 1 });
    await until(
      async () => realJobs.length,
      (n) => n > 0,
    );
    expect(realJobs.map((j) => j.jobId)).toEqual([test.body.data.id]);
    expect(jobs).toEqual([]);
    expect((await other.get(`/api/mall/print-job/${test.body.data.id}`)).body.data.status).not.toBe('PRINTED');
  });

  it('disconnects a device that publishes too fast', async () => {
    const p = await addPrinter(api, { triggers: [] });
    const dev = await device(url, p.sn, p.key);
    open.push(dev);
    const gone = closedByServer(dev);
    for (let i = 0; i < 2000; i++) dev.publish(printerTopic(p.sn, 'status'), JSON.stringify({ state: 'online' }), { qos: 0 });
    await expect(gone).resolves.toBeUndefined();
    expect((await api.get(`/api/mall/printer/${p.id}`)).status).toBe(200);
  });

  it('retries a transport error with backoff, then FAILED', async () => {
    // Feie's cloud cannot be reached: every send fails in transport
    expect((await api.put('/api/mall/printer/vendor-account/feie', { accountUser: 'u', accountKey: 'k' })).status).toBe(200);
    const p = await addPrinter(api, { vendor: 'feie', triggers: [] });
    const test = await api.post(`/api/mall/printer/${p.id}/test`, {});
    const failed = await until(
      () => api.get(`/api/mall/print-job/${test.body.data.id}`),
      (r) => r.body.data.status === 'FAILED',
    );
    expect(failed.body.data).toMatchObject({ status: 'FAILED', attempts: 5 });
  });

  it('makes a job whose sender died mid-send UNKNOWN, and does not send it again', async () => {
    const p = await addPrinter(api, { triggers: [] });
    const test = await api.post(`/api/mall/printer/${p.id}/test`, {});
    const jobId = test.body.data.id as number;
    // what a crash leaves: the outbox row leased by a sender that never finished
    await ctx.app.database.db
      .update(printOutbox)
      .set({ leasedUntil: new Date(Date.now() - 1000) })
      .where(eq(printOutbox.jobId, jobId));
    const unknown = await until(
      () => api.get(`/api/mall/print-job/${jobId}`),
      (r) => r.body.data.status === 'UNKNOWN',
    );
    expect(unknown.body.data).toMatchObject({ status: 'UNKNOWN', attempts: 0 });
    // the printer coming online does not get it
    const { jobs } = await onlineDevice(p);
    const again = await api.post(`/api/mall/printer/${p.id}/test`, {});
    await until(
      async () => jobs.length,
      (n) => n > 0,
    );
    expect(jobs.map((j) => j.jobId)).toEqual([again.body.data.id]);
    expect((await api.put(`/api/mall/print-job/${jobId}/cancel`, {})).body.data.status).toBe('CANCELLED');
  });

  const acmeId = async () => {
    const [acme] = await ctx.app.database.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, 'acme'));
    return acme?.id as number;
  };

  /** What five minutes without an ack leave: the job's `sent_time` moved back past PRINT_ACK_MS. */
  async function sentLongAgo(jobId: number) {
    const db = ctx.app.database.db;
    const tenantId = await acmeId();
    await withTenant(db, tenantId, (tx) =>
      tx
        .update(mallPrintJobs)
        .set({ sentTime: new Date(Date.now() - ctx.app.config.PRINT_ACK_MS - 1000) })
        .where(and(eq(mallPrintJobs.tenantId, tenantId), eq(mallPrintJobs.id, jobId))),
    );
  }

  /** A device of a printer (a new one unless given), signed in, subscribed and online; `jobs` collects what it is sent. */
  async function onlineDevice(given?: Awaited<ReturnType<typeof addPrinter>>) {
    const p = given ?? (await addPrinter(api, { triggers: [] }));
    const { dev, jobs } = await connectOnline(api, url, p);
    open.push(dev);
    const ack = (jobId: number, status: 'printed' | 'failed') =>
      dev.publishAsync(printerTopic(p.sn, 'ack'), JSON.stringify({ jobId, status }), { qos: 1 });
    return { p, dev, jobs, ack };
  }

  const jobOf = async (id: number) => (await api.get(`/api/mall/print-job/${id}`)).body.data;

  it('makes a job a device took and never acknowledged UNKNOWN after PRINT_ACK_MS, without sending it again; a late ack still prints it', async () => {
    expect(ctx.app.config.PRINT_ACK_MS).toBe(300_000);
    const { p, jobs, ack } = await onlineDevice();
    const test = (await api.post(`/api/mall/printer/${p.id}/test`, {})).body.data;
    await until(
      async () => (await jobOf(test.id)).status,
      (status) => status === 'SENT',
    );
    expect(jobs.map((j) => j.jobId)).toEqual([test.id]);
    // a few checks pass while it is within its time: it stays SENT
    await new Promise((r) => setTimeout(r, 600));
    expect((await jobOf(test.id)).status).toBe('SENT');

    await sentLongAgo(test.id);
    const unknown = await until(
      () => jobOf(test.id),
      (job) => job.status === 'UNKNOWN',
    );
    expect(unknown).toMatchObject({ status: 'UNKNOWN', lastError: 'the printer did not acknowledge the job', attempts: 1 });
    // it may have printed: nothing is sent again
    await new Promise((r) => setTimeout(r, 600));
    expect(jobs.map((j) => j.jobId)).toEqual([test.id]);

    await ack(test.id, 'printed');
    const printed = await until(
      () => jobOf(test.id),
      (job) => job.status === 'PRINTED',
    );
    expect(printed).toMatchObject({ status: 'PRINTED', lastError: null });
  });

  it('reprints an ended job as a new job the device prints; a pending or sent one is refused, another tenant gets a 404, a role without the permission a 403', async () => {
    const { p, jobs, ack } = await onlineDevice();
    const first = (await api.post(`/api/mall/printer/${p.id}/test`, {})).body.data;
    await until(
      async () => (await jobOf(first.id)).status,
      (status) => status === 'SENT',
    );
    // still on its way: refused, naming its status, and nothing is added
    const sent = await api.post(`/api/mall/print-job/${first.id}/reprint`, {});
    expect([sent.status, fieldsOf(sent.body), sent.body.data.status]).toEqual([409, ['status'], 'SENT']);
    expect(sent.body.message).toBe('A pending or sent print job is still on its way: it can be printed again once it has ended');
    const zh = await api.post(`/api/mall/print-job/${first.id}/reprint`, {}, 'zh-CN');
    expect(zh.body.message).toBe('待发送或已发送的打印任务还在进行中，结束后才能重新打印');
    expect((await api.get(`/api/mall/print-job?printerId=${p.id}`)).body.data.total).toBe(1);

    await sentLongAgo(first.id);
    await until(
      async () => (await jobOf(first.id)).status,
      (status) => status === 'UNKNOWN',
    );
    const again = await api.post(`/api/mall/print-job/${first.id}/reprint`, {});
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({
      printerId: p.id,
      status: 'PENDING',
      reprintOf: first.id,
      bizType: first.bizType,
      bizNo: first.bizNo,
      text: first.text,
      copies: first.copies,
      attempts: 0,
    });
    expect(again.body.data.id).not.toBe(first.id);
    await until(
      async () => jobs.length,
      (n) => n > 1,
    );
    expect(jobs.map((j) => j.jobId)).toEqual([first.id, again.body.data.id]);
    expect(jobs[1]?.text).toBe(first.text);
    await ack(again.body.data.id, 'printed');
    await until(
      async () => (await jobOf(again.body.data.id)).status,
      (status) => status === 'PRINTED',
    );
    // the original keeps what happened to it
    expect(await jobOf(first.id)).toMatchObject({ status: 'UNKNOWN', reprintOf: null });
    // written to the operation log, the refusals too
    const logged = await withTenant(ctx.app.database.db, await acmeId(), (tx) =>
      tx
        .select({ action: operLogs.action, result: operLogs.result })
        .from(operLogs)
        .where(eq(operLogs.url, `/api/mall/print-job/${first.id}/reprint`)),
    );
    expect(logged.map((l) => [l.action, l.result]).sort()).toEqual([
      ['reprint', 'failure'],
      ['reprint', 'failure'],
      ['reprint', 'success'],
    ]);
    // a printed job may be printed again too (a second copy)
    const copy = await api.post(`/api/mall/print-job/${again.body.data.id}/reprint`, {});
    expect([copy.status, copy.body.data.reprintOf]).toEqual([200, again.body.data.id]);
    await until(
      async () => jobs.length,
      (n) => n > 2,
    );
    await ack(copy.body.data.id, 'printed');

    // a job waiting for an offline printer is refused as well
    const offline = await addPrinter(api, { triggers: [] });
    const waiting = (await api.post(`/api/mall/printer/${offline.id}/test`, {})).body.data;
    const pending = await api.post(`/api/mall/print-job/${waiting.id}/reprint`, {});
    expect([pending.status, fieldsOf(pending.body), pending.body.data.status]).toEqual([409, ['status'], 'PENDING']);
    expect((await api.get(`/api/mall/print-job?printerId=${offline.id}`)).body.data.list.map((j: { status: string }) => j.status)).toEqual([
      'PENDING',
    ]);

    // another tenant's caller: the job does not exist there
    const other = await signIn(ctx, 'admin', 'Admin@123456');
    expect((await other.post(`/api/mall/print-job/${first.id}/reprint`, {})).status).toBe(404);
    expect((await other.get(`/api/mall/print-job/${first.id}`)).status).toBe(404);

    // a role of this tenant that may list and cancel jobs, but not reprint them
    type MenuNode = { id: number; permission: string | null; children: MenuNode[] };
    const flatten = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);
    const menus = flatten((await api.get('/api/system/role/menuTree')).body.data);
    const menuIds = ['mall:printer:list', 'mall:printJob:list', 'mall:printJob:query', 'mall:printJob:cancel'].map(
      (permission) => menus.find((m) => m.permission === permission)?.id,
    );
    expect(menus.some((m) => m.permission === 'mall:printJob:reprint')).toBe(true);
    const code = unique('clerk');
    const role = await api.post('/api/system/role', { name: code, code, dataScope: '1', menuIds });
    expect(role.status).toBe(200);
    const password = 'Kx9!mountain-ledger';
    const made = await api.post('/api/system/user/info', { accountId: code, name: 'Clerk', password, roleIds: [role.body.data.id] });
    expect(made.status).toBe(200);
    const clerk = await signIn(ctx, code, password);
    expect((await clerk.get(`/api/mall/print-job/${first.id}`)).status).toBe(200);
    expect((await clerk.post(`/api/mall/print-job/${first.id}/reprint`, {})).status).toBe(403);
    expect((await api.get(`/api/mall/print-job?printerId=${p.id}`)).body.data.total).toBe(3);
  });

  it('prints a receipt for a sold order only: a draft or a cancelled one is refused and queues nothing', async () => {
    const p = await addPrinter(api, { triggers: [] });
    const sale = await order(api);
    const draft = await api.post(`/api/erp/sale/${sale.id}/print`, { printerId: p.id });
    expect([draft.status, draft.body.data.fields[0].rule]).toEqual([409, 'status']);
    expect((await api.put(`/api/erp/sale/${sale.id}/cancel`, {})).status).toBe(200);
    const cancelled = await api.post(`/api/erp/sale/${sale.id}/print`, { printerId: p.id }, 'zh-CN');
    expect([cancelled.status, cancelled.body.message]).toEqual([409, '草稿或已取消的订单不能打印小票']);
    expect((await api.get(`/api/mall/print-job?printerId=${p.id}`)).body.data.total).toBe(0);
    const sold = await order(api);
    expect((await api.put(`/api/erp/sale/${sold.id}/confirm`, {})).status).toBe(200);
    expect((await api.post(`/api/erp/sale/${sold.id}/print`, { printerId: p.id })).status).toBe(200);
    expect((await api.get(`/api/mall/print-job?printerId=${p.id}`)).body.data.total).toBe(1);
  });

  it('cancels a pending job, not a printed one; another tenant cannot see or print to the printer', async () => {
    const p = await addPrinter(api, { triggers: [] });
    // offline: the job waits
    const test = await api.post(`/api/mall/printer/${p.id}/test`, {});
    expect((await api.get(`/api/mall/print-job/${test.body.data.id}`)).body.data.status).toBe('PENDING');
    const cancelled = await api.put(`/api/mall/print-job/${test.body.data.id}/cancel`, {});
    expect(cancelled.body.data.status).toBe('CANCELLED');
    expect((await api.put(`/api/mall/print-job/${test.body.data.id}/cancel`, {})).status).toBe(409);
    const admin = await signIn(ctx, 'user', 'User@123456');
    expect((await admin.get(`/api/mall/printer/${p.id}`)).status).toBeGreaterThanOrEqual(403);
    expect((await admin.post(`/api/mall/printer/${p.id}/test`, {})).status).toBeGreaterThanOrEqual(403);
  });
});

describe.each(engines)('the print outbox across a restart on %s', (engine) => {
  it('delivers a job that was PENDING when the server stopped, once', async () => {
    const testDatabase = await createTestDatabase(engine);
    const config = testConfig({ LOGIN_RATE_LIMIT: '100000', PRINT_POLL_MS: '100' });
    const start = async (seeded: boolean) => {
      const database = await openDatabase(testDatabase.options);
      const app = await buildApp({ config, database, logger: false, clock: testClock() });
      if (!seeded) await seed(database, config);
      await app.ready();
      return { app, database, config, clock: testClock(), close: () => app.close() };
    };
    let first = await start(false);
    try {
      const api = await signIn(first, 'acme', 'Acme@123456');
      const p = await addPrinter(api);
      const sale = await order(api);
      expect((await api.put(`/api/erp/sale/${sale.id}/confirm`, {})).status).toBe(200);
      // no device connected: the job waits in the outbox
      const pending = await api.get(`/api/mall/print-job?printerId=${p.id}`);
      expect(pending.body.data.list.map((j: { status: string }) => j.status)).toEqual(['PENDING']);
      await first.app.close();

      first = await start(true);
      const again = await signIn(first, 'acme', 'Acme@123456');
      const dev = await device(brokerUrl(first.app.realtime.port), p.sn, p.key);
      const jobs = jobsOf(dev);
      await dev.subscribeAsync(printerTopic(p.sn, 'job'), { qos: 1 });
      await dev.publishAsync(printerTopic(p.sn, 'status'), JSON.stringify({ state: 'online' }), { qos: 1, retain: true });
      await until(
        async () => jobs.length,
        (n) => n > 0,
      );
      // the worker keeps running: give a second pass the chance to send it again, then count
      await until(
        () => again.get(`/api/mall/print-job?printerId=${p.id}`),
        (r) => r.body.data.list[0]?.status === 'SENT',
      );
      await dev.publishAsync(printerTopic(p.sn, 'ack'), JSON.stringify({ jobId: jobs[0]?.jobId, status: 'printed' }), { qos: 1 });
      const done = await until(
        () => again.get(`/api/mall/print-job?printerId=${p.id}`),
        (r) => r.body.data.list[0]?.status === 'PRINTED',
      );
      expect(done.body.data.list.map((j: { status: string; attempts: number }) => [j.status, j.attempts])).toEqual([['PRINTED', 1]]);
      expect(jobs).toHaveLength(1);
      dev.end(true);
    } finally {
      await first.app.close();
      await testDatabase.drop();
    }
  });
});
