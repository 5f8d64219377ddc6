import { Button, Card, Popconfirm, Select, Space } from '@arco-design/web-react';
import { permissionLevels } from '@atrium/contracts/release';
import { releaseLabel } from '@atrium/contracts/release-labels';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../api';
import { useCan } from '../../components/permission';
import { actionsColumn, attempt, type Env, type Grant, ListTable, type Project, useList } from './shared';

type User = { id: number; accountId: string; nickname: string };
type Draft = { userId?: number; projectId?: number; envId: number | 0; level: string };

/** Who may do what to a project's tasks, per environment (or all of them): VIEWER < OPERATOR < APPROVER < MAINTAINER. */
export function UserProjectPage() {
  const { t, i18n } = useTranslation();
  const can = useCan();
  const client = useQueryClient();
  const grants = useList<Grant>('user-project');
  const projects = useList<Project>('project');
  const envs = useList<Env>('env');
  const users = useQuery({
    queryKey: ['release', 'users'],
    queryFn: () => http.get<{ list: User[] }>('/api/system/user/user', { params: { pageNum: 1, pageSize: 200 } }),
  });
  const [draft, setDraft] = useState<Draft>({ envId: 0, level: 'VIEWER' });
  const refresh = () => client.invalidateQueries({ queryKey: ['release', 'user-project'] });
  const userName = (id: number) => {
    const u = users.data?.list.find((x) => x.id === id);
    return u ? `${u.nickname} (${u.accountId})` : `#${id}`;
  };
  const grant = () => attempt(() => http.post('/api/release/user-project', { ...draft, envId: draft.envId || null }), refresh);
  return (
    <Card title={t('menu.release.userProject')}>
      <Space style={{ marginBottom: 12 }} wrap>
        <Select
          style={{ width: 220 }}
          placeholder={t('release.user')}
          aria-label={t('release.user')}
          showSearch
          value={draft.userId}
          onChange={(userId: number) => setDraft({ ...draft, userId })}
          options={(users.data?.list ?? []).map((u) => ({ label: `${u.nickname} (${u.accountId})`, value: u.id }))}
        />
        <Select
          style={{ width: 200 }}
          placeholder={t('release.project')}
          aria-label={t('release.project')}
          value={draft.projectId}
          onChange={(projectId: number) => setDraft({ ...draft, projectId })}
          options={(projects.data?.list ?? []).map((p) => ({ label: p.name, value: p.id }))}
        />
        <Select
          style={{ width: 180 }}
          aria-label={t('release.env')}
          value={draft.envId}
          onChange={(envId: number) => setDraft({ ...draft, envId })}
          options={[{ label: t('release.allEnvs'), value: 0 }, ...(envs.data?.list ?? []).map((e) => ({ label: e.name, value: e.id }))]}
        />
        <Select
          style={{ width: 160 }}
          aria-label={t('release.level')}
          value={draft.level}
          onChange={(level: string) => setDraft({ ...draft, level })}
          options={permissionLevels.map((level) => ({ label: releaseLabel('permissionLevel', level, i18n.language), value: level }))}
        />
        {can('release:userProject:create') && (
          <Button type="primary" disabled={!draft.userId || !draft.projectId} onClick={grant}>
            {t('release.grant')}
          </Button>
        )}
      </Space>
      <ListTable
        list={grants}
        // every column stays on a phone: a grant is read whole
        columns={[
          { title: t('release.user'), dataIndex: 'userId', render: userName, phone: true },
          {
            title: t('release.project'),
            dataIndex: 'projectId',
            render: (id: number) => projects.data?.list.find((p) => p.id === id)?.name ?? id,
            phone: true,
          },
          {
            title: t('release.env'),
            dataIndex: 'envId',
            render: (id: number | null) => (id ? (envs.data?.list.find((e) => e.id === id)?.name ?? id) : t('release.allEnvs')),
            phone: true,
          },
          {
            title: t('release.level'),
            dataIndex: 'level',
            render: (level: string) => releaseLabel('permissionLevel', level, i18n.language),
            phone: true,
          },
          ...actionsColumn(t('release.actions'), can('release:userProject:delete'), (g: Grant) => (
            <Popconfirm title={t('release.remove')} onOk={() => attempt(() => http.delete(`/api/release/user-project/${g.id}`), refresh)}>
              <Button size="mini" status="danger">
                {t('release.remove')}
              </Button>
            </Popconfirm>
          )),
        ]}
      />
    </Card>
  );
}
