import { Avatar, Button, Card, Descriptions, Empty, Skeleton, Space, Tag, Typography } from '@arco-design/web-react';
import type { UserProfile } from '@atrium/contracts/auth';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { http, USER_INFO_URL } from '../../../api/http';
import { formatDateTime } from '../../../locale/datetime';

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
    </div>
  );
}
