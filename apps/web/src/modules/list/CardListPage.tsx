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
import { formatDate } from '../../locale/datetime';
import './list.css';
import './messages';

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
