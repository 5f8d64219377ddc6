import type { ListQueryOf, loginLogResource, operLogResource, sessionResource } from '@atrium/contracts';
import { and, count, eq, gt, gte, isNull, lte, sql } from 'drizzle-orm';
import { invalidField } from '../../../crud/conflict';
import type { Ctx } from '../../../crud/context';
import { allOf } from '../../../crud/data-scope';
import { contains, keysetPage, orderOf, pageOffset } from '../../../crud/query';
import { listTotal } from '../../../crud/totals';
import { oneAtATime } from '../../../db/client';
import { accounts, loginLogs, operLogs, sessions } from '../../../db/schema';

const iso = (d: Date) => d.toISOString();
const mineOne = (ctx: Ctx, id: unknown) => and(eq(operLogs.tenantId, ctx.caller.tenantId), eq(operLogs.id, id as number));

export const operLogRepository = {
  async list(ctx: Ctx, q: ListQueryOf<typeof operLogResource>) {
    const where = allOf(
      eq(operLogs.tenantId, ctx.caller.tenantId),
      contains(operLogs.operator, q.operator),
      // a module is picked from the list the page offers (see /system/operlog/modules): exact, index-served
      q.module ? eq(operLogs.module, q.module) : undefined,
      contains(operLogs.action, q.action),
      q.result ? eq(operLogs.result, q.result) : undefined,
      q.createTimeFrom ? gte(operLogs.createTime, q.createTimeFrom) : undefined,
      q.createTimeTo ? lte(operLogs.createTime, q.createTimeTo) : undefined,
    );
    const page = pageOffset(q);
    const sortColumns = { createTime: operLogs.createTime, durationMs: operLogs.durationMs };
    // after/before an entry: the page next to it by keyset, for deep pages of a large log
    const keyset = keysetPage(
      q,
      sortColumns,
      operLogs.id,
      (id) => sql`select ${sortColumns[q.sort.column]} from ${operLogs} where ${mineOne(ctx, id)}`,
    );
    const rows = await ctx.tx
      .select()
      .from(operLogs)
      .where(allOf(where, keyset.where))
      .orderBy(...keyset.order)
      .limit(page.limit)
      .offset(keyset.where ? 0 : page.offset);
    if (keyset.backwards) rows.reverse();
    const cursor = q.after ?? q.before;
    if (cursor !== undefined && rows.length === 0 && !(await operLogRepository.get(ctx, cursor))) {
      throw invalidField(q.after !== undefined ? 'after' : 'before', 'ref', 'ref.missingId', { id: cursor });
    }
    const total = await listTotal(ctx, async () => (await ctx.tx.select({ n: count() }).from(operLogs).where(where))[0]?.n ?? 0);
    return { list: rows.map(toOperLog), total };
  },
  async get(ctx: Ctx, id: number) {
    const [row] = await ctx.tx.select().from(operLogs).where(mineOne(ctx, id));
    return row ? toOperLog(row) : null;
  },
};

function toOperLog(row: typeof operLogs.$inferSelect) {
  const { tenantId: _t, accountRef: _a, ...rest } = row;
  return { ...rest, result: rest.result as 'success' | 'failure', createTime: iso(rest.createTime) };
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
    const [rows, [total]] = await oneAtATime([
      ctx.tx
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
        .offset(page.offset),
      ctx.tx.select({ n: count() }).from(loginLogs).where(where),
    ]);
    return { list: rows.map((r) => ({ ...r, createTime: iso(r.createTime) })), total: total?.n ?? 0 };
  },
  async get() {
    return null;
  },
};

/** Live sessions in the caller's tenant. */
export const sessionRepository = {
  async list(ctx: Ctx, q: ListQueryOf<typeof sessionResource>) {
    const where = allOf(
      eq(sessions.tenantRef, ctx.caller.tenantId),
      isNull(sessions.endedAt),
      gt(sessions.expiresAt, new Date()),
      contains(accounts.accountId, q.accountId),
      contains(sessions.ip, q.ip),
    );
    const page = pageOffset(q);
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
      ctx.tx.select({ n: count() }).from(sessions).innerJoin(accounts, eq(accounts.id, sessions.accountId)).where(where),
    ]);
    return {
      list: rows.map((r) => ({
        ...r,
        createTime: iso(r.createTime),
        lastSeenAt: iso(r.lastSeenAt),
        expiresAt: iso(r.expiresAt),
        current: r.id === ctx.caller.sessionId,
      })),
      total: total?.n ?? 0,
    };
  },
  async get() {
    return null;
  },
  /** The session if it is live and in the caller's tenant. */
  async findLive(ctx: Ctx, id: number) {
    const [row] = await ctx.tx
      .select({ id: sessions.id, superAdmin: accounts.superAdmin, accountId: accounts.accountId })
      .from(sessions)
      .innerJoin(accounts, eq(accounts.id, sessions.accountId))
      .where(and(eq(sessions.id, id), eq(sessions.tenantRef, ctx.caller.tenantId), isNull(sessions.endedAt)));
    return row ?? null;
  },
};
