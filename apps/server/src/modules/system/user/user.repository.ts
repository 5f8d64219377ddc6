import type { ListQueryOf, Status, userResource } from '@atrium/contracts';
import { and, count, eq, gte, inArray, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Ctx } from '../../../crud/context';
import { allOf, dataScopeFilter, deptAndBelow } from '../../../crud/data-scope';
import { orderOf, pageOffset, startsWith } from '../../../crud/query';
import { listTotal } from '../../../crud/totals';
import { accounts, depts, memberships, tenantUsers, userPosts, userRoles } from '../../../db/schema';
import type { UserType } from '../../../plugins/access';

export type UserQuery = ListQueryOf<typeof userResource>;

const columns = {
  id: tenantUsers.id,
  accountRef: tenantUsers.accountRef,
  accountId: accounts.accountId,
  name: accounts.name,
  nickname: accounts.nickname,
  email: accounts.email,
  phone: accounts.phone,
  sex: accounts.sex,
  superAdmin: accounts.superAdmin,
  userType: tenantUsers.userType,
  status: tenantUsers.status,
  deptId: tenantUsers.deptId,
  deptName: depts.name,
  idNumber: accounts.idNumber,
  address: accounts.address,
  remark: tenantUsers.remark,
  avatar: accounts.avatar,
  createBy: tenantUsers.createBy,
  createTime: tenantUsers.createTime,
  updateBy: tenantUsers.updateBy,
  updateTime: tenantUsers.updateTime,
};
const sortColumns = { createTime: tenantUsers.createTime, id: tenantUsers.id, accountId: accounts.accountId };

type Row = Awaited<ReturnType<typeof selectUsers>>[number];
export type UserRecord = ReturnType<typeof toUser>;

const toUser = (row: Row) => {
  const { accountRef: _a, superAdmin: _s, ...rest } = row;
  return {
    ...rest,
    sex: rest.sex as '0' | '1' | '2' | null,
    userType: rest.userType as UserType,
    status: rest.status as Status,
    createTime: rest.createTime.toISOString(),
    updateTime: rest.updateTime.toISOString(),
    roleIds: rest.roleIds.map(Number),
    postIds: rest.postIds.map(Number),
  };
};

/** The caller's data scope over users: department column, and "self" as the caller's own row. */
export const userScope = (ctx: Ctx) =>
  dataScopeFilter(ctx.caller, {
    dept: tenantUsers.deptId,
    self: (caller) => (caller.userId === null ? undefined : eq(tenantUsers.id, caller.userId)),
  });

const idsOf = (table: typeof userRoles | typeof userPosts, column: AnyPgColumn) =>
  sql<number[]>`coalesce((select array_agg(${column}::int order by ${column}) from ${table}
     where ${table.tenantId} = ${tenantUsers.tenantId} and ${table.userId} = ${tenantUsers.id}), '{}')`;

/** Joined rows with their role and post ids: the membership row first, the account by primary key. */
function selectUsers(ctx: Ctx, where: SQL | undefined) {
  return ctx.tx
    .select({ ...columns, roleIds: idsOf(userRoles, userRoles.roleId), postIds: idsOf(userPosts, userPosts.postId) })
    .from(tenantUsers)
    .innerJoin(accounts, eq(accounts.id, tenantUsers.accountRef))
    .leftJoin(depts, and(eq(depts.tenantId, tenantUsers.tenantId), eq(depts.id, tenantUsers.deptId)))
    .where(where);
}

export const userRepository = {
  async list(ctx: Ctx, q: UserQuery) {
    const tenantId = ctx.caller.tenantId;
    const own = allOf(
      eq(tenantUsers.tenantId, tenantId),
      userScope(ctx),
      q.status ? eq(tenantUsers.status, q.status) : undefined,
      q.deptId ? inArray(tenantUsers.deptId, deptAndBelow(tenantId, q.deptId)) : undefined,
      q.createTimeFrom ? gte(tenantUsers.createTime, q.createTimeFrom) : undefined,
      q.createTimeTo ? lte(tenantUsers.createTime, q.createTimeTo) : undefined,
    );
    // text filters match from the start (index-served on 100,000s of accounts), case-insensitively
    const onAccount = allOf(
      startsWith(accounts.name, q.name),
      startsWith(accounts.nickname, q.nickname),
      startsWith(accounts.accountId, q.accountId),
      startsWith(accounts.phone, q.phone, { caseless: false }),
      startsWith(accounts.email, q.email),
    );
    const where = allOf(own, onAccount);
    const page = pageOffset(q);
    // Page over the membership rows alone (its (tenant, created, id) index serves order and offset)
    // and join the account only where a filter or the sort needs it; the page's 20 rows are then
    // read with their roles and posts in the same statement.
    const needsAccount = onAccount !== undefined || q.sort.column === 'accountId';
    const pageIds = (
      needsAccount
        ? ctx.tx.select({ id: tenantUsers.id }).from(tenantUsers).innerJoin(accounts, eq(accounts.id, tenantUsers.accountRef)).where(where)
        : ctx.tx.select({ id: tenantUsers.id }).from(tenantUsers).where(own)
    )
      .orderBy(...orderOf(q.sort, sortColumns, tenantUsers.id))
      .limit(page.limit)
      .offset(page.offset);
    const rows = await selectUsers(ctx, and(eq(tenantUsers.tenantId, tenantId), inArray(tenantUsers.id, pageIds))).orderBy(
      ...orderOf(q.sort, sortColumns, tenantUsers.id),
    );
    const total = await listTotal(ctx, async () => {
      const counted = needsAccount
        ? ctx.tx.select({ n: count() }).from(tenantUsers).innerJoin(accounts, eq(accounts.id, tenantUsers.accountRef)).where(where)
        : ctx.tx.select({ n: count() }).from(tenantUsers).where(own);
      return (await counted)[0]?.n ?? 0;
    });
    return { list: rows.map(toUser), total };
  },

  /** One user the caller may see (tenant and data scope), with what the rules need to know. */
  async find(ctx: Ctx, id: number) {
    const [row] = await selectUsers(ctx, allOf(eq(tenantUsers.tenantId, ctx.caller.tenantId), eq(tenantUsers.id, id), userScope(ctx)));
    if (!row) return null;
    return {
      user: toUser(row),
      accountRef: row.accountRef,
      superAdmin: row.superAdmin,
    };
  },

  async get(ctx: Ctx, id: number) {
    return (await userRepository.find(ctx, id))?.user ?? null;
  },

  /** Enabled super admins of the tenant other than `exceptId` (account flag or user type '00'). */
  async otherSuperAdmins(ctx: Ctx, exceptId: number) {
    const [row] = await ctx.tx
      .select({ n: count() })
      .from(tenantUsers)
      .innerJoin(accounts, eq(accounts.id, tenantUsers.accountRef))
      .where(
        and(
          eq(tenantUsers.tenantId, ctx.caller.tenantId),
          ne(tenantUsers.id, exceptId),
          eq(tenantUsers.status, '0'),
          or(eq(tenantUsers.userType, '00'), eq(accounts.superAdmin, true)),
        ),
      );
    return row?.n ?? 0;
  },

  /** The field already taken by another account, if any: accountId, phone or email (case-insensitive). */
  async takenField(ctx: Ctx, input: { accountId?: string; phone?: string | null; email?: string | null }, exceptAccount?: number) {
    const checks: [string, SQL | undefined][] = [
      ['accountId', input.accountId ? eq(sql`lower(${accounts.accountId})`, input.accountId.toLowerCase()) : undefined],
      ['phone', input.phone ? eq(accounts.phone, input.phone) : undefined],
      ['email', input.email ? eq(sql`lower(${accounts.email})`, input.email.toLowerCase()) : undefined],
    ];
    for (const [field, condition] of checks) {
      if (!condition) continue;
      const [hit] = await ctx.tx
        .select({ id: accounts.id })
        .from(accounts)
        .where(and(condition, exceptAccount ? ne(accounts.id, exceptAccount) : undefined))
        .limit(1);
      if (hit) return field;
    }
    return null;
  },

  async replaceLinks(ctx: Ctx, userId: number, links: { roleIds?: number[]; postIds?: number[] }) {
    const tenantId = ctx.caller.tenantId;
    if (links.roleIds) {
      await ctx.tx.delete(userRoles).where(and(eq(userRoles.tenantId, tenantId), eq(userRoles.userId, userId)));
      const ids = [...new Set(links.roleIds)];
      if (ids.length) await ctx.tx.insert(userRoles).values(ids.map((roleId) => ({ tenantId, userId, roleId })));
    }
    if (links.postIds) {
      await ctx.tx.delete(userPosts).where(and(eq(userPosts.tenantId, tenantId), eq(userPosts.userId, userId)));
      const ids = [...new Set(links.postIds)];
      if (ids.length) await ctx.tx.insert(userPosts).values(ids.map((postId) => ({ tenantId, userId, postId })));
    }
  },

  async membershipsLeft(ctx: Ctx, accountRef: number) {
    const [row] = await ctx.tx.select({ n: count() }).from(memberships).where(eq(memberships.accountId, accountRef));
    return row?.n ?? 0;
  },
};
