import type { Goods, goodsResource, ListQueryOf, Shelf, UpdateGoodsInput } from '@atrium/contracts';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import sanitizeHtml from 'sanitize-html';
import { invalidField, refused } from '../../crud/conflict';
import type { Ctx } from '../../crud/context';
import { contains, orderOf, pageOffset } from '../../crud/query';
import { erpCategories, erpProducts, erpSkus, erpWarehouses, mallGoods } from '../../db/schema';
import { notFound } from '../../errors';
import { productRemovalGuards } from '../erp/product/product.repository';
import { assertStockTarget, moveStock } from '../erp/stock/stock.service';

type GoodsRow = typeof mallGoods.$inferSelect;
type GoodsQuery = ListQueryOf<typeof goodsResource>;

/** Rich text as the mall may show it: formatting, links and images over http(s) only; no scripts, styles or handlers. */
export function sanitiseDetail(html: string | null | undefined): string | null {
  if (!html) return null;
  return sanitizeHtml(html, {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'span'],
    allowedAttributes: { a: ['href', 'title', 'target'], img: ['src', 'alt', 'width', 'height'], '*': [] },
    allowedSchemes: ['http', 'https'],
    allowedSchemesByTag: { img: ['http', 'https'] },
  });
}

/** Each goods' SKUs (live ones) with their ERP price and stock over all of the tenant's warehouses. */
async function skusOf(ctx: Ctx, rows: GoodsRow[]) {
  const t = ctx.caller.tenantId;
  const productIds = [...new Set(rows.map((r) => r.productId))];
  if (!productIds.length) return new Map<number, Goods['skus']>();
  // each SKU's stock summed where it is (by the stock's key), not the tenant's whole stock grouped first;
  // written out: in a one-table select drizzle leaves columns unqualified, which would not correlate
  const stock = sql<number>`(${sql.raw(
    'select coalesce(sum(st.quantity), 0) from erp_stock st where st.tenant_id = "erp_skus"."tenant_id" and st.sku_id = "erp_skus"."id"',
  )})`;
  const skus = await ctx.tx
    .select({ id: erpSkus.id, productId: erpSkus.productId, specValues: erpSkus.specValues, price: erpSkus.price, stock })
    .from(erpSkus)
    .where(and(eq(erpSkus.tenantId, t), inArray(erpSkus.productId, productIds), eq(erpSkus.deleted, false)))
    .orderBy(asc(erpSkus.id));
  const byGoods = new Map<number, Goods['skus']>();
  for (const row of rows) {
    byGoods.set(
      row.id,
      skus
        .filter((s) => s.productId === row.productId)
        .map((s) => ({
          skuId: s.id,
          specValues: s.specValues,
          skuPrice: s.price,
          price: row.prices[String(s.id)] ?? s.price,
          stock: Number(s.stock ?? 0),
        })),
    );
  }
  return byGoods;
}

function head(ctx: Ctx) {
  return ctx.tx
    .select({ goods: mallGoods, productCode: erpProducts.code, categoryId: erpProducts.categoryId, categoryName: erpCategories.name })
    .from(mallGoods)
    .innerJoin(erpProducts, and(eq(erpProducts.tenantId, mallGoods.tenantId), eq(erpProducts.id, mallGoods.productId)))
    .leftJoin(erpCategories, and(eq(erpCategories.tenantId, erpProducts.tenantId), eq(erpCategories.id, erpProducts.categoryId)))
    .$dynamic();
}
type Head = { goods: GoodsRow; productCode: string; categoryId: number | null; categoryName: string | null };

async function toGoods(ctx: Ctx, heads: Head[]): Promise<Goods[]> {
  const skus = await skusOf(
    ctx,
    heads.map((h) => h.goods),
  );
  return heads.map(({ goods: g, productCode, categoryId, categoryName }) => {
    const list = skus.get(g.id) ?? [];
    return {
      id: g.id,
      productId: g.productId,
      productCode,
      categoryId,
      categoryName,
      title: g.title,
      subtitle: g.subtitle,
      images: g.images,
      detail: g.detail,
      sort: g.sort,
      shelf: g.shelf as Shelf,
      price: list.length ? Math.min(...list.map((s) => s.price)) : 0,
      stock: list.reduce((sum, s) => sum + s.stock, 0),
      skus: list,
      createTime: g.createTime.toISOString(),
      updateTime: g.updateTime.toISOString(),
    };
  });
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
  async list(ctx: Ctx, query: GoodsQuery) {
    const t = ctx.caller.tenantId;
    const where = and(
      eq(mallGoods.tenantId, t),
      contains(mallGoods.title, query.title),
      query.shelf ? eq(mallGoods.shelf, query.shelf) : undefined,
      query.categoryId ? eq(erpProducts.categoryId, query.categoryId) : undefined,
    );
    const heads = await head(ctx)
      .where(where)
      .orderBy(...orderOf(query.sort, { sort: mallGoods.sort, title: mallGoods.title, createTime: mallGoods.createTime }, mallGoods.id))
      .limit(pageOffset(query).limit)
      .offset(pageOffset(query).offset);
    const [total] = await ctx.tx
      .select({ n: count() })
      .from(mallGoods)
      .innerJoin(erpProducts, and(eq(erpProducts.tenantId, mallGoods.tenantId), eq(erpProducts.id, mallGoods.productId)))
      .where(where);
    return { list: await toGoods(ctx, heads), total: total?.n ?? 0 };
  },

  async get(ctx: Ctx, id: number): Promise<Goods | null> {
    const heads = await head(ctx).where(and(eq(mallGoods.tenantId, ctx.caller.tenantId), eq(mallGoods.id, id)));
    return (await toGoods(ctx, heads))[0] ?? null;
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
        title: input.title,
        subtitle: input.subtitle ?? null,
        images: input.images,
        sort: input.sort,
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
