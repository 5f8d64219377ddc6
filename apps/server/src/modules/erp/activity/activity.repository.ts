import type { Activity, activityResource, CreateActivityInput, ListQueryOf } from '@atrium/contracts';
import { and, count, eq, gt, inArray, lt, ne, sql } from 'drizzle-orm';
import { invalidField, refused } from '../../../crud/conflict';
import type { Ctx } from '../../../crud/context';
import { allOf } from '../../../crud/data-scope';
import { pageOffset } from '../../../crud/paging';
import { contains, orderOf } from '../../../crud/query';
import { listTotal } from '../../../crud/totals';
import { oneAtATime } from '../../../db/client';
import { erpActivities, erpActivitySkus, erpSkus } from '../../../db/schema';
import { tenantJoin } from '../../../db/tenant-join';

type ActivityQuery = ListQueryOf<typeof activityResource>;
type Row = typeof erpActivities.$inferSelect;
const sortColumns = { name: erpActivities.name, startTime: erpActivities.startTime, createTime: erpActivities.createTime };

async function toActivity(ctx: Ctx, row: Row): Promise<Activity> {
  const skus = await ctx.tx
    .select({ skuId: erpActivitySkus.skuId })
    .from(erpActivitySkus)
    .where(and(eq(erpActivitySkus.tenantId, ctx.caller.tenantId), eq(erpActivitySkus.activityId, row.id)));
  const { tenantId: _t, ...rest } = row;
  return {
    ...rest,
    type: rest.type as Activity['type'],
    status: rest.status as Activity['status'],
    skuIds: skus.map((s) => s.skuId).sort((a, b) => a - b),
    startTime: rest.startTime.toISOString(),
    endTime: rest.endTime.toISOString(),
    createTime: rest.createTime.toISOString(),
    updateTime: rest.updateTime.toISOString(),
  };
}

const valuesOf = (input: CreateActivityInput) => ({
  name: input.name,
  type: input.type,
  discountPercent: input.type === 'discount' ? (input.discountPercent ?? null) : null,
  threshold: input.type === 'reduction' ? (input.threshold ?? null) : null,
  reduction: input.type === 'reduction' ? (input.reduction ?? null) : null,
  startTime: new Date(input.startTime),
  endTime: new Date(input.endTime),
  remark: input.remark ?? null,
});

async function setSkus(ctx: Ctx, id: number, skuIds: number[]) {
  const t = ctx.caller.tenantId;
  const unique = [...new Set(skuIds)];
  const live = await ctx.tx
    .select({ id: erpSkus.id })
    .from(erpSkus)
    .where(and(eq(erpSkus.tenantId, t), inArray(erpSkus.id, unique), eq(erpSkus.deleted, false)));
  if (live.length !== unique.length) throw invalidField('skuIds', 'exists', 'ref.missing');
  await ctx.tx.delete(erpActivitySkus).where(and(eq(erpActivitySkus.tenantId, t), eq(erpActivitySkus.activityId, id)));
  await ctx.tx.insert(erpActivitySkus).values(unique.map((skuId) => ({ tenantId: t, activityId: id, skuId })));
}

/**
 * An enabled activity must not share a SKU with another enabled one whose window overlaps (409 naming
 * it). Checked under a per-tenant advisory lock so two enablings cannot pass each other.
 */
async function assertNoOverlap(ctx: Ctx, id: number) {
  const t = ctx.caller.tenantId;
  await ctx.tx.execute(sql`select pg_advisory_xact_lock(hashtext('erp:activity'), ${t}::int)`);
  const [me] = await ctx.tx
    .select()
    .from(erpActivities)
    .where(and(eq(erpActivities.tenantId, t), eq(erpActivities.id, id)));
  if (!me) return;
  const mine = ctx.tx
    .select({ skuId: erpActivitySkus.skuId })
    .from(erpActivitySkus)
    .where(and(eq(erpActivitySkus.tenantId, t), eq(erpActivitySkus.activityId, id)));
  const [other] = await ctx.tx
    .selectDistinct({ id: erpActivities.id, name: erpActivities.name })
    .from(erpActivities)
    .innerJoin(erpActivitySkus, tenantJoin(erpActivitySkus.activityId, erpActivities.id))
    .where(
      and(
        eq(erpActivities.tenantId, t),
        ne(erpActivities.id, id),
        eq(erpActivities.status, 'Y'),
        lt(erpActivities.startTime, me.endTime),
        gt(erpActivities.endTime, me.startTime),
        inArray(erpActivitySkus.skuId, mine),
      ),
    )
    .limit(1);
  if (other) throw refused('status', 'overlap', 'activity.overlap', { name: other.name, id: other.id });
}

export const activityRepository = {
  async list(ctx: Ctx, q: ActivityQuery) {
    const where = allOf(
      eq(erpActivities.tenantId, ctx.caller.tenantId),
      contains(erpActivities.name, q.name),
      q.type ? eq(erpActivities.type, q.type) : undefined,
      q.status ? eq(erpActivities.status, q.status) : undefined,
    );
    const [rows, total] = await oneAtATime([
      ctx.tx
        .select()
        .from(erpActivities)
        .where(where)
        .orderBy(...orderOf(q.sort, sortColumns, erpActivities.id))
        .limit(pageOffset(q).limit)
        .offset(pageOffset(q).offset),
      () => listTotal(ctx, async () => (await ctx.tx.select({ n: count() }).from(erpActivities).where(where))[0]?.n ?? 0),
    ]);
    const list: Activity[] = [];
    for (const row of rows) list.push(await toActivity(ctx, row));
    return { list, total };
  },

  async get(ctx: Ctx, id: number) {
    const [row] = await ctx.tx
      .select()
      .from(erpActivities)
      .where(and(eq(erpActivities.tenantId, ctx.caller.tenantId), eq(erpActivities.id, id)));
    return row ? toActivity(ctx, row) : null;
  },

  async create(ctx: Ctx, input: CreateActivityInput) {
    const by = ctx.caller.accountId;
    const [row] = await ctx.tx
      .insert(erpActivities)
      .values({ ...valuesOf(input), tenantId: ctx.caller.tenantId, createBy: by, updateBy: by })
      .returning();
    await setSkus(ctx, row!.id, input.skuIds);
    return toActivity(ctx, row!);
  },

  async update(ctx: Ctx, id: number, input: CreateActivityInput, before: Activity) {
    const [row] = await ctx.tx
      .update(erpActivities)
      .set({ ...valuesOf(input), updateBy: ctx.caller.accountId, updateTime: new Date() })
      .where(and(eq(erpActivities.tenantId, ctx.caller.tenantId), eq(erpActivities.id, id)))
      .returning();
    await setSkus(ctx, id, input.skuIds);
    if (before.status === 'Y') await assertNoOverlap(ctx, id);
    return toActivity(ctx, row!);
  },

  async setStatus(ctx: Ctx, id: number, status: 'Y' | 'N') {
    if (status === 'Y') await assertNoOverlap(ctx, id);
    const [row] = await ctx.tx
      .update(erpActivities)
      .set({ status, updateBy: ctx.caller.accountId, updateTime: new Date() })
      .where(and(eq(erpActivities.tenantId, ctx.caller.tenantId), eq(erpActivities.id, id)))
      .returning();
    return toActivity(ctx, row!);
  },

  async remove(ctx: Ctx, id: number) {
    await ctx.tx.delete(erpActivities).where(and(eq(erpActivities.tenantId, ctx.caller.tenantId), eq(erpActivities.id, id)));
  },
};
