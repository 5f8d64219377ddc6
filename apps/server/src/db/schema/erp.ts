import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  char,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { audit, id, ref, status, time } from './columns';
import { entityTable } from './entity-table';
import { tenantId, tenantPolicy } from './tenancy';

// ERP tables: tenant_id first in every key, row-level security forced (migration 0006). Money is bigint fen.
const money = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);

export const erpWarehouses = pgTable(
  'erp_warehouses',
  {
    tenantId: tenantId(),
    id: id(),
    name: varchar('name', { length: 50 }).notNull(),
    code: varchar('code', { length: 32 }).notNull(),
    address: varchar('address', { length: 200 }),
    principal: varchar('principal', { length: 30 }),
    phone: varchar('phone', { length: 20 }),
    isDefault: boolean('is_default').notNull().default(false),
    sort: integer('sort').notNull().default(0),
    status: status(),
    remark: varchar('remark', { length: 500 }),
    ...audit,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('erp_warehouses_code_key').on(t.tenantId, t.code),
    // one default warehouse per tenant
    uniqueIndex('erp_warehouses_default_key').on(t.tenantId).where(sql`${t.isDefault}`),
    tenantPolicy('erp_warehouses'),
  ],
);

export const erpSpecs = entityTable(
  'erp_specs',
  {
    name: varchar('name', { length: 30 }).notNull(),
    values: jsonb('values').$type<string[]>().notNull().default([]),
    sort: integer('sort').notNull().default(0),
    status: status(),
    remark: varchar('remark', { length: 500 }),
  },
  (t) => [uniqueIndex('erp_specs_name_key').on(t.tenantId, t.name)],
);

export const erpCategories = pgTable(
  'erp_categories',
  {
    tenantId: tenantId(),
    id: id(),
    parentId: ref('parent_id'),
    name: varchar('name', { length: 50 }).notNull(),
    code: varchar('code', { length: 32 }).notNull(),
    sort: integer('sort').notNull().default(0),
    status: status(),
    ...audit,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({ columns: [t.tenantId, t.parentId], foreignColumns: [t.tenantId, t.id] }).onDelete('restrict'),
    uniqueIndex('erp_categories_code_key').on(t.tenantId, t.code),
    index('erp_categories_parent_idx').on(t.tenantId, t.parentId),
    tenantPolicy('erp_categories'),
  ],
);

export const erpSuppliers = entityTable('erp_suppliers', {
  name: varchar('name', { length: 100 }).notNull(),
  contact: varchar('contact', { length: 30 }),
  mobile: varchar('mobile', { length: 20 }),
  phone: varchar('phone', { length: 20 }),
  email: varchar('email', { length: 100 }),
  taxNo: varchar('tax_no', { length: 50 }),
  bankAccount: varchar('bank_account', { length: 50 }),
  status: status(),
  remark: varchar('remark', { length: 500 }),
});

export const erpProducts = pgTable(
  'erp_products',
  {
    tenantId: tenantId(),
    id: id(),
    name: varchar('name', { length: 100 }).notNull(),
    code: varchar('code', { length: 64 }).notNull(),
    categoryId: ref('category_id'),
    unit: varchar('unit', { length: 10 }),
    images: jsonb('images').$type<string[]>().notNull().default([]),
    description: varchar('description', { length: 2000 }),
    specs: jsonb('specs').$type<{ name: string; values: string[] }[]>().notNull().default([]),
    status: status(),
    ...audit,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('erp_products_code_key').on(t.tenantId, t.code),
    foreignKey({ columns: [t.tenantId, t.categoryId], foreignColumns: [erpCategories.tenantId, erpCategories.id] }).onDelete('restrict'),
    index('erp_products_category_idx').on(t.tenantId, t.categoryId),
    index('erp_products_created_idx').on(t.tenantId, t.createTime, t.id),
    tenantPolicy('erp_products'),
  ],
);

/** SKUs: a referenced SKU is soft-deleted (`deleted`), never removed. */
export const erpSkus = pgTable(
  'erp_skus',
  {
    tenantId: tenantId(),
    id: id(),
    productId: ref('product_id').notNull(),
    specValues: jsonb('spec_values').$type<string[]>().notNull().default([]),
    /** the spec values joined, unique among a product's live SKUs */
    specKey: varchar('spec_key', { length: 200 }).notNull().default(''),
    barcode: varchar('barcode', { length: 64 }),
    price: money('price'),
    costPrice: money('cost_price'),
    marketPrice: money('market_price'),
    weight: integer('weight').notNull().default(0),
    deleted: boolean('deleted').notNull().default(false),
    ...audit,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({ columns: [t.tenantId, t.productId], foreignColumns: [erpProducts.tenantId, erpProducts.id] }).onDelete('restrict'),
    uniqueIndex('erp_skus_spec_key').on(t.tenantId, t.productId, t.specKey).where(sql`not ${t.deleted}`),
    tenantPolicy('erp_skus'),
  ],
);

/** Stock: one row per (tenant, SKU, warehouse). Decrements are guarded `UPDATE … WHERE quantity >= n`. */
export const erpStock = pgTable(
  'erp_stock',
  {
    tenantId: tenantId(),
    skuId: ref('sku_id').notNull(),
    warehouseId: ref('warehouse_id').notNull(),
    quantity: bigint('quantity', { mode: 'number' }).notNull().default(0),
    updateTime: time('update_time').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.skuId, t.warehouseId] }),
    foreignKey({ columns: [t.tenantId, t.skuId], foreignColumns: [erpSkus.tenantId, erpSkus.id] }).onDelete('restrict'),
    foreignKey({ columns: [t.tenantId, t.warehouseId], foreignColumns: [erpWarehouses.tenantId, erpWarehouses.id] }).onDelete('restrict'),
    index('erp_stock_warehouse_idx').on(t.tenantId, t.warehouseId),
    tenantPolicy('erp_stock'),
  ],
);

/** The append-only stock ledger (a trigger refuses UPDATE and direct DELETE): signed delta and the balance after it. */
export const erpStockLedger = pgTable(
  'erp_stock_ledger',
  {
    tenantId: tenantId(),
    id: id(),
    skuId: ref('sku_id').notNull(),
    warehouseId: ref('warehouse_id').notNull(),
    delta: bigint('delta', { mode: 'number' }).notNull(),
    balance: bigint('balance', { mode: 'number' }).notNull(),
    kind: varchar('kind', { length: 16 }).notNull(),
    refNo: varchar('ref_no', { length: 32 }),
    remark: varchar('remark', { length: 200 }),
    operator: varchar('operator', { length: 30 }),
    createTime: time('create_time').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({ columns: [t.tenantId, t.skuId], foreignColumns: [erpSkus.tenantId, erpSkus.id] }).onDelete('restrict'),
    foreignKey({ columns: [t.tenantId, t.warehouseId], foreignColumns: [erpWarehouses.tenantId, erpWarehouses.id] }).onDelete('restrict'),
    index('erp_stock_ledger_sku_idx').on(t.tenantId, t.skuId, t.warehouseId, t.id),
    tenantPolicy('erp_stock_ledger'),
  ],
);

/** Per-tenant ERP settings; a missing row means the defaults (no negative stock). */
export const erpSettings = pgTable(
  'erp_settings',
  {
    tenantId: tenantId().primaryKey(),
    allowNegativeStock: boolean('allow_negative_stock').notNull().default(false),
  },
  () => [tenantPolicy('erp_settings')],
);

/** Per-tenant daily document sequences: `INSERT … ON CONFLICT DO UPDATE … RETURNING` hands out numbers. */
export const erpDocSequences = pgTable(
  'erp_doc_sequences',
  {
    tenantId: tenantId(),
    prefix: varchar('prefix', { length: 8 }).notNull(),
    day: char('day', { length: 8 }).notNull(),
    last: bigint('last', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.prefix, t.day] }), tenantPolicy('erp_doc_sequences')],
);

export const erpMembers = pgTable(
  'erp_members',
  {
    tenantId: tenantId(),
    id: id(),
    name: varchar('name', { length: 30 }).notNull(),
    mobile: varchar('mobile', { length: 21 }).notNull(),
    sex: char('sex', { length: 1 }).notNull().default('2'),
    birthday: date('birthday', { mode: 'string' }),
    level: integer('level').notNull().default(0),
    points: bigint('points', { mode: 'number' }).notNull().default(0),
    balance: money('balance'),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    status: status(),
    remark: varchar('remark', { length: 500 }),
    ...audit,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('erp_members_mobile_key').on(t.tenantId, t.mobile),
    // the list's default order (newest first): without it each page sorted all of the tenant's members
    index('erp_members_created_idx').on(t.tenantId, t.createTime, t.id),
    tenantPolicy('erp_members'),
  ],
);

export const erpMemberPoints = pgTable(
  'erp_member_points',
  {
    tenantId: tenantId(),
    id: id(),
    memberId: ref('member_id').notNull(),
    delta: bigint('delta', { mode: 'number' }).notNull(),
    balance: bigint('balance', { mode: 'number' }).notNull(),
    reason: varchar('reason', { length: 32 }).notNull(),
    refNo: varchar('ref_no', { length: 32 }),
    createTime: time('create_time').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({ columns: [t.tenantId, t.memberId], foreignColumns: [erpMembers.tenantId, erpMembers.id] }).onDelete('cascade'),
    index('erp_member_points_member_idx').on(t.tenantId, t.memberId, t.id),
    tenantPolicy('erp_member_points'),
  ],
);

/** Sales orders: `status` changes only by compare-and-set (`… WHERE status = <from>`). */
export const erpSales = pgTable(
  'erp_sales',
  {
    tenantId: tenantId(),
    id: id(),
    orderNo: varchar('order_no', { length: 32 }).notNull(),
    memberId: ref('member_id'),
    warehouseId: ref('warehouse_id').notNull(),
    status: varchar('status', { length: 16 }).notNull().default('draft'),
    totalQuantity: bigint('total_quantity', { mode: 'number' }).notNull().default(0),
    goodsAmount: money('goods_amount'),
    discountAmount: money('discount_amount'),
    totalAmount: money('total_amount'),
    remark: varchar('remark', { length: 500 }),
    confirmTime: time('confirm_time'),
    shipTime: time('ship_time'),
    completeTime: time('complete_time'),
    cancelTime: time('cancel_time'),
    ...audit,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('erp_sales_order_no_key').on(t.tenantId, t.orderNo),
    // order-number prefix search (`LIKE 'SO202611%'`) whatever the database's collation
    // a number prefix's orders with what their page is sorted by: a day's orders sorted from the index alone
    index('erp_sales_order_no_prefix_idx').on(t.tenantId, t.orderNo.op('text_pattern_ops'), t.createTime, t.id),
    foreignKey({ columns: [t.tenantId, t.memberId], foreignColumns: [erpMembers.tenantId, erpMembers.id] }).onDelete('restrict'),
    foreignKey({ columns: [t.tenantId, t.warehouseId], foreignColumns: [erpWarehouses.tenantId, erpWarehouses.id] }).onDelete('restrict'),
    index('erp_sales_created_idx').on(t.tenantId, t.createTime, t.id),
    index('erp_sales_status_idx').on(t.tenantId, t.status, t.createTime),
    index('erp_sales_member_idx').on(t.tenantId, t.memberId, t.createTime),
    tenantPolicy('erp_sales'),
  ],
);

export const erpSaleItems = pgTable(
  'erp_sale_items',
  {
    tenantId: tenantId(),
    id: id(),
    saleId: ref('sale_id').notNull(),
    skuId: ref('sku_id').notNull(),
    quantity: bigint('quantity', { mode: 'number' }).notNull(),
    unitPrice: money('unit_price'),
    discount: money('discount'),
    amount: money('amount'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({ columns: [t.tenantId, t.saleId], foreignColumns: [erpSales.tenantId, erpSales.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.tenantId, t.skuId], foreignColumns: [erpSkus.tenantId, erpSkus.id] }).onDelete('restrict'),
    index('erp_sale_items_sale_idx').on(t.tenantId, t.saleId),
    index('erp_sale_items_sku_idx').on(t.tenantId, t.skuId),
    tenantPolicy('erp_sale_items'),
  ],
);

export const erpActivities = pgTable(
  'erp_activities',
  {
    tenantId: tenantId(),
    id: id(),
    name: varchar('name', { length: 50 }).notNull(),
    type: varchar('type', { length: 16 }).notNull(),
    discountPercent: integer('discount_percent'),
    threshold: bigint('threshold', { mode: 'number' }),
    reduction: bigint('reduction', { mode: 'number' }),
    startTime: time('start_time').notNull(),
    endTime: time('end_time').notNull(),
    status: char('status', { length: 1 }).notNull().default('N'),
    remark: varchar('remark', { length: 500 }),
    ...audit,
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), tenantPolicy('erp_activities')],
);

export const erpActivitySkus = pgTable(
  'erp_activity_skus',
  {
    tenantId: tenantId(),
    activityId: ref('activity_id').notNull(),
    skuId: ref('sku_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.activityId, t.skuId] }),
    foreignKey({ columns: [t.tenantId, t.activityId], foreignColumns: [erpActivities.tenantId, erpActivities.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.tenantId, t.skuId], foreignColumns: [erpSkus.tenantId, erpSkus.id] }).onDelete('restrict'),
    index('erp_activity_skus_sku_idx').on(t.tenantId, t.skuId),
    tenantPolicy('erp_activity_skus'),
  ],
);
