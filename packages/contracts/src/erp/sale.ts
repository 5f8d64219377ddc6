import { z } from 'zod';
import type { EntityManifest } from '../entity';
import { dateFilter, textFilter } from '../resource';
import { auditFields, erpResource, idFilter, optionalText, refId } from './common';
import { erpRoute } from './pages';

export const saleStatuses = ['draft', 'confirmed', 'shipped', 'completed', 'cancelled'] as const;
export const saleStatusSchema = z.enum(saleStatuses);
export type SaleStatus = z.infer<typeof saleStatusSchema>;
/** The transitions: which states each one leaves from, and where it goes. */
export const saleTransitions = {
  confirm: { from: ['draft'], to: 'confirmed' },
  ship: { from: ['confirmed'], to: 'shipped' },
  complete: { from: ['shipped'], to: 'completed' },
  cancel: { from: ['draft', 'confirmed'], to: 'cancelled' },
} as const satisfies Record<string, { from: readonly SaleStatus[]; to: SaleStatus }>;
export type SaleTransition = keyof typeof saleTransitions;

export const saleItemSchema = z.object({
  id: z.number().int(),
  skuId: z.number().int(),
  productName: z.string(),
  specValues: z.array(z.string()),
  quantity: z.number().int(),
  unitPrice: z.number().int(),
  discount: z.number().int(),
  amount: z.number().int(),
});
export const saleSchema = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  memberId: z.number().int().nullable(),
  memberName: z.string().nullable(),
  warehouseId: z.number().int(),
  warehouseName: z.string(),
  status: saleStatusSchema,
  totalQuantity: z.number().int(),
  goodsAmount: z.number().int(),
  discountAmount: z.number().int(),
  totalAmount: z.number().int(),
  remark: z.string().nullable(),
  items: z.array(saleItemSchema),
  confirmTime: z.string().nullable(),
  cancelTime: z.string().nullable(),
  ...auditFields,
});
export type Sale = z.infer<typeof saleSchema>;

/**
 * The most an order may come to, in fen (10 trillion yuan): every amount of an order stays an exact
 * integer in JavaScript and in a bigint column, where a price at its maximum times the largest quantity
 * would not.
 */
export const MAX_ORDER_AMOUNT = 1_000_000_000_000_000;

/** Prices are not taken from the client: the server computes them from SKU prices and activities. */
export const createSaleSchema = z.object({
  warehouseId: refId,
  memberId: refId.nullish(),
  items: z
    .array(z.object({ skuId: refId, quantity: z.number().int().min(1).max(1_000_000) }))
    .min(1)
    .max(200),
  remark: optionalText(500),
});
export type CreateSaleInput = z.infer<typeof createSaleSchema>;

export const saleResource = erpResource({
  name: 'sale',
  item: saleSchema,
  create: createSaleSchema,
  filters: z.object({
    orderNo: textFilter(32),
    status: saleStatusSchema.optional(),
    memberId: idFilter,
    warehouseId: idFilter,
    from: dateFilter(),
    to: dateFilter(),
  }),
  sortable: ['orderNo', 'totalAmount', 'createTime'],
  actions: ['list', 'query', 'create', 'update', 'delete', 'export'],
});

const statusOptions = saleStatuses.map((s) => ({ label: `erp.sale.status.${s}`, value: s }));
export const saleEntity: EntityManifest = {
  resource: saleResource,
  route: erpRoute('sale'),
  extraActions: ['confirm', 'ship', 'complete', 'cancel', 'print'],
  fields: [
    { field: 'orderNo', label: 'erp.sale.orderNo', search: 'prefix' },
    { field: 'status', label: 'erp.sale.status', widget: 'select', options: statusOptions, search: true },
    { field: 'warehouseName', label: 'erp.sale.warehouse' },
    { field: 'memberName', label: 'erp.sale.member' },
    { field: 'totalQuantity', label: 'erp.sale.totalQuantity', widget: 'number' },
    { field: 'totalAmount', label: 'erp.sale.totalAmount', widget: 'money' },
    { field: 'createTime', label: 'crud.createTime', widget: 'datetime' },
  ],
};
