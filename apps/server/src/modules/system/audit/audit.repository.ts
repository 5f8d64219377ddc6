import type { ListQueryOf, loginLogResource, operLogResource, sessionResource } from '@atrium/contracts';
import { and, count, eq, getTableColumns, gt, gte, isNull, lte, sql } from 'drizzle-orm';
import { invalidField } from '../../../crud/conflict';
import type { Ctx } from '../../../crud/context';
import { allOf } from '../../../crud/data-scope';
import { keysetPage, pageMarks, pageOffset, pageStatement, readMarked } from '../../../crud/paging';
import { contains, containsPattern, containsPlaceholder, isoDates, orderOf } from '../../../crud/query';
import { listTotal } from '../../../crud/totals';
import { oneAtATime } from '../../../db/client';
import { accounts, loginLogs, operLogs, sessions, tenantUsers } from '../../../db/schema';
import { statementCache } from '../../../db/statements';
import { IDLE_MS } from '../../auth/session.service';

const iso = (d: Date) => d.toISOString();
const mineOne = (ctx: Ctx, id: unknown) => and(eq(operLogs.tenantId, ctx.caller.tenantId), eq(operLogs.id, id as number));

// the list runs as statements built once per shape (crud/statements.ts)
const operLogStatements = statementCache('operation log');
const p = sql.placeholder;
const { tenantId: _tenantId, accountRef: _accountRef, ...operLogColumns } = getTableColumns(operLogs);
type OperLogRead = Omit<typeof operLogs.$inferSelect, 'tenantId' | 'accountRef'>;
const operLogSort = { createTime: operLogs.createTime, durationMs: operLogs.durationMs };

export const operLogRepository = {
  async list(ctx: Ctx, q: ListQueryOf<typeof operLogResource>) {
    const has = {
      operator: !!q.operator,
      module: !!q.module,
      action: !!q.action,
      result: !!q.result,
      from: !!q.createTimeFrom,
      to: !!q.createTimeTo,
    };
    const where = allOf(
      eq(operLogs.tenantId, p('tenantId')),
      has.operator ? containsPlaceholder(operLogs.operator, 'operator') : undefined,
      // a module is picked from the list the page offers (see /system/operlog/modules): exact, index-served
      has.module ? eq(operLogs.module, p('module')) : undefined,
      has.action ? containsPlaceholder(operLogs.action, 'action') : undefined,
      has.result ? eq(operLogs.result, p('result')) : undefined,
      has.from ? gte(operLogs.createTime, p('from')) : undefined,
      has.to ? lte(operLogs.createTime, p('to')) : undefined,
    );
    const page = pageOffset(q);
    const cursor = q.after !== undefined ? 'after' : q.before !== undefined ? 'before' : null;
    // a deep page by number starts from an entry seen near it (pageMarks), skipping the ones in between
    const marks = cursor ? null : pageMarks(ctx, q.sort, page.offset, operLogSort[q.sort.column]);
    const read = async (start: { id: number; skip: number } | null) => {
      const skip = cursor ? 0 : start ? start.skip : page.offset;
      // after/before an entry: the page next to it by keyset, for deep pages of a large log
      const keyset = keysetPage(
        start ? { sort: q.sort, from: start.id } : q,
        operLogSort,
        operLogs.id,
        (id) =>
          sql`select ${operLogSort[q.sort.column]} from ${operLogs} where ${operLogs.tenantId} = ${p('tenantId')} and ${operLogs.id} = ${id}`,
        p('cursor'),
      );
      const rows = await operLogStatements<OperLogRead>(
        ctx.tx,
        JSON.stringify(['page', has, q.sort, q.pageSize, skip > 0, cursor ?? (start && 'from')]),
        pageStatement(operLogColumns, operLogs, where, keyset, page.limit, skip),
        { ...values, offset: skip, cursor: q.after ?? q.before ?? start?.id },
      );
      if (keyset.backwards) rows.reverse();
      return rows;
    };
    const values = {
      tenantId: ctx.caller.tenantId,
      operator: q.operator ? containsPattern(q.operator) : undefined,
      module: q.module,
      action: q.action ? containsPattern(q.action) : undefined,
      result: q.result,
      from: q.createTimeFrom,
      to: q.createTimeTo,
      cursor: q.after ?? q.before,
    };
    const rows = await readMarked(marks, read, (page) => page.map((r) => r.id));
    if (cursor && rows.length === 0 && !(await operLogRepository.get(ctx, values.cursor as number))) {
      throw invalidField(cursor, 'ref', 'ref.missingId', { id: values.cursor as number });
    }
    const total = await listTotal(
      ctx,
      async () => (await ctx.tx.select({ n: count() }).from(operLogs).where(where).execute(values))[0]?.n ?? 0,
    );
    return { list: rows.map(toOperLog), total };
  },
  async get(ctx: Ctx, id: number) {
    const [row] = await ctx.tx.select(operLogColumns).from(operLogs).where(mineOne(ctx, id));
    return row ? toOperLog(row) : null;
  },
};

// field by field: spreading rows is slow on a list's hot path
function toOperLog(row: OperLogRead) {
  return {
    id: row.id,
    operator: row.operator,
    module: row.module,
    action: row.action,
    target: row.target,
    targetName: row.targetName,
    method: row.method,
    url: row.url,
    ip: row.ip,
    summary: row.summary,
    result: row.result as 'success' | 'failure',
    errorMessage: row.errorMessage,
    durationMs: row.durationMs,
    createTime: iso(row.createTime),
    apiTokenId: row.apiTokenId,
  };
}

/** Sign-in attempts into the caller's tenant (the table is global: the tenant filter is explicit). */
export const loginLogRepository = {
  async list(ctx: Ctx, q: ListQueryOf<typeof loginLogResource>) {
    const where = allOf(
      eq(loginLogs.tenantRef, ctx.caller.tenantId),
      contains(loginLogs.account, q.account),
      contains(loginLogs.ip, q.ip),
      q.result ? eq(loginLogs.result, q.result) : undefined,
      q.createTimeFrom ? gte(loginLogs.createTime, q.createTimeFrom) : undefined,
      q.createTimeTo ? lte(loginLogs.createTime, q.createTimeTo) : undefined,
    );
    const page = pageOffset(q);
    const rows = await ctx.tx
      .select({
        id: loginLogs.id,
        account: loginLogs.account,
        result: loginLogs.result,
        reason: loginLogs.reason,
        ip: loginLogs.ip,
        userAgent: loginLogs.userAgent,
        createTime: loginLogs.createTime,
      })
      .from(loginLogs)
      .where(where)
      .orderBy(...orderOf(q.sort, { createTime: loginLogs.createTime }, loginLogs.id))
      .limit(page.limit)
      .offset(page.offset);
    // kept (each entry written into the tenant drops them): a busy tenant's log is counted once, not per page
    const total = await listTotal(ctx, async () => (await ctx.tx.select({ n: count() }).from(loginLogs).where(where))[0]?.n ?? 0);
    return {
      list: rows.map(isoDates),
      total,
    };
  },
  async get() {
    return null;
  },
};

/**
 * Online sessions in the caller's tenant: not ended, not expired and not idle (a session unseen for
 * IDLE_MS is refused at its next request, so it is not online). The partial index on live sessions by
 * last sight serves the default order and the idle cut-off: a page and its count read the sessions seen
 * in the last IDLE_MS, not every unexpired session the tenant ever opened.
 */
export const sessionRepository = {
  async list(ctx: Ctx, q: ListQueryOf<typeof sessionResource>) {
    const now = ctx.request.server.clock.now();
    const where = allOf(
      eq(sessions.tenantRef, ctx.caller.tenantId),
      isNull(sessions.endedAt),
      gt(sessions.lastSeenAt, new Date(now.getTime() - IDLE_MS)),
      gt(sessions.expiresAt, now),
      contains(accounts.accountId, q.accountId),
      contains(sessions.ip, q.ip),
    );
    const page = pageOffset(q);
    const counted = ctx.tx.select({ n: count() }).from(sessions);
    const [rows, [total]] = await oneAtATime([
      ctx.tx
        .select({
          id: sessions.id,
          accountId: accounts.accountId,
          name: accounts.name,
          ip: sessions.ip,
          deviceType: sessions.deviceType,
          userAgent: sessions.userAgent,
          createTime: sessions.createTime,
          lastSeenAt: sessions.lastSeenAt,
          expiresAt: sessions.expiresAt,
        })
        .from(sessions)
        .innerJoin(accounts, eq(accounts.id, sessions.accountId))
        .where(where)
        .orderBy(...orderOf(q.sort, { lastSeenAt: sessions.lastSeenAt, createTime: sessions.createTime }, sessions.id))
        .limit(page.limit)
        .offset(page.offset),
      // every session has its account (a foreign key): the count joins it only to filter by it
      (q.accountId ? counted.innerJoin(accounts, eq(accounts.id, sessions.accountId)) : counted).where(where),
    ]);
    return {
      list: rows.map((r) => ({ ...isoDates(r), current: r.id === ctx.caller.sessionId })),
      total: total?.n ?? 0,
    };
  },
  async get() {
    return null;
  },
  /** A live session of the tenant, with who holds it: the account and its user in the tenant. */
  async findLive(ctx: Ctx, id: number) {
    const [row] = await ctx.tx
      .select({
        id: sessions.id,
        superAdmin: accounts.superAdmin,
        accountId: accounts.accountId,
        userId: tenantUsers.id,
        userType: tenantUsers.userType,
      })
      .from(sessions)
      .innerJoin(accounts, eq(accounts.id, sessions.accountId))
      .leftJoin(tenantUsers, and(eq(tenantUsers.tenantId, sessions.tenantRef), eq(tenantUsers.accountRef, sessions.accountId)))
      .where(and(eq(sessions.id, id), eq(sessions.tenantRef, ctx.caller.tenantId), isNull(sessions.endedAt)));
    return row ?? null;
  },
};
