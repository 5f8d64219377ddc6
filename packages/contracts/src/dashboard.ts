import { z } from 'zod';
import { ianaTimeZone, isoDay } from './dates';
import { defineResource } from './resource';

/**
 * The dashboard and visualization pages on the tenant's own data (spec §1–2): the workplace (any role;
 * each section only for those who may read what it sums up), the analysis pages (admin) and the live
 * monitor (admin). Money is in fen, as everywhere.
 */

/** yyyy-mm-dd */
const day = isoDay();
/** Sent by earlier releases' pages, and no longer read: days are cut in the tenant's time zone (its business day). */
const timeZone = ianaTimeZone();

/** The longest range one analysis covers. */
export const ANALYSIS_MAX_DAYS = 366;
export const analysisGranularities = ['day', 'week', 'month'] as const;
export const analysisDimensions = ['category', 'warehouse'] as const;

const analysisQueryObject = z.object({
  from: day,
  to: day,
  granularity: z.enum(analysisGranularities).default('day'),
  warehouseId: z.coerce.number().int().positive().optional(),
  categoryId: z.coerce.number().int().positive().optional(),
  tz: timeZone.optional(),
});

function checkRange(q: { from: string; to: string }, ctx: z.RefinementCtx) {
  const span = (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000;
  if (span < 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'range.order' });
  else if (span >= ANALYSIS_MAX_DAYS) ctx.addIssue({ code: 'custom', path: ['to'], message: `range.max${ANALYSIS_MAX_DAYS}` });
}

export const analysisQuerySchema = analysisQueryObject.superRefine(checkRange);

/** The charts whose data exports to Excel, one sheet each. */
export const analysisDatasets = ['sales', 'category', 'warehouse', 'members', 'topMembers', 'activities', 'matrix'] as const;
export type AnalysisDataset = (typeof analysisDatasets)[number];
export const analysisExportQuerySchema = analysisQueryObject.extend({ dataset: z.enum(analysisDatasets) }).superRefine(checkRange);
export type AnalysisQuery = z.infer<typeof analysisQuerySchema>;

const amountPoint = z.object({ period: z.string(), amount: z.number(), orders: z.number().int() });
const named = z.object({ id: z.number().int().nullable(), name: z.string(), amount: z.number(), orders: z.number().int() });

export const analysisSchema = z.object({
  /** sales by period (confirmed, shipped or completed orders, by their confirmation time) */
  sales: z.array(amountPoint),
  byCategory: z.array(named),
  byWarehouse: z.array(named),
  /** category × warehouse: the multi-dimension page's matrix */
  matrix: z.array(z.object({ category: z.string(), warehouse: z.string(), amount: z.number(), quantity: z.number() })),
  memberGrowth: z.array(z.object({ period: z.string(), count: z.number().int(), total: z.number().int() })),
  topMembers: z.array(named),
  /** per activity: orders of its SKUs while it ran */
  activities: z.array(named.extend({ quantity: z.number() })),
  totals: z.object({ amount: z.number(), orders: z.number().int(), quantity: z.number(), members: z.number().int() }),
});
export type Analysis = z.infer<typeof analysisSchema>;

/** A read-only report: routes of its own (typedRoute), a permission prefix, nothing conventional. */
const report = <Item extends z.ZodObject>(name: string, item: Item) =>
  defineResource({
    name,
    domain: 'dashboard',
    basePath: `/dashboard/${name}`,
    item,
    create: z.object({}),
    update: z.object({}),
    filters: z.object({}),
    sortable: ['time'],
    defaultSort: { column: 'time', direction: 'desc' },
    actions: [],
  });

export const analysisResource = report('analysis', analysisSchema);

/** What the workplace shows; a section is null for someone who may not read what it sums up. */
export const workplaceSchema = z.object({
  sales: z
    .object({
      todayAmount: z.number(),
      todayOrders: z.number().int(),
      monthAmount: z.number(),
      monthOrders: z.number().int(),
      /** the last 30 days, oldest first */
      trend: z.array(amountPoint),
      popular: z.array(z.object({ productId: z.number().int(), name: z.string(), quantity: z.number(), amount: z.number() })),
      categoryShare: z.array(z.object({ name: z.string(), amount: z.number() })),
    })
    .nullable(),
  members: z.object({ total: z.number().int(), newThisMonth: z.number().int() }).nullable(),
  /** for those who may read stock (`erp:product:query`) */
  lowStock: z.object({ threshold: z.number().int(), skus: z.number().int() }).nullable(),
  /** release tasks waiting for an approval this user may give */
  pendingApprovals: z.number().int(),
  notices: z.array(z.object({ id: z.number().int(), title: z.string(), createTime: z.string(), read: z.boolean() })),
});
export type Workplace = z.infer<typeof workplaceSchema>;
export const workplaceQuerySchema = z.object({ tz: timeZone.optional() });

/** A SKU counts as low on stock at or below this many units over all warehouses. */
export const LOW_STOCK_THRESHOLD = 5;

/** The live monitor: one snapshot, then frames over MQTT (`atrium-web/monitor/{clientKey}`) while the page is open. */
export const monitorFrameSchema = z.object({
  time: z.string(),
  /** this server process: the platform's figures, for a super admin only (null for everyone else) */
  server: z
    .object({
      cpuPercent: z.number(),
      rssMb: z.number(),
      heapUsedMb: z.number(),
      eventLoopDelayMs: z.number(),
      requestsPerSecond: z.number(),
      uptimeSeconds: z.number(),
      dbPool: z.object({ total: z.number().int(), idle: z.number().int(), waiting: z.number().int() }).nullable(),
    })
    .nullable(),
  /** this tenant */
  tenant: z.object({
    onlineSessions: z.number().int(),
    ordersLastMinute: z.number().int(),
    printersOnline: z.number().int(),
    printers: z.number().int(),
    agentsOnline: z.number().int(),
    agents: z.number().int(),
  }),
  /** clients of the embedded broker, all tenants': a super admin's only (null for everyone else, or with an external broker) */
  brokerClients: z.number().int().nullable(),
});
export type MonitorFrame = z.infer<typeof monitorFrameSchema>;
export const monitorSnapshotSchema = z.object({
  frame: monitorFrameSchema,
  /** orders per minute over the last hour, oldest first */
  ordersPerMinute: z.array(z.object({ minute: z.string(), orders: z.number().int() })),
  /** how long frames keep coming after this call, in seconds: call again before it runs out */
  watchSeconds: z.number().int(),
  intervalMs: z.number().int(),
});
export type MonitorSnapshot = z.infer<typeof monitorSnapshotSchema>;

export const monitorResource = report('monitor', monitorSnapshotSchema);
