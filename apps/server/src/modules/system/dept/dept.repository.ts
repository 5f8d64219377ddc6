import type { Status } from '@atrium/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { invalidField } from '../../../crud/conflict';
import type { Ctx } from '../../../crud/context';
import { allOf } from '../../../crud/data-scope';
import { grantGuard } from '../../../crud/grants';
import { contains, isoDates } from '../../../crud/query';
import type { RepositoryOptions } from '../../../crud/repository';
import { depts, tenantUsers } from '../../../db/schema';

type DeptRow = typeof depts.$inferSelect;

const toDept = (row: DeptRow) => {
  const { tenantId: _tenant, ...rest } = isoDates(row);
  return { ...rest, status: rest.status as Status };
};

const ofTenant = (ctx: Ctx) => eq(depts.tenantId, ctx.caller.tenantId);
const below = (id: number) => sql`${depts.ancestors} @> ${JSON.stringify([id])}::jsonb`;

async function row(ctx: Ctx, id: number): Promise<DeptRow | undefined> {
  const [found] = await ctx.tx
    .select()
    .from(depts)
    .where(and(ofTenant(ctx), eq(depts.id, id)));
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
      .where(and(ofTenant(ctx), below(dept.id)));
  } else if (dept.ancestors.length > 0) {
    await ctx.tx
      .update(depts)
      .set(set)
      .where(and(ofTenant(ctx), inArray(depts.id, dept.ancestors)));
  }
}

const inScope = (ctx: Ctx, id: number) => grantGuard.assertDepartmentInScope(ctx, id, 'id');

/**
 * What makes departments a tree, as hooks of the generic repository: the place in the tree (ancestors,
 * no cycles, only inside the caller's data scope), the re-rooted paths below a moved department, the
 * status that reaches below (disable) or above (enable), and no delete while sub-departments or users remain.
 */
export const deptRules: RepositoryOptions<{ parentId: number | null; status: string }> = {
  async beforeWrite(ctx, input, id) {
    const parentId = (input.parentId ?? null) as number | null;
    const before = id === undefined ? undefined : await row(ctx, id);
    const ancestors = await ancestorsUnder(ctx, parentId, id);
    // only a department inside the caller's data scope is changed; a move changes who sees whom, so
    // its new parent must be inside it too
    if (id !== undefined) await inScope(ctx, id);
    if (before?.parentId !== parentId) await grantGuard.assertDepartmentInScope(ctx, parentId, 'parentId');
    // an empty phone or e-mail is stored as none
    return { ancestors, phone: input.phone || null, email: input.email || null };
  },
  async afterUpdate(ctx, written, before) {
    const updated = written as DeptRow;
    if (before.parentId !== updated.parentId) {
      // re-root the id paths of everything below: old prefix (ancestors + id) becomes the new one
      const descendants = await ctx.tx
        .select({ id: depts.id, ancestors: depts.ancestors })
        .from(depts)
        .where(and(ofTenant(ctx), below(updated.id)));
      for (const d of descendants) {
        const rest = d.ancestors.slice(d.ancestors.indexOf(updated.id));
        await ctx.tx
          .update(depts)
          .set({ ancestors: [...updated.ancestors, ...rest] })
          .where(and(ofTenant(ctx), eq(depts.id, d.id)));
      }
    }
    if (before.status !== updated.status) await cascadeStatus(ctx, updated, updated.status as Status);
  },
  beforeStatus: (ctx, id) => inScope(ctx, id),
  afterStatus: (ctx, written) => cascadeStatus(ctx, written as DeptRow, (written as DeptRow).status as Status),
  beforeDelete: inScope,
  references: [
    { column: depts.parentId, reason: 'dept.hasChildren', rule: 'hasChildren' },
    { column: tenantUsers.deptId, reason: 'dept.hasUsers', rule: 'hasUsers' },
  ],
};

/** Every department of the tenant in tree order (the tree route builds the tree). */
export async function allDepts(ctx: Ctx, filter: { status?: Status; name?: string }) {
  const rows = await ctx.tx
    .select()
    .from(depts)
    .where(allOf(ofTenant(ctx), filter.status ? eq(depts.status, filter.status) : undefined, contains(depts.name, filter.name)))
    .orderBy(asc(depts.orderNum), asc(depts.id));
  return rows.map(toDept);
}
