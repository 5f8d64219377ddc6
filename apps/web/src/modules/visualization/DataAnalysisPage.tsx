import { Alert, Grid } from '@arco-design/web-react';
import type { Analysis } from '@atrium/contracts/dashboard';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatYuan, yuanOf } from '../../locale/money';
import { type ChartColumn, ChartColumns, FilterBar, Kpi } from './parts';
import { useAnalysis } from './useAnalysis';

const { Row, Col } = Grid;
const tooltip = { trigger: 'axis' } as const;
const grid = { left: 56, right: 56, top: 40, bottom: 32, containLabel: false };
/** The four totals above the charts, in order; the amount is money. */
const kpis = ['amount', 'orders', 'quantity', 'members'] as const;

/** Spec §1 data analysis: the tenant's sales, categories, warehouses, members and activities over a range. */
export function DataAnalysisPage() {
  const { t } = useTranslation();
  const { filters, setFilters, query } = useAnalysis();
  const data = query.data;
  const loading = query.isFetching;
  const options = useMemo(() => (data ? optionsOf(data, t) : null), [data, t]);
  const whole = { span: 24 };
  const half = { xs: 24, lg: 12 };
  const charts: ChartColumn[] = [
    { col: whole, title: t('analysis.sales'), dataset: 'sales', option: options?.sales, height: 320 },
    { col: half, title: t('analysis.byCategory'), dataset: 'category', option: options?.category, empty: data?.byCategory.length === 0 },
    {
      col: half,
      title: t('analysis.byWarehouse'),
      dataset: 'warehouse',
      option: options?.warehouse,
      empty: data?.byWarehouse.length === 0,
    },
    { col: half, title: t('analysis.members'), dataset: 'members', option: options?.members },
    {
      col: half,
      title: t('analysis.topMembers'),
      dataset: 'topMembers',
      option: options?.topMembers,
      empty: data?.topMembers.length === 0,
    },
    {
      col: whole,
      title: t('analysis.activities'),
      dataset: 'activities',
      option: options?.activities,
      empty: data?.activities.length === 0,
    },
  ];

  return (
    <div className="page-stack">
      <FilterBar filters={filters} onChange={setFilters} />
      {query.isError ? <Alert type="error" content={(query.error as Error).message} /> : null}
      <Row gutter={16} className="analysis-grid">
        {kpis.map((kpi) => (
          <Col key={kpi} xs={12} md={6}>
            <Kpi
              title={t(`analysis.kpi.${kpi}`)}
              value={data?.totals[kpi] ?? 0}
              money={kpi === 'amount' || undefined}
              testId={`kpi-${kpi}`}
            />
          </Col>
        ))}
        <ChartColumns charts={charts} filters={filters} loading={loading} />
      </Row>
    </div>
  );
}

type T = (key: string, options?: Record<string, unknown>) => string;

function optionsOf(data: Analysis, t: T) {
  const amount = t('analysis.amount');
  const orders = t('analysis.orders');
  const money = { type: 'value', name: amount, axisLabel: { formatter: formatYuan } };
  return {
    sales: {
      tooltip,
      grid,
      legend: { top: 0 },
      xAxis: { type: 'category', data: data.sales.map((p) => p.period) },
      yAxis: [money, { type: 'value', name: orders, minInterval: 1 }],
      series: [
        { name: amount, type: 'line', smooth: true, areaStyle: { opacity: 0.15 }, data: data.sales.map((p) => yuanOf(p.amount)) },
        { name: orders, type: 'bar', yAxisIndex: 1, barMaxWidth: 16, data: data.sales.map((p) => p.orders) },
      ],
    },
    category: {
      tooltip: { trigger: 'item', valueFormatter: formatYuan },
      legend: { type: 'scroll', bottom: 0 },
      series: [
        {
          name: amount,
          type: 'pie',
          radius: ['40%', '68%'],
          itemStyle: { borderRadius: 4 },
          data: data.byCategory.map((c) => ({ name: c.name, value: yuanOf(c.amount) })),
        },
      ],
    },
    warehouse: {
      tooltip,
      grid,
      xAxis: { type: 'category', data: data.byWarehouse.map((w) => w.name) },
      yAxis: money,
      series: [{ name: amount, type: 'bar', barMaxWidth: 40, data: data.byWarehouse.map((w) => yuanOf(w.amount)) }],
    },
    members: {
      tooltip,
      grid,
      legend: { top: 0 },
      xAxis: { type: 'category', data: data.memberGrowth.map((p) => p.period) },
      yAxis: [
        { type: 'value', name: t('analysis.newMembers'), minInterval: 1 },
        { type: 'value', name: t('analysis.totalMembers'), minInterval: 1 },
      ],
      series: [
        { name: t('analysis.newMembers'), type: 'bar', barMaxWidth: 16, data: data.memberGrowth.map((p) => p.count) },
        { name: t('analysis.totalMembers'), type: 'line', yAxisIndex: 1, smooth: true, data: data.memberGrowth.map((p) => p.total) },
      ],
    },
    topMembers: {
      tooltip,
      grid: { ...grid, left: 96 },
      xAxis: money,
      yAxis: { type: 'category', inverse: true, data: data.topMembers.map((m) => m.name) },
      series: [{ name: amount, type: 'bar', barMaxWidth: 18, data: data.topMembers.map((m) => yuanOf(m.amount)) }],
    },
    activities: {
      tooltip,
      grid,
      legend: { top: 0 },
      xAxis: { type: 'category', data: data.activities.map((a) => a.name), axisLabel: { interval: 0, hideOverlap: true } },
      yAxis: [money, { type: 'value', name: orders, minInterval: 1 }],
      series: [
        { name: amount, type: 'bar', barMaxWidth: 32, data: data.activities.map((a) => yuanOf(a.amount)) },
        { name: orders, type: 'line', yAxisIndex: 1, data: data.activities.map((a) => a.orders) },
      ],
    },
  };
}
