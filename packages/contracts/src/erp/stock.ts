import { z } from 'zod';
import { idFilter, optionalText, refId } from './common';

const page = {
  pageNum: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
};

/** A signed change of one SKU's stock in one warehouse; a result below zero is a 409. */
export const stockAdjustSchema = z.object({
  warehouseId: refId,
  skuId: refId,
  delta: z
    .number()
    .int()
    .min(-1_000_000_000)
    .max(1_000_000_000)
    .refine((n) => n !== 0, 'delta must not be zero'),
  remark: optionalText(200),
});
export const stockBalanceSchema = z.object({ skuId: z.number().int(), warehouseId: z.number().int(), quantity: z.number().int() });

/** Per-tenant stock settings: negative stock is off unless an administrator turns it on. */
export const stockSettingsSchema = z.object({ allowNegativeStock: z.boolean() });
export type StockSettings = z.infer<typeof stockSettingsSchema>;

export const stockQuerySchema = z.object({ ...page, skuId: idFilter, warehouseId: idFilter, productId: idFilter });
export const stockRowSchema = stockBalanceSchema.extend({
  warehouseName: z.string(),
  productName: z.string(),
  specValues: z.array(z.string()),
});
export type StockRow = z.infer<typeof stockRowSchema>;

export const ledgerKinds = ['adjust', 'sale', 'cancel'] as const;
export const ledgerQuerySchema = z.object({ ...page, skuId: idFilter, warehouseId: idFilter, productId: idFilter });
export const ledgerRowSchema = z.object({
  id: z.number().int(),
  skuId: z.number().int(),
  warehouseId: z.number().int(),
  warehouseName: z.string(),
  specValues: z.array(z.string()),
  delta: z.number().int(),
  balance: z.number().int(),
  kind: z.enum(ledgerKinds),
  refNo: z.string().nullable(),
  remark: z.string().nullable(),
  operator: z.string().nullable(),
  createTime: z.string(),
});
export type LedgerRow = z.infer<typeof ledgerRowSchema>;
