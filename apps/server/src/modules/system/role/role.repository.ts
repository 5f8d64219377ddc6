import type { CreateRoleInput, Role } from '@atrium/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { invalidField } from '../../../crud/conflict';
import type { Ctx } from '../../../crud/context';
import { denied, type Grant, grantsOf, heldMenus, unbounded, within } from '../../../crud/grants';
import type { RepositoryOptions } from '../../../crud/repository';
import { oneAtATime } from '../../../db/client';
import { depts, menus, roleDepts, roleMenus, userRoles } from '../../../db/schema';
import { invalidateAccess } from '../../auth/session.service';

type Grants = Pick<CreateRoleInput, 'menuIds' | 'deptIds' | 'dataScope'>;

/** Ids of the roles the caller holds (enabled or not: re-enabling a held role would grow the holder too). */
async function heldRoles(ctx: Ctx): Promise<Set<number>> {
  if (ctx.caller.userId === null) return new Set();
  const rows = await ctx.tx
    .select({ id: userRoles.roleId })
    .from(userRoles)
    .where(and(eq(userRoles.tenantId, ctx.caller.tenantId), eq(userRoles.userId, ctx.caller.userId)));
  return new Set(rows.map((r) => Number(r.id)));
}

/** A new or changed role grant: no menu and no data scope beyond the caller's own. */
async function assertWithinOwn(ctx: Ctx, grant: Grant) {
  if (await within(ctx, { ...grant, deptIds: grant.dataScope === '2' ? grant.deptIds : [] })) return;
  const held = unbounded(ctx) ? null : await heldMenus(ctx);
  const field = held && !grant.menuIds.every((id) => held.has(id)) ? 'menuIds' : 'dataScope';
  throw denied(field, 'exceedsOwn', 'role.exceedsOwn');
}

/** Editing, disabling or deleting a role: not one the caller holds, nor one that grants more than they hold. */
async function assertEditable(ctx: Ctx, roleId: number) {
  if (unbounded(ctx)) return;
  if ((await heldRoles(ctx)).has(roleId)) throw denied('id', 'ownRole', 'role.ownRole');
  const grant = (await grantsOf(ctx, [roleId])).get(roleId);
  if (grant && !(await within(ctx, grant))) throw denied('id', 'exceedsOwn', 'role.grantsMore');
}

/** Replaces a role's menu grant and custom departments, refusing ids that do not exist. */
async function writeGrants(ctx: Ctx, roleId: number, input: Grants) {
  const tenantId = ctx.caller.tenantId;
  const menuIds = [...new Set(input.menuIds)];
  const deptIds = input.dataScope === '2' ? [...new Set(input.deptIds)] : [];
  if (menuIds.length) {
    const found = await ctx.tx.select({ id: menus.id }).from(menus).where(inArray(menus.id, menuIds));
    if (found.length !== menuIds.length) throw invalidField('menuIds', 'exists', 'ref.missing');
  }
  if (deptIds.length) {
    const found = await ctx.tx
      .select({ id: depts.id })
      .from(depts)
      .where(and(eq(depts.tenantId, tenantId), inArray(depts.id, deptIds)));
    if (found.length !== deptIds.length) throw invalidField('deptIds', 'exists', 'ref.missing');
  }
  await ctx.tx.delete(roleMenus).where(and(eq(roleMenus.tenantId, tenantId), eq(roleMenus.roleId, roleId)));
  await ctx.tx.delete(roleDepts).where(and(eq(roleDepts.tenantId, tenantId), eq(roleDepts.roleId, roleId)));
  if (menuIds.length) await ctx.tx.insert(roleMenus).values(menuIds.map((menuId) => ({ tenantId, roleId, menuId })));
  if (deptIds.length) await ctx.tx.insert(roleDepts).values(deptIds.map((deptId) => ({ tenantId, roleId, deptId })));
}

/** A role with its menu grant and custom departments (the list leaves them out). */
async function withGrants(ctx: Ctx, role: Role): Promise<Role> {
  const tenantId = ctx.caller.tenantId;
  const [menuRows, deptRows] = await oneAtATime([
    ctx.tx
      .select({ id: roleMenus.menuId })
      .from(roleMenus)
      .where(and(eq(roleMenus.tenantId, tenantId), eq(roleMenus.roleId, role.id))),
    ctx.tx
      .select({ id: roleDepts.deptId })
      .from(roleDepts)
      .where(and(eq(roleDepts.tenantId, tenantId), eq(roleDepts.roleId, role.id))),
  ]);
  return { ...role, menuIds: menuRows.map((m) => m.id), deptIds: deptRows.map((d) => d.id) };
}

/**
 * What a role adds to the generic repository: every write within what the caller holds (no grant beyond
 * their own, no role they hold or one granting more), the grants kept beside the row and read with one
 * role, no delete while users hold it, and the tenant's cached access dropped once a write commits, so a
 * changed grant or a disabled role takes effect at the holders' next request.
 */
export function roleRules(app: FastifyInstance): RepositoryOptions<Role> {
  // only a committed write runs it (ctx.afterCommit), so it may be asked for with the check that allows the write
  const invalidate = (ctx: Ctx) => ctx.afterCommit(() => invalidateAccess(app, { tenantId: ctx.caller.tenantId }));
  const editable = async (ctx: Ctx, id: number) => {
    await assertEditable(ctx, id);
    invalidate(ctx);
  };
  return {
    unique: { code: 'roles_code_key' },
    references: [{ column: userRoles.roleId, reason: 'role.inUse' }],
    async authorizeWrite(ctx, input, id) {
      if (id !== undefined) await assertEditable(ctx, id);
      await assertWithinOwn(ctx, input as Grant);
      invalidate(ctx);
    },
    afterWrite: (ctx, row, input) => writeGrants(ctx, row.id as number, input as Grants),
    whole: withGrants,
    beforeStatus: editable,
    beforeDelete: editable,
  };
}
