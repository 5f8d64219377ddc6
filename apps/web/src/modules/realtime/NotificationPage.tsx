import {
  Badge,
  Button,
  Card,
  Message,
  Popconfirm,
  Radio,
  Space,
  Table,
  type TableColumnProps,
  Tag,
  Typography,
} from '@arco-design/web-react';
import type { Notification, NotificationType, NotificationPage as Page } from '@atrium/contracts/realtime';
import { notificationTypes } from '@atrium/contracts/realtime';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { http } from '../../api';
import '../../crud/messages';
import { sentColumns } from './columns';
import './messages';
import { pagedTable } from '../../crud/paged-table';

type ReadFilter = 'all' | 'unread' | 'read';
const typeColor: Record<NotificationType, string> = { message: 'arcoblue', notice: 'orange', todo: 'green' };

/** Every notification of the signed-in person: filters, paging, read and delete. Live messages refresh it. */
export function NotificationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // a link may open the page filtered (`?type=notice&read=unread`: the staging page's counts); the page
  // may be kept alive between visits, so a later link's filters apply to it too
  const [search] = useSearchParams();
  const linked = search.get('type');
  const linkedType = notificationTypes.find((known) => known === linked) ?? null;
  const linkedUnread = search.get('read') === 'unread';
  const [type, setType] = useState<NotificationType | 'all'>(linkedType ?? 'all');
  const [read, setRead] = useState<ReadFilter>(linkedUnread ? 'unread' : 'all');
  const [paging, setPaging] = useState({ pageNum: 1, pageSize: 20 });
  useEffect(() => {
    if (!linkedType && !linkedUnread) return;
    if (linkedType) setType(linkedType);
    if (linkedUnread) setRead('unread');
    setPaging((p) => ({ ...p, pageNum: 1 }));
  }, [linkedType, linkedUnread]);
  const params = {
    ...paging,
    type: type === 'all' ? undefined : type,
    read: read === 'all' ? undefined : read === 'read',
  };
  // under the message box's key, so a live message or a read elsewhere refreshes this page too
  const list = useQuery({
    queryKey: ['notifications', 'page', params],
    queryFn: () => http.get<Page>('/api/system/notification', { params }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['notifications'] });
  const markRead = useMutation({ mutationFn: (id: number) => http.put(`/api/system/notification/${id}/read`), onSuccess: refresh });
  const remove = useMutation({ mutationFn: (id: number) => http.delete(`/api/system/notification/${id}`), onSuccess: refresh });
  const readAll = useMutation({
    mutationFn: () => http.put('/api/system/notification/read-all', undefined, { params: { type: params.type } }),
    onSuccess: () => {
      Message.success(t('notification.allReadDone'));
      void refresh();
    },
  });

  const open = (item: Notification) => {
    if (!item.read) markRead.mutate(item.id);
    if (item.link?.startsWith('/')) navigate(item.link);
    else if (item.link) window.open(item.link, '_blank', 'noopener');
  };

  const columns: TableColumnProps<Notification>[] = [
    {
      title: t('notification.title'),
      dataIndex: 'title',
      render: (_, item) => (
        <Space direction="vertical" size={2}>
          <Space>
            {item.read ? null : <Badge status="processing" aria-label={t('notification.unread')} />}
            <Typography.Text bold={!item.read}>{item.title}</Typography.Text>
          </Space>
          {item.content ? (
            <Typography.Paragraph type="secondary" ellipsis={{ rows: 2, showTooltip: true }} style={{ marginBottom: 0 }}>
              {item.content}
            </Typography.Paragraph>
          ) : null}
        </Space>
      ),
    },
    {
      title: t('notification.type'),
      dataIndex: 'type',
      width: 100,
      render: (_, item) => <Tag color={typeColor[item.type]}>{t(`notification.type.${item.type}`)}</Tag>,
    },
    ...sentColumns<Notification>(t, 220, (item) => (
      <>
        {item.link ? (
          <Button type="text" size="small" onClick={() => open(item)}>
            {t('notification.open')}
          </Button>
        ) : null}
        {item.read ? null : (
          <Button type="text" size="small" onClick={() => markRead.mutate(item.id)}>
            {t('notification.markRead')}
          </Button>
        )}
        <Popconfirm title={t('notification.deleteConfirm')} onOk={() => remove.mutateAsync(item.id)}>
          <Button type="text" size="small" status="danger">
            {t('crud.delete')}
          </Button>
        </Popconfirm>
      </>
    )),
  ];

  const unread = list.data?.unread;
  return (
    <Card>
      <Space style={{ marginBottom: 16, justifyContent: 'space-between', width: '100%' }} wrap>
        <Space wrap>
          <Radio.Group
            type="button"
            value={type}
            onChange={(value: NotificationType | 'all') => {
              setType(value);
              setPaging((p) => ({ ...p, pageNum: 1 }));
            }}
          >
            <Radio value="all">{t('notification.all')}</Radio>
            {notificationTypes.map((key) => (
              <Radio key={key} value={key}>
                {unread?.[key] ? `${t(`notification.type.${key}`)} (${unread[key]})` : t(`notification.type.${key}`)}
              </Radio>
            ))}
          </Radio.Group>
          <Radio.Group
            type="button"
            value={read}
            onChange={(value: ReadFilter) => {
              setRead(value);
              setPaging((p) => ({ ...p, pageNum: 1 }));
            }}
          >
            <Radio value="all">{t('notification.all')}</Radio>
            <Radio value="unread">{t('notification.unread')}</Radio>
            <Radio value="read">{t('notification.read')}</Radio>
          </Radio.Group>
        </Space>
        <Button type="primary" loading={readAll.isPending} onClick={() => readAll.mutate()}>
          {t('notification.allRead')}
        </Button>
      </Space>
      <Table<Notification> rowKey="id" columns={columns} {...pagedTable(list, paging, setPaging, t)} />
    </Card>
  );
}
