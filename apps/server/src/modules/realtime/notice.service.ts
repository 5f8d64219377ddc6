import type {
  Notice,
  NoticeDetail,
  NoticeScope,
  NotificationType,
  noticeInputSchema,
  noticeListQuerySchema,
} from '@atrium/contracts/realtime';
import { and, count, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { oneAtATime, type Tx } from '../../db/client';
import { accounts, depts, notices, notifications, roles, tenantUsers, userRoles } from '../../db/schema';
import { AppError } from '../../errors';
import { type NotificationRow, storeNotifications } from './notification.repository';

type NoticeRow = typeof notices.$inferSelect;
export type NoticeInputData = z.output<typeof noticeInputSchema>;
export type NoticeListQuery = z.output<typeof noticeListQuerySchema>;

const ACTIVE = '0';

export function toNotice(row: NoticeRow): Notice {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    type: row.type as NotificationType,
    scope: row.scope as NoticeScope,
    targetIds: row.targetIds,
    recipients: row.recipients,
    sender: row.sender,
    createTime: row.createTime.toISOString(),
  };
}

/** Target ids the tenant does not have (other tenants' ids are invisible here, so they count as missing). */
async function missingTargets(tx: Tx, scope: NoticeScope, ids: number[]): Promise<number[]> {
  if (scope === 'tenant' || ids.length === 0) return [];
  const table = scope === 'role' ? roles : scope === 'dept' ? depts : tenantUsers;
  const found = await tx.select({ id: table.id }).from(table).where(inArray(table.id, ids));
  const present = new Set(found.map((row) => row.id));
  return ids.filter((id) => !present.has(id));
}

/** The accounts a notice reaches: active users of the tenant, a role, a department and the ones below it, or chosen users. */
export async function recipientsOf(tx: Tx, scope: NoticeScope, ids: number[]): Promise<number[]> {
  let where: SQL | undefined;
  if (scope === 'users') where = inArray(tenantUsers.id, ids);
  if (scope === 'role') {
    where = inArray(tenantUsers.id, tx.select({ id: userRoles.userId }).from(userRoles).where(inArray(userRoles.roleId, ids)));
  }
  if (scope === 'dept') {
    // `ancestors` lists every department above; matching it finds the whole subtree
    const below = tx
      .select({ id: depts.id })
      .from(depts)
      .where(
        or(
          inArray(depts.id, ids),
          sql`exists (select 1 from jsonb_array_elements_text(${depts.ancestors}) as a(v) where a.v::bigint in ${ids})`,
        ),
      );
    where = inArray(tenantUsers.deptId, below);
  }
  const rows = await tx
    .selectDistinct({ accountRef: tenantUsers.accountRef })
    .from(tenantUsers)
    .where(and(eq(tenantUsers.status, ACTIVE), where));
  return rows.map((row) => row.accountRef);
}

export type SendResult = { notice: NoticeRow; stored: NotificationRow[] };

/** Stores the notice and one notification per recipient, in the caller's tenant transaction. */
export async function sendNotice(tx: Tx, sender: { tenantId: number; accountRef: number }, input: NoticeInputData): Promise<SendResult> {
  const targetIds = input.scope === 'tenant' ? [] : [...new Set(input.targetIds)];
  const missing = await missingTargets(tx, input.scope, targetIds);
  if (missing.length > 0) {
    throw new AppError('validation', {
      fields: missing.map((id) => ({
        field: `targetIds.${input.targetIds.indexOf(id)}`,
        rule: 'exists',
        message: 'ref.missingId',
        params: { id },
      })),
    });
  }
  const [account] = await tx
    .select({ nickname: accounts.nickname, accountId: accounts.accountId })
    .from(accounts)
    .where(eq(accounts.id, sender.accountRef));
  const senderName = (account?.nickname || account?.accountId || '').slice(0, 30) || null;
  const recipients = await recipientsOf(tx, input.scope, targetIds);
  const [notice] = await tx
    .insert(notices)
    .values({
      tenantId: sender.tenantId,
      title: input.title,
      content: input.content,
      type: input.type,
      scope: input.scope,
      targetIds,
      recipients: recipients.length,
      senderRef: sender.accountRef,
      sender: senderName,
    })
    .returning();
  const row = notice as NoticeRow;
  const stored = await storeNotifications(tx, {
    tenantId: sender.tenantId,
    accountRefs: recipients,
    type: input.type,
    title: input.title,
    content: input.content,
    sender: senderName,
    noticeId: row.id,
  });
  if (stored.length !== recipients.length) {
    await tx
      .update(notices)
      .set({ recipients: stored.length })
      .where(and(eq(notices.tenantId, sender.tenantId), eq(notices.id, row.id)));
    row.recipients = stored.length;
  }
  return { notice: row, stored };
}

export async function listNotices(tx: Tx, tenantId: number, query: NoticeListQuery) {
  const where = and(
    eq(notices.tenantId, tenantId),
    query.title ? ilike(notices.title, `%${query.title.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
    query.type ? eq(notices.type, query.type) : undefined,
    query.scope ? eq(notices.scope, query.scope) : undefined,
  );
  const [rows, [total]] = await oneAtATime([
    tx
      .select()
      .from(notices)
      .where(where)
      .orderBy(desc(notices.createTime), desc(notices.id))
      .limit(query.pageSize)
      .offset((query.pageNum - 1) * query.pageSize),
    tx.select({ n: count() }).from(notices).where(where),
  ]);
  return { list: rows.map(toNotice), total: total?.n ?? 0, pageNum: query.pageNum, pageSize: query.pageSize };
}

export async function getNotice(tx: Tx, tenantId: number, id: number): Promise<NoticeDetail | null> {
  const [row] = await tx
    .select()
    .from(notices)
    .where(and(eq(notices.tenantId, tenantId), eq(notices.id, id)));
  if (!row) return null;
  const [read] = await tx
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.tenantId, tenantId), eq(notifications.noticeId, id), eq(notifications.read, true)));
  return { ...toNotice(row), readCount: read?.n ?? 0 };
}

/** Withdraws a notice: it and the notifications it put in people's boxes go. Answers their owners, or null. */
export async function deleteNotice(tx: Tx, tenantId: number, id: number): Promise<{ byAccount: Map<number, number[]> } | null> {
  const removed = await tx
    .delete(notifications)
    .where(and(eq(notifications.tenantId, tenantId), eq(notifications.noticeId, id)))
    .returning({ id: notifications.id, accountRef: notifications.accountRef });
  const gone = await tx
    .delete(notices)
    .where(and(eq(notices.tenantId, tenantId), eq(notices.id, id)))
    .returning({ id: notices.id });
  if (gone.length === 0) return null;
  const byAccount = new Map<number, number[]>();
  for (const { id: notificationId, accountRef } of removed)
    byAccount.set(accountRef, [...(byAccount.get(accountRef) ?? []), notificationId]);
  return { byAccount };
}
