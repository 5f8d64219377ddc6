import { sql } from 'drizzle-orm';
import { bigint, char, index, integer, jsonb, pgTable, primaryKey, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { id, time } from './columns';
import { tenantId, tenantPolicy } from './tenancy';

// Receipt printers and their print jobs (tenant tables, row-level security forced), the device
// registry brokers authenticate against and the outbox the print worker drains (no tenant context).

export const mallPrinters = pgTable(
  'mall_printers',
  {
    tenantId: tenantId(),
    id: id(),
    name: varchar('name', { length: 50 }).notNull(),
    vendor: varchar('vendor', { length: 16 }).notNull(),
    kind: varchar('kind', { length: 16 }).notNull().default('receipt'),
    paperWidth: smallint('paper_width').notNull().default(58),
    sn: varchar('sn', { length: 40 }).notNull(),
    copies: smallint('copies').notNull().default(1),
    triggers: jsonb('triggers').$type<string[]>().notNull().default([]),
    warehouseId: bigint('warehouse_id', { mode: 'number' }),
    template: text('template'),
    status: char('status', { length: 1 }).notNull().default('0'),
    /** online | offline | paper-out, from the device's status topic (or the vendor's status query) */
    state: varchar('state', { length: 16 }).notNull().default('offline'),
    lastSeen: time('last_seen'),
    remark: varchar('remark', { length: 500 }),
    createBy: varchar('create_by', { length: 30 }),
    createTime: time('create_time').notNull().defaultNow(),
    updateBy: varchar('update_by', { length: 30 }),
    updateTime: time('update_time').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), tenantPolicy('mall_printers')],
);

/**
 * A tenant's account at a cloud printer vendor (Feie, Xprinter, Yilianyun, Sunmi): the user and the key
 * its requests are signed with. Write-only in the API: the key is never answered, only whether it is set.
 */
export const printerVendorAccounts = pgTable(
  'printer_vendor_accounts',
  {
    tenantId: tenantId(),
    vendor: varchar('vendor', { length: 16 }).notNull(),
    accountUser: varchar('account_user', { length: 100 }).notNull(),
    accountKey: text('account_key').notNull(),
    createBy: varchar('create_by', { length: 30 }),
    createTime: time('create_time').notNull().defaultNow(),
    updateBy: varchar('update_by', { length: 30 }),
    updateTime: time('update_time').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.vendor] }), tenantPolicy('printer_vendor_accounts')],
);

/**
 * The credentials of every printer, across tenants: brokers look a device up by vendor and serial
 * number before any tenant is known. The key is stored as a salted hash (write-only).
 */
export const printerDevices = pgTable(
  'printer_devices',
  {
    vendor: varchar('vendor', { length: 16 }).notNull(),
    sn: varchar('sn', { length: 40 }).notNull(),
    tenantRef: bigint('tenant_ref', { mode: 'number' }).notNull(),
    printerId: bigint('printer_id', { mode: 'number' }).notNull(),
    keyHash: varchar('key_hash', { length: 128 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.vendor, t.sn] }),
    // the built-in protocol signs devices in by serial number alone: unique over both of its vendors
    uniqueIndex('printer_devices_mqtt_sn_key').on(t.sn).where(sql`${t.vendor} in ('mqtt', 'simulator')`),
    uniqueIndex('printer_devices_printer_key').on(t.tenantRef, t.printerId),
  ],
);

export const mallPrintJobs = pgTable(
  'mall_print_jobs',
  {
    tenantId: tenantId(),
    id: id(),
    printerId: bigint('printer_id', { mode: 'number' }).notNull(),
    /** `bizType:bizId:event:printerId` for a trigger; a manual print has a key of its own */
    idempotencyKey: varchar('idempotency_key', { length: 120 }).notNull(),
    bizType: varchar('biz_type', { length: 20 }).notNull(),
    bizId: bigint('biz_id', { mode: 'number' }),
    bizNo: varchar('biz_no', { length: 40 }),
    /** the receipt in the internal markup (template filled); each driver renders it */
    markup: text('markup').notNull(),
    /** the receipt as plain text, as printed */
    text: text('text').notNull(),
    copies: smallint('copies').notNull().default(1),
    status: varchar('status', { length: 12 }).notNull().default('PENDING'),
    vendorJobId: varchar('vendor_job_id', { length: 64 }),
    attempts: integer('attempts').notNull().default(0),
    lastError: varchar('last_error', { length: 500 }),
    sentTime: time('sent_time'),
    printedTime: time('printed_time'),
    /** the job this one prints again (a reprint someone asked for); null for a first print */
    reprintOf: bigint('reprint_of', { mode: 'number' }),
    createBy: varchar('create_by', { length: 30 }),
    createTime: time('create_time').notNull().defaultNow(),
    updateTime: time('update_time').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('mall_print_jobs_idempotency_key').on(t.tenantId, t.idempotencyKey),
    index('mall_print_jobs_printer_idx').on(t.tenantId, t.printerId, t.createTime),
    tenantPolicy('mall_print_jobs'),
  ],
);

/**
 * Jobs waiting to be dispatched. A worker leases a row (`leased_until`) before it sends; a lease that
 * ran out means the sender died mid-send: the job's fate is unknown and it is not sent again.
 */
export const printOutbox = pgTable(
  'print_outbox',
  {
    tenantRef: bigint('tenant_ref', { mode: 'number' }).notNull(),
    jobId: bigint('job_id', { mode: 'number' }).notNull(),
    dueAt: time('due_at').notNull().defaultNow(),
    leasedUntil: time('leased_until'),
  },
  (t) => [primaryKey({ columns: [t.tenantRef, t.jobId] }), index('print_outbox_due_idx').on(t.dueAt)],
);
