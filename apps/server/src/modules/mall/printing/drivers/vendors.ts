import { createHash, createHmac, randomBytes } from 'node:crypto';
import { renderEscPos, renderFeie, renderYilianyun } from '../receipt';
import type { DriverJob, DriverPrinter, PrintDriver } from './driver';
import { VendorRefused } from './driver';
import { postVendor, type VendorEndpoint } from './http';

/** A tenant's account at a cloud vendor (stored write-only; here only to sign requests). */
export type VendorCredentials = { user: string; key: string };

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const now = () => Math.floor(Date.now() / 1000);
const form = (fields: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)])).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json;charset=UTF-8' };

/**
 * Feie (飞鹅云): form POST to `/Api/Open/`, `sig = sha1(user + UKEY + stime)`; `ret` 0 is success and
 * `data` the vendor's order id. Receipts in Feie's markup.
 */
export function feieDriver(endpoint: VendorEndpoint, account: VendorCredentials): PrintDriver {
  const call = async (apiname: string, fields: Record<string, string | number>) => {
    const stime = now();
    const answer = await postVendor(
      endpoint,
      '/Api/Open/',
      form({ user: account.user, stime, sig: sha1(account.user + account.key + stime), apiname, ...fields }),
      FORM,
    );
    if (answer.ret !== 0) throw new VendorRefused(`feie: ${String(answer.msg ?? answer.ret)}`);
    return answer.data;
  };
  return {
    async print(printer: DriverPrinter, job: DriverJob) {
      const data = await call('Open_printMsg', { sn: printer.sn, content: renderFeie(job.blocks, printer.paperWidth), times: job.copies });
      return { result: 'sent', vendorJobId: String(data) };
    },
    async addDevice(sn, key, name) {
      await call('Open_printerAddlist', { printerContent: `${sn}#${key}#${name}` });
    },
    async removeDevice(sn) {
      await call('Open_printerDelList', { snlist: sn });
    },
    async queryJob(vendorJobId) {
      return (await call('Open_queryOrderState', { orderid: vendorJobId })) === true ? 'printed' : 'waiting';
    },
    async queryStatus(sn) {
      const state = String(await call('Open_queryPrinterStatus', { sn }));
      return state.includes('离线') ? 'offline' : state.includes('不正常') ? 'paper-out' : 'online';
    },
  };
}

/** Xprinter cloud (芯烨云): JSON POST, `sign = sha1(user + userKEY + timestamp)`; `code` 0 is success. */
export function xpyunDriver(endpoint: VendorEndpoint, account: VendorCredentials): PrintDriver {
  const call = async (path: string, fields: Record<string, unknown>) => {
    const timestamp = String(now());
    const body = JSON.stringify({ user: account.user, timestamp, sign: sha1(account.user + account.key + timestamp), ...fields });
    const answer = await postVendor(endpoint, path, body, JSON_TYPE);
    if (answer.code !== 0) throw new VendorRefused(`xpyun: ${String(answer.msg ?? answer.code)}`);
    return answer.data;
  };
  return {
    async print(printer, job) {
      const data = await call('/api/openapi/xprinter/print', {
        sn: printer.sn,
        content: renderFeie(job.blocks, printer.paperWidth),
        copies: job.copies,
      });
      return { result: 'sent', vendorJobId: String(data) };
    },
    async queryStatus(sn) {
      const status = Number(await call('/api/openapi/xprinter/queryPrinterStatus', { sn }));
      return status === 0 ? 'offline' : status === 2 ? 'paper-out' : 'online';
    },
  };
}

/**
 * Yilianyun (易联云): an access token by client credentials, then form POSTs signed with
 * `sign = md5(client_id + timestamp + client_secret)`; `error` "0" is success. Its own markup.
 */
export function yilianyunDriver(endpoint: VendorEndpoint, account: VendorCredentials): PrintDriver {
  let token: string | null = null;
  const signed = () => {
    const timestamp = now();
    return { client_id: account.user, timestamp, sign: md5(account.user + timestamp + account.key), id: randomBytes(16).toString('hex') };
  };
  const call = async (path: string, fields: Record<string, string | number>) => {
    const answer = await postVendor(endpoint, path, form({ ...signed(), ...fields }), FORM);
    if (String(answer.error) !== '0') throw new VendorRefused(`yilianyun: ${String(answer.error_description ?? answer.error)}`);
    return answer.body as Record<string, unknown>;
  };
  const accessToken = async () => {
    token ??= String((await call('/oauth/oauth', { grant_type: 'client_credentials', scope: 'all' })).access_token);
    return token;
  };
  return {
    async print(printer, job) {
      const body = await call('/print/index', {
        access_token: await accessToken(),
        machine_code: printer.sn,
        content: renderYilianyun(job.blocks, printer.paperWidth),
        origin_id: `job${job.id}`,
      });
      return { result: 'sent', vendorJobId: String(body.id) };
    },
    verifyCallback(body) {
      return body.sign !== undefined && body.sign === md5(account.user + String(body.push_time ?? '') + account.key);
    },
  };
}

/**
 * Sunmi cloud printers: JSON POST signed with HMAC-SHA256 over `body + appid + timestamp + nonce`
 * (headers Sunmi-Appid, Sunmi-Timestamp, Sunmi-Nonce, Sunmi-Sign); `code` 1 is success. ESC/POS as hex.
 */
export function sunmiDriver(endpoint: VendorEndpoint, account: VendorCredentials): PrintDriver {
  return {
    async print(printer, job) {
      const body = JSON.stringify({
        sn: printer.sn,
        trade_no: `job${job.id}`,
        content: renderEscPos(job.blocks, printer.paperWidth, job.copies).toString('hex'),
        count: 1,
        order_type: 1,
      });
      const timestamp = String(now());
      const nonce = randomBytes(3).readUIntBE(0, 3).toString().padStart(6, '0');
      const sign = createHmac('sha256', account.key)
        .update(body + account.user + timestamp + nonce)
        .digest('hex');
      const answer = await postVendor(endpoint, '/v2/printer/open/open/device/pushContent', body, {
        ...JSON_TYPE,
        'Sunmi-Appid': account.user,
        'Sunmi-Timestamp': timestamp,
        'Sunmi-Nonce': nonce,
        'Sunmi-Sign': sign,
      });
      if (answer.code !== 1) throw new VendorRefused(`sunmi: ${String(answer.msg ?? answer.code)}`);
      return { result: 'sent', vendorJobId: `job${job.id}` };
    },
  };
}
