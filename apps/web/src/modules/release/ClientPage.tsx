import { Button, Card, Modal, Popconfirm, Tag, Typography } from '@arco-design/web-react';
import { codeOptions } from '@atrium/contracts/labels';
import { clientResource } from '@atrium/contracts/release-entities';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../api';
import { useCan } from '../../components/permission';
import { SearchForm } from '../../crud/SearchForm';
import { formatDateTime } from '../../locale/datetime';
import { onRealtime } from '../../realtime/events';
import { actionsColumn, attempt, type Client, ListTable, StatusTag, Toolbar, usePagedList } from './shared';

// where the expiry goes in the hint (an invisible separator no message contains)
const TIME = '\u2063';

/** Agents: approve a PENDING one, disable or revoke; presence follows the broker live. */
export function ClientPage() {
  const { t, i18n } = useTranslation();
  const can = useCan();
  const queryClient = useQueryClient();
  const clients = usePagedList<Client>('client');
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['release', 'client'] });
  useEffect(
    () =>
      onRealtime('task', (message) => {
        if (message.domain === 'release' && message.event === 'presence')
          void queryClient.invalidateQueries({ queryKey: ['release', 'client'] });
      }),
    [queryClient],
  );
  const token = () =>
    attempt(async () => {
      const answer = await http.post<{ token: string; expiresAt: string }>('/api/release/client/enrol-token');
      // the hint around its time, which stays on one line (a date breaks at its hyphens)
      const [before, after] = t('release.enrolTokenHint', { time: TIME }).split(TIME);
      Modal.info({
        title: t('release.enrolToken'),
        // closed by its corner as well as by its button, as every other dialog
        closable: true,
        style: { width: 640 },
        content: (
          <div>
            <p>
              {before}
              <time dateTime={answer.expiresAt} style={{ whiteSpace: 'nowrap' }}>
                {formatDateTime(answer.expiresAt)}
              </time>
              {after}
            </p>
            <Typography.Paragraph copyable code className="enrol-command">
              {[
                'node agent.mjs',
                `  --server ${window.location.origin}`,
                `  --enrol ${answer.token}`,
                '  --work /var/lib/atrium-agent',
              ].join(' \\\n')}
            </Typography.Paragraph>
          </div>
        ),
      });
    });
  const act = (c: Client, action: 'approve' | 'disable' | 'revoke') =>
    attempt(() => http.put(`/api/release/client/${c.id}/${action}`), refresh);
  return (
    <Card title={t('menu.release.client')}>
      <SearchForm
        fields={[
          { field: 'hostname', label: 'release.hostname' },
          { field: 'status', label: 'release.status', type: 'select', options: codeOptions('clientStatus', i18n.language) },
          {
            field: 'presence',
            label: 'release.presence',
            type: 'select',
            options: ['online', 'offline'].map((presence) => ({ label: `release.${presence}`, value: presence })),
          },
        ]}
        schema={clientResource.filters}
        onSearch={clients.search}
      />
      {can('release:client:enrol') && (
        <Toolbar>
          <Button type="primary" onClick={token}>
            {t('release.enrolToken')}
          </Button>
        </Toolbar>
      )}
      <ListTable
        list={clients.list}
        pagination={clients.pagination}
        columns={[
          { title: 'ID', dataIndex: 'id' },
          { title: t('release.hostname'), dataIndex: 'hostname', phone: true },
          { title: t('release.os'), dataIndex: 'os' },
          { title: t('release.agentVersion'), dataIndex: 'agentVersion' },
          { title: t('release.labels'), dataIndex: 'labels', render: (labels: string[]) => labels.map((l) => <Tag key={l}>{l}</Tag>) },
          {
            title: t('release.status'),
            dataIndex: 'status',
            render: (s: string) => <StatusTag kind="clientStatus" value={s} />,
            phone: true,
          },
          {
            title: t('release.presence'),
            dataIndex: 'presence',
            render: (p: string) => <StatusTag value={p} label={t(p === 'online' ? 'release.online' : 'release.offline')} />,
          },
          { title: t('release.lastSeen'), dataIndex: 'lastSeenAt', render: (v: string | null) => (v ? formatDateTime(v) : '—') },
          ...actionsColumn(
            t('release.actions'),
            can('release:client:approve') || can('release:client:disable') || can('release:client:revoke'),
            (c: Client) => (
              <>
                {(c.status === 'PENDING' || c.status === 'DISABLED') && can('release:client:approve') && (
                  <Button size="mini" type="primary" onClick={() => act(c, 'approve')}>
                    {t('release.approve')}
                  </Button>
                )}
                {(c.status === 'PENDING' || c.status === 'ACTIVE') && can('release:client:disable') && (
                  <Button size="mini" onClick={() => act(c, 'disable')}>
                    {t('release.disable')}
                  </Button>
                )}
                {c.status !== 'REVOKED' && can('release:client:revoke') && (
                  // revoking cannot be undone: the agent must enrol again
                  <Popconfirm title={t('release.revokeConfirm', { host: c.hostname })} onOk={() => act(c, 'revoke')}>
                    <Button size="mini" status="danger">
                      {t('release.revoke')}
                    </Button>
                  </Popconfirm>
                )}
              </>
            ),
          ),
        ]}
      />
    </Card>
  );
}
