import { z } from 'zod';
import type { EntityManifest } from '../entity';
import { textFilter } from '../resource';
import { webAddress } from '../system/common';
import {
  auditFields,
  codeSchema,
  createTimeField,
  erpResource,
  erpStatus,
  idFilter,
  moneySchema,
  nameSchema,
  optionalText,
  refId,
  statusField,
} from './common';
import { erpDetail, erpRoute } from './pages';

/** One SKU: a combination of spec values with its prices in fen. */
export const skuSchema = z.object({
  id: z.number().int(),
  productId: z.number().int(),
  specValues: z.array(z.string()),
  barcode: z.string().nullable(),
  price: z.number().int(),
  costPrice: z.number().int(),
  marketPrice: z.number().int(),
  weight: z.number().int(),
});
export type Sku = z.infer<typeof skuSchema>;

/** The specs a product combines, in order: name and the values it uses. */
export const productSpecSchema = z.object({
  name: z.string().trim().min(1).max(30),
  values: z
    .array(z.string().trim().min(1).max(30))
    .min(1)
    .max(50)
    .refine((v) => new Set(v).size === v.length, 'values must be distinct'),
});

export const productSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  code: z.string(),
  categoryId: z.number().int().nullable(),
  categoryName: z.string().nullable(),
  unit: z.string().nullable(),
  images: z.array(z.string()),
  description: z.string().nullable(),
  specs: z.array(productSpecSchema),
  ...erpStatus,
  skus: z.array(skuSchema),
  /** lowest SKU price and the stock over all warehouses, for the list */
  minPrice: z.number().int(),
  stock: z.number().int(),
  ...auditFields,
});
export type Product = z.infer<typeof productSchema>;

export const skuInputSchema = z.object({
  /** an existing SKU to keep; without it the SKU is new */
  id: refId.optional(),
  specValues: z.array(z.string().trim().min(1).max(30)).max(5).default([]),
  barcode: optionalText(64),
  price: moneySchema,
  costPrice: moneySchema.default(0),
  marketPrice: moneySchema.default(0),
  /** grams */
  weight: z.number().int().min(0).max(100_000_000).default(0),
});
export const createProductSchema = z.object({
  name: nameSchema(100),
  code: codeSchema(64),
  categoryId: refId.nullish(),
  unit: optionalText(10),
  images: z.array(webAddress(500)).max(10).default([]),
  description: optionalText(2000),
  specs: z.array(productSpecSchema).max(5).default([]),
  status: erpStatus.status.default('0'),
  skus: z.array(skuInputSchema).min(1).max(500),
});
export type CreateProductInput = z.infer<typeof createProductSchema>;

export const productResource = erpResource({
  name: 'product',
  item: productSchema,
  create: createProductSchema,
  filters: z.object({ name: textFilter(100), code: textFilter(64), categoryId: idFilter, status: erpStatus.status.optional() }),
  sortable: ['code', 'name', 'createTime'],
  actions: ['list', 'query', 'create', 'update', 'status', 'delete', 'export'],
});

/** A SKU with its product, for pickers (sales lines, activities). */
export const skuOptionSchema = skuSchema.extend({ productName: z.string(), productCode: z.string() });
export type SkuOption = z.infer<typeof skuOptionSchema>;
export const skuQuerySchema = z.object({
  pageNum: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
  keyword: textFilter(64),
  productId: idFilter,
});

export const productEntity: EntityManifest = {
  resource: productResource,
  route: erpRoute('product'),
  detail: erpDetail('product'),
  /** `stockSettings`: the tenant's negative-stock switch (administrators) */
  extraActions: ['adjust', 'stockSettings'],
  fields: [
    { field: 'code', label: 'erp.product.code', search: true },
    { field: 'name', label: 'erp.product.name', search: true },
    { field: 'categoryId', label: 'erp.product.category', widget: 'select', source: '/erp/category', column: false, search: true },
    { field: 'categoryName', label: 'erp.product.category', form: false },
    { field: 'unit', label: 'erp.product.unit' },
    { field: 'minPrice', label: 'erp.product.price', widget: 'money', form: false },
    { field: 'stock', label: 'erp.product.stock', widget: 'number', form: false },
    { field: 'description', label: 'erp.product.description', widget: 'textarea', column: false, wide: true },
    statusField,
    createTimeField,
  ],
};
