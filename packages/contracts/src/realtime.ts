import { z } from 'zod';
import { pageOf, pageQuerySchema } from './envelope';

/**
 * Realtime (spec 7 and 9): the browser subscribes at QoS 2 to `atrium-web/+/{clientKey}`, where
 * `clientKey` is the signed-in account's opaque key; the middle level names what is published.
 */
export const REALTIME_TOPIC_ROOT = 'atrium-web';
export const REALTIME_QOS = 2 as const;
export const REALTIME_CONNECT_TIMEOUT_MS = 4000;
export const REALTIME_PATH = '/mqtt';

/** What travels on a topic: notifications, background task progress, printer status, client signals, monitor frames. */
export const realtimeKinds = ['notification', 'task', 'printer', 'client', 'monitor'] as const;
export type RealtimeKind = (typeof realtimeKinds)[number];

export function realtimeTopic(kind: RealtimeKind, clientKey: string): string {
  return `${REALTIME_TOPIC_ROOT}/${kind}/${clientKey}`;
}

/** The one subscription a browser makes for its account. */
export function realtimeSubscription(clientKey: string): string {
  return `${REALTIME_TOPIC_ROOT}/+/${clientKey}`;
}

// client ids live apart from the schemas, so the web app's connection code loads without zod
export { ownsClientId, realtimeClientId } from './realtime-ids';

/** Limits the embedded broker enforces on every client. */
export const realtimeLimits = {
  /** Largest MQTT packet a client may send, in bytes. */
  maxPacketBytes: 16 * 1024,
  /** Publishes a client may send per window before it is disconnected. */
  publishBurst: 20,
  publishWindowMs: 10_000,
  /** Subscriptions one client may hold. */
  maxSubscriptions: 8,
  /** Connections one account may hold on one broker (tabs, devices). */
  maxConnectionsPerAccount: 32,
} as const;

/**
 * Where a browser connects: `url` when given (a proxy or an external broker), otherwise
 * ws(s)://{page host}:{port}{path}. Null `url` and `port`: no live delivery is configured.
 */
export const realtimeConnectionSchema = z.object({
  url: z.string().nullable(),
  port: z.number().int().nullable(),
  path: z.string(),
  topic: z.string(),
  qos: z.literal(REALTIME_QOS),
  connectTimeout: z.number().int(),
});
export type RealtimeConnection = z.infer<typeof realtimeConnectionSchema>;

export const notificationTypes = ['message', 'notice', 'todo'] as const;
export const notificationTypeSchema = z.enum(notificationTypes);
export type NotificationType = z.infer<typeof notificationTypeSchema>;

export const notificationSchema = z.object({
  id: z.number().int(),
  type: notificationTypeSchema,
  title: z.string(),
  content: z.string(),
  link: z.string().nullable(),
  sender: z.string().nullable(),
  read: z.boolean(),
  createTime: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const unreadCountsSchema = z.object({ message: z.number().int(), notice: z.number().int(), todo: z.number().int() });
export type UnreadCounts = z.infer<typeof unreadCountsSchema>;

/** `read` arrives from a query string: true/false (or 1/0). */
export const booleanQueryValues = ['true', 'false', '1', '0'] as const;
const booleanQuery = z
  .enum(booleanQueryValues)
  .optional()
  .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1'));

export const notificationListQuerySchema = pageQuerySchema.extend({
  type: notificationTypeSchema.optional(),
  read: booleanQuery,
});
export type NotificationListQuery = z.output<typeof notificationListQuerySchema>;

export const notificationPageSchema = pageOf(notificationSchema).extend({ unread: unreadCountsSchema });
export type NotificationPage = z.infer<typeof notificationPageSchema>;

export const readAllQuerySchema = z.object({ type: notificationTypeSchema.optional() });

export const noticeScopes = ['tenant', 'role', 'dept', 'users'] as const;
export const noticeScopeSchema = z.enum(noticeScopes);
export type NoticeScope = z.infer<typeof noticeScopeSchema>;

/** Sending a notice. `targetIds`: role ids, department ids or user ids of the tenant; none for `tenant`. */
export const noticeInputSchema = z
  .object({
    title: z.string().trim().min(1).max(200),
    content: z.string().max(5000).default(''),
    type: notificationTypeSchema.default('notice'),
    scope: noticeScopeSchema,
    targetIds: z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).max(1000).default([]),
  })
  .superRefine((value, ctx) => {
    if (value.scope !== 'tenant' && value.targetIds.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['targetIds'], message: 'choose at least one target for this scope' });
    }
  });
export type NoticeInput = z.input<typeof noticeInputSchema>;

export const noticeSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  type: notificationTypeSchema,
  scope: noticeScopeSchema,
  targetIds: z.array(z.number().int()),
  recipients: z.number().int(),
  sender: z.string().nullable(),
  createTime: z.string(),
});
export type Notice = z.infer<typeof noticeSchema>;

/** A notice's detail adds how many of its recipients have read it. */
export const noticeDetailSchema = noticeSchema.extend({ readCount: z.number().int() });
export type NoticeDetail = z.infer<typeof noticeDetailSchema>;

export const noticeListQuerySchema = pageQuerySchema.extend({
  title: z
    .string()
    .trim()
    .max(200)
    .optional()
    .transform((v) => (v ? v : undefined)),
  type: notificationTypeSchema.optional(),
  scope: noticeScopeSchema.optional(),
});

/** `live` is false when the broker could not take the message now; it is stored and shows on next read. */
export const noticeSendResultSchema = z.object({ id: z.number().int(), recipients: z.number().int(), live: z.boolean() });
export type NoticeSendResult = z.infer<typeof noticeSendResultSchema>;

export const noticeMessages = {
  sent: { zh: '通知已发送', en: 'Notice sent' },
  liveDelayed: {
    zh: '通知已保存，实时推送暂时延迟，收件人刷新后即可看到',
    en: 'Notice saved; live delivery is delayed, recipients will see it when they next load their messages',
  },
} as const;

/** What the server publishes on `atrium-web/notification/{clientKey}`. */
export type NotificationEvent =
  | { kind: 'notification'; action: 'created'; tenantId: number; notification: Notification }
  | { kind: 'notification'; action: 'read' | 'removed'; tenantId: number; ids: number[] | 'all' };
