import { z } from 'zod';
import { dateFilter, defineResource, textFilter } from '../resource';

/** What an operation-log entry says of the operation. */
export const auditResults = ['success', 'failure'] as const;

const none = z.object({});
const between = { createTimeFrom: dateFilter(), createTimeTo: dateFilter() };

export const operLogSchema = z.object({
  id: z.number().int(),
  operator: z.string().nullable(),
  module: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  /** What the target was called when the entry was written (`hq0001 张三`); null on entries from before it was kept. */
  targetName: z.string().nullable(),
  method: z.string(),
  url: z.string(),
  ip: z.string().nullable(),
  summary: z.record(z.string(), z.unknown()).nullable(),
  result: z.enum(auditResults),
  errorMessage: z.string().nullable(),
  durationMs: z.number().int(),
  createTime: z.string(),
  /** The personal API token the operation was made with; null when it was made in a signed-in session. */
  apiTokenId: z.number().int().nullable().optional(),
});

/** Operation log: every write of the tenant, read-only. */
export const operLogResource = defineResource({
  name: 'operlog',
  domain: 'system',
  basePath: '/system/operlog',
  item: operLogSchema,
  create: none,
  update: none,
  filters: z.object({
    operator: textFilter(30),
    module: textFilter(50),
    action: textFilter(30),
    result: z.enum(auditResults).optional(),
    ...between,
  }),
  sortable: ['createTime', 'durationMs'],
  keyset: true,
  defaultSort: { column: 'createTime', direction: 'desc' },
  actions: ['list', 'query', 'export'],
});

/** What a login-log entry says happened: every result the server writes. */
export const loginResults = ['success', 'failure', 'locked', 'logout', 'register', 'mfa'] as const;
export type LoginResult = (typeof loginResults)[number];

export const loginLogSchema = z.object({
  id: z.number().int(),
  account: z.string(),
  result: z.string(),
  reason: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createTime: z.string(),
});

/** Login log: every sign-in attempt into the tenant, read-only. */
export const loginLogResource = defineResource({
  name: 'loginlog',
  domain: 'system',
  basePath: '/system/loginlog',
  item: loginLogSchema,
  create: none,
  update: none,
  filters: z.object({ account: textFilter(100), ip: textFilter(64), result: textFilter(20), ...between }),
  sortable: ['createTime'],
  defaultSort: { column: 'createTime', direction: 'desc' },
  actions: ['list', 'export'],
});

export const sessionSchema = z.object({
  id: z.number().int(),
  accountId: z.string(),
  name: z.string(),
  ip: z.string().nullable(),
  deviceType: z.string().nullable(),
  userAgent: z.string().nullable(),
  createTime: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  /** the caller's own session */
  current: z.boolean(),
});

/** Online sessions in the tenant; force-logout ends one (its holder gets 1302). */
export const sessionResource = defineResource({
  name: 'session',
  domain: 'system',
  basePath: '/system/session',
  item: sessionSchema,
  create: none,
  update: none,
  filters: z.object({ accountId: textFilter(30), ip: textFilter(64) }),
  sortable: ['lastSeenAt', 'createTime'],
  defaultSort: { column: 'lastSeenAt', direction: 'desc' },
  actions: ['list'],
});

export type OperLog = z.infer<typeof operLogSchema>;
export type LoginLog = z.infer<typeof loginLogSchema>;
export type OnlineSession = z.infer<typeof sessionSchema>;
