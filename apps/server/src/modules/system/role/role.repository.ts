import type { CreateRoleInput, DataScope, ListQueryOf, roleResource, Status } from '@atrium/contracts';
import { and, count, eq, inArray, ne } from 'drizzle-orm';
import { conflict, invalidField, refused, rethrowUnique } from '../../../crud/conflict';
import type { Ctx } from '../../../crud/context';
import { allOf } from '../../../crud/data-scope';
import { contains, isoDates, orderOf, pageOffset } from '../../../crud/query';
import { oneAtATime } from '../../../db/client';
import { depts, menus, roleDepts, roleMenus, roles, userRoles } from '../../../db/schema';

type RoleQuery = ListQueryOf<typeof roleResource>;
type RoleRow = typeof roles.$inferSelect;
const sortColumns = { orderNum: roles.orderNum, name: roles.name, code: roles.code, createTime: roles.createTime };

const toRole = (row: RoleRow) => {
  const { tenantId: _tenant, ...rest } = isoDates(row);
  return { ...rest, status: rest.status as Status, dataScope: rest.dataScope as DataScope };
};
const inTenant = (ctx: Ctx) => eq(roles.tenantId, ctx.caller.tenantId);

async function assertCodeFree(ctx: Ctx, code: string, exceptId?: number) {
  const [taken] = await ctx.tx
    .select({ id: roles.id })
    .from(roles)
    .where(and(inTenant(ctx), eq(roles.code, code), exceptId ? ne(roles.id, exceptId) : undefined))
    .limit(1);
  if (taken) throw conflict('code');
}

/** Replaces a role's menu grant and custom departments, refusing ids that do not exist. */
async function writeGrants(ctx: Ctx, roleId: number, input: Pick<CreateRoleInput, 'menuIds' | 'deptIds' | 'dataScope'>) {
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

const fields = (input: CreateRoleInput) => ({
  name: input.name,
  code: input.code,
  dataScope: input.dataScope,
  isDefault: input.isDefault,
  orderNum: input.orderNum,
  status: input.status,
  remark: input.remark ?? null,
});

export const roleRepository = {
  async list(ctx: Ctx, q: RoleQuery) {
    const where = allOf(
      inTenant(ctx),
      contains(roles.name, q.name),
      contains(roles.code, q.code),
      q.status ? eq(roles.status, q.status) : undefined,
    );
    const page = pageOffset(q);
    const [rows, [total]] = await oneAtATime([
      ctx.tx
        .select()
        .from(roles)
        .where(where)
        .orderBy(...orderOf(q.sort, sortColumns, roles.id))
        .limit(page.limit)
        .offset(page.offset),
      ctx.tx.select({ n: count() }).from(roles).where(where),
    ]);
    return { list: rows.map(toRole), total: total?.n ?? 0 };
  },

  async get(ctx: Ctx, id: number) {
    const [row] = await ctx.tx
      .select()
      .from(roles)
      .where(and(inTenant(ctx), eq(roles.id, id)));
    if (!row) return null;
    const tenantId = ctx.caller.tenantId;
    const [menuRows, deptRows] = await oneAtATime([
      ctx.tx
        .select({ id: roleMenus.menuId })
        .from(roleMenus)
        .where(and(eq(roleMenus.tenantId, tenantId), eq(roleMenus.roleId, id))),
      ctx.tx
        .select({ id: roleDepts.deptId })
        .from(roleDepts)
        .where(and(eq(roleDepts.tenantId, tenantId), eq(roleDepts.roleId, id))),
    ]);
    return { ...toRole(row), menuIds: menuRows.map((m) => m.id), deptIds: deptRows.map((d) => d.id) };
  },

  async create(ctx: Ctx, input: CreateRoleInput) {
    await assertCodeFree(ctx, input.code);
    const by = ctx.caller.accountId;
    const [row] = await ctx.tx
      .insert(roles)
      .values({ ...fields(input), tenantId: ctx.caller.tenantId, createBy: by, updateBy: by })
      .returning()
      .catch((e) => rethrowUnique(e, { roles_code_key: 'code' }));
    await writeGrants(ctx, row!.id, input);
    return (await roleRepository.get(ctx, row!.id))!;
  },

  async update(ctx: Ctx, id: number, input: CreateRoleInput) {
    await assertCodeFree(ctx, input.code, id);
    await ctx.tx
      .update(roles)
      .set({ ...fields(input), updateBy: ctx.caller.accountId, updateTime: new Date() })
      .where(and(inTenant(ctx), eq(roles.id, id)))
      .catch((e) => rethrowUnique(e, { roles_code_key: 'code' }));
    await writeGrants(ctx, id, input);
    return (await roleRepository.get(ctx, id))!;
  },

  async setStatus(ctx: Ctx, id: number, status: Status) {
    const [row] = await ctx.tx
      .update(roles)
      .set({ status, updateBy: ctx.caller.accountId, updateTime: new Date() })
      .where(and(inTenant(ctx), eq(roles.id, id)))
      .returning();
    return toRole(row!);
  },

  async remove(ctx: Ctx, id: number) {
    const [held] = await ctx.tx
      .select({ n: count() })
      .from(userRoles)
      .where(and(eq(userRoles.tenantId, ctx.caller.tenantId), eq(userRoles.roleId, id)));
    if ((held?.n ?? 0) > 0) throw refused('id', 'inUse', 'role.inUse', { count: held?.n ?? 0 });
    await ctx.tx.delete(roles).where(and(inTenant(ctx), eq(roles.id, id)));
  },
};
