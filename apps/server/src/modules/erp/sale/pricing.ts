import { MAX_ORDER_AMOUNT } from '@atrium/contracts';
import { and, eq, gt, inArray, lte } from 'drizzle-orm';
import { invalidField } from '../../../crud/conflict';
import type { Ctx } from '../../../crud/context';
import { erpActivities, erpActivitySkus, erpProducts, erpSkus } from '../../../db/schema';
import { tenantJoin } from '../../../db/tenant-join';

export type PricedLine = { skuId: number; quantity: number; unitPrice: number; discount: number; amount: number };
export type Priced = { lines: PricedLine[]; goodsAmount: number; discountAmount: number; totalAmount: number; totalQuantity: number };

/** `percent` % of `amount`, rounded half up, exact for every amount up to MAX_ORDER_AMOUNT (no product past 2^53). */
export const percentOf = (amount: number, percent: number) =>
  Math.trunc(amount / 100) * percent + Math.round(((amount % 100) * percent) / 100);

/**
 * Prices an order on the server: SKU prices (fen), the best enabled discount activity running now on
 * each SKU, then the biggest enabled reduction whose threshold the covered lines reach. Client prices
 * are never read.
 */
export async function priceLines(ctx: Ctx, items: { skuId: number; quantity: number }[], now = new Date()): Promise<Priced> {
  const t = ctx.caller.tenantId;
  const ids = [...new Set(items.map((i) => i.skuId))];
  const skus = await ctx.tx
    .select({ id: erpSkus.id, price: erpSkus.price })
    .from(erpSkus)
    .innerJoin(erpProducts, tenantJoin(erpProducts.id, erpSkus.productId))
    .where(and(eq(erpSkus.tenantId, t), inArray(erpSkus.id, ids), eq(erpSkus.deleted, false), eq(erpProducts.status, '0')));
  const price = new Map(skus.map((s) => [s.id, s.price]));
  items.forEach((item, i) => {
    if (!price.has(item.skuId)) throw invalidField(`items.${i}.skuId`, 'exists', 'sku.notOnSale');
  });
  const running = await ctx.tx
    .select({
      id: erpActivities.id,
      type: erpActivities.type,
      percent: erpActivities.discountPercent,
      threshold: erpActivities.threshold,
      reduction: erpActivities.reduction,
      skuId: erpActivitySkus.skuId,
    })
    .from(erpActivities)
    .innerJoin(erpActivitySkus, tenantJoin(erpActivitySkus.activityId, erpActivities.id))
    .where(
      and(
        eq(erpActivities.tenantId, t),
        eq(erpActivities.status, 'Y'),
        lte(erpActivities.startTime, now),
        gt(erpActivities.endTime, now),
        inArray(erpActivitySkus.skuId, ids),
      ),
    );
  const tooLarge = (field: string) =>
    invalidField(field, 'max', 'sale.amountTooLarge', { max: (MAX_ORDER_AMOUNT / 100).toLocaleString('en-US') });
  let sum = 0;
  const lines = items.map((item, i) => {
    const unitPrice = price.get(item.skuId) as number;
    const gross = unitPrice * item.quantity;
    // checked line by line, so no sum or discount is ever computed past an exact integer
    sum += gross;
    if (sum > MAX_ORDER_AMOUNT) throw tooLarge(`items.${i}.quantity`);
    const percents = running.filter((a) => a.type === 'discount' && a.skuId === item.skuId).map((a) => a.percent ?? 100);
    const amount = percents.length ? percentOf(gross, Math.min(...percents)) : gross;
    return { skuId: item.skuId, quantity: item.quantity, unitPrice, discount: gross - amount, amount };
  });
  const byReduction = new Map<number, { threshold: number; reduction: number; skus: Set<number> }>();
  for (const a of running.filter((r) => r.type === 'reduction')) {
    const entry = byReduction.get(a.id) ?? { threshold: a.threshold ?? 0, reduction: a.reduction ?? 0, skus: new Set<number>() };
    entry.skus.add(a.skuId);
    byReduction.set(a.id, entry);
  }
  let reduction = 0;
  for (const r of byReduction.values()) {
    const covered = lines.filter((l) => r.skus.has(l.skuId)).reduce((sum, l) => sum + l.amount, 0);
    if (covered >= r.threshold) reduction = Math.max(reduction, Math.min(r.reduction, covered));
  }
  const goodsAmount = lines.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0);
  const lineDiscounts = lines.reduce((sum, l) => sum + l.discount, 0);
  return {
    lines,
    goodsAmount,
    discountAmount: lineDiscounts + reduction,
    totalAmount: goodsAmount - lineDiscounts - reduction,
    totalQuantity: lines.reduce((sum, l) => sum + l.quantity, 0),
  };
}
