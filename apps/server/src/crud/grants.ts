import { ALL_PERMISSIONS, type DataScope } from '@atrium/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import { oneAtATime } from '../db/client';
import { depts, roleDepts, roleMenus, roles, userRoles } from '../db/schema';
import { tenantJoin } from '../db/tenant-join';
import { AppError } from '../errors';
import type { Ctx } from './context';
import { allOf, dataScopeFilter } from './data-scope';

/**
 * The rule that keeps a limited user from making themselves (or a friend) administrator: a caller grants
 * only what they hold (menus and data scope), whether they give roles, take them away, map them to a
 * sign-in provider or write a role (the role's own rules, `modules/system/role`), and places users only
 * in departments inside their own data scope. A super admin (or anyone holding '*:*:*') is unbounded.
 * Below the modules, since signing in (`modules/auth`) applies it as much as the system pages.
 */

/** What a role grants: its menus and the rows it reaches. */
export type Grant = { menuIds: number[]; dataScope: DataScope; deptIds: number[] };

/** 403 naming the field and the rule, so the client can say which part was refused. */
export const denied = (field: string, rule: string, message: string) => new AppError('forbidden', { fields: [{ field, rule, message }] });

/** A super admin (or `*:*:*`): no grant is beyond them. */
export const unbounded = (ctx: Ctx) => ctx.caller.superAdmin || ctx.caller.permissions.has(ALL_PERMISSIONS);

/** Menu ids of the caller's enabled roles in this tenant (only the one the session acts as, after "switch roles"). */
export async function heldMenus(ctx: Ctx): Promise<Set<number>> {
  if (ctx.caller.userId === null) return new Set();
  const acting = ctx.caller.activeRole;
  const rows = await ctx.tx
    .selectDistinct({ id: roleMenus.menuId })
    .from(userRoles)
    .innerJoin(roles, tenantJoin(roles.id, userRoles.roleId))
    .innerJoin(roleMenus, tenantJoin(roleMenus.roleId, roles.id))
    .where(
      and(
        eq(userRoles.tenantId, ctx.caller.tenantId),
        eq(userRoles.userId, ctx.caller.userId),
        eq(roles.status, '0'),
        acting === null ? undefined : eq(roles.code, acting),
      ),
    );
  return new Set(rows.map((r) => Number(r.id)));
}

/** Whether the caller's own data scope reaches at least as far as `grant`'s. */
async function scopeCovers(ctx: Ctx, grant: Pick<Grant, 'dataScope' | 'deptIds'>): Promise<boolean> {
  const mine = ctx.caller.dataScope;
  if (unbounded(ctx) || mine === '1') return true;
  switch (grant.dataScope) {
    case '5':
      return true;
    case '3':
      return mine === '3' || mine === '4';
    case '4':
      return mine === '4';
    case '2':
      return (await departmentsInScope(ctx, grant.deptIds)) === new Set(grant.deptIds).size;
    default:
      return false;
  }
}

/** How many of `ids` are departments inside the caller's data scope. */
async function departmentsInScope(ctx: Ctx, ids: number[]): Promise<number> {
  const unique = [...new Set(ids)];
  if (!unique.length) return 0;
  const rows = await ctx.tx
    .select({ id: depts.id })
    .from(depts)
    .where(allOf(eq(depts.tenantId, ctx.caller.tenantId), inArray(depts.id, unique), dataScopeFilter(ctx.caller, { dept: depts.id })));
  return rows.length;
}

/** Whether the caller holds every menu and at least the data scope of `grant`. */
export async function within(ctx: Ctx, grant: Grant, menus?: Set<number>): Promise<boolean> {
  if (unbounded(ctx)) return true;
  const held = menus ?? (await heldMenus(ctx));
  if (!grant.menuIds.every((id) => held.has(id))) return false;
  return scopeCovers(ctx, grant);
}

/** The current grant of each role (missing ids are left out; callers check existence themselves). */
export async function grantsOf(ctx: Ctx, roleIds: number[]): Promise<Map<number, Grant>> {
  const unique = [...new Set(roleIds)];
  const result = new Map<number, Grant>();
  if (!unique.length) return result;
  const tenantId = ctx.caller.tenantId;
  const [roleRows, menuRows, deptRows] = await oneAtATime([
    ctx.tx
      .select({ id: roles.id, dataScope: roles.dataScope })
      .from(roles)
      .where(and(eq(roles.tenantId, tenantId), inArray(roles.id, unique))),
    ctx.tx
      .select({ roleId: roleMenus.roleId, menuId: roleMenus.menuId })
      .from(roleMenus)
      .where(and(eq(roleMenus.tenantId, tenantId), inArray(roleMenus.roleId, unique))),
    ctx.tx
      .select({ roleId: roleDepts.roleId, deptId: roleDepts.deptId })
      .from(roleDepts)
      .where(and(eq(roleDepts.tenantId, tenantId), inArray(roleDepts.roleId, unique))),
  ]);
  for (const r of roleRows) result.set(Number(r.id), { dataScope: r.dataScope as DataScope, menuIds: [], deptIds: [] });
  for (const m of menuRows) result.get(Number(m.roleId))?.menuIds.push(Number(m.menuId));
  for (const d of deptRows) result.get(Number(d.roleId))?.deptIds.push(Number(d.deptId));
  return result;
}

export const grantGuard = {
  /** Giving or taking away these roles: each must grant no more than the caller holds. */
  async assertGrantable(ctx: Ctx, roleIds: number[], field = 'roleIds', message = 'role.exceedsOwn') {
    if (unbounded(ctx) || !roleIds.length) return;
    const menus = await heldMenus(ctx);
    for (const grant of (await grantsOf(ctx, roleIds)).values()) {
      if (!(await within(ctx, grant, menus))) throw denied(field, 'exceedsOwn', message);
    }
  },

  /** Whether the caller holds at least everything the given user's roles grant (for taking over an account). */
  async assertHoldsAtLeast(ctx: Ctx, userId: number, field = 'id', message = 'role.exceedsOwn') {
    if (unbounded(ctx)) return;
    const rows = await ctx.tx
      .select({ id: userRoles.roleId })
      .from(userRoles)
      .where(and(eq(userRoles.tenantId, ctx.caller.tenantId), eq(userRoles.userId, userId)));
    await grantGuard.assertGrantable(
      ctx,
      rows.map((r) => Number(r.id)),
      field,
      message,
    );
  },

  /** Placing a user (oneself included) in a department: only one inside the caller's data scope. */
  async assertDepartmentInScope(ctx: Ctx, deptId: number | null | undefined, field = 'deptId') {
    if (!deptId || unbounded(ctx) || ctx.caller.dataScope === '1') return;
    if ((await departmentsInScope(ctx, [deptId])) !== 1) throw denied(field, 'outsideScope', 'dept.outsideScope');
  },
};
