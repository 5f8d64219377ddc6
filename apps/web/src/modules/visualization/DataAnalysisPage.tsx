import { Alert, Grid } from '@arco-design/web-react';
import type { Analysis } from '@atrium/contracts/dashboard';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatYuan, yuanOf } from '../../locale/money';
import { ChartCard, FilterBar, Kpi } from './parts';
import { useAnalysis } from './useAnalysis';

const { Row, Col } = Grid;
const tooltip = { trigger: 'axis' } as const;
const grid = { left: 56, right: 56, top: 40, bottom: 32, containLabel: false };

/** Spec §1 data analysis: the tenant's sales, categories, warehouses, members and activities over a range. */
export function DataAnalysisPage() {
  const { t } = useTranslation();
  const { filters, setFilters, query } = useAnalysis();
  const data = query.data;
  const loading = query.isFetching;
  const options = useMemo(() => (data ? optionsOf(data, t) : null), [data, t]);

  return (
    <div className="page-stack">
      <FilterBar filters={filters} onChange={setFilters} />
      {query.isError ? <Alert type="error" content={(query.error as Error).message} /> : null}
      <Row gutter={16} className="analysis-grid">
        <Col xs={12} md={6}>
          <Kpi title={t('analysis.kpi.amount')} value={data?.totals.amount ?? 0} money testId="kpi-amount" />
        </Col>
        <Col xs={12} md={6}>
          <Kpi title={t('analysis.kpi.orders')} value={data?.totals.orders ?? 0} testId="kpi-orders" />
        </Col>
        <Col xs={12} md={6}>
          <Kpi title={t('analysis.kpi.quantity')} value={data?.totals.quantity ?? 0} testId="kpi-quantity" />
        </Col>
        <Col xs={12} md={6}>
          <Kpi title={t('analysis.kpi.members')} value={data?.totals.members ?? 0} testId="kpi-members" />
        </Col>
        <Col span={24}>
          <ChartCard
            title={t('analysis.sales')}
            dataset="sales"
            filters={filters}
            option={options?.sales ?? {}}
            loading={loading}
            height={320}
          />
        </Col>
        <Col xs={24} lg={12}>
          <ChartCard
            title={t('analysis.byCategory')}
            dataset="category"
            filters={filters}
            option={options?.category ?? {}}
            loading={loading}
            empty={data?.byCategory.length === 0}
          />
        </Col>
        <Col xs={24} lg={12}>
          <ChartCard
            title={t('analysis.byWarehouse')}
            dataset="warehouse"
            filters={filters}
            option={options?.warehouse ?? {}}
            loading={loading}
            empty={data?.byWarehouse.length === 0}
          />
        </Col>
        <Col xs={24} lg={12}>
          <ChartCard title={t('analysis.members')} dataset="members" filters={filters} option={options?.members ?? {}} loading={loading} />
        </Col>
        <Col xs={24} lg={12}>
          <ChartCard
            title={t('analysis.topMembers')}
            dataset="topMembers"
            filters={filters}
            option={options?.topMembers ?? {}}
            loading={loading}
            empty={data?.topMembers.length === 0}
          />
        </Col>
        <Col span={24}>
          <ChartCard
            title={t('analysis.activities')}
            dataset="activities"
            filters={filters}
            option={options?.activities ?? {}}
            loading={loading}
            empty={data?.activities.length === 0}
          />
        </Col>
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
