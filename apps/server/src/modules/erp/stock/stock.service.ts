import { and, eq, sql } from 'drizzle-orm';
import { invalidField, refused } from '../../../crud/conflict';
import type { Ctx } from '../../../crud/context';
import type { Tx } from '../../../db/client';
import { erpSettings, erpSkus, erpStockLedger, erpWarehouses } from '../../../db/schema';

export type StockMove = {
  skuId: number;
  warehouseId: number;
  delta: number;
  kind: 'adjust' | 'sale' | 'cancel';
  refNo?: string | null;
  remark?: string | null;
};

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** The tenant's negative-stock setting (no row: off). */
export async function allowsNegative(tx: Tx, tenantId: number): Promise<boolean> {
  const [row] = await tx.select({ allow: erpSettings.allowNegativeStock }).from(erpSettings).where(eq(erpSettings.tenantId, tenantId));
  return row?.allow ?? false;
}

/**
 * Moves stock by a signed delta and appends the ledger row, in the caller's transaction, as one
 * statement: a decrement is a guarded `UPDATE … WHERE quantity >= n RETURNING quantity` (no earlier
 * read), an increment an upsert, and the ledger row is inserted from what that returned, so its balance
 * is the stock the move left. Not enough stock → 409 naming the SKU (nothing moved, no ledger row).
 */
export async function moveStock(ctx: Ctx, move: StockMove, negativeAllowed?: boolean): Promise<number> {
  const { tx, caller } = ctx;
  const tenantId = caller.tenantId;
  const guarded = move.delta < 0 && !(negativeAllowed ?? (await allowsNegative(tx, tenantId)));
  const moved = guarded
    ? sql`update erp_stock set quantity = quantity - ${-move.delta}, update_time = now()
        where tenant_id = ${tenantId} and sku_id = ${move.skuId} and warehouse_id = ${move.warehouseId} and quantity >= ${-move.delta}
        returning quantity`
    : sql`insert into erp_stock (tenant_id, sku_id, warehouse_id, quantity)
        values (${tenantId}, ${move.skuId}, ${move.warehouseId}, ${move.delta})
        on conflict (tenant_id, sku_id, warehouse_id) do update set quantity = erp_stock.quantity + excluded.quantity, update_time = now()
        returning quantity`;
  const [row] = rowsOf<{ balance: string | number }>(
    await tx.execute(sql`with moved as (${moved})
      insert into ${erpStockLedger} (tenant_id, sku_id, warehouse_id, delta, balance, kind, ref_no, remark, operator)
      select ${tenantId}::bigint, ${move.skuId}::bigint, ${move.warehouseId}::bigint, ${move.delta}::bigint, quantity, ${move.kind}::varchar,
        ${move.refNo ?? null}::varchar, ${move.remark ?? null}::varchar, ${caller.accountId}::varchar
      from moved
      returning balance`),
  );
  if (!row) throw await insufficient(ctx, move);
  return Number(row.balance);
}

/** The refusal of a move past the stock, saying which SKU (its product and spec values) and how much there is. */
async function insufficient(ctx: Ctx, move: StockMove) {
  const tenantId = ctx.caller.tenantId;
  const [known] = rowsOf<{ name: string; spec_values: string[]; available: string | number }>(
    await ctx.tx.execute(sql`select p.name, s.spec_values,
        coalesce((select quantity from erp_stock st
                   where st.tenant_id = s.tenant_id and st.sku_id = s.id and st.warehouse_id = ${move.warehouseId}), 0) as available
      from erp_skus s join erp_products p on p.tenant_id = s.tenant_id and p.id = s.product_id
      where s.tenant_id = ${tenantId} and s.id = ${move.skuId}`),
  );
  const sku = known ? [known.name, ...(known.spec_values ?? [])].join(' ') : `#${move.skuId}`;
  return refused('skuId', 'insufficientStock', 'stock.insufficient', { sku, available: Number(known?.available ?? 0) });
}

/** The SKU (live) and warehouse exist in the caller's tenant, else a 400 naming the field. */
export async function assertStockTarget(ctx: Ctx, skuId: number, warehouseId: number) {
  const tenantId = ctx.caller.tenantId;
  const [sku] = await ctx.tx
    .select({ id: erpSkus.id })
    .from(erpSkus)
    .where(and(eq(erpSkus.tenantId, tenantId), eq(erpSkus.id, skuId), eq(erpSkus.deleted, false)));
  if (!sku) throw invalidField('skuId', 'exists', 'ref.missing');
  const [warehouse] = await ctx.tx
    .select({ id: erpWarehouses.id })
    .from(erpWarehouses)
    .where(and(eq(erpWarehouses.tenantId, tenantId), eq(erpWarehouses.id, warehouseId)));
  if (!warehouse) throw invalidField('warehouseId', 'exists', 'ref.missing');
}
