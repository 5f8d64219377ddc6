import { Button, Message, Popconfirm, Tag } from '@arco-design/web-react';
import { type OnlineSession, sessionResource } from '@atrium/contracts/system/audit';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../../../api';
import { useCan } from '../../../components/permission';
import { ResourcePage } from '../../../crud/ResourcePage';
import { resourceKeys } from '../../../crud/resource-api';
import type { ColumnDef, FieldDef } from '../../../crud/types';
import '../shared/messages-admin';
import { formatDateTimeSeconds } from '../../../locale/datetime';

const search: FieldDef[] = [
  { field: 'accountId', label: 'system.session.accountId' },
  { field: 'ip', label: 'system.session.ip' },
];

/** Who is signed in to the tenant now; force-logout ends a session (its holder sees the sign-in-expired dialog). */
export function SessionPage() {
  const { t } = useTranslation();
  const can = useCan();
  const client = useQueryClient();
  const forceLogout = async (id: number) => {
    await http.delete(`/api/system/session/${id}`);
    Message.success(t('system.session.loggedOut'));
    await client.invalidateQueries({ queryKey: resourceKeys(sessionResource).all });
  };
  const columns: ColumnDef<OnlineSession>[] = [
    {
      key: 'accountId',
      title: 'system.session.accountId',
      render: (s) =>
        s.current ? (
          <>
            {s.accountId} <Tag color="arcoblue">{t('system.session.current')}</Tag>
          </>
        ) : (
          s.accountId
        ),
    },
    { key: 'name', title: 'system.session.name' },
    { key: 'ip', title: 'system.session.ip' },
    { key: 'deviceType', title: 'system.session.device' },
    { key: 'lastSeenAt', title: 'system.session.lastSeen', render: (s) => formatDateTimeSeconds(s.lastSeenAt) },
    { key: 'createTime', title: 'system.session.created', render: (s) => formatDateTimeSeconds(s.createTime) },
  ];
  return (
    <ResourcePage<OnlineSession>
      resource={sessionResource}
      columns={columns}
      search={search}
      rowActionPermissions={['system:session:forceLogout']}
      rowActions={(s) =>
        can('system:session:forceLogout') && !s.current ? (
          <Popconfirm title={t('system.session.forceLogoutConfirm', { name: s.name || s.accountId })} onOk={() => forceLogout(s.id)}>
            <Button type="text" size="mini" status="danger">
              {t('system.session.forceLogout')}
            </Button>
          </Popconfirm>
        ) : null
      }
    />
  );
}
