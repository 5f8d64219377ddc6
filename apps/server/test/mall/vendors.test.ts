import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrintDriver, TransportError, VendorRefused } from '../../src/modules/mall/printing/drivers/driver';
import {
  feieDriver,
  sunmiDriver,
  type VendorCredentials,
  xpyunDriver,
  yilianyunDriver,
} from '../../src/modules/mall/printing/drivers/vendors';
import { parseMarkup } from '../../src/modules/mall/printing/receipt';

const account: VendorCredentials = { user: 'tea@example.com', key: 'vendor-secret' };
const sha1 = (t: string) => createHash('sha1').update(t).digest('hex');
const md5 = (t: string) => createHash('md5').update(t).digest('hex');

type Mode = 'ok' | 'error' | 'hang';
type Stub = { url: string; mode: Mode; requests: { path: string; body: string; headers: IncomingMessage['headers'] }[] };

/**
 * A vendor's cloud as a local server: it checks each request's signature the way the vendor documents
 * it, and answers success, the vendor's error, or nothing at all (a timeout).
 */
function stub(verify: (path: string, body: string, headers: IncomingMessage['headers']) => boolean, answers: Record<Mode, unknown>) {
  const state: Stub & { server?: Server } = { url: '', mode: 'ok', requests: [] };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      state.requests.push({ path: req.url ?? '', body, headers: req.headers });
      if (state.mode === 'hang') return;
      if (!verify(req.url ?? '', body, req.headers)) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ bad: 'signature' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answers[state.mode]));
    });
  });
  state.server = server;
  return {
    state,
    async start() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const formOf = (body: string) => Object.fromEntries(new URLSearchParams(body));
const job = { id: 7, blocks: parseMarkup('<C><B>店</B></C>\nSO1\n<QR>SO1</QR>\n<CUT>'), text: '店\nSO1\n', copies: 2 };
const printer = (vendor: 'feie' | 'xpyun' | 'yilianyun' | 'sunmi') => ({
  id: 1,
  tenantId: 1,
  vendor,
  sn: '918500001',
  paperWidth: 58,
  state: 'online',
});

const cases: {
  vendor: 'feie' | 'xpyun' | 'yilianyun' | 'sunmi';
  make: (baseUrl: string, timeoutMs?: number) => PrintDriver;
  verify: (path: string, body: string, headers: IncomingMessage['headers']) => boolean;
  answers: Record<Mode, unknown>;
  vendorJobId: string;
  content: (body: string) => string;
}[] = [
  {
    vendor: 'feie',
    make: (baseUrl, timeoutMs = 30_000) => feieDriver({ baseUrl, timeoutMs }, account),
    verify: (_p, body) => {
      const f = formOf(body);
      return f.user === account.user && f.sig === sha1(account.user + account.key + f.stime) && f.apiname === 'Open_printMsg';
    },
    answers: {
      ok: { ret: 0, msg: 'ok', data: '816501678_20160919184316_1419533539' },
      error: { ret: 1002, msg: '打印机编号错误' },
      hang: null,
    },
    vendorJobId: '816501678_20160919184316_1419533539',
    content: (body) => formOf(body).content ?? '',
  },
  {
    vendor: 'xpyun',
    make: (baseUrl, timeoutMs = 30_000) => xpyunDriver({ baseUrl, timeoutMs }, account),
    verify: (path, body) => {
      const b = JSON.parse(body);
      return path === '/api/openapi/xprinter/print' && b.sign === sha1(account.user + account.key + b.timestamp);
    },
    answers: { ok: { code: 0, msg: 'ok', data: 'OM20240101' }, error: { code: 1011, msg: 'printer not found' }, hang: null },
    vendorJobId: 'OM20240101',
    content: (body) => JSON.parse(body).content,
  },
  {
    vendor: 'yilianyun',
    make: (baseUrl, timeoutMs = 30_000) => yilianyunDriver({ baseUrl, timeoutMs }, account),
    verify: (path, body) => {
      const f = formOf(body);
      const signed = f.sign === md5(account.user + f.timestamp + account.key);
      return signed && (path === '/oauth/oauth' || (path === '/print/index' && f.access_token === 'tok-1'));
    },
    answers: {
      // the stub answers the token request and the print alike; the driver reads what it needs
      ok: { error: '0', error_description: 'success', body: { access_token: 'tok-1', id: '123456' } },
      error: { error: '2', error_description: 'machine not authorised' },
      hang: null,
    },
    vendorJobId: '123456',
    content: (body) => formOf(body).content ?? '',
  },
  {
    vendor: 'sunmi',
    make: (baseUrl, timeoutMs = 30_000) => sunmiDriver({ baseUrl, timeoutMs }, account),
    verify: (_p, body, h) =>
      h['sunmi-sign'] ===
      createHmac('sha256', account.key)
        .update(body + account.user + String(h['sunmi-timestamp']) + String(h['sunmi-nonce']))
        .digest('hex'),
    answers: { ok: { code: 1, msg: 'success', data: null }, error: { code: 40003, msg: 'sign error' }, hang: null },
    vendorJobId: 'job7',
    content: (body) => Buffer.from(JSON.parse(body).content, 'hex').toString('utf8'),
  },
];

describe.each(cases)('the $vendor adapter against its local stub', ({ vendor, make, verify, answers, vendorJobId, content }) => {
  const server = stub(verify, answers);
  beforeAll(() => server.start());
  afterAll(() => server.stop());

  it('signs the request as the vendor documents and returns its job id', async () => {
    server.state.mode = 'ok';
    const outcome = await make(server.state.url).print(printer(vendor), job);
    expect(outcome).toEqual({ result: 'sent', vendorJobId });
    const last = server.state.requests.at(-1);
    expect(content(last?.body ?? '')).toContain('SO1');
  });

  it('refuses the job on the vendor error (not retried)', async () => {
    server.state.mode = 'error';
    await expect(make(server.state.url).print(printer(vendor), job)).rejects.toBeInstanceOf(VendorRefused);
  });

  it('reports a timeout as a transport error (retried)', async () => {
    server.state.mode = 'hang';
    // the stub never answers: a short limit runs out whatever the machine's speed (the other cases allow
    // 30 s, which only a stub that does not answer reaches)
    await expect(make(server.state.url, 300).print(printer(vendor), job)).rejects.toBeInstanceOf(TransportError);
  });

  it('is refused by the stub when signed with another key', async () => {
    server.state.mode = 'ok';
    const wrong = { ...account, key: 'not-the-key' };
    const driver =
      vendor === 'feie'
        ? feieDriver({ baseUrl: server.state.url }, wrong)
        : vendor === 'xpyun'
          ? xpyunDriver({ baseUrl: server.state.url }, wrong)
          : vendor === 'yilianyun'
            ? yilianyunDriver({ baseUrl: server.state.url }, wrong)
            : sunmiDriver({ baseUrl: server.state.url }, wrong);
    await expect(driver.print(printer(vendor), job)).rejects.toBeInstanceOf(VendorRefused);
  });
});
