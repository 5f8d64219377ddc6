import {
  Avatar,
  Button,
  Card,
  Descriptions,
  Empty,
  Grid,
  Message,
  Popconfirm,
  Skeleton,
  Space,
  Table,
  Tag,
  Typography,
} from '@arco-design/web-react';
import type { UserProfile } from '@atrium/contracts/auth';
import type { Certification, UserActivity } from '@atrium/contracts/centre';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { http, USER_INFO_URL } from '../../../api/http';
import { QrCode } from '../../../components/qr/QrCode';
import { formatDateTime } from '../../../locale/datetime';
import { actionLabel, moduleLabel } from '../../system/shared/operation';
import { certificateColumns, certificationKey, fetchCertifications, statusColor } from '../certification';
import '../messages';

export const userProfileKeys = { profile: ['user', 'profile'] as const };

/** The user centre: the signed-in person's own profile in the current tenant. */
export function UserInfoPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const query = useQuery({ queryKey: userProfileKeys.profile, queryFn: () => http.get<UserProfile>(USER_INFO_URL) });
  const dateTime = (value: string | null) => (value ? formatDateTime(value) : null);
  const notSet = <Typography.Text type="secondary">{t('workplace.notSet')}</Typography.Text>;

  if (query.isPending) {
    return (
      <Card bordered={false}>
        <Skeleton animation text={{ rows: 6 }} image />
      </Card>
    );
  }
  if (query.isError) {
    return (
      <Card bordered={false}>
        <Empty description={t('userInfo.loadFailed')} />
        <div className="center-actions">
          <Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>
        </div>
      </Card>
    );
  }
  const user = query.data;
  const name = user.nickname || user.name || user.accountId;
  const tags = (values: string[]) =>
    values.length ? (
      <Space wrap size={4}>
        {values.map((value) => (
          <Tag key={value}>{value}</Tag>
        ))}
      </Space>
    ) : (
      notSet
    );

  return (
    <div className="page-stack">
      <Card bordered={false}>
        <div className="profile-head">
          <Avatar size={64} className="nav-avatar">
            {user.avatar ? <img src={user.avatar} alt="" /> : name.slice(0, 1).toUpperCase()}
          </Avatar>
          <div className="profile-head-text">
            <Typography.Title heading={5} className="welcome-title">
              {name}
            </Typography.Title>
            <Typography.Text type="secondary">
              {user.accountId} · {user.tenantName} ({user.tenantCode})
            </Typography.Text>
          </div>
          <Button type="primary" onClick={() => navigate('/user/setting')}>
            {t('navbar.userSettings')}
          </Button>
        </div>
      </Card>
      <Card bordered={false} title={t('userInfo.basic')}>
        <Descriptions
          column={{ xs: 1, md: 2 }}
          labelStyle={{ width: 120 }}
          data={[
            { label: t('userInfo.name'), value: user.name || notSet },
            { label: t('workplace.email'), value: user.email || notSet },
            { label: t('workplace.phone'), value: user.phone || notSet },
            { label: t('workplace.userType'), value: t(`workplace.userType.${user.userType}`) },
            { label: t('userInfo.dept'), value: user.deptName || notSet },
            { label: t('userInfo.posts'), value: tags(user.postNames) },
            { label: t('userInfo.roles'), value: tags(user.roleNames) },
            { label: t('workplace.memberSince'), value: dateTime(user.createTime) ?? notSet },
            {
              label: t('userInfo.lastLogin'),
              value: user.lastLoginTime ? `${dateTime(user.lastLoginTime)}${user.lastLoginIp ? ` · ${user.lastLoginIp}` : ''}` : notSet,
            },
            { label: t('userInfo.profile'), value: user.profile || user.remark || notSet },
          ]}
        />
      </Card>
      <Certifications />
      <Grid.Row gutter={16} className="kpi-row" align="stretch">
        <Grid.Col xs={24} xl={17}>
          <RecentActivity />
        </Grid.Col>
        <Grid.Col xs={24} xl={7}>
          <Card bordered={false} title={t('profileQr.title')} className="fill-card">
            <div className="profile-qr" data-testid="profile-qr">
              <QrCode value={`${window.location.origin}/user/info`} size={180} margin={12} level="M" label={t('profileQr.hint')} />
            </div>
          </Card>
        </Grid.Col>
      </Grid.Row>
    </div>
  );
}

/** The user's certification requests; one still under review can be withdrawn (spec §4). */
function Certifications() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const query = useQuery({ queryKey: certificationKey, queryFn: fetchCertifications });
  const withdraw = useMutation({
    mutationFn: (id: number) => http.put<Certification>(`/api/user/certification/${id}/withdraw`, {}),
    onSuccess: () => {
      Message.success(t('cert.withdrawn'));
      void client.invalidateQueries({ queryKey: certificationKey });
    },
  });
  return (
    <Card bordered={false} title={t('cert.records')} data-testid="cert-records">
      <Table<Certification>
        rowKey="id"
        loading={query.isFetching}
        data={query.data ?? []}
        pagination={false}
        scroll={{ x: true }}
        noDataElement={
          <Empty
            description={
              <Space direction="vertical">
                {t('cert.empty')}
                <Button size="small" type="primary" onClick={() => navigate('/user/setting?tab=certification')}>
                  {t('cert.apply')}
                </Button>
              </Space>
            }
          />
        }
        columns={[
          { title: t('cert.accountType'), dataIndex: 'accountType', render: (v: string) => t(`cert.accountType.${v}`) },
          {
            title: t('cert.status'),
            dataIndex: 'status',
            render: (v: Certification['status']) => <Tag color={statusColor[v]}>{t(`cert.status.${v}`)}</Tag>,
          },
          { title: t('cert.reviewReason'), dataIndex: 'reviewReason' },
          { title: t('cert.time'), dataIndex: 'createTime', render: (v: string) => formatDateTime(v) },
          ...certificateColumns(t),
          {
            title: '',
            dataIndex: 'id',
            align: 'right',
            render: (id: number, row) =>
              row.status === 'auditing' ? (
                <Popconfirm title={t('cert.withdrawConfirm')} onOk={() => withdraw.mutate(id)}>
                  <Button size="mini" type="text" status="warning" data-testid={`cert-withdraw-${id}`}>
                    {t('cert.withdraw')}
                  </Button>
                </Popconfirm>
              ) : null,
          },
        ]}
      />
    </Card>
  );
}

/** The user's own latest operations and sign-ins in this tenant. */
function RecentActivity() {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: ['user', 'activity'], queryFn: () => http.get<UserActivity>('/api/user/activity') });
  const result = (ok: boolean) => <Tag color={ok ? 'green' : 'red'}>{ok ? t('activity.ok') : t('activity.failed')}</Tag>;
  const data = query.data;
  return (
    <Card bordered={false} title={t('activity.title')} className="fill-card" data-testid="recent-activity">
      {query.isPending ? (
        <Skeleton animation text={{ rows: 4 }} />
      ) : (
        <Grid.Row gutter={24}>
          <Grid.Col xs={24} md={12}>
            <Typography.Text bold>{t('activity.operations')}</Typography.Text>
            {data?.operations.length ? (
              <ul className="plain-list" data-testid="activity-operations">
                {data.operations.map((o) => (
                  <li key={o.id}>
                    <span>
                      {/* the module as its menu entry reads where there is one (system:user → 用户管理), else its code */}
                      {t(moduleLabel(o.title))} · {actionLabel(o.action)}
                      {o.target ? ` · ${o.target}` : ''}
                    </span>
                    <span className="activity-meta">
                      {result(o.ok)} <Typography.Text type="secondary">{formatDateTime(o.time)}</Typography.Text>
                    </span>
                  </li>
                ))}
              </ul>
            ) : (
              <Empty description={t('activity.noOperations')} />
            )}
          </Grid.Col>
          <Grid.Col xs={24} md={12}>
            <Typography.Text bold>{t('activity.logins')}</Typography.Text>
            {data?.logins.length ? (
              <ul className="plain-list" data-testid="activity-logins">
                {data.logins.map((l) => (
                  <li key={l.id}>
                    <span>{l.ip ?? '—'}</span>
                    <span className="activity-meta">
                      {result(l.ok)} <Typography.Text type="secondary">{formatDateTime(l.time)}</Typography.Text>
                    </span>
                  </li>
                ))}
              </ul>
            ) : (
              <Empty description={t('activity.noLogins')} />
            )}
          </Grid.Col>
        </Grid.Row>
      )}
    </Card>
  );
}
