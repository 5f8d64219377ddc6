import {
  type Notification,
  type NotificationListQuery,
  type NotificationType,
  notificationTypeSchema,
  notificationTypes,
  type UnreadCounts,
} from '@atrium/contracts/realtime';
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { oneAtATime, type Tx } from '../../db/client';
import { notifications, tenantUsers } from '../../db/schema';

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

type Owner = { tenantId: number; accountRef: number };

const mine = (owner: Owner) => and(eq(notifications.tenantId, owner.tenantId), eq(notifications.accountRef, owner.accountRef));

export async function listNotifications(tx: Tx, owner: Owner, query: NotificationListQuery) {
  const filters: SQL[] = [];
  if (query.type) filters.push(eq(notifications.type, query.type));
  if (query.read !== undefined) filters.push(eq(notifications.read, query.read));
  const where = and(mine(owner), ...filters);
  const [rows, [total], unread] = await oneAtATime([
    tx
      .select()
      .from(notifications)
      .where(where)
      .orderBy(desc(notifications.createTime), desc(notifications.id))
      .limit(query.pageSize)
      .offset((query.pageNum - 1) * query.pageSize),
    tx.select({ n: count() }).from(notifications).where(where),
    () => unreadCounts(tx, owner),
  ]);
  return { list: rows.map(toNotification), total: total?.n ?? 0, pageNum: query.pageNum, pageSize: query.pageSize, unread };
}

export async function unreadCounts(tx: Tx, owner: Owner): Promise<UnreadCounts> {
  const rows = await tx
    .select({ type: notifications.type, n: count() })
    .from(notifications)
    .where(and(mine(owner), eq(notifications.read, false)))
    .groupBy(notifications.type);
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
