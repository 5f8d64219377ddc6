import {
  type Analysis,
  type AnalysisDataset,
  analysisExportQuerySchema,
  analysisQuerySchema,
  analysisResource,
  analysisSchema,
  monitorResource,
  monitorSnapshotSchema,
} from '@atrium/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { recordAudit } from '../../crud/audit';
import { tenantTimeZone } from '../../crud/business-day';
import { type ExcelColumn, excelLocale, workbookOf, XLSX_TYPE } from '../../crud/excel';
import { Download, downloadAnswer, typedRoute } from '../../crud/typed-route';
import { analysis } from './aggregates';
import { Monitor } from './monitor';

export const uncategorisedLabel = (request: FastifyRequest) => (request.lang === 'en-US' ? 'Uncategorised' : '未分类');

/** The data behind each chart of the analysis pages, as its Excel export writes it. */
const datasets = {
  sales: (a: Analysis) => ({
    rows: a.sales,
    columns: [
      { header: 'Period', zh: '周期', key: 'period' },
      { header: 'Sales (yuan)', zh: '销售额（元）', key: 'amount', value: (r: { amount: number }) => r.amount / 100 },
      { header: 'Orders', zh: '订单数', key: 'orders' },
    ],
  }),
  category: (a: Analysis) => ({ rows: a.byCategory, columns: namedColumns('Category', '分类') }),
  warehouse: (a: Analysis) => ({ rows: a.byWarehouse, columns: namedColumns('Warehouse', '仓库') }),
  members: (a: Analysis) => ({
    rows: a.memberGrowth,
    columns: [
      { header: 'Period', zh: '周期', key: 'period' },
      { header: 'New members', zh: '新增会员', key: 'count' },
      { header: 'Members in total', zh: '会员总数', key: 'total' },
    ],
  }),
  topMembers: (a: Analysis) => ({ rows: a.topMembers, columns: namedColumns('Member', '会员') }),
  activities: (a: Analysis) => ({
    rows: a.activities,
    columns: [...namedColumns('Activity', '活动'), { header: 'Quantity', zh: '销量', key: 'quantity' }],
  }),
  matrix: (a: Analysis) => ({
    rows: a.matrix,
    columns: [
      { header: 'Category', zh: '分类', key: 'category' },
      { header: 'Warehouse', zh: '仓库', key: 'warehouse' },
      { header: 'Sales (yuan)', zh: '销售额（元）', key: 'amount', value: (r: { amount: number }) => r.amount / 100 },
      { header: 'Quantity', zh: '销量', key: 'quantity' },
    ],
  }),
} satisfies Record<AnalysisDataset, (a: Analysis) => { rows: object[]; columns: ExcelColumn<never>[] }>;

function namedColumns(header: string, zh: string): ExcelColumn<{ name: string; amount: number; orders: number }>[] {
  return [
    { header, zh, key: 'name', width: 24 },
    { header: 'Sales (yuan)', zh: '销售额（元）', key: 'amount', value: (r) => r.amount / 100 },
    { header: 'Orders', zh: '订单数', key: 'orders' },
  ];
}

/**
 * The analysis pages' sums (admin: `dashboard:analysis:query`, and `:export` for a chart's data as
 * Excel) and the live monitor (`dashboard:monitor:query`): a snapshot, then frames over MQTT.
 */
export async function dashboardRoutes(app: FastifyInstance) {
  const monitor = new Monitor(app);
  app.addHook('onClose', async () => monitor.stop());

  typedRoute(
    app,
    analysisResource,
    {
      method: 'GET',
      url: '/dashboard/analysis',
      action: 'query',
      query: analysisQuerySchema,
      response: analysisSchema,
      summary:
        "Sales, members and activities of the tenant over a date range (days cut in the tenant's time zone), by period, category and warehouse",
    },
    async (ctx, { query }) => analysis(ctx.tx, { ...query, tz: await tenantTimeZone(ctx) }, uncategorisedLabel(ctx.request)),
  );

  typedRoute(
    app,
    analysisResource,
    {
      method: 'GET',
      url: '/dashboard/analysis/export',
      action: 'export',
      write: true,
      query: analysisExportQuerySchema,
      produces: [XLSX_TYPE],
      response: downloadAnswer,
      summary: "One chart's data of the analysis pages as .xlsx (headers in the Accept-Language)",
    },
    async (ctx, { query: { dataset, ...query } }) => {
      const result = await analysis(ctx.tx, { ...query, tz: await tenantTimeZone(ctx) }, uncategorisedLabel(ctx.request));
      const { rows, columns } = datasets[dataset](result);
      recordAudit(ctx.request, { target: `${dataset} ${query.from}..${query.to}` });
      const file = await workbookOf(dataset, columns as ExcelColumn<object>[], rows, excelLocale(ctx.request));
      return new Download(XLSX_TYPE, `analysis-${dataset}-${query.from}-${query.to}.xlsx`, file);
    },
  );

  typedRoute(
    app,
    monitorResource,
    {
      method: 'GET',
      url: '/dashboard/monitor',
      action: 'query',
      response: monitorSnapshotSchema,
      summary: 'Server and tenant status now and orders per minute over the last hour; frames then follow over MQTT for `watchSeconds`',
    },
    async (ctx) => monitor.snapshot(ctx.tx, ctx.caller.tenantId, ctx.caller.accountRef, ctx.caller.superAdmin),
  );
}
