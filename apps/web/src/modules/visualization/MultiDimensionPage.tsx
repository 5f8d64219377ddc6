import { Alert, Card, Grid, Table } from '@arco-design/web-react';
import type { Analysis } from '@atrium/contracts/dashboard';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatYuan, yuanOf } from '../../locale/money';
import { type ChartColumn, ChartColumns, FilterBar } from './parts';
import { useAnalysis } from './useAnalysis';

const { Row, Col } = Grid;

/** Spec §1 multi-dimension analysis: sales by category × warehouse as a heat map, stacked bars and a pivot table. */
export function MultiDimensionPage() {
  const { t } = useTranslation();
  const { filters, setFilters, query } = useAnalysis();
  const data = query.data;
  const loading = query.isFetching;
  const pivot = useMemo(() => (data ? pivotOf(data) : null), [data]);
  const amount = t('analysis.amount');

  const heatmap = useMemo(() => {
    if (!pivot) return {};
    const max = Math.max(1, ...pivot.cells.map((c) => c[2]));
    return {
      tooltip: { position: 'top', valueFormatter: formatYuan },
      // the legend stands on the right, beside the cells: below them its numbers fell on the axis labels
      grid: { left: 8, right: 96, top: 16, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: pivot.warehouses, splitArea: { show: true }, axisLabel: { hideOverlap: true } },
      yAxis: { type: 'category', data: pivot.categories, splitArea: { show: true } },
      visualMap: { min: 0, max, calculable: true, orient: 'vertical', right: 8, top: 'middle', itemHeight: 200 },
      series: [{ name: amount, type: 'heatmap', data: pivot.cells, label: { show: pivot.cells.length <= 60 } }],
    };
  }, [pivot, amount]);

  const stacked = useMemo(() => {
    if (!pivot) return {};
    return {
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      legend: { type: 'scroll', top: 0 },
      grid: { left: 64, right: 24, top: 40, bottom: 32 },
      xAxis: { type: 'category', data: pivot.warehouses },
      yAxis: { type: 'value', axisLabel: { formatter: formatYuan } },
      series: pivot.categories.map((category, y) => ({
        name: category,
        type: 'bar',
        stack: 'amount',
        barMaxWidth: 48,
        data: pivot.warehouses.map((_, x) => pivot.cells.find((c) => c[0] === x && c[1] === y)?.[2] ?? 0),
      })),
    };
  }, [pivot]);

  const columns = [
    { title: t('analysis.category'), dataIndex: 'category', fixed: 'left' as const, width: 160 },
    ...(pivot?.warehouses ?? []).map((w) => ({
      title: w,
      dataIndex: w,
      align: 'right' as const,
      render: (v: number | undefined) => (v ? formatYuan(v) : '—'),
    })),
    { title: t('analysis.total'), dataIndex: '__total', align: 'right' as const, render: (v: number) => formatYuan(v) },
  ];

  const half = { xs: 24, xl: 12 };
  const empty = data?.matrix.length === 0;
  const charts: ChartColumn[] = [
    { col: half, title: t('analysis.heatmap'), dataset: 'matrix', option: heatmap, height: 360, empty },
    { col: half, title: t('analysis.stacked'), dataset: 'category', option: stacked, height: 360, empty },
  ];

  return (
    <div className="page-stack">
      <FilterBar filters={filters} onChange={setFilters} />
      {query.isError ? <Alert type="error" content={(query.error as Error).message} /> : null}
      <Row gutter={16} className="analysis-grid">
        <ChartColumns charts={charts} filters={filters} loading={loading} />
        <Col span={24}>
          <Card bordered={false} title={t('analysis.pivot')}>
            <Table
              data-testid="pivot-table"
              rowKey="category"
              loading={loading}
              columns={columns}
              data={pivot?.rows ?? []}
              pagination={false}
              scroll={{ x: true }}
              noDataElement={t('analysis.noData')}
            />
          </Card>
        </Col>
      </Row>
    </div>
  );
}

/** The matrix as axes, heat-map cells [x, y, yuan] and table rows (one per category, a column per warehouse). */
function pivotOf(data: Analysis) {
  const categories = [...new Set(data.matrix.map((m) => m.category))];
  const warehouses = [...new Set(data.matrix.map((m) => m.warehouse))];
  const cells = data.matrix.map(
    (m) => [warehouses.indexOf(m.warehouse), categories.indexOf(m.category), yuanOf(m.amount)] as [number, number, number],
  );
  const rows = categories.map((category) => {
    const row: Record<string, number | string> = { category, __total: 0 };
    for (const m of data.matrix.filter((x) => x.category === category)) {
      row[m.warehouse] = yuanOf(m.amount);
      row.__total = (row.__total as number) + yuanOf(m.amount);
    }
    return row;
  });
  return { categories, warehouses, cells, rows };
}
