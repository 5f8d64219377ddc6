import type { ListQueryOf, Status, userResource } from '@atrium/contracts';
import { and, count, eq, gte, inArray, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { invalidField } from '../../../crud/conflict';
import type { Caller, Ctx } from '../../../crud/context';
import { allOf, dataScopeFilter, deptAndBelow, inIds } from '../../../crud/data-scope';
import { keysetPage, pageMarks, pageOffset, readMarked } from '../../../crud/paging';
import { isoTime, orderOf, prefixPattern, startsWithPlaceholder } from '../../../crud/query';
import { pageByIds, scopedCaller, walkPays } from '../../../crud/statements';
import { keptTotal, listTotal } from '../../../crud/totals';
import type { RawResult } from '../../../db/client';
import { accounts, depts, memberships, tenantUsers, userPosts, userRoles } from '../../../db/schema';
import { statementCache } from '../../../db/statements';
import { tenantJoin } from '../../../db/tenant-join';
import type { UserType } from '../../../plugins/external/access';

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
  createTime: isoTime(tenantUsers.createTime),
  updateBy: tenantUsers.updateBy,
  updateTime: isoTime(tenantUsers.updateTime),
};
const sortColumns = { createTime: tenantUsers.createTime, id: tenantUsers.id, accountId: accounts.accountId };

type Row = Awaited<ReturnType<typeof selectUsers>>[number];

export type UserRecord = ReturnType<typeof toUser>;

// field by field, without the account's reference and flag: spreading rows is slow on a list's hot path
const toUser = (row: Row) => ({
  id: row.id,
  accountId: row.accountId,
  name: row.name,
  nickname: row.nickname,
  email: row.email,
  phone: row.phone,
  sex: row.sex as '0' | '1' | '2' | null,
  userType: row.userType as UserType,
  status: row.status as Status,
  deptId: row.deptId,
  deptName: row.deptName,
  idNumber: row.idNumber,
  address: row.address,
  remark: row.remark,
  avatar: row.avatar,
  createBy: row.createBy,
  createTime: row.createTime,
  updateBy: row.updateBy,
  updateTime: row.updateTime,
  roleIds: row.roleIds.map(Number),
  postIds: row.postIds.map(Number),
});

/** The caller's data scope over users: department column, and "self" as the caller's own row. */
export const userScope = (caller: Caller) =>
  dataScopeFilter(caller, {
    dept: tenantUsers.deptId,
    self: (c) => (c.userId === null ? undefined : eq(tenantUsers.id, c.userId)),
  });

// an ARRAY subquery in the order of the primary key it reads: no aggregate and no sort for each row
// (array_agg with an ORDER BY set up a sort for every user of the page; docs/performance.md)
const idsOf = (table: typeof userRoles | typeof userPosts, column: AnyPgColumn) =>
  sql<number[]>`array(select ${column}::int from ${table}
     where ${table.tenantId} = ${tenantUsers.tenantId} and ${table.userId} = ${tenantUsers.id} order by ${column})`;

/** Joined rows with their role and post ids: the membership row first, the account by primary key. */
function selectUsers(tx: Ctx['tx'], where: SQL | undefined) {
  return tx
    .select({ ...columns, roleIds: idsOf(userRoles, userRoles.roleId), postIds: idsOf(userPosts, userPosts.postId) })
    .from(tenantUsers)
    .innerJoin(accounts, eq(accounts.id, tenantUsers.accountRef))
    .leftJoin(depts, tenantJoin(depts.id, tenantUsers.deptId))
    .where(where);
}

// the list and the detail run as statements built once per shape (crud/statements.ts)
const listStatements = statementCache('user list');
const userStatements = statementCache('user');
const p = sql.placeholder;
const textFilters = ['name', 'nickname', 'accountId', 'phone', 'email'] as const;
const textColumns = {
  name: accounts.name,
  nickname: accounts.nickname,
  accountId: accounts.accountId,
  phone: accounts.phone,
  email: accounts.email,
};

export const userRepository = {
  async list(ctx: Ctx, q: UserQuery): Promise<{ list: UserRecord[]; total: number }> {
    const tenantId = ctx.caller.tenantId;
    const scope = scopedCaller(ctx.caller);
    const texts = textFilters.filter((f) => q[f]);
    const has = { status: !!q.status, deptId: !!q.deptId, from: !!q.createTimeFrom, to: !!q.createTimeTo };
    const page = pageOffset(q);
    // Page over the membership rows alone (its (tenant, created, id) index serves order and offset)
    // and join the account only where a filter or the sort needs it; the page's 20 rows are then
    // read with their roles and posts, in the same statement or, with a rare prefix or a date range,
    // in a second one (pageByIds: such a statement is planned afresh for every value).
    const needsAccount = texts.length > 0 || q.sort.column === 'accountId';
    // the walk's statement hides the tenant and the prefixes from the planner (as sub-selects of their
    // values): its plan then costs the same whatever they are, and PostgreSQL keeps one instead of
    // planning each prefix afresh (walkPays)
    const tenantOf = (walk: boolean) => (walk ? sql`(select ${p('tenantId')}::bigint)` : p('tenantId'));
    const whereOf = (c: typeof scope.caller, walk = false) => {
      const own = allOf(
        eq(tenantUsers.tenantId, tenantOf(walk)),
        userScope(c),
        has.status ? eq(tenantUsers.status, p('status')) : undefined,
        has.deptId ? inIds(tenantUsers.deptId, deptAndBelow(tenantOf(walk) as never, p('deptId') as never)) : undefined,
        has.from ? gte(tenantUsers.createTime, p('from')) : undefined,
        has.to ? lte(tenantUsers.createTime, p('to')) : undefined,
      );
      // text filters match from the start (index-served on 100,000s of accounts), case-insensitively; a
      // walk tests the name on the membership's copy (name_key, in the list's index): no account read
      const ownName = walk && texts.includes('name');
      const onAccount = allOf(
        ...texts
          .filter((f) => !(ownName && f === 'name'))
          .map((f) => startsWithPlaceholder(textColumns[f], f, { caseless: f !== 'phone', walk })),
      );
      const onOwn = allOf(own, ownName ? startsWithPlaceholder(tenantUsers.nameKey, 'name', { caseless: false, walk }) : undefined);
      return { own: onOwn, all: allOf(onOwn, onAccount), account: onAccount !== undefined };
    };
    const cursor = q.after !== undefined ? 'after' : q.before !== undefined ? 'before' : null;
    // OFFSET skips rows before the join when the page's ids come first; a page read backwards (`before`)
    // is put back in order by an outer statement; a walk and a sort on the account keep their own shape
    const direct = (walk: boolean, skip: number, backwards: boolean) =>
      !walk && skip === 0 && !backwards && texts.length === 0 && q.sort.column !== 'accountId';
    // a deep page by number starts from a row seen near it (pageMarks), skipping the rows in between
    const marks = cursor ? null : pageMarks(ctx, q.sort, page.offset, sortColumns[q.sort.column]);
    const values: Record<string, unknown> = {
      ...scope.values,
      tenantId,
      status: q.status,
      deptId: q.deptId,
      from: q.createTimeFrom,
      to: q.createTimeTo,
    };
    for (const f of texts) values[f] = prefixPattern(q[f] as string, { caseless: f !== 'phone' });
    const counted = async (where: SQL | undefined, joined: boolean) => {
      const from = joined
        ? ctx.tx.select({ n: count() }).from(tenantUsers).innerJoin(accounts, eq(accounts.id, tenantUsers.accountRef))
        : ctx.tx.select({ n: count() }).from(tenantUsers);
      return (await from.where(where).execute(values))[0]?.n ?? 0;
    };
    const countTotal = () => {
      const where = whereOf(ctx.caller);
      return counted(needsAccount ? where.all : where.own, needsAccount);
    };
    // the page from a remembered row (`start`, skipping `skip` rows after it), else by OFFSET or keyset
    const read = async (start: { id: number; skip: number } | null) => {
      const skip = cursor ? 0 : start ? start.skip : page.offset;
      const pageValues = { ...values, offset: skip, cursor: q.after ?? q.before ?? start?.id };
      // A text prefix in the memberships' order: its kept count decides between walking the memberships
      // in that order (a common prefix: one statement, one plan kept for every prefix) and the prefix's
      // index (a rare one, or a deep page: pageByIds). The count is the page's total anyway.
      let total: number | undefined;
      let walk = false;
      if (texts.length > 0 && !has.from && !has.to && q.sort.column !== 'accountId') {
        total = await listTotal(ctx, countTotal);
        const tenantTotal = keptTotal(ctx, '{}', () =>
          counted(allOf(eq(tenantUsers.tenantId, p('tenantId')), userScope(ctx.caller)), false),
        );
        const reach = q.pageSize + skip;
        walk = tenantTotal !== null && walkPays({ matches: total, rows: await tenantTotal, reach });
      }
      // after/before a row: its page by keyset, read in reverse for `before` (the outer order restores it)
      const keyset = keysetPage(
        start ? { sort: q.sort, from: start.id } : q,
        sortColumns,
        tenantUsers.id,
        (id) =>
          sql`select ${sortColumns[q.sort.column]} from ${tenantUsers} inner join ${accounts} on ${eq(accounts.id, tenantUsers.accountRef)}
             where ${tenantUsers.tenantId} = ${tenantOf(walk)} and ${tenantUsers.id} = ${id}`,
        p('cursor'),
      );
      const key = JSON.stringify([scope.key, texts, has, q.sort, q.pageSize, skip > 0, cursor ?? (start && 'from'), walk]);
      const pageIdsOf = (tx: Ctx['tx']) => {
        const where = whereOf(scope.caller, walk);
        return (
          where.account || q.sort.column === 'accountId'
            ? tx
                .select({ id: tenantUsers.id })
                .from(tenantUsers)
                .innerJoin(accounts, eq(accounts.id, tenantUsers.accountRef))
                .where(allOf(where.all, keyset.where))
            : tx.select({ id: tenantUsers.id }).from(tenantUsers).where(allOf(where.own, keyset.where))
        )
          .orderBy(...keyset.order)
          .limit(page.limit)
          .offset(skip > 0 ? (p('offset') as unknown as number) : 0);
      };
      const order = () => orderOf(q.sort, sortColumns, tenantUsers.id);
      let rows: Row[];
      if (total === 0) {
        rows = [];
      } else if (!walk && (texts.length > 0 || has.from || has.to)) {
        rows = await pageByIds<Row>(
          listStatements,
          ctx.tx,
          { ids: key, rows: JSON.stringify(q.sort) },
          pageIdsOf,
          (tx, idsIn) => selectUsers(tx, and(eq(tenantUsers.tenantId, p('tenantId')), idsIn(tenantUsers.id))).orderBy(...order()),
          pageValues,
        );
      } else if (direct(walk, skip, keyset.backwards)) {
        // a page that starts at its first row, in the memberships' own order: the joined rows are read
        // straight down the (tenant, created, id) index and the read stops at the page's last row; the
        // page's ids need no statement of their own
        rows = await listStatements<Row>(
          ctx.tx,
          key,
          (tx) =>
            selectUsers(tx, allOf(whereOf(scope.caller).own, keyset.where))
              .orderBy(...keyset.order)
              .limit(page.limit),
          pageValues,
        );
      } else {
        rows = await listStatements<Row>(
          ctx.tx,
          key,
          (tx) =>
            selectUsers(tx, and(eq(tenantUsers.tenantId, tenantOf(walk)), inArray(tenantUsers.id, pageIdsOf(tx)))).orderBy(...order()),
          pageValues,
        );
      }
      return { rows, total };
    };
    const { rows, total: prefixTotal } = await readMarked(marks, read, (page) => page.rows.map((r) => r.id));
    // counted already where a text prefix chose its plan
    const total = prefixTotal ?? (await listTotal(ctx, countTotal));
    if (cursor && rows.length === 0 && !(await userRepository.exists(ctx, (q.after ?? q.before) as number))) {
      throw invalidField(cursor, 'ref', 'ref.missingId', { id: (q.after ?? q.before) as number });
    }
    return { list: rows.map(toUser), total };
  },

  /** Whether the tenant has a user with this id (in or out of the caller's data scope). */
  async exists(ctx: Ctx, id: number) {
    const [row] = await ctx.tx
      .select({ id: tenantUsers.id })
      .from(tenantUsers)
      .where(and(eq(tenantUsers.tenantId, ctx.caller.tenantId), eq(tenantUsers.id, id)));
    return row !== undefined;
  },

  /** One user the caller may see (tenant and data scope), with what the rules need to know. */
  async find(ctx: Ctx, id: number) {
    const scope = scopedCaller(ctx.caller);
    const [row] = await userStatements<Row>(
      ctx.tx,
      scope.key,
      (tx) => selectUsers(tx, allOf(eq(tenantUsers.tenantId, p('tenantId')), eq(tenantUsers.id, p('id')), userScope(scope.caller))),
      { ...scope.values, tenantId: ctx.caller.tenantId, id },
    );
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

  /** The fields among account number, phone and e-mail (case-insensitive) whose values another account holds, in that order; one statement. */
  async takenFields(ctx: Ctx, input: { accountId?: string; phone?: string | null; email?: string | null }, exceptAccount?: number) {
    const checks: [string, SQL | undefined][] = [
      ['accountId', input.accountId ? eq(sql`lower(${accounts.accountId})`, input.accountId.toLowerCase()) : undefined],
      ['phone', input.phone ? eq(accounts.phone, input.phone) : undefined],
      ['email', input.email ? eq(sql`lower(${accounts.email})`, input.email.toLowerCase()) : undefined],
    ];
    const asked = checks.filter((c): c is [string, SQL] => c[1] !== undefined);
    if (!asked.length) return [];
    const other = exceptAccount ? ne(accounts.id, exceptAccount) : undefined;
    // each probe on its own index, all in one statement
    const probes = asked.map(
      ([field, condition], i) =>
        sql`(select ${i}::int as n, ${field}::text as field from ${accounts} where ${and(condition, other)} limit 1)`,
    );
    const result = (await ctx.tx.execute(sql`select field from (${sql.join(probes, sql` union all `)}) taken order by n`)) as RawResult<{
      field: string;
    }>;
    return result.rows.map((r) => r.field);
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
