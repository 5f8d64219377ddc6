import { Badge, Card, Descriptions, Grid, Statistic, Typography } from '@arco-design/web-react';
import type { MonitorFrame, MonitorSnapshot } from '@atrium/contracts/dashboard';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../../api/http';
import { Chart } from '../../../components/charts/Chart';
import { formatClock, formatClockSeconds, formatDateTimeSeconds } from '../../../locale/datetime';
import { onRealtime } from '../../../realtime/events';
import '../../visualization/messages';
import '../../visualization/visualization.css';

const { Row, Col } = Grid;
/** Frames kept for the metrics chart: two minutes at one frame every two seconds. */
const HISTORY = 60;
/** Without live frames the page asks again this often; with them, just often enough to keep them coming. */
const POLL_OFFLINE_MS = 5000;

function uptime(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return `${d ? `${d}d ` : ''}${h}h ${m}m`;
}

/** Spec §1 monitor (admin): the tenant's status, and for a super admin the server's (the platform's), live over MQTT while the page is open. */
export function MonitorPage() {
  const { t } = useTranslation();
  const [frames, setFrames] = useState<MonitorFrame[]>([]);
  const [lastLive, setLastLive] = useState(0);
  const [now, setNow] = useState(Date.now());
  const live = now - lastLive < 6000;

  const snapshot = useQuery({
    queryKey: ['dashboard', 'monitor'],
    queryFn: () => http.get<MonitorSnapshot>('/api/dashboard/monitor'),
    // the snapshot call is also what keeps frames coming: ask again before the watch runs out
    refetchInterval: (query) => (live ? ((query.state.data?.watchSeconds ?? 60) * 1000) / 2 : POLL_OFFLINE_MS),
    refetchIntervalInBackground: false,
  });

  useEffect(() => {
    if (snapshot.data) setFrames((list) => [...list, snapshot.data.frame].slice(-HISTORY));
  }, [snapshot.data]);

  useEffect(() => {
    const stop = onRealtime('monitor', (message) => {
      const frame = (message as unknown as { frame: MonitorFrame }).frame;
      setFrames((list) => [...list, frame].slice(-HISTORY));
      setLastLive(Date.now());
    });
    const clock = setInterval(() => setNow(Date.now()), 1000);
    return () => {
      stop();
      clearInterval(clock);
    };
  }, []);

  const frame = frames.at(-1);
  const orders = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      grid: { left: 40, right: 16, top: 16, bottom: 28 },
      xAxis: { type: 'category', data: (snapshot.data?.ordersPerMinute ?? []).map((p) => formatClock(p.minute)) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        {
          name: t('monitor.ordersPerMinute'),
          type: 'bar',
          barMaxWidth: 10,
          data: (snapshot.data?.ordersPerMinute ?? []).map((p) => p.orders),
        },
      ],
    }),
    [snapshot.data, t],
  );
  // the process's figures are the platform's: only a super admin's frames carry them
  const platform = frames.some((f) => f.server !== null);
  const history = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 48, right: 48, top: 36, bottom: 28 },
      xAxis: { type: 'category', data: frames.map((f) => formatClockSeconds(f.time)) },
      yAxis: [
        { type: 'value', name: '%', max: (v: { max: number }) => Math.max(100, Math.ceil(v.max)) },
        { type: 'value', name: 'ms / req/s' },
      ],
      series: [
        { name: t('monitor.cpu'), type: 'line', smooth: true, showSymbol: false, data: frames.map((f) => f.server?.cpuPercent ?? null) },
        {
          name: t('monitor.loopDelay'),
          type: 'line',
          yAxisIndex: 1,
          smooth: true,
          showSymbol: false,
          data: frames.map((f) => f.server?.eventLoopDelayMs ?? null),
        },
        {
          name: t('monitor.requests'),
          type: 'line',
          yAxisIndex: 1,
          smooth: true,
          showSymbol: false,
          data: frames.map((f) => f.server?.requestsPerSecond ?? null),
        },
      ],
    }),
    [frames, t],
  );

  const tile = (title: string, value: number | string, testId: string, suffix?: string) => (
    <Col xs={12} md={8} xl={4}>
      <Card bordered={false} className="kpi-card" data-testid={testId}>
        <Statistic title={title} value={value} suffix={suffix} />
      </Card>
    </Col>
  );

  return (
    <div className="page-stack">
      <Card bordered={false}>
        <div className="monitor-head">
          <Typography.Title heading={5} style={{ margin: 0 }}>
            {t('menu.dashboard.monitor')}
          </Typography.Title>
          <span data-testid="monitor-live">
            <Badge status={live ? 'success' : 'default'} text={live ? t('monitor.live') : t('monitor.paused')} />
          </span>
          {frame ? (
            <Typography.Text type="secondary">{t('monitor.updated', { time: formatDateTimeSeconds(frame.time) })}</Typography.Text>
          ) : null}
          {!live && snapshot.data ? (
            <Typography.Text type="secondary">{t('monitor.offline', { seconds: POLL_OFFLINE_MS / 1000 })}</Typography.Text>
          ) : null}
        </div>
      </Card>
      <Row gutter={16} className="analysis-grid" align="stretch">
        {tile(t('monitor.sessions'), frame?.tenant.onlineSessions ?? 0, 'monitor-sessions')}
        {tile(t('monitor.ordersLastMinute'), frame?.tenant.ordersLastMinute ?? 0, 'monitor-orders')}
        {platform ? tile(t('monitor.brokerClients'), frame?.brokerClients ?? t('monitor.noBroker'), 'monitor-broker') : null}
        {tile(t('monitor.printers'), frame ? `${frame.tenant.printersOnline} / ${frame.tenant.printers}` : '0 / 0', 'monitor-printers')}
        {tile(t('monitor.agents'), frame ? `${frame.tenant.agentsOnline} / ${frame.tenant.agents}` : '0 / 0', 'monitor-agents')}
        {platform ? tile(t('monitor.requests'), frame?.server?.requestsPerSecond ?? 0, 'monitor-rps', 'req/s') : null}
        {platform ? (
          <Col xs={24} xl={14}>
            <Card bordered={false} title={t('monitor.history')}>
              <Chart option={history} height={300} testId="monitor-history" aria-label={t('monitor.history')} />
            </Card>
          </Col>
        ) : null}
        {platform ? (
          <Col xs={24} xl={10}>
            <Card bordered={false} title={t('monitor.server')} data-testid="monitor-server">
              <Descriptions
                column={1}
                colon=" "
                labelStyle={{ width: 140 }}
                data={
                  frame?.server
                    ? [
                        { label: t('monitor.cpu'), value: `${frame.server.cpuPercent}%` },
                        { label: t('monitor.memory'), value: `${frame.server.rssMb} MB` },
                        { label: t('monitor.heap'), value: `${frame.server.heapUsedMb} MB` },
                        { label: t('monitor.loopDelay'), value: `${frame.server.eventLoopDelayMs} ms` },
                        {
                          label: t('monitor.dbPool'),
                          value: frame.server.dbPool ? t('monitor.dbPool.value', frame.server.dbPool) : t('monitor.dbPool.embedded'),
                        },
                        { label: t('monitor.uptime'), value: uptime(frame.server.uptimeSeconds) },
                      ]
                    : []
                }
              />
            </Card>
          </Col>
        ) : null}
        <Col span={24}>
          <Card bordered={false} title={t('monitor.ordersPerMinute')}>
            <Chart option={orders} height={240} testId="monitor-orders-chart" aria-label={t('monitor.ordersPerMinute')} />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
