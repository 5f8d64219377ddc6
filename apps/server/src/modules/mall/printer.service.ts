import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import {
  type CreatePrinterInput,
  type ListQueryOf,
  mqttVendors,
  type Printer,
  type PrinterVendor,
  type printerResource,
  type UpdatePrinterInput,
} from '@atrium/contracts';
import { and, count, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import { refused } from '../../crud/conflict';
import type { Ctx } from '../../crud/context';
import { pageOffset } from '../../crud/paging';
import { contains, orderOf } from '../../crud/query';
import { assertReferences } from '../../crud/references';
import { storedValues } from '../../crud/repository';
import { type Db, withTenant } from '../../db/client';
import { erpWarehouses, mallPrinters, mallPrintJobs, printerDevices, printOutbox, tenants } from '../../db/schema';
import type { PrinterIdentity } from '../realtime/rules';

const scryptAsync = promisify(scrypt) as (key: string, salt: Buffer, length: number) => Promise<Buffer>;

/** A device key as stored: `salt:hash` (scrypt), so a leaked table does not leak keys. */
export async function hashDeviceKey(key: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(key, salt, 32);
  return `${salt.toString('hex')}:${hash.toString('hex')}`;
}

// an unknown serial number is checked against this, so it takes as long as a wrong key
const DUMMY_HASH = `${'00'.repeat(16)}:${'00'.repeat(32)}`;

export async function verifyDeviceKey(key: string, stored: string | null): Promise<boolean> {
  const [saltHex, hashHex] = (stored ?? DUMMY_HASH).split(':');
  const expected = Buffer.from(hashHex ?? '', 'hex');
  const actual = await scryptAsync(key, Buffer.from(saltHex ?? '', 'hex'), 32);
  return stored !== null && expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** The version of a device key: a fingerprint of its stored hash (a new key gets a new salt, so a new version). */
const keyVersionOf = (keyHash: string) => createHash('sha256').update(keyHash).digest('hex').slice(0, 16);

/** Whether the tenant's printer is enabled, in a tenant that is enabled and not expired. */
async function printerEnabled(db: Db, tenantId: number, printerId: number): Promise<boolean> {
  const [printer] = await withTenant(db, tenantId, (tx) =>
    tx
      .select({ id: mallPrinters.id })
      .from(mallPrinters)
      .innerJoin(tenants, eq(tenants.id, mallPrinters.tenantId))
      .where(
        and(
          eq(mallPrinters.tenantId, tenantId),
          eq(mallPrinters.id, printerId),
          eq(mallPrinters.status, '0'),
          eq(tenants.status, '0'),
          or(isNull(tenants.expireTime), gt(tenants.expireTime, new Date())),
        ),
      ),
  );
  return !!printer;
}

/**
 * The device a built-in-protocol printer signs in as: its tenant, printer, serial number and key
 * version, when the key is right and the printer is enabled.
 */
export async function checkDevice(db: Db, sn: string, key: string): Promise<PrinterIdentity | null> {
  const [row] = await db
    .select()
    .from(printerDevices)
    .where(and(eq(printerDevices.sn, sn), inArray(printerDevices.vendor, [...mqttVendors])));
  const ok = await verifyDeviceKey(key, row?.keyHash ?? null);
  if (!ok || !row || !(await printerEnabled(db, row.tenantRef, row.printerId))) return null;
  return { sn, tenantId: row.tenantRef, printerId: row.printerId, keyVersion: keyVersionOf(row.keyHash) };
}

/**
 * Whether a connection's printer is still what it signed in as: the same tenant's printer, with the
 * same serial number and key version, of the built-in protocol, enabled.
 */
export async function deviceIsCurrent(db: Db, identity: PrinterIdentity): Promise<boolean> {
  const [row] = await db
    .select()
    .from(printerDevices)
    .where(and(eq(printerDevices.tenantRef, identity.tenantId), eq(printerDevices.printerId, identity.printerId)));
  return (
    !!row &&
    row.sn === identity.sn &&
    mqttVendors.includes(row.vendor as PrinterVendor) &&
    keyVersionOf(row.keyHash) === identity.keyVersion &&
    (await printerEnabled(db, identity.tenantId, identity.printerId))
  );
}

/** Whether an update changes who a device of the printer is: its serial number, vendor, key or being enabled. */
export function changesDevice(before: Printer, input: UpdatePrinterInput): boolean {
  return input.sn !== before.sn || input.vendor !== before.vendor || !!input.deviceKey || input.status !== before.status;
}

type PrinterRow = typeof mallPrinters.$inferSelect;
type PrinterQuery = ListQueryOf<typeof printerResource>;

export function toPrinter(row: PrinterRow): Printer {
  const { tenantId: _t, ...r } = row;
  return {
    ...r,
    vendor: r.vendor as PrinterVendor,
    kind: r.kind as Printer['kind'],
    paperWidth: r.paperWidth === 80 ? 80 : 58,
    triggers: r.triggers as Printer['triggers'],
    status: r.status as Printer['status'],
    state: r.state as Printer['state'],
    lastSeen: r.lastSeen ? r.lastSeen.toISOString() : null,
    createTime: r.createTime.toISOString(),
    updateTime: r.updateTime.toISOString(),
  };
}

/** Refuses a serial number another printer of the vendor (for the built-in protocol: of either of its vendors) has. */
async function assertSnFree(ctx: Ctx, vendor: PrinterVendor, sn: string, printerId?: number) {
  const vendors = mqttVendors.includes(vendor) ? [...mqttVendors] : [vendor];
  const [other] = await ctx.tx
    .select({ tenantRef: printerDevices.tenantRef, printerId: printerDevices.printerId })
    .from(printerDevices)
    .where(and(eq(printerDevices.sn, sn), inArray(printerDevices.vendor, vendors)));
  if (other && !(other.tenantRef === ctx.caller.tenantId && other.printerId === printerId))
    throw refused('sn', 'unique', 'printer.snTaken');
}

/** The input's fields a printer's row stores as they are (the device key goes to its own table). */
const printerFields = [
  'name',
  'vendor',
  'kind',
  'paperWidth',
  'sn',
  'copies',
  'triggers',
  'warehouseId',
  'template',
  'status',
  'remark',
] as const;
const columnsOf = (input: CreatePrinterInput | UpdatePrinterInput) => storedValues(input, printerFields);

export const printerService = {
  async list(ctx: Ctx, query: PrinterQuery) {
    const t = ctx.caller.tenantId;
    const where = and(
      eq(mallPrinters.tenantId, t),
      contains(mallPrinters.name, query.name),
      query.vendor ? eq(mallPrinters.vendor, query.vendor) : undefined,
      query.state ? eq(mallPrinters.state, query.state) : undefined,
    );
    const rows = await ctx.tx
      .select()
      .from(mallPrinters)
      .where(where)
      .orderBy(...orderOf(query.sort, { name: mallPrinters.name, createTime: mallPrinters.createTime }, mallPrinters.id))
      .limit(pageOffset(query).limit)
      .offset(pageOffset(query).offset);
    const [total] = await ctx.tx.select({ n: count() }).from(mallPrinters).where(where);
    return { list: rows.map(toPrinter), total: total?.n ?? 0 };
  },

  async row(ctx: Ctx, id: number): Promise<PrinterRow | null> {
    const [row] = await ctx.tx
      .select()
      .from(mallPrinters)
      .where(and(eq(mallPrinters.tenantId, ctx.caller.tenantId), eq(mallPrinters.id, id)));
    return row ?? null;
  },

  async get(ctx: Ctx, id: number): Promise<Printer | null> {
    const row = await printerService.row(ctx, id);
    return row ? toPrinter(row) : null;
  },

  async create(ctx: Ctx, input: CreatePrinterInput): Promise<Printer> {
    await assertReferences(ctx, [{ field: 'warehouseId', table: erpWarehouses, ids: input.warehouseId }]);
    await assertSnFree(ctx, input.vendor, input.sn);
    const [row] = await ctx.tx
      .insert(mallPrinters)
      .values({ ...columnsOf(input), tenantId: ctx.caller.tenantId, createBy: ctx.caller.accountId, updateBy: ctx.caller.accountId })
      .returning();
    const printer = row as PrinterRow;
    await ctx.tx.insert(printerDevices).values({
      vendor: input.vendor,
      sn: input.sn,
      tenantRef: ctx.caller.tenantId,
      printerId: printer.id,
      keyHash: await hashDeviceKey(input.deviceKey),
    });
    return toPrinter(printer);
  },

  async update(ctx: Ctx, id: number, input: UpdatePrinterInput): Promise<Printer> {
    await assertReferences(ctx, [{ field: 'warehouseId', table: erpWarehouses, ids: input.warehouseId }]);
    await assertSnFree(ctx, input.vendor, input.sn, id);
    const [row] = await ctx.tx
      .update(mallPrinters)
      .set({ ...columnsOf(input), updateBy: ctx.caller.accountId, updateTime: new Date() })
      .where(and(eq(mallPrinters.tenantId, ctx.caller.tenantId), eq(mallPrinters.id, id)))
      .returning();
    const device = { vendor: input.vendor, sn: input.sn };
    const where = and(eq(printerDevices.tenantRef, ctx.caller.tenantId), eq(printerDevices.printerId, id));
    if (input.deviceKey)
      await ctx.tx
        .update(printerDevices)
        .set({ ...device, keyHash: await hashDeviceKey(input.deviceKey) })
        .where(where);
    else await ctx.tx.update(printerDevices).set(device).where(where);
    return toPrinter(row as PrinterRow);
  },

  async remove(ctx: Ctx, id: number): Promise<void> {
    const t = ctx.caller.tenantId;
    await ctx.tx.delete(printerDevices).where(and(eq(printerDevices.tenantRef, t), eq(printerDevices.printerId, id)));
    // jobs not yet sent go with the printer; its history stays
    const pending = ctx.tx
      .select({ id: mallPrintJobs.id })
      .from(mallPrintJobs)
      .where(and(eq(mallPrintJobs.tenantId, t), eq(mallPrintJobs.printerId, id)));
    await ctx.tx.delete(printOutbox).where(and(eq(printOutbox.tenantRef, t), inArray(printOutbox.jobId, pending)));
    await ctx.tx
      .update(mallPrintJobs)
      .set({ status: 'CANCELLED', updateTime: new Date() })
      .where(and(eq(mallPrintJobs.tenantId, t), eq(mallPrintJobs.printerId, id), eq(mallPrintJobs.status, 'PENDING')));
    await ctx.tx.delete(mallPrinters).where(and(eq(mallPrinters.tenantId, t), eq(mallPrinters.id, id)));
  },
};
