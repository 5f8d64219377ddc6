import {
  type Notification,
  type NotificationListQuery,
  type NotificationType,
  notificationTypeSchema,
  notificationTypes,
  type UnreadCounts,
} from '@atrium/contracts/realtime';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { pageOffset } from '../../crud/paging';
import type { RawResult, Tx } from '../../db/client';
import { notificationCounts, notifications, tenantUsers } from '../../db/schema';

export type NotificationRow = typeof notifications.$inferSelect;

/** What other domains hand to `app.notify`; checked here because it does not come through a route schema. */
export const notifyInputSchema = z.object({
  tenantId: z.number().int().positive(),
  accountRefs: z.array(z.number().int().positive()),
  type: notificationTypeSchema,
  title: z.string().trim().min(1).max(200),
  content: z.string().max(20_000).default(''),
  link: z.string().max(500).nullish(),
  sender: z.string().max(30).nullish(),
  noticeId: z.number().int().positive().optional(),
});
export type NotifyInput = z.input<typeof notifyInputSchema>;

const INSERT_CHUNK = 500;

export function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    type: row.type as NotificationType,
    title: row.title,
    content: row.content,
    link: row.link,
    sender: row.sender,
    read: row.read,
    createTime: row.createTime.toISOString(),
  };
}

/**
 * Stores one notification per recipient, inside the caller's tenant transaction. Recipients that are not
 * users of the tenant are dropped, so a wrong account id can never put a row where it does not belong.
 */
export async function storeNotifications(tx: Tx, input: NotifyInput): Promise<NotificationRow[]> {
  const data = notifyInputSchema.parse(input);
  const wanted = [...new Set(data.accountRefs)];
  if (wanted.length === 0) return [];
  const members = new Set<number>();
  for (let i = 0; i < wanted.length; i += INSERT_CHUNK) {
    const rows = await tx
      .select({ accountRef: tenantUsers.accountRef })
      .from(tenantUsers)
      .where(and(eq(tenantUsers.tenantId, data.tenantId), inArray(tenantUsers.accountRef, wanted.slice(i, i + INSERT_CHUNK))));
    for (const row of rows) members.add(row.accountRef);
  }
  const recipients = wanted.filter((ref) => members.has(ref));
  const stored: NotificationRow[] = [];
  for (let i = 0; i < recipients.length; i += INSERT_CHUNK) {
    const rows = await tx
      .insert(notifications)
      .values(
        recipients.slice(i, i + INSERT_CHUNK).map((accountRef) => ({
          tenantId: data.tenantId,
          accountRef,
          type: data.type,
          title: data.title,
          content: data.content,
          link: data.link ?? null,
          sender: data.sender ?? null,
          noticeId: data.noticeId ?? null,
        })),
      )
      .returning();
    stored.push(...rows);
  }
  return stored;
}

/** The account whose notifications in this tenant a call reads or changes. */
export type Owner = { tenantId: number; accountRef: number };

const mine = (owner: Owner) => and(eq(notifications.tenantId, owner.tenantId), eq(notifications.accountRef, owner.accountRef));

export async function listNotifications(tx: Tx, owner: Owner, query: NotificationListQuery) {
  const filters: SQL[] = [];
  if (query.type) filters.push(eq(notifications.type, query.type));
  if (query.read !== undefined) filters.push(eq(notifications.read, query.read));
  const where = and(mine(owner), ...filters);
  const page = pageOffset(query);
  // one round trip: the counts from the account's kept counts (three rows, see notificationCounts) and
  // the page beside them; every filter's total is a sum of those counts
  const totalOf = sql.raw(query.read === undefined ? 'total' : query.read ? 'total - unread' : 'unread');
  const ofType = query.type ? sql`${notificationCounts.type} = ${query.type}` : sql`true`;
  const result = (await tx.execute(sql`
    select c.total, c.message, c.notice, c.todo,
           p.id, p.type, p.title, p.content, p.link, p.sender, p.read, p.create_time
      from (select coalesce(sum(${totalOf}) filter (where ${ofType}), 0)::int as total,
                   coalesce(sum(unread) filter (where ${notificationCounts.type} = 'message'), 0)::int as message,
                   coalesce(sum(unread) filter (where ${notificationCounts.type} = 'notice'), 0)::int as notice,
                   coalesce(sum(unread) filter (where ${notificationCounts.type} = 'todo'), 0)::int as todo
              from ${notificationCounts}
             where ${notificationCounts.tenantId} = ${owner.tenantId} and ${notificationCounts.accountRef} = ${owner.accountRef}) c
      left join lateral (
            select id, type, title, content, link, sender, read, create_time from ${notifications}
             where ${where}
             order by create_time desc, id desc
             limit ${page.limit} offset ${page.offset}) p on true
     order by p.create_time desc, p.id desc`)) as RawResult<{
    total: number;
    message: number;
    notice: number;
    todo: number;
    id: number | string | null;
    type: string;
    title: string;
    content: string;
    link: string | null;
    sender: string | null;
    read: boolean;
    create_time: Date | string;
  }>;
  const first = result.rows[0];
  const list: Notification[] = result.rows
    .filter((r) => r.id !== null)
    .map((r) => ({
      id: Number(r.id),
      type: r.type as NotificationType,
      title: r.title,
      content: r.content,
      link: r.link,
      sender: r.sender,
      read: r.read,
      createTime: new Date(r.create_time).toISOString(),
    }));
  return {
    list,
    total: Number(first?.total ?? 0),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
    unread: { message: Number(first?.message ?? 0), notice: Number(first?.notice ?? 0), todo: Number(first?.todo ?? 0) },
  };
}

/** The owner's unread notifications per type, from the kept counts. */
export async function unreadCounts(tx: Tx, owner: Owner): Promise<UnreadCounts> {
  const rows = await tx
    .select({ type: notificationCounts.type, n: notificationCounts.unread })
    .from(notificationCounts)
    .where(and(eq(notificationCounts.tenantId, owner.tenantId), eq(notificationCounts.accountRef, owner.accountRef)));
  const counts: UnreadCounts = { message: 0, notice: 0, todo: 0 };
  for (const row of rows) if ((notificationTypes as readonly string[]).includes(row.type)) counts[row.type as NotificationType] = row.n;
  return counts;
}
/** Marks one of the owner's notifications read; false when it is not theirs (or does not exist). */
export async function markRead(tx: Tx, owner: Owner, id: number): Promise<boolean> {
  const rows = await tx
    .update(notifications)
    .set({ read: true })
    .where(and(mine(owner), eq(notifications.id, id)))
    .returning({ id: notifications.id });
  return rows.length > 0;
}

export async function markAllRead(tx: Tx, owner: Owner, type?: NotificationType): Promise<number> {
  const rows = await tx
    .update(notifications)
    .set({ read: true })
    .where(and(mine(owner), eq(notifications.read, false), type ? eq(notifications.type, type) : undefined))
    .returning({ id: notifications.id });
  return rows.length;
}

export async function removeNotification(tx: Tx, owner: Owner, id: number): Promise<boolean> {
  const rows = await tx
    .delete(notifications)
    .where(and(mine(owner), eq(notifications.id, id)))
    .returning({ id: notifications.id });
  return rows.length > 0;
}
