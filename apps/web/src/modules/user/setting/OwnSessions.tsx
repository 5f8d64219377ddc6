import { Button, Message, Popconfirm, Table, Tag, Typography } from '@arco-design/web-react';
import type { OwnSession } from '@atrium/contracts/centre';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../../../api/http';
import { formatDateTime } from '../../../locale/datetime';
import '../messages';

const KEY = ['user', 'sessions'] as const;

/** A short device name from a user agent: browser and system, enough to recognise one's own devices. */
function deviceOf(userAgent: string | null): string {
  if (!userAgent) return '—';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Chrome\//.test(userAgent)
      ? 'Chrome'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : userAgent.split(/[ /]/)[0];
  const system = /Windows/.test(userAgent)
    ? 'Windows'
    : /Android/.test(userAgent)
      ? 'Android'
      : /iPhone|iPad/.test(userAgent)
        ? 'iOS'
        : /Mac OS/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : '';
  return system ? `${browser} · ${system}` : (browser ?? '—');
}

/** The account's live sessions in every tenant, each one signed out on its own or all but this one. */
export function OwnSessions() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const query = useQuery({ queryKey: KEY, queryFn: () => http.get<OwnSession[]>('/api/user/sessions') });
  const end = useMutation({
    mutationFn: (id: number) => http.delete<null>(`/api/user/sessions/${id}`),
    onSuccess: () => {
      Message.success(t('sessions.ended', { count: 1 }));
      void client.invalidateQueries({ queryKey: KEY });
    },
  });
  const endOthers = useMutation({
    mutationFn: () => http.delete<{ ended: number }>('/api/user/sessions'),
    onSuccess: ({ ended }) => {
      Message.success(t('sessions.ended', { count: ended }));
      void client.invalidateQueries({ queryKey: KEY });
    },
  });
  const others = (query.data ?? []).filter((s) => !s.current).length;
  return (
    <section className="own-sessions" data-testid="own-sessions">
      <div className="own-sessions-head">
        <div>
          <Typography.Title heading={6} style={{ margin: 0 }}>
            {t('sessions.title')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('sessions.intro')}</Typography.Text>
        </div>
        <Popconfirm title={t('sessions.endOthersConfirm')} onOk={() => endOthers.mutate()} disabled={others === 0}>
          <Button status="danger" disabled={others === 0} loading={endOthers.isPending} data-testid="sessions-end-others">
            {t('sessions.endOthers')}
          </Button>
        </Popconfirm>
      </div>
      <Table<OwnSession>
        rowKey="id"
        loading={query.isFetching}
        data={query.data ?? []}
        pagination={false}
        scroll={{ x: true }}
        noDataElement={t('sessions.none')}
        columns={[
          {
            title: t('sessions.device'),
            dataIndex: 'userAgent',
            render: (ua: string | null, row) => (
              <span>
                {deviceOf(ua)} {row.current ? <Tag color="green">{t('sessions.current')}</Tag> : null}
              </span>
            ),
          },
          { title: t('sessions.tenant'), dataIndex: 'tenantName', render: (name: string, row) => `${name} (${row.tenantCode})` },
          { title: t('sessions.ip'), dataIndex: 'ip', render: (ip: string | null) => ip ?? '—' },
          { title: t('sessions.since'), dataIndex: 'createTime', render: (v: string) => formatDateTime(v) },
          { title: t('sessions.lastSeen'), dataIndex: 'lastSeenAt', render: (v: string) => formatDateTime(v) },
          {
            title: '',
            dataIndex: 'id',
            align: 'right',
            render: (id: number, row) =>
              row.current ? null : (
                <Popconfirm title={t('sessions.endConfirm')} onOk={() => end.mutate(id)}>
                  <Button size="mini" type="text" status="danger">
                    {t('sessions.end')}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
    </section>
  );
}
