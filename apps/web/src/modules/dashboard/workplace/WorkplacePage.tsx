import { Button, Card, Empty, Grid, Skeleton, Tag, Typography } from '@arco-design/web-react';
import type { Workplace } from '@atrium/contracts/dashboard';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { http } from '../../../api/http';
import { ShareBar, TrendLine } from '../../../components/charts/Spark';
import { formatDateTime } from '../../../locale/datetime';
import { recentPages } from '../../../services/recent-pages';
import { STAGING_PATH } from '../../../services/routes';
import { useSession } from '../../../services/session';
import { MenuIcon } from '../../../shell/menu/icons';
import { useMenuPages } from '../../../shell/menu/useMenu';
import '../messages';
import { formatMoney } from '../../../locale/money';

const QUICK_LINKS = 8;
const { Row, Col } = Grid;

function greetingKey(hour: number): string {
  if (hour < 12) return 'workplace.greeting.morning';
  if (hour < 18) return 'workplace.greeting.afternoon';
  return 'workplace.greeting.evening';
}

type MenuPage = ReturnType<typeof useMenuPages>[number];

export function PageLinks({ pages, extra }: { pages: MenuPage[]; extra?: (page: MenuPage) => ReactNode }) {
  const { t } = useTranslation();
  return (
    <ul className="shortcut-grid">
      {pages.map((page) => (
        <li key={page.name} className="shortcut-item">
          <Link to={page.path} className="shortcut">
            <span className="shortcut-icon">
              <MenuIcon name={page.section?.meta.icon ?? page.meta.icon ?? 'IconApps'} />
            </span>
            <span className="shortcut-text">
              <span className="shortcut-title">{t(page.meta.locale ?? page.name)}</span>
              {page.section?.meta.locale ? <span className="shortcut-section">{t(page.section.meta.locale)}</span> : null}
            </span>
          </Link>
          {extra?.(page)}
        </li>
      ))}
    </ul>
  );
}

function Kpi({ title, value, hint, testId }: { title: string; value: string | number; hint?: string; testId: string }) {
  return (
    <Col xs={12} md={8} xl={4}>
      {/* plain markup, not Arco's Statistic: that one brings dayjs and its plugins into the workplace's first load */}
      <Card bordered={false} className="kpi-tile" data-testid={testId}>
        <div className="kpi-title">{title}</div>
        <div className="kpi-value">{typeof value === 'number' ? value.toLocaleString() : value}</div>
        {hint ? <Typography.Text type="secondary">{hint}</Typography.Text> : null}
      </Card>
    </Col>
  );
}

/** The workplace (any role): greeting, this tenant's figures the user may read, notices, shortcuts, recent pages. */
export function WorkplacePage() {
  const { t } = useTranslation();
  const userInfo = useSession((s) => s.userInfo);
  const role = useSession((s) => s.role);
  const pages = useMenuPages().filter((page) => page.name !== 'Workplace' && page.path !== STAGING_PATH);
  const byName = new Map(pages.map((p) => [p.name, p]));
  const recent = recentPages().flatMap((name) => byName.get(name) ?? []);
  const name = userInfo?.nickname || userInfo?.name || userInfo?.accountId || '';
  const query = useQuery({
    queryKey: ['user', 'workplace'],
    queryFn: () => http.get<Workplace>('/api/user/workplace'),
  });
  const data = query.data;
  const sales = data?.sales;

  return (
    <div className="page-stack">
      <Card bordered={false} className="welcome-card">
        <Typography.Title heading={4} className="welcome-title">
          {t(greetingKey(new Date().getHours()), { name })}
        </Typography.Title>
        <Typography.Paragraph type="secondary">
          {userInfo ? t('workplace.tenantLine', { tenant: userInfo.tenantName, code: userInfo.tenantCode }) : null}{' '}
          <Tag color="arcoblue">{role}</Tag>
        </Typography.Paragraph>
      </Card>
      {query.isError ? (
        <Card bordered={false}>
          <Empty description={t('workplace.loadFailed')} />
          <div className="center-actions">
            <Button onClick={() => query.refetch()}>{t('workplace.retry')}</Button>
          </div>
        </Card>
      ) : null}
      {query.isPending ? <Skeleton animation text={{ rows: 3 }} /> : null}
      {data ? (
        <Row gutter={16} className="kpi-row" align="stretch">
          {sales ? (
            <>
              <Kpi title={t('workplace.kpi.todayAmount')} value={formatMoney(sales.todayAmount)} testId="kpi-today-amount" />
              <Kpi title={t('workplace.kpi.todayOrders')} value={sales.todayOrders} testId="kpi-today-orders" />
              <Kpi
                title={t('workplace.kpi.monthAmount')}
                value={formatMoney(sales.monthAmount)}
                hint={t('workplace.kpi.monthOrders', { count: sales.monthOrders })}
                testId="kpi-month"
              />
            </>
          ) : null}
          {data.members ? (
            <Kpi
              title={t('workplace.kpi.members')}
              value={data.members.total}
              hint={t('workplace.kpi.newMembers', { count: data.members.newThisMonth })}
              testId="kpi-members"
            />
          ) : null}
          {data.lowStock ? (
            <Kpi
              title={t('workplace.kpi.lowStock')}
              value={data.lowStock.skus}
              hint={t('workplace.kpi.lowStockHint', { count: data.lowStock.threshold })}
              testId="kpi-low-stock"
            />
          ) : null}
          <Kpi title={t('workplace.kpi.approvals')} value={data.pendingApprovals} testId="kpi-approvals" />
        </Row>
      ) : null}
      <Row gutter={16} className="kpi-row" align="stretch">
        {sales ? (
          <Col xs={24} xl={16}>
            <Card bordered={false} title={t('workplace.trend')} className="fill-card" data-testid="workplace-trend">
              <TrendLine
                label={t('workplace.trend')}
                peakLabel={t('workplace.peak')}
                format={formatMoney}
                points={sales.trend.map((p) => ({ period: p.period, value: p.amount }))}
              />
            </Card>
          </Col>
        ) : null}
        <Col xs={24} xl={sales ? 8 : 24}>
          <Card bordered={false} title={t('workplace.notices')} className="fill-card" data-testid="workplace-notices">
            {data?.notices.length ? (
              <ul className="plain-list">
                {data.notices.map((n) => (
                  <li key={n.id}>
                    <Link to="/user/notification?type=notice" className={n.read ? 'muted' : undefined}>
                      {n.title}
                    </Link>
                    <Typography.Text type="secondary">{formatDateTime(n.createTime)}</Typography.Text>
                  </li>
                ))}
              </ul>
            ) : (
              <Empty description={t('workplace.noNotices')} />
            )}
          </Card>
        </Col>
        {sales ? (
          <>
            <Col xs={24} xl={12}>
              <Card bordered={false} title={t('workplace.popular')} className="fill-card" data-testid="workplace-popular">
                {sales.popular.length ? (
                  <ol className="plain-list ranked">
                    {sales.popular.map((p) => (
                      <li key={p.productId}>
                        <span>{p.name}</span>
                        <Typography.Text type="secondary">
                          {t('workplace.sold', { count: p.quantity })} · {formatMoney(p.amount)}
                        </Typography.Text>
                      </li>
                    ))}
                  </ol>
                ) : (
                  <Empty description={t('workplace.noSales')} />
                )}
              </Card>
            </Col>
            <Col xs={24} xl={12}>
              <Card bordered={false} title={t('workplace.categoryShare')} className="fill-card" data-testid="workplace-share">
                {sales.categoryShare.length ? (
                  <ShareBar
                    label={t('workplace.categoryShare')}
                    format={formatMoney}
                    parts={sales.categoryShare.map((c) => ({ name: c.name, value: c.amount }))}
                  />
                ) : (
                  <Empty description={t('workplace.noSales')} />
                )}
              </Card>
            </Col>
          </>
        ) : null}
        <Col xs={24} xl={16}>
          <Card bordered={false} title={t('workplace.quickLinks')} className="fill-card">
            <PageLinks pages={pages.slice(0, QUICK_LINKS)} />
          </Card>
        </Col>
        <Col xs={24} xl={8}>
          <Card bordered={false} title={t('workplace.recent')} className="fill-card" data-testid="workplace-recent">
            {recent.length ? <PageLinks pages={recent.slice(0, 6)} /> : <Empty description={t('workplace.noRecent')} />}
          </Card>
        </Col>
      </Row>
    </div>
  );
}
