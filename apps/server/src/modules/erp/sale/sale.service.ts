import {
  type CreateSaleInput,
  type ListQueryOf,
  type Sale,
  type SaleStatus,
  type SaleTransition,
  type saleResource,
  saleTransitions,
} from '@atrium/contracts';
import { and, asc, count, desc, eq, getTableColumns, gte, inArray, lt, sql } from 'drizzle-orm';
import { invalidField, refused } from '../../../crud/conflict';
import type { Ctx } from '../../../crud/context';
import { allOf } from '../../../crud/data-scope';
import { pageOffset } from '../../../crud/paging';
import { orderOf, startsWith, startsWithParts } from '../../../crud/query';
import { pageByIds } from '../../../crud/statements';
import { listTotal } from '../../../crud/totals';
import { oneAtATime, type Tx } from '../../../db/client';
import { erpMemberPoints, erpMembers, erpProducts, erpSaleItems, erpSales, erpSkus, erpWarehouses } from '../../../db/schema';
import { statementCache } from '../../../db/statements';
import { tenantJoin } from '../../../db/tenant-join';
import { notFound } from '../../../errors';
import { allowsNegative, moveStock } from '../stock/stock.service';
import { nextDocNo } from './doc-number';
import { priceLines } from './pricing';

type SaleQuery = ListQueryOf<typeof saleResource>;

/**
 * What other modules do when an order is confirmed, in the same transaction (printing adds its jobs
 * here, so a confirm that rolls back prints nothing). Registered once at start-up.
 */
export const saleConfirmedHooks: ((ctx: Ctx, saleId: number) => Promise<unknown>)[] = [];
const sortColumns = { orderNo: erpSales.orderNo, totalAmount: erpSales.totalAmount, createTime: erpSales.createTime };
const iso = (d: Date | null) => (d ? d.toISOString() : null);

function head(ctx: Ctx) {
  return listHead(ctx.tx).where(eq(erpSales.tenantId, ctx.caller.tenantId));
}
// flat (one key per column): rows map without drizzle's nested mapping, and the answer is built field by field
const { tenantId: _tenantId, shipTime: _shipTime, completeTime: _completeTime, ...saleColumns } = getTableColumns(erpSales);
type Head = Omit<typeof erpSales.$inferSelect, 'tenantId' | 'shipTime' | 'completeTime'> & {
  memberName: string | null;
  warehouseName: string;
};

// the list is built once per shape (crud/statements.ts): its tenant and filters are placeholders
const statements = statementCache('sale list');
const p = sql.placeholder;
function listHead(tx: Tx) {
  return tx
    .select({ ...saleColumns, memberName: erpMembers.name, warehouseName: erpWarehouses.name })
    .from(erpSales)
    .innerJoin(erpWarehouses, tenantJoin(erpWarehouses.id, erpSales.warehouseId))
    .leftJoin(erpMembers, tenantJoin(erpMembers.id, erpSales.memberId))
    .$dynamic();
}

function toSale(h: Head, items: Sale['items']): Sale {
  return {
    id: h.id,
    orderNo: h.orderNo,
    memberId: h.memberId,
    memberName: h.memberName,
    warehouseId: h.warehouseId,
    warehouseName: h.warehouseName,
    status: h.status as SaleStatus,
    totalQuantity: h.totalQuantity,
    goodsAmount: h.goodsAmount,
    discountAmount: h.discountAmount,
    totalAmount: h.totalAmount,
    remark: h.remark,
    items,
    confirmTime: iso(h.confirmTime),
    cancelTime: iso(h.cancelTime),
    createBy: h.createBy,
    createTime: h.createTime.toISOString(),
    updateBy: h.updateBy,
    updateTime: h.updateTime.toISOString(),
  };
}

async function itemsOf(ctx: Ctx, saleId: number): Promise<Sale['items']> {
  const t = ctx.caller.tenantId;
  return ctx.tx
    .select({
      id: erpSaleItems.id,
      skuId: erpSaleItems.skuId,
      productName: erpProducts.name,
      specValues: erpSkus.specValues,
      quantity: erpSaleItems.quantity,
      unitPrice: erpSaleItems.unitPrice,
      discount: erpSaleItems.discount,
      amount: erpSaleItems.amount,
    })
    .from(erpSaleItems)
    .innerJoin(erpSkus, tenantJoin(erpSkus.id, erpSaleItems.skuId))
    .innerJoin(erpProducts, tenantJoin(erpProducts.id, erpSkus.productId))
    .where(and(eq(erpSaleItems.tenantId, t), eq(erpSaleItems.saleId, saleId)))
    .orderBy(erpSaleItems.id);
}

async function assertRefs(ctx: Ctx, input: CreateSaleInput) {
  const t = ctx.caller.tenantId;
  const [w] = await ctx.tx
    .select({ id: erpWarehouses.id, status: erpWarehouses.status })
    .from(erpWarehouses)
    .where(and(eq(erpWarehouses.tenantId, t), eq(erpWarehouses.id, input.warehouseId)));
  if (!w) throw invalidField('warehouseId', 'exists', 'ref.missing');
  if (input.memberId) {
    const [m] = await ctx.tx
      .select({ id: erpMembers.id })
      .from(erpMembers)
      .where(and(eq(erpMembers.tenantId, t), eq(erpMembers.id, input.memberId)));
    if (!m) throw invalidField('memberId', 'exists', 'ref.missing');
  }
}

/** Writes an order's lines anew, priced, and the order's totals from them. */
async function writeLines(ctx: Ctx, saleId: number, input: CreateSaleInput) {
  const priced = await priceLines(ctx, input.items);
  const t = ctx.caller.tenantId;
  await ctx.tx.delete(erpSaleItems).where(and(eq(erpSaleItems.tenantId, t), eq(erpSaleItems.saleId, saleId)));
  await ctx.tx.insert(erpSaleItems).values(priced.lines.map((l) => ({ ...l, tenantId: t, saleId })));
  const { goodsAmount, discountAmount, totalAmount, totalQuantity } = priced;
  await ctx.tx
    .update(erpSales)
    .set({ goodsAmount, discountAmount, totalAmount, totalQuantity })
    .where(and(eq(erpSales.tenantId, t), eq(erpSales.id, saleId)));
}

/** Moves the stock of every line of an order, in SKU order (so concurrent orders lock rows alike). */
async function moveLines(ctx: Ctx, sale: typeof erpSales.$inferSelect, sign: -1 | 1, kind: 'sale' | 'cancel') {
  const items = await ctx.tx
    .select({ skuId: erpSaleItems.skuId, quantity: erpSaleItems.quantity })
    .from(erpSaleItems)
    .where(and(eq(erpSaleItems.tenantId, ctx.caller.tenantId), eq(erpSaleItems.saleId, sale.id)));
  const perSku = new Map<number, number>();
  for (const i of items) perSku.set(i.skuId, (perSku.get(i.skuId) ?? 0) + i.quantity);
  // the tenant's negative-stock setting, read once for all lines
  const negativeAllowed = sign < 0 ? await allowsNegative(ctx.tx, ctx.caller.tenantId) : true;
  for (const [skuId, quantity] of [...perSku].sort((a, b) => a[0] - b[0])) {
    await moveStock(ctx, { skuId, warehouseId: sale.warehouseId, delta: sign * quantity, kind, refNo: sale.orderNo }, negativeAllowed);
  }
}

/** Compare-and-set: the order moves only from one of `from`; null when it was in another state. */
async function cas(ctx: Ctx, id: number, from: readonly SaleStatus[], to: SaleStatus, set: Partial<typeof erpSales.$inferInsert>) {
  const [row] = await ctx.tx
    .update(erpSales)
    .set({ ...set, status: to, updateBy: ctx.caller.accountId, updateTime: new Date() })
    .where(and(eq(erpSales.tenantId, ctx.caller.tenantId), eq(erpSales.id, id), inArray(erpSales.status, [...from])))
    .returning();
  return row ?? null;
}
/** A compare-and-set that moved nothing: 404 when the order is not the tenant's, else 409 (another state). */
async function notFrom(ctx: Ctx, id: number, _transition: string) {
  const [row] = await ctx.tx
    .select({ id: erpSales.id })
    .from(erpSales)
    .where(and(eq(erpSales.tenantId, ctx.caller.tenantId), eq(erpSales.id, id)));
  return row ? refused('status', 'transition', 'sale.transition') : notFound();
}

/** A number prefix matching at most this many orders is read off the number index, then sorted. */
const NARROW_PREFIX = 5000;

/**
 * Whether a number prefix is narrow (a day's orders, one order): then the page is sorted from the
 * prefix's entries of the number index (which carries the creation time and id), instead of the
 * planner walking the whole list in time order looking for them, taking matches as spread evenly
 * when a day's orders sit together (80 ms for a day a month back, 0.6 ms this way). A broad prefix
 * ("SO2026") keeps that walk, which then finds its 20 rows at once. The bounded count is kept with
 * the list totals: a stale one only picks the plan, never the rows.
 */
async function isNarrowPrefix(ctx: Ctx, prefix: string | undefined): Promise<boolean> {
  const matching = startsWith(erpSales.orderNo, prefix, { caseless: false });
  if (!matching) return false;
  const within = and(eq(erpSales.tenantId, ctx.caller.tenantId), matching);
  const counted = async () => {
    const result = (await ctx.tx.execute(
      sql`select count(*)::int as n from (select 1 from ${erpSales} where ${within} limit ${NARROW_PREFIX + 1}) m`,
    )) as unknown as { rows: { n: number }[] };
    return Number(result.rows[0]?.n ?? 0);
  };
  const matches = ctx.totals ? await ctx.totals.cache.get(ctx.caller.tenantId, `erp-sale-prefix|${prefix}`, counted) : await counted();
  return matches <= NARROW_PREFIX;
}

/** Sales orders: the worked example of a complex entity (lines, state machine, stock moves, document numbers). */
export const saleService = {
  async list(ctx: Ctx, q: SaleQuery) {
    const prefix = q.orderNo?.toUpperCase();
    const number = prefix ? startsWithParts(erpSales.orderNo, 'orderNo', prefix, { caseless: false }) : undefined;
    const has = { status: !!q.status, memberId: !!q.memberId, warehouseId: !!q.warehouseId, from: !!q.from, to: !!q.to };
    const where = allOf(
      eq(erpSales.tenantId, p('tenantId')),
      number?.where,
      has.status ? eq(erpSales.status, p('status')) : undefined,
      has.memberId ? eq(erpSales.memberId, p('memberId')) : undefined,
      has.warehouseId ? eq(erpSales.warehouseId, p('warehouseId')) : undefined,
      has.from ? gte(erpSales.createTime, p('from')) : undefined,
      has.to ? lt(erpSales.createTime, p('to')) : undefined,
    );
    const page = pageOffset(q);
    const values = {
      ...number?.values,
      tenantId: ctx.caller.tenantId,
      status: q.status,
      memberId: q.memberId,
      warehouseId: q.warehouseId,
      from: q.from,
      to: q.to,
      offset: page.offset,
    };
    const narrow = await isNarrowPrefix(ctx, prefix);
    const key = JSON.stringify(['list', number?.form, has, q.sort, q.pageSize, page.offset > 0, narrow]);
    const offset = page.offset > 0 ? (p('offset') as unknown as number) : 0;
    const order = () => orderOf(q.sort, sortColumns, erpSales.id);
    // the page's ids from the orders alone: a narrow prefix's few orders first (OFFSET 0 keeps the
    // planner from flattening this into the time-ordered walk), sorted, paged; else the walk itself
    const pageIds = (tx: Tx) => {
      if (!narrow)
        return tx
          .select({ id: erpSales.id })
          .from(erpSales)
          .where(where)
          .orderBy(...order())
          .limit(page.limit)
          .offset(offset);
      const matches = tx
        .select({ id: erpSales.id, key: sortColumns[q.sort.column] })
        .from(erpSales)
        .where(where)
        .offset(sql.raw('0') as unknown as number)
        .as('matches');
      const dir = q.sort.direction === 'desc' ? desc : asc;
      return tx.select({ id: matches.id }).from(matches).orderBy(dir(matches.key), dir(matches.id)).limit(page.limit).offset(offset);
    };
    const [rows, total] = await oneAtATime([
      // a number prefix or a date range is planned afresh for every value: ids first, then their rows
      () =>
        number || has.from || has.to
          ? pageByIds<Head>(
              statements,
              ctx.tx,
              { ids: key, rows: JSON.stringify(q.sort) },
              pageIds,
              (tx, idsIn) =>
                listHead(tx)
                  .where(and(eq(erpSales.tenantId, p('tenantId')), idsIn(erpSales.id)))
                  .orderBy(...order()),
              values,
            )
          : statements<Head>(
              ctx.tx,
              key,
              (tx) =>
                listHead(tx)
                  .where(where)
                  .orderBy(...order())
                  .limit(page.limit)
                  .offset(offset),
              values,
            ),
      () => listTotal(ctx, async () => (await ctx.tx.select({ n: count() }).from(erpSales).where(where).execute(values))[0]?.n ?? 0),
    ]);
    // list rows carry no lines; GET /{id} has them
    return { list: rows.map((r) => toSale(r, [])), total };
  },

  async get(ctx: Ctx, id: number) {
    const [row] = await head(ctx).where(and(eq(erpSales.tenantId, ctx.caller.tenantId), eq(erpSales.id, id)));
    return row ? toSale(row, await itemsOf(ctx, id)) : null;
  },

  async create(ctx: Ctx, input: CreateSaleInput) {
    await assertRefs(ctx, input);
    const by = ctx.caller.accountId;
    const orderNo = await nextDocNo(ctx, 'SO');
    const [row] = await ctx.tx
      .insert(erpSales)
      .values({
        tenantId: ctx.caller.tenantId,
        orderNo,
        warehouseId: input.warehouseId,
        memberId: input.memberId ?? null,
        remark: input.remark ?? null,
        createBy: by,
        updateBy: by,
      })
      .returning();
    await writeLines(ctx, row!.id, input);
    return (await saleService.get(ctx, row!.id)) as Sale;
  },

  /** Lines are editable only in draft (compare-and-set on the state). */
  async update(ctx: Ctx, id: number, input: CreateSaleInput) {
    await assertRefs(ctx, input);
    const row = await cas(ctx, id, ['draft'], 'draft', {
      warehouseId: input.warehouseId,
      memberId: input.memberId ?? null,
      remark: input.remark ?? null,
    });
    if (!row) throw refused('status', 'draftOnly', 'sale.draftOnly');
    await writeLines(ctx, id, input);
    return (await saleService.get(ctx, id)) as Sale;
  },

  async remove(ctx: Ctx, id: number) {
    const [row] = await ctx.tx
      .delete(erpSales)
      .where(and(eq(erpSales.tenantId, ctx.caller.tenantId), eq(erpSales.id, id), inArray(erpSales.status, ['draft', 'cancelled'])))
      .returning({ id: erpSales.id });
    if (!row) throw refused('status', 'inUse', 'sale.deleteState');
  },

  /**
   * One transition in the caller's transaction. Confirm takes the stock of every line (all or none:
   * any line short rolls the whole transaction back); cancel of a confirmed order returns it, once —
   * the state change is the compare-and-set that decides it.
   */
  async transition(ctx: Ctx, id: number, transition: SaleTransition): Promise<Sale> {
    const now = new Date();
    if (transition === 'cancel') {
      // lock first: the state both compare-and-sets read is then the latest committed one
      await ctx.tx.execute(sql`select id from erp_sales where tenant_id = ${ctx.caller.tenantId} and id = ${id} for update`);
      const wasConfirmed = await cas(ctx, id, ['confirmed'], 'cancelled', { cancelTime: now });
      if (wasConfirmed) await moveLines(ctx, wasConfirmed, 1, 'cancel');
      else if (!(await cas(ctx, id, ['draft'], 'cancelled', { cancelTime: now }))) throw await notFrom(ctx, id, transition);
    } else {
      const { from, to } = saleTransitions[transition];
      const stamp = { confirm: { confirmTime: now }, ship: { shipTime: now }, complete: { completeTime: now } }[transition];
      const row = await cas(ctx, id, from, to, stamp);
      if (!row) throw await notFrom(ctx, id, transition);
      if (transition === 'confirm') {
        await moveLines(ctx, row, -1, 'sale');
        for (const hook of saleConfirmedHooks) await hook(ctx, id);
      }
      if (transition === 'complete' && row.memberId) await awardPoints(ctx, row);
    }
    return (await saleService.get(ctx, id)) as Sale;
  },
};

/** A completed order earns its member one point per yuan paid. */
async function awardPoints(ctx: Ctx, sale: typeof erpSales.$inferSelect) {
  const points = Math.floor(sale.totalAmount / 100);
  if (points <= 0 || !sale.memberId) return;
  const t = ctx.caller.tenantId;
  const [m] = await ctx.tx
    .update(erpMembers)
    .set({ points: sql`${erpMembers.points} + ${points}` })
    .where(and(eq(erpMembers.tenantId, t), eq(erpMembers.id, sale.memberId)))
    .returning({ points: erpMembers.points });
  if (m)
    await ctx.tx
      .insert(erpMemberPoints)
      .values({ tenantId: t, memberId: sale.memberId, delta: points, balance: m.points, reason: 'sale', refNo: sale.orderNo });
}
