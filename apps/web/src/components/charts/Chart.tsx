import { Spin } from '@arco-design/web-react';
import type { ECharts, EChartsCoreOption } from 'echarts/core';
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { useSettings } from '../../services/settings';
import './chart.css';

/** The parts of echarts the analysis pages use, loaded with the first chart (never with the workplace). */
async function loadEcharts() {
  const [core, charts, components, renderers] = await Promise.all([
    import('echarts/core'),
    import('echarts/charts'),
    import('echarts/components'),
    import('echarts/renderers'),
  ]);
  core.use([
    charts.LineChart,
    charts.BarChart,
    charts.PieChart,
    charts.HeatmapChart,
    components.GridComponent,
    components.TooltipComponent,
    components.LegendComponent,
    components.VisualMapComponent,
    components.DatasetComponent,
    renderers.CanvasRenderer,
  ]);
  return core;
}

export type ChartHandle = {
  /** The chart as a PNG data URL (white or dark background as shown). */
  toPng(): string | null;
};

type Props = {
  option: EChartsCoreOption;
  /** A fixed height; without one the chart fills its container's height (the container sets it). */
  height?: number | string;
  loading?: boolean;
  'aria-label'?: string;
  testId?: string;
};

/**
 * Spec §2's chart wrapper: fills 100 % of its container's width and height (or a fixed height when
 * given one), and resizes with its box (window, side menu collapsing, a tab becoming visible, the
 * container growing) through a ResizeObserver. Follows dark mode.
 */
export const Chart = forwardRef<ChartHandle, Props>(function Chart({ option, height = '100%', loading, testId, ...aria }, ref) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  const [ready, setReady] = useState(false);
  const dark = useSettings((s) => s.theme === 'dark');

  useImperativeHandle(ref, () => ({
    toPng: () => chart.current?.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: dark ? '#232324' : '#fff' }) ?? null,
  }));

  // (re)created when the theme changes: echarts takes its theme at init
  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | undefined;
    void loadEcharts().then((echarts) => {
      if (disposed || !box.current) return;
      chart.current = echarts.init(box.current, dark ? 'dark' : undefined, { renderer: 'canvas' });
      observer = new ResizeObserver(() => chart.current?.resize());
      observer.observe(box.current);
      setReady(true);
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
      setReady(false);
    };
  }, [dark]);

  useEffect(() => {
    if (ready && chart.current) chart.current.setOption({ backgroundColor: 'transparent', ...option }, { notMerge: true });
  }, [ready, option]);

  return (
    <Spin loading={loading || !ready} className="chart-spin" block>
      <div ref={box} className="chart-box" style={{ height }} role="img" data-testid={testId} data-ready={ready} {...aria} />
    </Spin>
  );
});
