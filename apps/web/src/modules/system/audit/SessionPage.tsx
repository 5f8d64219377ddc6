import { Button, Message, Popconfirm, Tag } from '@arco-design/web-react';
import { type OnlineSession, sessionEntity } from '@atrium/contracts/system/audit';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../../api';
import { useCan } from '../../../components/permission';
import { columnsOf, searchOf } from '../../../crud/fields';
import { ResourcePage } from '../../../crud/ResourcePage';
import { resourceKeys } from '../../../crud/resource-api';
import '../shared/messages';
import '../shared/messages-admin';
import { formatDateTimeSeconds } from '../../../locale/datetime';

const { resource: sessionResource, fields = [] } = sessionEntity;
const search = searchOf(fields);

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
  // the manifest's fields are the columns; these cells say more than the value
  const cells: Partial<Record<keyof OnlineSession, (row: OnlineSession) => ReactNode>> = {
    accountId: (s) =>
      s.current ? (
        <>
          {s.accountId} <Tag color="arcoblue">{t('system.session.current')}</Tag>
        </>
      ) : (
        s.accountId
      ),
    lastSeenAt: (s) => formatDateTimeSeconds(s.lastSeenAt),
    createTime: (s) => formatDateTimeSeconds(s.createTime),
  };
  const columns = columnsOf<OnlineSession>(fields, t, false, cells);
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
