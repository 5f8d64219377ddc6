import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTime } from '../../src/crud/excel';
import { buildTestApp, engines } from '../helper';
import { type Caller, fieldsOf, signIn } from '../system/api';
import { unique } from '../wait';
import { addPrinter } from './printers';

const sha1 = (t: string) => createHash('sha1').update(t).digest('hex');

/** Feie's cloud as a local server: it accepts a print signed with the one account it knows. */
async function feieCloud(user: string, key: string) {
  const requests: Record<string, string>[] = [];
  // what Feie says of every printer's state, as its documented sentences
  const printer = { status: '在线，工作状态正常。' };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      requests.push(form);
      const signed = form.user === user && form.sig === sha1(user + key + form.stime);
      // a print answers its order id; asked about an order, Feie says it printed
      const data =
        form.apiname === 'Open_queryOrderState'
          ? true
          : form.apiname === 'Open_queryPrinterStatus'
            ? printer.status
            : `feie-${requests.filter((r) => r.apiname === 'Open_printMsg').length}`;
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(signed ? { ret: 0, msg: 'ok', data } : { ret: 1001, msg: '签名错误' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    printer,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(engines)('cloud vendor printers and job expiry on %s', (engine) => {
  let ctx: Awaited<ReturnType<typeof buildTestApp>>;
  let cloud: Awaited<ReturnType<typeof feieCloud>>;
  let acme: Caller;
  let hq: Caller;
  const FEIE_USER = 'tea@acme.example';
  const FEIE_KEY = 'feie-ukey-5f3a9c';

  beforeAll(async () => {
    cloud = await feieCloud(FEIE_USER, FEIE_KEY);
    ctx = await buildTestApp(engine, {
      LOGIN_RATE_LIMIT: '100000',
      PRINT_POLL_MS: '100',
      PRINT_RETRY_MS: '20',
      PRINT_EXPIRE_MS: '1000',
      PRINTER_FEIE_URL: cloud.url,
      PRINTER_VENDOR_TIMEOUT_MS: '30000',
      PRINT_QUERY_MS: '200',
      PRINT_STATUS_MS: '200',
    });
    acme = await signIn(ctx, 'acme', 'Acme@123456');
    hq = await signIn(ctx, 'admin', 'Admin@123456');
  });
  afterAll(async () => {
    await ctx?.close();
    await cloud?.close();
  });

  const jobOf = (id: number) =>
    until(
      async () => (await acme.get(`/api/mall/print-job/${id}`)).body.data,
      (job) => job.status !== 'PENDING',
    );

  it("prints to a Feie printer signed with the tenant's own account, whose key is never answered", async () => {
    const created = await addPrinter(acme, {
      name: 'Feie counter',
      vendor: 'feie',
      sn: unique('9185'),
      deviceKey: 'device-key-1',
      triggers: [],
    });
    const printerId = created.id;

    // no account yet: the job fails at once and says what is missing
    const early = await acme.post(`/api/mall/printer/${printerId}/test`, {});
    expect(early.status).toBe(200);
    const failed = await jobOf(early.body.data.id);
    expect(failed.status).toBe('FAILED');
    expect(failed.lastError).toContain('feie account');
    expect(cloud.requests).toHaveLength(0);

    // the key is required the first time, then write-only
    const keyless = await acme.put('/api/mall/printer/vendor-account/feie', { accountUser: FEIE_USER });
    expect(keyless.status).toBe(400);
    expect(fieldsOf(keyless.body)).toEqual(['accountKey']);
    expect((await acme.put('/api/mall/printer/vendor-account/canon', { accountUser: 'x', accountKey: 'y' })).status).toBe(400);
    const saved = await acme.put('/api/mall/printer/vendor-account/feie', { accountUser: FEIE_USER, accountKey: FEIE_KEY });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ vendor: 'feie', accountUser: FEIE_USER, keySet: true });
    const listed = await acme.get('/api/mall/printer/vendor-account');
    expect(listed.body.data.map((a: { vendor: string; keySet: boolean }) => [a.vendor, a.keySet])).toEqual([
      ['feie', true],
      ['xpyun', false],
      ['yilianyun', false],
      ['sunmi', false],
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(FEIE_KEY);
    // another tenant has no account at Feie, and sees none of this one's
    const theirs = (await hq.get('/api/mall/printer/vendor-account')).body.data as { vendor: string; accountUser: string | null }[];
    expect(theirs.find((a) => a.vendor === 'feie')).toMatchObject({ accountUser: null });

    // with an account, the printer's state is Feie's answer, and follows it
    const stateOf = (want: string) =>
      until(
        async () => (await acme.get(`/api/mall/printer/${printerId}`)).body.data,
        (p) => p.state === want,
      );
    expect(await stateOf('online')).toMatchObject({ state: 'online', lastSeen: expect.any(String) });
    expect(cloud.requests.find((r) => r.apiname === 'Open_queryPrinterStatus')).toMatchObject({
      sn: created.sn,
      user: FEIE_USER,
    });
    cloud.printer.status = '离线。';
    expect((await stateOf('offline')).state).toBe('offline');
    cloud.printer.status = '在线，工作状态不正常。';
    expect((await stateOf('paper-out')).state).toBe('paper-out');
    cloud.printer.status = '在线，工作状态正常。';
    await stateOf('online');
    // the other tenant's printers are not asked about with this account
    expect(cloud.requests.filter((r) => r.apiname === 'Open_queryPrinterStatus').every((r) => r.sn === created.sn)).toBe(true);

    const printed = await acme.post(`/api/mall/printer/${printerId}/test`, {});
    // sent to Feie, then PRINTED once Feie, asked about the order, says so
    const done = await until(
      async () => (await acme.get(`/api/mall/print-job/${printed.body.data.id}`)).body.data,
      (job) => job.status === 'PRINTED',
    );
    expect(done).toMatchObject({ status: 'PRINTED', vendorJobId: 'feie-1', lastError: null });
    expect(cloud.requests.find((r) => r.apiname === 'Open_printMsg')).toMatchObject({ user: FEIE_USER, sn: created.sn });
    expect(cloud.requests.find((r) => r.apiname === 'Open_queryOrderState')).toMatchObject({ orderid: 'feie-1' });

    // a new user without a key keeps the stored key; a wrong key is the vendor's refusal, not retried
    expect((await acme.put('/api/mall/printer/vendor-account/feie', { accountUser: FEIE_USER })).body.data.keySet).toBe(true);
    await acme.put('/api/mall/printer/vendor-account/feie', { accountUser: FEIE_USER, accountKey: 'not-the-key' });
    const refused = await jobOf((await acme.post(`/api/mall/printer/${printerId}/test`, {})).body.data.id);
    expect(refused.status).toBe('FAILED');
    expect(refused.lastError).toContain('签名错误');
    expect(refused.attempts).toBe(1);

    // removed: printing fails again as at first
    expect((await acme.del('/api/mall/printer/vendor-account/feie')).body.data.keySet).toBe(false);
  });

  it('expires a job that waited for an offline printer longer than PRINT_EXPIRE_MS', async () => {
    const created = await addPrinter(acme, { name: 'Back office', deviceKey: 'device-key-2', paperWidth: 80, triggers: [] });
    // yyyy-mm-dd hh:mm in a time zone
    const zoned = (d: Date, timeZone: string) => formatTime(d.toISOString(), timeZone).slice(0, 16);
    const shanghai = (d: Date) => zoned(d, 'Asia/Shanghai');
    const before = shanghai(new Date());
    const job = (await acme.post(`/api/mall/printer/${created.id}/test`, {})).body.data;
    const after = shanghai(new Date());
    expect(job.status).toBe('PENDING');
    // no browser zone sent: the receipt's time is the server's PRINT_TIME_ZONE (Asia/Shanghai), not UTC
    expect(
      [before, after].some((time) => job.text.includes(time)),
      job.text,
    ).toBe(true);
    // a cashier's browser says its zone: the receipt is in that one
    const from = zoned(new Date(), 'America/New_York');
    const asked = await ctx.app.inject({
      method: 'POST',
      url: `/api/mall/printer/${created.id}/test`,
      headers: { authorization: `Bearer ${acme.token}`, 'x-timezone': 'America/New_York' },
      payload: {},
    });
    const to = zoned(new Date(), 'America/New_York');
    const text = asked.json().data.text as string;
    expect(
      [from, to].some((time) => text.includes(time)),
      text,
    ).toBe(true);
    const expired = await jobOf(job.id);
    expect(expired.status).toBe('EXPIRED');
    expect(expired.lastError).toContain('offline');
  });
});
