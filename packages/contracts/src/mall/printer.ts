import { z } from 'zod';
import { statuses } from '../auth';
import type { EntityManifest } from '../entity';
import { auditFields, idFilter, nameSchema, optionalText, refId } from '../erp/common';
import { PRINTER_SN_PATTERN, printerStates } from '../printer-protocol';
import { textFilter } from '../resource';
import { mallResource } from './common';

/** Where printing is built in (`mqtt`, `simulator`) and the cloud vendors with an adapter. */
export const printerVendors = ['mqtt', 'simulator', 'feie', 'xpyun', 'yilianyun', 'sunmi'] as const;
export const printerVendorSchema = z.enum(printerVendors);
export type PrinterVendor = z.infer<typeof printerVendorSchema>;
/** Vendors whose devices speak the built-in MQTT protocol (they sign in to our broker). */
export const mqttVendors: readonly PrinterVendor[] = ['mqtt', 'simulator'];

export const printerKinds = ['receipt', 'label'] as const;
export const paperWidths = [58, 80] as const;
/** Events a printer may print on, without anyone pressing a button. */
export const printTriggers = ['sale.confirmed'] as const;
export const printTriggerSchema = z.enum(printTriggers);
export type PrintTrigger = z.infer<typeof printTriggerSchema>;
export const printerStateSchema = z.enum(printerStates);

const printerFields = {
  name: nameSchema(50),
  vendor: printerVendorSchema,
  kind: z.enum(printerKinds).default('receipt'),
  paperWidth: z.union([z.literal(58), z.literal(80)]).default(58),
  sn: z.string().trim().max(40).regex(PRINTER_SN_PATTERN, 'value.invalid'),
  copies: z.number().int().min(1).max(5).default(1),
  triggers: z.array(printTriggerSchema).max(printTriggers.length).default([]),
  warehouseId: refId.nullish(),
  /** The receipt template (internal markup); empty: the default receipt. */
  template: optionalText(4000),
  status: z.enum(statuses).default('0'),
  remark: optionalText(500),
};

/** Create: the device key is required and write-only (stored hashed, never answered). */
export const createPrinterSchema = z.object({ ...printerFields, deviceKey: z.string().min(8).max(128) });
/** Update: a device key only when it changes. */
export const updatePrinterSchema = z.object({ ...printerFields, deviceKey: z.string().min(8).max(128).optional() });
export type CreatePrinterInput = z.infer<typeof createPrinterSchema>;
export type UpdatePrinterInput = z.infer<typeof updatePrinterSchema>;

export const printerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  vendor: printerVendorSchema,
  kind: z.enum(printerKinds),
  paperWidth: z.union([z.literal(58), z.literal(80)]),
  sn: z.string(),
  copies: z.number().int(),
  triggers: z.array(printTriggerSchema),
  warehouseId: z.number().int().nullable(),
  template: z.string().nullable(),
  status: z.enum(statuses),
  /** From the device's retained status and its last will. */
  state: printerStateSchema,
  lastSeen: z.string().nullable(),
  remark: z.string().nullable(),
  ...auditFields,
});
export type Printer = z.infer<typeof printerSchema>;

export const printerResource = mallResource({
  name: 'printer',
  item: printerSchema,
  create: createPrinterSchema,
  update: updatePrinterSchema,
  filters: z.object({ name: textFilter(50), vendor: printerVendorSchema.optional(), state: printerStateSchema.optional() }),
  sortable: ['name', 'createTime'],
  actions: ['list', 'query', 'create', 'update', 'delete'],
});

/** Vendors reached through their cloud: each tenant signs with its own account there. */
export const cloudVendors = ['feie', 'xpyun', 'yilianyun', 'sunmi'] as const;
export const cloudVendorSchema = z.enum(cloudVendors);
export type CloudVendor = z.infer<typeof cloudVendorSchema>;

/** A tenant's account at a cloud vendor as the API answers it: never the key, only whether one is set. */
export const vendorAccountSchema = z.object({
  vendor: cloudVendorSchema,
  accountUser: z.string().nullable(),
  keySet: z.boolean(),
  updateBy: z.string().nullable(),
  updateTime: z.string().nullable(),
});
export type VendorAccount = z.infer<typeof vendorAccountSchema>;

/**
 * `PUT /api/mall/printer/vendor-account/{vendor}`: the vendor's user (Feie user, Xprinter user, Yilianyun
 * client id, Sunmi app id) and its key. The key is required the first time; left out later, the stored
 * one stays.
 */
export const vendorAccountInputSchema = z.object({
  accountUser: z.string().trim().min(1).max(100),
  accountKey: z.string().trim().min(1).max(500).optional(),
});
export const vendorParamSchema = z.object({ vendor: cloudVendorSchema });

export const printJobStatuses = ['PENDING', 'SENT', 'PRINTED', 'FAILED', 'EXPIRED', 'CANCELLED', 'UNKNOWN'] as const;
export const printJobStatusSchema = z.enum(printJobStatuses);
export type PrintJobStatus = z.infer<typeof printJobStatusSchema>;
/**
 * Jobs that may be printed again: every job that has ended, whether it printed (a second copy), failed,
 * expired, was cancelled or ended without anyone knowing (UNKNOWN). A PENDING or SENT job is still on its
 * way to the printer.
 */
/**
 * The last errors the print worker writes itself (a printer's or a vendor's is stored as it came): the
 * server writes these texts, the web app says them in the user's language.
 */
export const printWorkerErrors = {
  noAck: 'the printer did not acknowledge the job',
  senderStopped: 'the sender stopped while sending',
} as const;

export const reprintableStatuses: readonly PrintJobStatus[] = ['PRINTED', 'FAILED', 'EXPIRED', 'CANCELLED', 'UNKNOWN'];

export const printJobSchema = z.object({
  id: z.number().int(),
  printerId: z.number().int(),
  printerName: z.string(),
  idempotencyKey: z.string(),
  bizType: z.string(),
  bizNo: z.string().nullable(),
  text: z.string(),
  copies: z.number().int(),
  status: printJobStatusSchema,
  vendorJobId: z.string().nullable(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  printedTime: z.string().nullable(),
  /** the job this one prints again (`POST /api/mall/print-job/{id}/reprint`); null for a first print */
  reprintOf: z.number().int().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type PrintJob = z.infer<typeof printJobSchema>;

export const printJobResource = mallResource({
  name: 'printJob',
  basePath: '/mall/print-job',
  item: printJobSchema,
  create: z.object({}),
  filters: z.object({ printerId: idFilter, status: printJobStatusSchema.optional(), bizNo: textFilter(40) }),
  sortable: ['createTime'],
  actions: ['list', 'query'],
});

/** `POST /api/erp/sale/{id}/print` */
export const printOrderSchema = z.object({ printerId: refId });

export const printerPages = {
  printer: { name: 'mallPrinter', path: '/erp/printer', locale: 'menu.erp.printer' },
} as const;

export const printerEntity: EntityManifest = {
  resource: printerResource,
  route: printerPages.printer,
  extraActions: ['test'],
};
export const printJobEntity: EntityManifest = {
  resource: printJobResource,
  route: printerPages.printer,
  extraActions: ['cancel', 'reprint'],
};
