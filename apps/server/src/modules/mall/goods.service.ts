import type { Goods, goodsResource, ListQueryOf, Shelf, UpdateGoodsInput } from '@atrium/contracts';
import { and, asc, count, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import sanitizeHtml from 'sanitize-html';
import { invalidField, refused } from '../../crud/conflict';
import type { Ctx } from '../../crud/context';
import { allOf } from '../../crud/data-scope';
import { pageOffset } from '../../crud/paging';
import { containsPattern, containsPlaceholder, orderOf } from '../../crud/query';
import { storedValues } from '../../crud/repository';
import { listTotal } from '../../crud/totals';
import { oneAtATime, type Tx } from '../../db/client';
import { erpProducts, erpWarehouses, mallGoods } from '../../db/schema';
import { statementCache } from '../../db/statements';
import { tenantJoin } from '../../db/tenant-join';
import { notFound } from '../../errors';
import { productRemovalGuards } from '../erp/product/product.repository';
import { assertStockTarget, moveStock } from '../erp/stock/stock.service';

type GoodsRow = typeof mallGoods.$inferSelect;
type GoodsQuery = ListQueryOf<typeof goodsResource>;

/**
 * Rich text as the mall may show it: formatting, links and images over http(s) only (no protocol-relative
 * `//host` address); no scripts, styles or handlers. Every link opens with `rel="noopener noreferrer"`:
 * a page opened from it can neither steer the mall's tab nor learn where it came from.
 */
export function sanitiseDetail(html: string | null | undefined): string | null {
  if (!html) return null;
  return sanitizeHtml(html, {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'span'],
    allowedAttributes: { a: ['href', 'title', 'target', 'rel'], img: ['src', 'alt', 'width', 'height'], '*': [] },
    allowedSchemes: ['http', 'https'],
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowProtocolRelative: false,
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
  });
}

// the page (and one goods) is built once per shape (crud/statements.ts)
const statements = statementCache('goods');
const p = sql.placeholder;

/**
 * Goods as the API answers them, in one statement: the product's code and category from the join, the
 * category's name and the live SKUs (each with its stock summed over the tenant's warehouses by the
 * stock's key) as correlated subqueries, so a page of goods is one round trip and so is one goods.
 * The subqueries are written out: they name the outer tables' columns, which must be qualified.
 */
const { tenantId: _tenantId, ...goodsTable } = getTableColumns(mallGoods);
const goodsColumns = {
  ...goodsTable,
  productCode: erpProducts.code,
  categoryId: erpProducts.categoryId,
  categoryName: sql<string | null>`(${sql.raw(
    'select c.name from erp_categories c where c.tenant_id = "erp_products"."tenant_id" and c.id = "erp_products"."category_id"',
  )})`,
  skus: sql<SkuRead[]>`${sql.raw(
    `array_to_json(array(select json_build_object('skuId', s.id, 'specValues', s.spec_values, 'skuPrice', s.price,
       'stock', (select coalesce(sum(st.quantity), 0) from erp_stock st where st.tenant_id = s.tenant_id and st.sku_id = s.id))
     from erp_skus s where s.tenant_id = "mall_goods"."tenant_id" and s.product_id = "mall_goods"."product_id" and not s.deleted
     order by s.id))`,
  )}`,
};
type SkuRead = { skuId: number; specValues: string[]; skuPrice: number; stock: number };
type GoodsRead = Omit<GoodsRow, 'tenantId'> & {
  productCode: string;
  categoryId: number | null;
  categoryName: string | null;
  skus: SkuRead[];
};

const sortColumns = { sort: mallGoods.sort, title: mallGoods.title, createTime: mallGoods.createTime };

function fromGoods(tx: Tx) {
  return tx.select(goodsColumns).from(mallGoods).innerJoin(erpProducts, tenantJoin(erpProducts.id, mallGoods.productId));
}

function toGoods(row: GoodsRead): Goods {
  const skus = row.skus.map((s) => ({ ...s, price: row.prices[String(s.skuId)] ?? s.skuPrice, stock: Number(s.stock) }));
  return {
    id: row.id,
    productId: row.productId,
    productCode: row.productCode,
    categoryId: row.categoryId,
    categoryName: row.categoryName,
    title: row.title,
    subtitle: row.subtitle,
    images: row.images,
    detail: row.detail,
    sort: row.sort,
    shelf: row.shelf as Shelf,
    price: skus.length ? Math.min(...skus.map((s) => s.price)) : 0,
    stock: skus.reduce((sum, s) => sum + s.stock, 0),
    skus,
    createTime: row.createTime.toISOString(),
    updateTime: row.updateTime.toISOString(),
  };
}

// a published product is not deleted from under its goods (they would stay behind, in no list)
productRemovalGuards.push(async (ctx, productId) => {
  const [published] = await ctx.tx
    .select({ id: mallGoods.id })
    .from(mallGoods)
    .where(and(eq(mallGoods.tenantId, ctx.caller.tenantId), eq(mallGoods.productId, productId)))
    .limit(1);
  if (published) throw refused('id', 'inUse', 'product.inMall');
});

export const goodsService = {
  async list(ctx: Ctx, q: GoodsQuery) {
    const page = pageOffset(q);
    const has = { title: !!q.title, shelf: !!q.shelf, categoryId: !!q.categoryId };
    const where = allOf(
      eq(mallGoods.tenantId, p('tenantId')),
      has.title ? containsPlaceholder(mallGoods.title, 'title') : undefined,
      has.shelf ? eq(mallGoods.shelf, p('shelf')) : undefined,
      has.categoryId ? eq(erpProducts.categoryId, p('categoryId')) : undefined,
    );
    const values = {
      tenantId: ctx.caller.tenantId,
      title: q.title ? containsPattern(q.title) : undefined,
      shelf: q.shelf,
      categoryId: q.categoryId,
      offset: page.offset,
    };
    const key = JSON.stringify(['page', has, q.sort, q.pageSize, page.offset > 0]);
    const [rows, total] = await oneAtATime([
      () =>
        statements<GoodsRead>(
          ctx.tx,
          key,
          // the page's ids first: the SKU subqueries then run for its rows only, not for every row an
          // OFFSET skips
          (tx) =>
            fromGoods(tx)
              .where(
                and(
                  eq(mallGoods.tenantId, p('tenantId')),
                  inArray(
                    mallGoods.id,
                    tx
                      .select({ id: mallGoods.id })
                      .from(mallGoods)
                      .innerJoin(erpProducts, tenantJoin(erpProducts.id, mallGoods.productId))
                      .where(where)
                      .orderBy(...orderOf(q.sort, sortColumns, mallGoods.id))
                      .limit(page.limit)
                      .offset(page.offset > 0 ? (p('offset') as unknown as number) : 0),
                  ),
                ),
              )
              .orderBy(...orderOf(q.sort, sortColumns, mallGoods.id)),
          values,
        ),
      // a goods row without its product is left out (ERP refuses deleting a published product)
      () =>
        listTotal(
          ctx,
          async () =>
            (
              await ctx.tx
                .select({ n: count() })
                .from(mallGoods)
                .innerJoin(erpProducts, tenantJoin(erpProducts.id, mallGoods.productId))
                .where(where)
                .execute(values)
            )[0]?.n ?? 0,
        ),
    ]);
    return { list: rows.map(toGoods), total };
  },

  async get(ctx: Ctx, id: number): Promise<Goods | null> {
    const [row] = await statements<GoodsRead>(
      ctx.tx,
      'one',
      (tx) => fromGoods(tx).where(and(eq(mallGoods.tenantId, p('tenantId')), eq(mallGoods.id, p('id')))),
      { tenantId: ctx.caller.tenantId, id },
    );
    return row ? toGoods(row) : null;
  },

  /** Publishes a product with defaults: its name as the title, its images, SKU prices, off the shelf. */
  async create(ctx: Ctx, input: { productId: number }): Promise<Goods> {
    const t = ctx.caller.tenantId;
    const [product] = await ctx.tx
      .select({ name: erpProducts.name, images: erpProducts.images, description: erpProducts.description })
      .from(erpProducts)
      .where(and(eq(erpProducts.tenantId, t), eq(erpProducts.id, input.productId)));
    if (!product) throw invalidField('productId', 'exists', 'ref.missing');
    const [row] = await ctx.tx
      .insert(mallGoods)
      .values({
        tenantId: t,
        productId: input.productId,
        title: product.name,
        images: product.images,
        detail: sanitiseDetail(product.description),
        createBy: ctx.caller.accountId,
        updateBy: ctx.caller.accountId,
      })
      .onConflictDoNothing()
      .returning({ id: mallGoods.id });
    if (!row) throw refused('productId', 'unique', 'goods.published');
    return (await goodsService.get(ctx, row.id)) as Goods;
  },

  async update(ctx: Ctx, id: number, input: UpdateGoodsInput, before: Goods): Promise<Goods> {
    const own = new Map(before.skus.map((s) => [s.skuId, s]));
    const prices: Record<string, number> = {};
    input.skus.forEach((s, i) => {
      const sku = own.get(s.skuId);
      if (!sku) throw invalidField(`skus.${i}.skuId`, 'exists', 'product.foreignSku', { id: s.skuId });
      if (s.price !== sku.skuPrice) prices[String(s.skuId)] = s.price;
    });
    await ctx.tx
      .update(mallGoods)
      .set({
        ...storedValues(input, ['title', 'subtitle', 'images', 'sort']),
        detail: sanitiseDetail(input.detail),
        prices,
        updateBy: ctx.caller.accountId,
        updateTime: new Date(),
      })
      .where(and(eq(mallGoods.tenantId, ctx.caller.tenantId), eq(mallGoods.id, id)));
    return (await goodsService.get(ctx, id)) as Goods;
  },

  async remove(ctx: Ctx, id: number): Promise<void> {
    await ctx.tx.delete(mallGoods).where(and(eq(mallGoods.tenantId, ctx.caller.tenantId), eq(mallGoods.id, id)));
  },

  async shelve(ctx: Ctx, ids: number[], shelf: Shelf): Promise<number> {
    const rows = await ctx.tx
      .update(mallGoods)
      .set({ shelf, updateBy: ctx.caller.accountId, updateTime: new Date() })
      .where(and(eq(mallGoods.tenantId, ctx.caller.tenantId), inArray(mallGoods.id, ids)))
      .returning({ id: mallGoods.id });
    return rows.length;
  },

  /**
   * A stock delta on one of the goods' SKUs, through the ERP ledger (the default warehouse unless one
   * is named): a concurrent sale is never overwritten, and taking more than there is is refused.
   */
  async moveStock(ctx: Ctx, id: number, input: { skuId: number; delta: number; warehouseId?: number | null; remark?: string | null }) {
    const goods = await goodsService.get(ctx, id);
    if (!goods) throw notFound();
    if (!goods.skus.some((s) => s.skuId === input.skuId)) throw invalidField('skuId', 'exists', 'product.foreignSku', { id: input.skuId });
    let warehouseId = input.warehouseId ?? null;
    if (!warehouseId) {
      const [w] = await ctx.tx
        .select({ id: erpWarehouses.id })
        .from(erpWarehouses)
        .where(eq(erpWarehouses.tenantId, ctx.caller.tenantId))
        .orderBy(sql`${erpWarehouses.isDefault} desc`, asc(erpWarehouses.sort), asc(erpWarehouses.id))
        .limit(1);
      if (!w) throw invalidField('warehouseId', 'exists', 'ref.missing');
      warehouseId = w.id;
    }
    await assertStockTarget(ctx, input.skuId, warehouseId);
    await moveStock(ctx, {
      skuId: input.skuId,
      warehouseId,
      delta: input.delta,
      kind: 'adjust',
      refNo: `goods:${id}`,
      remark: input.remark ?? null,
    });
    return (await goodsService.get(ctx, id)) as Goods;
  },
};
