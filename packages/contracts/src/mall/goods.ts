import { z } from 'zod';
import type { EntityManifest } from '../entity';
import { idFilter, moneySchema, optionalText, refId, sortSchemaField } from '../erp/common';
import { textFilter } from '../resource';
import { webAddress } from '../system/common';
import { mallResource } from './common';

export const shelves = ['on', 'off'] as const;
export const shelfSchema = z.enum(shelves);
export type Shelf = z.infer<typeof shelfSchema>;

export const goodsSkuSchema = z.object({
  skuId: z.number().int(),
  specValues: z.array(z.string()),
  /** the ERP SKU's price (fen) */
  skuPrice: z.number().int(),
  /** the mall price (fen): the SKU's price unless set */
  price: z.number().int(),
  /** the ERP stock of the SKU over all of the tenant's warehouses */
  stock: z.number().int(),
});

export const goodsSchema = z.object({
  id: z.number().int(),
  productId: z.number().int(),
  productCode: z.string(),
  categoryId: z.number().int().nullable(),
  categoryName: z.string().nullable(),
  title: z.string(),
  subtitle: z.string().nullable(),
  images: z.array(z.string()),
  detail: z.string().nullable(),
  sort: z.number().int(),
  shelf: shelfSchema,
  /** the lowest mall price of its SKUs (fen) */
  price: z.number().int(),
  /** the sum of its SKUs' ERP stock: the one stock number */
  stock: z.number().int(),
  skus: z.array(goodsSkuSchema),
  createTime: z.string(),
  updateTime: z.string(),
});
export type Goods = z.infer<typeof goodsSchema>;

/** `POST /api/mall/goods {productId}`: publishes a catalogue product with defaults (off shelf). */
export const createGoodsSchema = z.object({ productId: refId });

const imageUrl = webAddress(500);

/** The update page's three tabs: basic, price & stock (prices only; stock moves by deltas), detail. */
export const updateGoodsSchema = z.object({
  title: z.string().trim().min(1).max(100),
  subtitle: optionalText(200),
  images: z.array(imageUrl).max(9).default([]),
  sort: sortSchemaField.default(0),
  skus: z
    .array(z.object({ skuId: refId, price: moneySchema.min(1) }))
    .min(1)
    .max(600),
  /** rich text, sanitised by the server */
  detail: optionalText(20_000),
});
export type UpdateGoodsInput = z.infer<typeof updateGoodsSchema>;

export const goodsShelfSchema = z.object({ shelf: shelfSchema });
export const goodsBatchShelfSchema = z.object({ ids: z.array(refId).min(1).max(200), shelf: shelfSchema });
/** A stock change from the goods page: a delta through the ERP ledger, never an absolute number. */
export const goodsStockSchema = z.object({
  skuId: refId,
  delta: z
    .number()
    .int()
    .refine((v) => v !== 0, 'value.invalid')
    .pipe(z.number().min(-1_000_000).max(1_000_000)),
  warehouseId: refId.nullish(),
  remark: optionalText(200),
});

export const goodsResource = mallResource({
  name: 'goods',
  item: goodsSchema,
  create: createGoodsSchema,
  update: updateGoodsSchema,
  filters: z.object({ title: textFilter(100), shelf: shelfSchema.optional(), categoryId: idFilter }),
  sortable: ['sort', 'title', 'createTime'],
  defaultSort: { column: 'sort', direction: 'asc' },
  actions: ['list', 'query', 'create', 'update', 'delete', 'export'],
});

export const goodsEntity: EntityManifest = {
  resource: goodsResource,
  route: { name: 'mallGoods', path: '/mall/goods', locale: 'menu.mall.goods' },
  detail: { name: 'mallGoodsUpdate', path: '/mall/goods/update/:id', locale: 'menu.mall.goodsUpdate' },
  extraActions: ['shelf', 'stock'],
  fields: [
    { field: 'title', label: 'mall.goods.title', search: true },
    { field: 'productCode', label: 'mall.goods.productCode' },
    { field: 'categoryName', label: 'mall.goods.category' },
    { field: 'price', label: 'mall.goods.price', widget: 'money' },
    { field: 'stock', label: 'mall.goods.stock', widget: 'number' },
    { field: 'shelf', label: 'mall.goods.shelf', codes: 'shelf' },
    { field: 'sort', label: 'erp.sort', widget: 'number' },
    { field: 'createTime', label: 'crud.createTime', widget: 'datetime', form: false },
  ],
};
