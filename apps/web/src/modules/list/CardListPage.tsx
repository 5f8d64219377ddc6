import {
  Button,
  Card,
  Empty,
  Grid,
  Input,
  Message,
  Pagination,
  Popconfirm,
  Radio,
  Skeleton,
  Space,
  Tag,
  Typography,
} from '@arco-design/web-react';
import { IconCheckCircle, IconClockCircle, IconCloseCircle, IconRefresh } from '@arco-design/web-react/icon';
import { type Service, type ServiceAction, type ServiceState, serviceKinds, serviceTransitions } from '@atrium/contracts/list/service';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../api/http';
import { useCan } from '../../components/permission/permission';
import { registerMessages } from '../../crud/messages';
import { formatDate } from '../../locale/datetime';
import './list.css';

registerMessages({
  'zh-CN': {
    'list.service.kind.all': '全部',
    'list.service.kind.quality': '内容质检',
    'list.service.kind.content': '内容服务',
    'list.service.kind.rules': '规则预置',
    'list.service.search': '搜索服务名称',
    'list.service.status.opened': '已开通',
    'list.service.status.expired': '已过期',
    'list.service.status.cancelled': '已取消',
    'list.service.status.renewed': '已续费',
    'list.service.expires': '到期 {{date}}',
    'list.service.open': '开通服务',
    'list.service.cancel': '取消服务',
    'list.service.renew': '续费一年',
    'list.service.confirm.open': '确定开通“{{name}}”吗？有效期一年。',
    'list.service.confirm.cancel': '确定取消“{{name}}”吗？',
    'list.service.confirm.renew': '确定为“{{name}}”续费一年吗？',
    'list.service.done.open': '已开通“{{name}}”',
    'list.service.done.cancel': '已取消“{{name}}”',
    'list.service.done.renew': '已为“{{name}}”续费',
  },
  'en-US': {
    'list.service.kind.all': 'All',
    'list.service.kind.quality': 'Content quality',
    'list.service.kind.content': 'Content services',
    'list.service.kind.rules': 'Preset rules',
    'list.service.search': 'Search services',
    'list.service.status.opened': 'Opened',
    'list.service.status.expired': 'Expired',
    'list.service.status.cancelled': 'Cancelled',
    'list.service.status.renewed': 'Renewed',
    'list.service.expires': 'Ends {{date}}',
    'list.service.open': 'Open',
    'list.service.cancel': 'Cancel service',
    'list.service.renew': 'Renew for a year',
    'list.service.confirm.open': 'Open "{{name}}" for a year?',
    'list.service.confirm.cancel': 'Cancel "{{name}}"?',
    'list.service.confirm.renew': 'Renew "{{name}}" for a year?',
    'list.service.done.open': 'Opened "{{name}}"',
    'list.service.done.cancel': 'Cancelled "{{name}}"',
    'list.service.done.renew': 'Renewed "{{name}}"',
  },
});

type Paged<T> = { list: T[]; total: number };
const PAGE_SIZE = 12;
const stateLook: Record<ServiceState, { color: string; icon: ReactNode }> = {
  opened: { color: 'green', icon: <IconCheckCircle /> },
  renewed: { color: 'arcoblue', icon: <IconRefresh /> },
  expired: { color: 'orange', icon: <IconClockCircle /> },
  cancelled: { color: 'gray', icon: <IconCloseCircle /> },
};

/** The spec's card list: the tenant's services as cards, by kind, with their actions. */
export function CardListPage() {
  const { t } = useTranslation();
  const can = useCan();
  const client = useQueryClient();
  const [kind, setKind] = useState<string>('all');
  const [name, setName] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const params = { pageNum, pageSize: PAGE_SIZE, name, kind: kind === 'all' ? undefined : kind };
  const query = useQuery({
    queryKey: ['list', 'service', 'list', params],
    queryFn: () => http.get<Paged<Service>>('/api/list/service', { params }),
    placeholderData: keepPreviousData,
  });
  const act = useMutation({
    mutationFn: ({ service, action }: { service: Service; action: ServiceAction }) =>
      http.put<Service>(`/api/list/service/${service.id}/${action}`, {}),
    onSuccess: (service, { action }) => {
      Message.success(t(`list.service.done.${action}`, { name: service.name }));
      void client.invalidateQueries({ queryKey: ['list', 'service'] });
    },
  });

  const actions = (service: Service) =>
    (Object.keys(serviceTransitions) as ServiceAction[])
      .filter((action) => (serviceTransitions[action] as readonly string[]).includes(service.status) && can(`list:service:${action}`))
      .map((action) => (
        <Popconfirm
          key={action}
          title={t(`list.service.confirm.${action}`, { name: service.name })}
          onOk={() => act.mutateAsync({ service, action })}
        >
          <Button size="small" type={action === 'cancel' ? 'secondary' : 'primary'} status={action === 'cancel' ? 'danger' : undefined}>
            {t(`list.service.${action}`)}
          </Button>
        </Popconfirm>
      ));

  const list = query.data?.list ?? [];
  return (
    <Card bordered={false} title={t('menu.list.cardList')}>
      <div className="card-list-toolbar">
        <Radio.Group
          type="button"
          value={kind}
          onChange={(value: string) => {
            setKind(value);
            setPageNum(1);
          }}
          options={['all', ...serviceKinds].map((value) => ({ value, label: t(`list.service.kind.${value}`) }))}
        />
        <Input.Search
          allowClear
          style={{ width: 240 }}
          placeholder={t('list.service.search')}
          onSearch={(value) => {
            setName(value.trim());
            setPageNum(1);
          }}
        />
      </div>
      {query.isPending ? (
        <Skeleton animation text={{ rows: 6 }} />
      ) : query.isError ? (
        <Empty description={t('crud.loadFailed')} />
      ) : list.length === 0 ? (
        <Empty description={t('crud.empty')} />
      ) : (
        <Grid.Row gutter={[16, 16]} align="stretch">
          {list.map((service) => (
            <Grid.Col key={service.id} xs={24} sm={12} lg={8} xxl={6} className="service-col">
              <Card className="service-card" data-testid={`service-${service.id}`} bordered>
                <div className="service-card-head">
                  <Typography.Text bold>{service.name}</Typography.Text>
                  <Tag color={stateLook[service.status].color} icon={stateLook[service.status].icon}>
                    {t(`list.service.status.${service.status}`)}
                  </Tag>
                </div>
                <Typography.Paragraph type="secondary" ellipsis={{ rows: 2, showTooltip: true }} className="service-card-desc">
                  {service.description}
                </Typography.Paragraph>
                <div className="service-card-foot">
                  <Typography.Text type="secondary">
                    {t(`list.service.kind.${service.kind}`)}
                    {service.expireTime && service.status !== 'cancelled'
                      ? ` · ${t('list.service.expires', { date: formatDate(service.expireTime) })}`
                      : ''}
                  </Typography.Text>
                  <Space>{actions(service)}</Space>
                </div>
              </Card>
            </Grid.Col>
          ))}
        </Grid.Row>
      )}
      {(query.data?.total ?? 0) > PAGE_SIZE && (
        <Pagination
          className="card-list-pager"
          current={pageNum}
          pageSize={PAGE_SIZE}
          total={query.data?.total ?? 0}
          onChange={setPageNum}
          showTotal
        />
      )}
    </Card>
  );
}
