import { randomBytes } from 'node:crypto';
import type { CreateTenantInput, ListQueryOf, Status, tenantResource, UpdateTenantInput } from '@atrium/contracts';
import { and, count, eq, sql } from 'drizzle-orm';
import { conflict, refused } from '../../../crud/conflict';
import type { Ctx } from '../../../crud/context';
import { allOf } from '../../../crud/data-scope';
import { pageOffset } from '../../../crud/paging';
import { contains, isoDates, orderOf } from '../../../crud/query';
import { oneAtATime, type Tx } from '../../../db/client';
import { accounts, memberships, menus, roleMenus, roles, tenants, tenantUsers, userRoles } from '../../../db/schema';
import { hashPassword } from '../../auth/password';

type TenantQuery = ListQueryOf<typeof tenantResource>;
const sortColumns = { createTime: tenants.createTime, code: tenants.code, name: tenants.name };
const toTenant = (row: typeof tenants.$inferSelect) => {
  const out = isoDates(row);
  return { ...out, status: out.status as Status };
};
const expire = (v: string | null | undefined) => (v ? new Date(v) : null);

/**
 * Runs `work` as another tenant inside the same transaction, then switches back: a new tenant's rows
 * are written atomically with the tenant itself, and row-level security still checks every one.
 */
async function asTenant<T>(tx: Tx, tenantId: number, back: number, work: () => Promise<T>): Promise<T> {
  await tx.execute(sql`select set_config('app.tenant_id', ${String(tenantId)}, true)`);
  try {
    return await work();
  } finally {
    await tx.execute(sql`select set_config('app.tenant_id', ${String(back)}, true)`);
  }
}

export const tenantRepository = {
  async list(ctx: Ctx, q: TenantQuery) {
    const where = allOf(
      contains(tenants.code, q.code),
      contains(tenants.name, q.name),
      q.status ? eq(tenants.status, q.status) : undefined,
    );
    const page = pageOffset(q);
    const [rows, [total]] = await oneAtATime([
      ctx.tx
        .select()
        .from(tenants)
        .where(where)
        .orderBy(...orderOf(q.sort, sortColumns, tenants.id))
        .limit(page.limit)
        .offset(page.offset),
      ctx.tx.select({ n: count() }).from(tenants).where(where),
    ]);
    return { list: rows.map(toTenant), total: total?.n ?? 0 };
  },

  async get(ctx: Ctx, id: number) {
    const [row] = await ctx.tx.select().from(tenants).where(eq(tenants.id, id));
    return row ? toTenant(row) : null;
  },

  /** The tenant, its `admin` role holding the whole catalogue, and its first administrator. */
  async create(ctx: Ctx, input: CreateTenantInput) {
    const [taken] = await ctx.tx.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, input.code));
    if (taken) throw conflict('code');
    const [account] = await ctx.tx
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(sql`lower(${accounts.accountId})`, input.adminAccountId.toLowerCase()));
    if (account) throw conflict('adminAccountId');
    const [tenant] = await ctx.tx
      .insert(tenants)
      .values({
        code: input.code,
        name: input.name,
        contact: input.contact ?? null,
        expireTime: expire(input.expireTime),
        timeZone: input.timeZone ?? null,
        status: input.status,
      })
      .returning();
    const tenantId = tenant!.id;
    const [admin] = await ctx.tx
      .insert(accounts)
      .values({
        accountId: input.adminAccountId,
        name: input.adminAccountId.slice(0, 20),
        nickname: input.adminAccountId.slice(0, 30),
        passwordHash: await hashPassword(input.adminPassword),
        clientKey: randomBytes(16).toString('hex'),
        lastTenantId: tenantId,
        passwordChangedAt: new Date(),
      })
      .returning({ id: accounts.id });
    await ctx.tx.insert(memberships).values({ accountId: admin!.id, tenantRef: tenantId });
    await asTenant(ctx.tx, tenantId, ctx.caller.tenantId, async () => {
      const by = ctx.caller.accountId;
      const [role] = await ctx.tx
        .insert(roles)
        .values({ tenantId, code: 'admin', name: 'admin', dataScope: '1', orderNum: 1, createBy: by })
        .returning({ id: roles.id });
      const catalogue = await ctx.tx.select({ id: menus.id }).from(menus);
      if (catalogue.length) await ctx.tx.insert(roleMenus).values(catalogue.map((m) => ({ tenantId, roleId: role!.id, menuId: m.id })));
      const [user] = await ctx.tx
        .insert(tenantUsers)
        .values({ tenantId, accountRef: admin!.id, userType: '01', createBy: by, updateBy: by })
        .returning({ id: tenantUsers.id });
      await ctx.tx.insert(userRoles).values({ tenantId, userId: user!.id, roleId: role!.id });
    });
    return toTenant(tenant!);
  },

  async update(ctx: Ctx, id: number, input: UpdateTenantInput) {
    const [row] = await ctx.tx
      .update(tenants)
      .set({
        name: input.name,
        contact: input.contact ?? null,
        expireTime: expire(input.expireTime),
        ...(input.timeZone === undefined ? {} : { timeZone: input.timeZone }),
        status: input.status,
        updateTime: new Date(),
      })
      .where(eq(tenants.id, id))
      .returning();
    return toTenant(row!);
  },

  async setStatus(ctx: Ctx, id: number, status: Status) {
    if (status === '1' && id === ctx.caller.tenantId) throw refused('id', 'current', 'tenant.current');
    const [row] = await ctx.tx.update(tenants).set({ status, updateTime: new Date() }).where(eq(tenants.id, id)).returning();
    return toTenant(row!);
  },

  /** Only an empty tenant goes: deleting one cascades through every tenant table. */
  async remove(ctx: Ctx, id: number) {
    if (id === ctx.caller.tenantId) throw refused('id', 'current', 'tenant.current');
    const [members] = await ctx.tx.select({ n: count() }).from(memberships).where(eq(memberships.tenantRef, id));
    if ((members?.n ?? 0) > 0) throw refused('id', 'hasUsers', 'tenant.hasUsers', { count: members?.n ?? 0 });
    await ctx.tx.delete(tenants).where(and(eq(tenants.id, id)));
  },
};
