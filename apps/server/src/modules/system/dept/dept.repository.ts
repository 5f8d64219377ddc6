import type { CreateDeptInput, deptResource, ListQueryOf, Status } from '@atrium/contracts';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { invalidField, refused } from '../../../crud/conflict';
import type { Ctx } from '../../../crud/context';
import { allOf } from '../../../crud/data-scope';
import { contains, isoDates, orderOf, pageOffset } from '../../../crud/query';
import { oneAtATime } from '../../../db/client';
import { depts, tenantUsers } from '../../../db/schema';
import { roleGuard } from '../role/role.guard';

type DeptQuery = ListQueryOf<typeof deptResource>;
type DeptRow = typeof depts.$inferSelect;
const sortColumns = { orderNum: depts.orderNum, name: depts.name, createTime: depts.createTime };

export const toDept = (row: DeptRow) => {
  const { tenantId: _tenant, ...rest } = isoDates(row);
  return { ...rest, status: rest.status as Status };
};

const inTenant = (ctx: Ctx) => eq(depts.tenantId, ctx.caller.tenantId);
const below = (id: number) => sql`${depts.ancestors} @> ${JSON.stringify([id])}::jsonb`;

async function row(ctx: Ctx, id: number): Promise<DeptRow | undefined> {
  const [found] = await ctx.tx
    .select()
    .from(depts)
    .where(and(inTenant(ctx), eq(depts.id, id)));
  return found;
}

/** The ancestors a department gets under `parentId`; refuses an unknown parent and cycles. */
async function ancestorsUnder(ctx: Ctx, parentId: number | null, selfId?: number): Promise<number[]> {
  if (parentId === null) return [];
  if (parentId === selfId) throw invalidField('parentId', 'cycle', 'tree.cycle');
  const parent = await row(ctx, parentId);
  if (!parent) throw invalidField('parentId', 'exists', 'ref.missing');
  if (selfId !== undefined && parent.ancestors.includes(selfId)) {
    throw invalidField('parentId', 'cycle', 'tree.cycle');
  }
  return [...parent.ancestors, parent.id];
}

/** Disabling reaches every department below; enabling reaches every department above (spec section 4). */
async function cascadeStatus(ctx: Ctx, dept: DeptRow, status: Status) {
  const set = { status, updateBy: ctx.caller.accountId, updateTime: new Date() };
  if (status === '1') {
    await ctx.tx
      .update(depts)
      .set(set)
      .where(and(inTenant(ctx), below(dept.id)));
  } else if (dept.ancestors.length > 0) {
    await ctx.tx
      .update(depts)
      .set(set)
      .where(and(inTenant(ctx), inArray(depts.id, dept.ancestors)));
  }
}

export const deptRepository = {
  async list(ctx: Ctx, q: DeptQuery) {
    const where = allOf(inTenant(ctx), contains(depts.name, q.name), q.status ? eq(depts.status, q.status) : undefined);
    const page = pageOffset(q);
    const [rows, [total]] = await oneAtATime([
      ctx.tx
        .select()
        .from(depts)
        .where(where)
        .orderBy(...orderOf(q.sort, sortColumns, depts.id))
        .limit(page.limit)
        .offset(page.offset),
      ctx.tx.select({ n: count() }).from(depts).where(where),
    ]);
    return { list: rows.map(toDept), total: total?.n ?? 0 };
  },

  /** Every department of the tenant in tree order (parents are built into a tree by the caller). */
  async all(ctx: Ctx, filter: { status?: Status; name?: string }) {
    const rows = await ctx.tx
      .select()
      .from(depts)
      .where(allOf(inTenant(ctx), filter.status ? eq(depts.status, filter.status) : undefined, contains(depts.name, filter.name)))
      .orderBy(asc(depts.orderNum), asc(depts.id));
    return rows.map(toDept);
  },

  async get(ctx: Ctx, id: number) {
    const found = await row(ctx, id);
    return found ? toDept(found) : null;
  },

  async create(ctx: Ctx, input: CreateDeptInput) {
    const ancestors = await ancestorsUnder(ctx, input.parentId);
    await roleGuard.assertDepartmentInScope(ctx, input.parentId, 'parentId');
    const by = ctx.caller.accountId;
    const [created] = await ctx.tx
      .insert(depts)
      .values({
        ...input,
        leader: input.leader ?? null,
        phone: input.phone || null,
        email: input.email || null,
        ancestors,
        tenantId: ctx.caller.tenantId,
        createBy: by,
        updateBy: by,
      })
      .returning();
    return toDept(created!);
  },

  async update(ctx: Ctx, id: number, input: CreateDeptInput) {
    const before = (await row(ctx, id))!;
    const ancestors = await ancestorsUnder(ctx, input.parentId, id);
    // only a department inside the caller's data scope is changed; a move changes who sees whom, so
    // its new parent must be inside it too
    await roleGuard.assertDepartmentInScope(ctx, id, 'id');
    if (before.parentId !== input.parentId) await roleGuard.assertDepartmentInScope(ctx, input.parentId, 'parentId');
    const [updated] = await ctx.tx
      .update(depts)
      .set({
        ...input,
        leader: input.leader ?? null,
        phone: input.phone || null,
        email: input.email || null,
        ancestors,
        updateBy: ctx.caller.accountId,
        updateTime: new Date(),
      })
      .where(and(inTenant(ctx), eq(depts.id, id)))
      .returning();
    if (before.parentId !== input.parentId) {
      // re-root the id paths of everything below: old prefix (ancestors + id) becomes the new one
      const descendants = await ctx.tx
        .select({ id: depts.id, ancestors: depts.ancestors })
        .from(depts)
        .where(and(inTenant(ctx), below(id)));
      for (const d of descendants) {
        const rest = d.ancestors.slice(d.ancestors.indexOf(id));
        await ctx.tx
          .update(depts)
          .set({ ancestors: [...ancestors, ...rest] })
          .where(and(inTenant(ctx), eq(depts.id, d.id)));
      }
    }
    if (before.status !== input.status) await cascadeStatus(ctx, updated!, input.status);
    return toDept((await row(ctx, id))!);
  },

  async setStatus(ctx: Ctx, id: number, status: Status) {
    await roleGuard.assertDepartmentInScope(ctx, id, 'id');
    const [updated] = await ctx.tx
      .update(depts)
      .set({ status, updateBy: ctx.caller.accountId, updateTime: new Date() })
      .where(and(inTenant(ctx), eq(depts.id, id)))
      .returning();
    await cascadeStatus(ctx, updated!, status);
    return toDept(updated!);
  },

  async remove(ctx: Ctx, id: number) {
    await roleGuard.assertDepartmentInScope(ctx, id, 'id');
    const [children] = await ctx.tx
      .select({ n: count() })
      .from(depts)
      .where(and(inTenant(ctx), eq(depts.parentId, id)));
    if ((children?.n ?? 0) > 0) throw refused('id', 'hasChildren', 'dept.hasChildren', { count: children?.n ?? 0 });
    const [users] = await ctx.tx
      .select({ n: count() })
      .from(tenantUsers)
      .where(and(eq(tenantUsers.tenantId, ctx.caller.tenantId), eq(tenantUsers.deptId, id)));
    if ((users?.n ?? 0) > 0) throw refused('id', 'hasUsers', 'dept.hasUsers', { count: users?.n ?? 0 });
    await ctx.tx.delete(depts).where(and(inTenant(ctx), eq(depts.id, id)));
  },
};
