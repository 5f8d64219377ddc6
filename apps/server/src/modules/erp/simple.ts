import { categoryEntity, memberEntity, specEntity, supplierEntity, warehouseEntity } from '@atrium/contracts';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { invalidField, refused } from '../../crud/conflict';
import type { Ctx } from '../../crud/context';
import { registerTable } from '../../crud/entity';
import { erpCategories, erpMembers, erpProducts, erpSales, erpSpecs, erpStock, erpSuppliers, erpWarehouses } from '../../db/schema';

/**
 * One default warehouse per tenant: making one the default takes the flag from the others. The default
 * is where a new order starts, so it stays enabled: another one becomes the default first.
 */
async function oneDefault(ctx: Ctx, input: Record<string, unknown>, id?: number) {
  if (!input.isDefault) return;
  if (input.status === '1') throw invalidField('status', 'default', 'warehouse.defaultEnabled');
  await ctx.tx
    .update(erpWarehouses)
    .set({ isDefault: false })
    .where(
      and(eq(erpWarehouses.tenantId, ctx.caller.tenantId), eq(erpWarehouses.isDefault, true), id ? ne(erpWarehouses.id, id) : undefined),
    );
}

async function defaultStaysEnabled(ctx: Ctx, id: number, status: string) {
  if (status !== '1') return;
  const [row] = await ctx.tx
    .select({ isDefault: erpWarehouses.isDefault })
    .from(erpWarehouses)
    .where(and(eq(erpWarehouses.tenantId, ctx.caller.tenantId), eq(erpWarehouses.id, id)));
  if (row?.isDefault) throw refused('status', 'default', 'warehouse.defaultDisabled');
}

/** A category's parent must exist in the tenant and must not be the category itself or below it. */
async function parentInTree(ctx: Ctx, input: Record<string, unknown>, id?: number) {
  const parentId = input.parentId as number | null | undefined;
  if (!parentId) return;
  const result = await ctx.tx.execute(sql`with recursive up as (
      select id, parent_id from ${erpCategories} where tenant_id = ${ctx.caller.tenantId} and id = ${parentId}
      union all
      select c.id, c.parent_id from ${erpCategories} c join up on c.id = up.parent_id and c.tenant_id = ${ctx.caller.tenantId})
    select id from up`);
  const chain = (result as unknown as { rows: { id: number | string }[] }).rows.map((r) => Number(r.id));
  if (!chain.length) throw invalidField('parentId', 'exists', 'ref.missing');
  if (id && chain.includes(id)) throw invalidField('parentId', 'cycle', 'tree.cycle');
}

/** A category's parent's name, read with the row (written out: the outer columns must be qualified). */
const parentName = sql<string | null>`(${sql.raw(
  'select p.name from erp_categories p where p.tenant_id = "erp_categories"."tenant_id" and p.id = "erp_categories"."parent_id"',
)})`;

/** The simple ERP entities: contract + table + these few lines each. */
export async function simpleErpRoutes(app: FastifyInstance) {
  registerTable(app, warehouseEntity, erpWarehouses, {
    unique: { code: 'erp_warehouses_code_key' },
    references: [
      { column: erpStock.warehouseId, reason: 'warehouse.hasStock' },
      { column: erpSales.warehouseId, reason: 'warehouse.hasSales' },
    ],
    beforeWrite: oneDefault,
    beforeStatus: defaultStaysEnabled,
  });
  registerTable(app, specEntity, erpSpecs, { unique: { name: 'erp_specs_name_key' } });
  registerTable(app, supplierEntity, erpSuppliers);
  registerTable(app, categoryEntity, erpCategories, {
    unique: { code: 'erp_categories_code_key' },
    references: [
      { column: erpCategories.parentId, reason: 'category.hasChildren' },
      { column: erpProducts.categoryId, reason: 'category.hasProducts' },
    ],
    beforeWrite: parentInTree,
    computed: { parentName },
  });
  registerTable(app, memberEntity, erpMembers, {
    unique: { mobile: 'erp_members_mobile_key' },
    filters: { mobile: 'prefix' },
    references: [{ column: erpSales.memberId, reason: 'member.hasSales' }],
  });
}
