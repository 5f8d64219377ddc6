import { z } from 'zod';
import { createTimeField, type FieldMeta } from '../entity';
import { dateFilter, textFilter } from '../resource';
import { auditResults } from './common';
import { systemRecords } from './entity';

export { auditResults, type LoginResult, loginResults } from './common';

const between = { createTimeFrom: dateFilter(), createTimeTo: dateFilter() };
// the columns both logs begin with; a hidden column is in the export and the page's column settings
const hidden = { hidden: true } as const;
const logFields = [
  { field: 'id', label: 'system.log.id', exportWidth: 10, column: hidden },
  { ...createTimeField, label: 'system.log.time', exportWidth: 24 },
] as const satisfies readonly FieldMeta[];

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

/** Operation log: every write of the tenant, read-only; its fields are the page's and the Excel export's columns. */
export const operLogEntity = systemRecords({
  name: 'operlog',
  item: operLogSchema,
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
  fields: [
    ...logFields,
    { field: 'operator', label: 'system.log.operator' },
    { field: 'module', label: 'system.log.module' },
    { field: 'action', label: 'system.log.action' },
    { field: 'target', label: 'system.log.target', exportWidth: 30 },
    { field: 'targetName', label: 'system.log.targetName', exportWidth: 30, column: hidden },
    { field: 'method', label: 'system.log.method', exportWidth: 10, column: hidden },
    { field: 'url', label: 'system.log.url', exportWidth: 40, column: hidden },
    { field: 'ip', label: 'system.log.ip' },
    { field: 'result', label: 'system.log.result', codes: 'auditResult', exportWidth: 10 },
    { field: 'errorMessage', label: 'system.log.error', exportWidth: 40, column: hidden },
    { field: 'durationMs', label: 'system.log.duration', widget: 'number', exportWidth: 14, column: { width: 110 } },
    { field: 'summary', label: 'system.log.summary', exportWidth: 60, column: hidden },
  ],
});
export const operLogResource = operLogEntity.resource;

export const loginLogSchema = z.object({
  id: z.number().int(),
  account: z.string(),
  result: z.string(),
  reason: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createTime: z.string(),
});

/** Login log: every sign-in attempt into the tenant, read-only; its fields are the page's and the Excel export's columns. */
export const loginLogEntity = systemRecords({
  name: 'loginlog',
  item: loginLogSchema,
  filters: z.object({ account: textFilter(100), ip: textFilter(64), result: textFilter(20), ...between }),
  sortable: ['createTime'],
  defaultSort: { column: 'createTime', direction: 'desc' },
  actions: ['list', 'export'],
  fields: [
    ...logFields,
    { field: 'account', label: 'system.log.account' },
    { field: 'result', label: 'system.log.result', codes: 'loginResult', exportWidth: 12 },
    { field: 'reason', label: 'system.log.reason', exportWidth: 24 },
    { field: 'ip', label: 'system.log.ip' },
    { field: 'userAgent', label: 'system.log.userAgent', exportWidth: 50, column: hidden },
  ],
});
export const loginLogResource = loginLogEntity.resource;

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

/** Online sessions in the tenant; force-logout ends one (its holder gets 1302). Its page is its own, its columns and search these fields. */
export const sessionEntity = systemRecords({
  name: 'session',
  item: sessionSchema,
  filters: z.object({ accountId: textFilter(30), ip: textFilter(64) }),
  sortable: ['lastSeenAt', 'createTime'],
  defaultSort: { column: 'lastSeenAt', direction: 'desc' },
  actions: ['list'],
  extraActions: ['forceLogout'],
  fields: [
    { field: 'accountId', label: 'system.session.accountId', search: true },
    { field: 'name', label: 'system.session.name' },
    { field: 'ip', label: 'system.session.ip', search: true },
    { field: 'deviceType', label: 'system.session.device' },
    { field: 'lastSeenAt', label: 'system.session.lastSeen', widget: 'datetime' },
    { ...createTimeField, label: 'system.session.created' },
  ],
});
export const sessionResource = sessionEntity.resource;

export type OperLog = z.infer<typeof operLogSchema>;
export type LoginLog = z.infer<typeof loginLogSchema>;
export type OnlineSession = z.infer<typeof sessionSchema>;
