import { expect } from 'vitest';
import type { Caller } from '../system/api';
import { unique } from '../wait';

/** A printer's registration: a 58 mm printer of the built-in protocol at the front desk, unless `extra` says otherwise. */
export function printerBody(extra: Record<string, unknown> = {}) {
  const sn = unique('SN');
  return { name: 'Front desk', vendor: 'mqtt', sn, deviceKey: `key-${sn}`, paperWidth: 58, triggers: ['sale.confirmed'], ...extra };
}

/** Registers a printer (`printerBody`) and expects it to be created: its id, serial number and device key. */
export async function addPrinter(api: Caller, extra: Record<string, unknown> = {}) {
  const body = printerBody(extra);
  const res = await api.post('/api/mall/printer', body);
  expect(res.status).toBe(200);
  return { id: res.body.data.id as number, sn: body.sn as string, key: body.deviceKey as string };
}
