import { bigint, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { time } from './columns';
import { tenantId, tenantPolicy } from './tenancy';

/**
 * Mall goods: an ERP product published to the mall. No stock here: goods stock is the ERP stock of its
 * SKUs. `prices` holds the mall prices that differ from the SKU's (skuId → fen).
 */
export const mallGoods = pgTable(
  'mall_goods',
  {
    tenantId: tenantId(),
    id: bigint('id', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    productId: bigint('product_id', { mode: 'number' }).notNull(),
    title: varchar('title', { length: 100 }).notNull(),
    subtitle: varchar('subtitle', { length: 200 }),
    images: jsonb('images').$type<string[]>().notNull().default([]),
    detail: text('detail'),
    prices: jsonb('prices').$type<Record<string, number>>().notNull().default({}),
    sort: integer('sort').notNull().default(0),
    shelf: varchar('shelf', { length: 3 }).notNull().default('off'),
    createBy: varchar('create_by', { length: 30 }),
    createTime: time('create_time').notNull().defaultNow(),
    updateBy: varchar('update_by', { length: 30 }),
    updateTime: time('update_time').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('mall_goods_product_key').on(t.tenantId, t.productId),
    index('mall_goods_sort_idx').on(t.tenantId, t.sort, t.id),
    tenantPolicy('mall_goods'),
  ],
);
