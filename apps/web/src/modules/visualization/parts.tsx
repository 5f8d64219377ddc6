import { Button, Card, DatePicker, Grid, Message, Radio, Space, Statistic, Tooltip } from '@arco-design/web-react';
import { IconDownload, IconImage } from '@arco-design/web-react/icon';
import type { AnalysisDataset } from '@atrium/contracts/dashboard';
import dayjs from 'dayjs';
import type { EChartsCoreOption } from 'echarts/core';
import { type ComponentProps, type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Chart, type ChartHandle } from '../../components/charts/Chart';
import { useCan } from '../../components/permission';
import { saveAs } from '../../crud/ExportButton';
import { SourceSelect } from '../../crud/widgets';
import { formatMoney } from '../../locale/money';
import { type AnalysisFilters, downloadDataset, type Granularity } from './useAnalysis';
import './messages';
import './visualization.css';

/** Range, granularity, warehouse and category: what both analysis pages filter by. */
export function FilterBar({ filters, onChange }: { filters: AnalysisFilters; onChange: (next: AnalysisFilters) => void }) {
  const { t } = useTranslation();
  return (
    <Card bordered={false} className="analysis-filters">
      <Space wrap size={12}>
        <DatePicker.RangePicker
          data-testid="analysis-range"
          allowClear={false}
          value={filters.range}
          disabledDate={(d) => d.isAfter(dayjs(), 'day')}
          onChange={(range) => range?.length === 2 && onChange({ ...filters, range: [range[0], range[1]] as [string, string] })}
          shortcuts={[7, 30, 90, 365].map((days) => ({
            text: t('analysis.lastDays', { count: days }),
            value: () => [dayjs().subtract(days - 1, 'day'), dayjs()],
          }))}
        />
        <Radio.Group
          type="button"
          value={filters.granularity}
          onChange={(granularity: Granularity) => onChange({ ...filters, granularity })}
          options={(['day', 'week', 'month'] as const).map((g) => ({ label: t(`analysis.granularity.${g}`), value: g }))}
        />
        <SourceSelect
          source="/erp/warehouse"
          value={filters.warehouseId}
          placeholder={t('analysis.allWarehouses')}
          style={{ width: 180 }}
          onChange={(v) => onChange({ ...filters, warehouseId: (v as number | null) ?? undefined })}
        />
        <SourceSelect
          source="/erp/category"
          value={filters.categoryId}
          placeholder={t('analysis.allCategories')}
          style={{ width: 180 }}
          onChange={(v) => onChange({ ...filters, categoryId: (v as number | null) ?? undefined })}
        />
      </Space>
    </Card>
  );
}

/** One chart of an analysis page: where its column stands in the page's grid and what its card shows. */
export type ChartColumn = {
  col: ComponentProps<typeof Grid.Col>;
  title: string;
  dataset: AnalysisDataset;
  option: EChartsCoreOption | undefined;
  height?: number;
  empty?: boolean;
};

/** The charts of an analysis page, each a ChartCard in its grid column, all under the page's filters. */
export function ChartColumns({ charts, filters, loading }: { charts: ChartColumn[]; filters: AnalysisFilters; loading: boolean }) {
  return charts.map(({ col, dataset, option, ...card }) => (
    <Grid.Col key={dataset} {...col}>
      <ChartCard dataset={dataset} filters={filters} option={option ?? {}} loading={loading} {...card} />
    </Grid.Col>
  ));
}

/** A chart in a card with its two exports: the picture as PNG and its data as Excel. */
export function ChartCard({
  title,
  dataset,
  filters,
  option,
  loading,
  height = 300,
  empty,
  children,
}: {
  title: string;
  dataset: AnalysisDataset;
  filters: AnalysisFilters;
  option: EChartsCoreOption;
  loading: boolean;
  height?: number;
  empty?: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const can = useCan();
  const chart = useRef<ChartHandle>(null);
  const [busy, setBusy] = useState(false);
  const png = () => {
    const url = chart.current?.toPng();
    if (url) saveAs(url, `${dataset}-${filters.range[0]}-${filters.range[1]}.png`);
  };
  const excel = async () => {
    setBusy(true);
    try {
      await downloadDataset(filters, dataset);
    } catch {
      Message.error(t('analysis.exportFailed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card
      bordered={false}
      title={title}
      className="chart-card"
      data-testid={`chart-${dataset}`}
      extra={
        <Space size={4}>
          <Tooltip content={t('analysis.png')}>
            <Button
              size="mini"
              type="text"
              icon={<IconImage />}
              aria-label={t('analysis.png')}
              onClick={png}
              data-testid={`png-${dataset}`}
            />
          </Tooltip>
          {can('dashboard:analysis:export') ? (
            <Tooltip content={t('analysis.excel')}>
              <Button
                size="mini"
                type="text"
                icon={<IconDownload />}
                loading={busy}
                aria-label={t('analysis.excel')}
                onClick={excel}
                data-testid={`excel-${dataset}`}
              />
            </Tooltip>
          ) : null}
        </Space>
      }
    >
      <div className="chart-frame" style={{ height }}>
        <Chart ref={chart} option={option} loading={loading} aria-label={title} testId={`canvas-${dataset}`} />
        {empty && !loading ? <div className="chart-empty">{t('analysis.noData')}</div> : null}
      </div>
      {children}
    </Card>
  );
}

export function Kpi({
  title,
  value,
  money,
  testId,
}: {
  title: string;
  value: number;
  /** `value` is fen, shown as money is everywhere (formatMoney) */
  money?: boolean;
  testId: string;
}) {
  return (
    <Card bordered={false} className="kpi-card" data-testid={testId}>
      <Statistic title={title} value={value} groupSeparator renderFormat={money ? () => formatMoney(value) : undefined} />
    </Card>
  );
}
