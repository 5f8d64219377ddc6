import { pageOf, productEntity, productResource, skuOptionSchema, skuQuerySchema } from '@atrium/contracts';
import { and, count, eq, inArray, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { allOf } from '../../../crud/data-scope';
import { registerEntity } from '../../../crud/entity';
import { pageOffset } from '../../../crud/paging';
import { contains } from '../../../crud/query';
import { listTotal } from '../../../crud/totals';
import { typedRoute } from '../../../crud/typed-route';
import { oneAtATime } from '../../../db/client';
import { erpProducts, erpSkus } from '../../../db/schema';
import { tenantJoin } from '../../../db/tenant-join';
import { productRepository } from './product.repository';

export async function productRoutes(app: FastifyInstance) {
  registerEntity(app, productEntity, productRepository);

  // live SKUs with their product, for pickers (sales lines, activities)
  typedRoute(
    app,
    productResource,
    { method: 'GET', url: '/erp/sku', action: 'list', query: skuQuerySchema, response: pageOf(skuOptionSchema), keptTotals: 'erp:sku' },
    async (ctx, { query }) => {
      const where = allOf(
        eq(erpSkus.tenantId, ctx.caller.tenantId),
        eq(erpSkus.deleted, false),
        query.productId ? eq(erpSkus.productId, query.productId) : undefined,
        // the products matching by name or code are found first (one pass over the products, kept
        // as a hashed set) instead of testing each SKU's joined product: a keyword matching nothing
        // read 100,000 SKUs with their products, one product at a time
        query.keyword
          ? or(
              inArray(
                erpSkus.productId,
                ctx.tx
                  .select({ id: erpProducts.id })
                  .from(erpProducts)
                  .where(
                    and(
                      eq(erpProducts.tenantId, ctx.caller.tenantId),
                      or(contains(erpProducts.name, query.keyword), contains(erpProducts.code, query.keyword)),
                    ),
                  ),
              ),
              contains(erpSkus.barcode, query.keyword),
            )
          : undefined,
      );
      const on = tenantJoin(erpProducts.id, erpSkus.productId);
      const [rows, total] = await oneAtATime([
        ctx.tx
          .select({
            id: erpSkus.id,
            productId: erpSkus.productId,
            specValues: erpSkus.specValues,
            barcode: erpSkus.barcode,
            price: erpSkus.price,
            costPrice: erpSkus.costPrice,
            marketPrice: erpSkus.marketPrice,
            weight: erpSkus.weight,
            productName: erpProducts.name,
            productCode: erpProducts.code,
          })
          .from(erpSkus)
          .innerJoin(erpProducts, on)
          .where(where)
          .orderBy(erpSkus.id)
          .limit(pageOffset(query).limit)
          .offset(pageOffset(query).offset),
        () =>
          listTotal(
            ctx,
            // every SKU has its product (a foreign key), and the filter reads the SKUs alone
            async () => (await ctx.tx.select({ n: count() }).from(erpSkus).where(where))[0]?.n ?? 0,
          ),
      ]);
      return { list: rows, total, pageNum: query.pageNum, pageSize: query.pageSize };
    },
  );
}
