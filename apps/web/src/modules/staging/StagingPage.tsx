import { Button, Card, Descriptions, Empty, Grid, Input, Message, Tag, Tooltip, Typography } from '@arco-design/web-react';
import { IconPushpin, IconSearch } from '@arco-design/web-react/icon';
import type { Workbench } from '@atrium/contracts/centre';
import { releaseLabel } from '@atrium/contracts/release-labels';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { http } from '../../api/http';
import { formatDateTime } from '../../locale/datetime';
import { WORKBENCH_KEY } from '../../realtime/keys';
import { recentPages } from '../../services/recent-pages';
import { useSession } from '../../services/session';
import { useMenuPages } from '../../shell/menu/useMenu';
import { PageLinks } from '../dashboard/workplace/WorkplacePage';
import '../erp/messages';
import './messages';
import { formatMoney } from '../../locale/money';

const { Row, Col } = Grid;
const MAX_PINS = 12;
const KEY = WORKBENCH_KEY;

/** The home every signed-in user lands on: to-dos, their own recent work, pinned and recent pages, every page. */
export function StagingPage() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const userInfo = useSession((s) => s.userInfo);
  const role = useSession((s) => s.role);
  const pages = useMenuPages();
  const byName = new Map(pages.map((p) => [p.name, p]));
  const [filter, setFilter] = useState('');
  const name = userInfo?.nickname || userInfo?.name || userInfo?.accountId || '';
  const bench = useQuery({ queryKey: KEY, queryFn: () => http.get<Workbench>('/api/user/workbench') });
  const pins = bench.data?.pins ?? [];
  // optimistic, and safe against a workbench read still on its way: that read is cancelled (it would bring
  // the pins from before the change), and the server's answer is what stays
  const savePins = useMutation({
    mutationFn: (next: string[]) => http.put<{ pins: string[] }>('/api/user/pins', { pins: next }),
    onMutate: async (next) => {
      await client.cancelQueries({ queryKey: KEY });
      client.setQueryData<Workbench>(KEY, (old) => (old ? { ...old, pins: next } : old));
    },
    onSuccess: (saved) => client.setQueryData<Workbench>(KEY, (old) => (old ? { ...old, pins: saved.pins } : old)),
    onError: () => void client.invalidateQueries({ queryKey: KEY }),
  });
  const toggle = (page: string) => {
    if (pins.includes(page)) savePins.mutate(pins.filter((p) => p !== page));
    else if (pins.length >= MAX_PINS) Message.warning(t('staging.pinsFull', { count: MAX_PINS }));
    else savePins.mutate([...pins, page]);
  };
  const pinButton = (page: { name: string }) => {
    const pinned = pins.includes(page.name);
    return (
      <Tooltip content={pinned ? t('staging.unpin') : t('staging.pin')}>
        <Button
          className="shortcut-pin"
          size="mini"
          type={pinned ? 'primary' : 'text'}
          shape="circle"
          icon={<IconPushpin />}
          aria-label={`${pinned ? t('staging.unpin') : t('staging.pin')} ${t(byName.get(page.name)?.meta.locale ?? page.name)}`}
          aria-pressed={pinned}
          // the pins are not known until the workbench has loaded: a click before would replace them
          disabled={!bench.data}
          onClick={() => toggle(page.name)}
          data-testid={`pin-${page.name}`}
        />
      </Tooltip>
    );
  };
  const needle = filter.trim().toLowerCase();
  const shown = pages.filter((page) => {
    if (!needle) return true;
    const label = `${page.section?.meta.locale ? t(page.section.meta.locale) : ''} ${t(page.meta.locale ?? page.name)}`;
    return label.toLowerCase().includes(needle) || page.path.includes(needle);
  });
  const todos = bench.data?.todos;
  const todoLinks = todos
    ? [
        { key: 'notices', count: todos.unreadNotices, to: '/user/notification?type=notice&read=unread' },
        { key: 'messages', count: todos.unreadMessages, to: '/user/notification?type=message&read=unread' },
        { key: 'todos', count: todos.unreadTodos, to: '/user/notification?type=todo&read=unread' },
        ...(todos.approvals === null ? [] : [{ key: 'approvals', count: todos.approvals, to: '/profile/basic' }]),
        { key: 'release', count: todos.releaseApprovals, to: '/release/task' },
      ]
    : [];
  const recent = recentPages().flatMap((n) => byName.get(n) ?? []);

  return (
    <div className="page-stack">
      <Card className="welcome-card" bordered={false}>
        <Typography.Title heading={4} className="welcome-title">
          {t('staging.welcome', { name })}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('staging.intro')}</Typography.Paragraph>
        <Descriptions
          column={{ xs: 1, sm: 3 }}
          data={[
            { label: t('staging.tenant'), value: userInfo ? `${userInfo.tenantName} (${userInfo.tenantCode})` : '' },
            // the role's name, not its code (admin → 管理员); an unknown code shows as it is
            { label: t('staging.role'), value: role ? t(`staging.role.${role}`, { defaultValue: role }) : '' },
            { label: t('staging.account'), value: userInfo?.accountId ?? '' },
          ]}
        />
      </Card>
      <Row gutter={16} className="kpi-row">
        {todoLinks.map((todo) => (
          // five in a row only where five fit (a fixed fifth on a phone left one character per line)
          <Col key={todo.key} xs={12} md={8} xl={6} className={todoLinks.length === 5 ? 'todo-fifth' : undefined}>
            <Link to={todo.to} className="todo-tile" data-testid={`todo-${todo.key}`}>
              <span className="kpi-title">{t(`staging.todo.${todo.key}`)}</span>
              <span className={`kpi-value${todo.count ? ' todo-due' : ''}`}>{todo.count}</span>
            </Link>
          </Col>
        ))}
      </Row>
      <Card bordered={false} title={t('staging.pinned')} data-testid="staging-pinned">
        {pins.length ? (
          <PageLinks pages={pins.flatMap((n) => byName.get(n) ?? [])} extra={pinButton} />
        ) : (
          <Empty description={t('staging.noPins')} />
        )}
      </Card>
      <Row gutter={16} className="kpi-row">
        <Col xs={24} lg={12}>
          <Card bordered={false} title={t('staging.tasks')} className="fill-card" data-testid="staging-tasks">
            {bench.data?.tasks.length ? (
              <ul className="plain-list">
                {bench.data.tasks.map((task) => (
                  <li key={task.id}>
                    <Link to={`/release/task?id=${task.id}`}>
                      #{task.id} {task.project} · {task.env} · {task.version}
                    </Link>
                    <Tag size="small">{releaseLabel('taskStatus', task.status, i18n.language)}</Tag>
                  </li>
                ))}
              </ul>
            ) : (
              <Empty description={t('staging.noTasks')} />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card bordered={false} title={t('staging.orders')} className="fill-card" data-testid="staging-orders">
            {bench.data?.orders.length ? (
              <ul className="plain-list">
                {bench.data.orders.map((order) => (
                  <li key={order.id}>
                    <Link to={`/erp/sale?orderNo=${encodeURIComponent(order.orderNo)}`}>{order.orderNo}</Link>
                    <Typography.Text type="secondary">
                      {formatMoney(order.totalAmount)} · {t(`erp.sale.status.${order.status}`, { defaultValue: order.status })} ·{' '}
                      {formatDateTime(order.createTime)}
                    </Typography.Text>
                  </li>
                ))}
              </ul>
            ) : (
              <Empty description={t('staging.noOrders')} />
            )}
          </Card>
        </Col>
      </Row>
      {recent.length ? (
        <Card bordered={false} title={t('staging.recent')} data-testid="staging-recent">
          <PageLinks pages={recent.slice(0, 8)} extra={pinButton} />
        </Card>
      ) : null}
      <Card
        bordered={false}
        title={t('staging.shortcuts')}
        extra={
          <Input
            allowClear
            prefix={<IconSearch />}
            value={filter}
            onChange={setFilter}
            placeholder={t('staging.searchPlaceholder')}
            aria-label={t('staging.search')}
            style={{ width: 240 }}
          />
        }
      >
        {shown.length === 0 ? <Empty description={t('staging.noShortcuts')} /> : <PageLinks pages={shown} extra={pinButton} />}
      </Card>
    </div>
  );
}
