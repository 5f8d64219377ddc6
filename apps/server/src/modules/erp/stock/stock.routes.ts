import {
  ledgerQuerySchema,
  ledgerRowSchema,
  pageOf,
  productResource,
  stockAdjustSchema,
  stockBalanceSchema,
  stockQuerySchema,
  stockRowSchema,
  stockSettingsSchema,
} from '@atrium/contracts';
import { count, desc, eq, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../../../crud/context';
import { allOf } from '../../../crud/data-scope';
import { pageOffset } from '../../../crud/paging';
import { listTotal } from '../../../crud/totals';
import { typedRoute } from '../../../crud/typed-route';
import { oneAtATime } from '../../../db/client';
import { erpProducts, erpSettings, erpSkus, erpStock, erpStockLedger, erpWarehouses } from '../../../db/schema';
import { tenantJoin } from '../../../db/tenant-join';
import { allowsNegative, assertStockTarget, moveStock } from './stock.service';

type Filter = { skuId?: number; warehouseId?: number; productId?: number };
const whereOf = (ctx: Ctx, t: typeof erpStock | typeof erpStockLedger, q: Filter): SQL | undefined =>
  allOf(
    eq(t.tenantId, ctx.caller.tenantId),
    q.skuId ? eq(t.skuId, q.skuId) : undefined,
    q.warehouseId ? eq(t.warehouseId, q.warehouseId) : undefined,
    q.productId ? eq(erpSkus.productId, q.productId) : undefined,
  );
const joins = (t: typeof erpStock | typeof erpStockLedger) => ({
  sku: tenantJoin(erpSkus.id, t.skuId),
  warehouse: tenantJoin(erpWarehouses.id, t.warehouseId),
});

/** Stock balances, the ledger and adjustments; the product permissions guard them (`erp:product:adjust` for writes). */
export async function stockRoutes(app: FastifyInstance) {
  typedRoute(
    app,
    productResource,
    { method: 'GET', url: '/erp/stock/settings', action: 'query', response: stockSettingsSchema },
    async (ctx) => ({ allowNegativeStock: await allowsNegative(ctx.tx, ctx.caller.tenantId) }),
  );
  typedRoute(
    app,
    productResource,
    {
      method: 'PUT',
      url: '/erp/stock/settings',
      action: 'stockSettings',
      body: stockSettingsSchema,
      response: stockSettingsSchema,
      write: true,
    },
    async (ctx, { body }) => {
      const tenantId = ctx.caller.tenantId;
      await ctx.tx
        .insert(erpSettings)
        .values({ tenantId, allowNegativeStock: body.allowNegativeStock })
        .onConflictDoUpdate({ target: erpSettings.tenantId, set: { allowNegativeStock: body.allowNegativeStock } });
      return { allowNegativeStock: await allowsNegative(ctx.tx, tenantId) };
    },
  );

  typedRoute(
    app,
    productResource,
    { method: 'POST', url: '/erp/stock/adjust', action: 'adjust', body: stockAdjustSchema, response: stockBalanceSchema, write: true },
    async (ctx, { body }) => {
      await assertStockTarget(ctx, body.skuId, body.warehouseId);
      const quantity = await moveStock(ctx, { ...body, kind: 'adjust' });
      return { skuId: body.skuId, warehouseId: body.warehouseId, quantity };
    },
  );

  typedRoute(
    app,
    productResource,
    {
      method: 'GET',
      url: '/erp/stock',
      action: 'query',
      query: stockQuerySchema,
      response: pageOf(stockRowSchema),
      keptTotals: 'erp:stock',
    },
    async (ctx, { query }) => {
      const j = joins(erpStock);
      const where = whereOf(ctx, erpStock, query);
      const [rows, total] = await oneAtATime([
        ctx.tx
          .select({
            skuId: erpStock.skuId,
            warehouseId: erpStock.warehouseId,
            quantity: erpStock.quantity,
            warehouseName: erpWarehouses.name,
            productName: erpProducts.name,
            specValues: erpSkus.specValues,
          })
          .from(erpStock)
          .innerJoin(erpSkus, j.sku)
          .innerJoin(erpWarehouses, j.warehouse)
          .innerJoin(erpProducts, tenantJoin(erpProducts.id, erpSkus.productId))
          .where(where)
          .orderBy(erpStock.skuId, erpStock.warehouseId)
          .limit(pageOffset(query).limit)
          .offset(pageOffset(query).offset),
        () =>
          listTotal(
            ctx,
            async () => (await ctx.tx.select({ n: count() }).from(erpStock).innerJoin(erpSkus, j.sku).where(where))[0]?.n ?? 0,
          ),
      ]);
      return { list: rows, total, pageNum: query.pageNum, pageSize: query.pageSize };
    },
  );

  typedRoute(
    app,
    productResource,
    {
      method: 'GET',
      url: '/erp/stock/ledger',
      action: 'query',
      query: ledgerQuerySchema,
      response: pageOf(ledgerRowSchema),
      keptTotals: 'erp:stock-ledger',
    },
    async (ctx, { query }) => {
      const j = joins(erpStockLedger);
      const where = whereOf(ctx, erpStockLedger, query);
      const [rows, total] = await oneAtATime([
        ctx.tx
          .select({
            id: erpStockLedger.id,
            skuId: erpStockLedger.skuId,
            warehouseId: erpStockLedger.warehouseId,
            warehouseName: erpWarehouses.name,
            specValues: erpSkus.specValues,
            delta: erpStockLedger.delta,
            balance: erpStockLedger.balance,
            kind: erpStockLedger.kind,
            refNo: erpStockLedger.refNo,
            remark: erpStockLedger.remark,
            operator: erpStockLedger.operator,
            createTime: erpStockLedger.createTime,
          })
          .from(erpStockLedger)
          .innerJoin(erpSkus, j.sku)
          .innerJoin(erpWarehouses, j.warehouse)
          .where(where)
          .orderBy(desc(erpStockLedger.id))
          .limit(pageOffset(query).limit)
          .offset(pageOffset(query).offset),
        () =>
          listTotal(
            ctx,
            async () => (await ctx.tx.select({ n: count() }).from(erpStockLedger).innerJoin(erpSkus, j.sku).where(where))[0]?.n ?? 0,
          ),
      ]);
      const list = rows.map((r) => ({ ...r, kind: r.kind as 'adjust' | 'sale' | 'cancel', createTime: r.createTime.toISOString() }));
      return { list, total, pageNum: query.pageNum, pageSize: query.pageSize };
    },
  );
}
