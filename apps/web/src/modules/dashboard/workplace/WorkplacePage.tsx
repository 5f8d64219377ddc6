import { Link as ArcoLink, Card, Descriptions, Grid, Tag, Typography } from '@arco-design/web-react';
import { IconLaunch } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { STAGING_PATH } from '../../../app/routes';
import { useSession } from '../../../app/session';
import { formatDate } from '../../../locale/datetime';
import { MenuIcon } from '../../../shell/menu/icons';
import { useMenuPages } from '../../../shell/menu/useMenu';

const QUICK_LINKS = 8;

function greetingKey(hour: number): string {
  if (hour < 12) return 'workplace.greeting.morning';
  if (hour < 18) return 'workplace.greeting.afternoon';
  return 'workplace.greeting.evening';
}

export function WorkplacePage() {
  const { t } = useTranslation();
  const userInfo = useSession((s) => s.userInfo);
  const role = useSession((s) => s.role);
  const pages = useMenuPages().filter((page) => page.name !== 'Workplace' && page.path !== STAGING_PATH);
  const name = userInfo?.nickname || userInfo?.name || userInfo?.accountId || '';
  const notSet = <Typography.Text type="secondary">{t('workplace.notSet')}</Typography.Text>;
  const permissions = userInfo?.permissions ?? [];

  return (
    <div className="page-stack">
      <Card bordered={false} className="welcome-card">
        <Typography.Title heading={4} className="welcome-title">
          {t(greetingKey(new Date().getHours()), { name })}
        </Typography.Title>
        <Typography.Paragraph type="secondary">
          {userInfo ? t('workplace.tenantLine', { tenant: userInfo.tenantName, code: userInfo.tenantCode }) : null}{' '}
          <Tag color="arcoblue">{role}</Tag>
        </Typography.Paragraph>
      </Card>
      <Grid.Row gutter={16}>
        <Grid.Col xs={24} lg={16}>
          <Card bordered={false} title={t('workplace.quickLinks')} className="fill-card">
            <ul className="shortcut-grid">
              {pages.slice(0, QUICK_LINKS).map((page) => (
                <li key={page.name}>
                  <Link to={page.path} className="shortcut">
                    <span className="shortcut-icon">
                      <MenuIcon name={page.section?.meta.icon ?? page.meta.icon ?? 'IconApps'} />
                    </span>
                    <span className="shortcut-text">
                      <span className="shortcut-title">{t(page.meta.locale ?? page.name)}</span>
                      {page.section?.meta.locale ? <span className="shortcut-section">{t(page.section.meta.locale)}</span> : null}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </Card>
        </Grid.Col>
        <Grid.Col xs={24} lg={8}>
          <Card bordered={false} title={t('workplace.profile')} className="fill-card">
            <Descriptions
              column={1}
              colon=" "
              labelStyle={{ width: 96 }}
              data={[
                { label: t('workplace.email'), value: userInfo?.email || notSet },
                { label: t('workplace.phone'), value: userInfo?.phone || notSet },
                { label: t('workplace.userType'), value: userInfo ? t(`workplace.userType.${userInfo.userType}`) : notSet },
                {
                  label: t('workplace.permissions'),
                  value: permissions.includes('*:*:*') ? t('workplace.allPermissions') : String(permissions.length),
                },
                {
                  label: t('workplace.memberSince'),
                  value: userInfo?.createTime ? formatDate(userInfo.createTime) : notSet,
                },
              ]}
            />
          </Card>
        </Grid.Col>
      </Grid.Row>
      <Card bordered={false} title={t('workplace.docs')}>
        <div className="doc-links">
          <ArcoLink href="https://arco.design" target="_blank" icon={<IconLaunch />}>
            {t('menu.arcoWebsite')}
          </ArcoLink>
          <ArcoLink href="https://arco.design/docs/pro/faq" target="_blank" icon={<IconLaunch />}>
            {t('menu.faq')}
          </ArcoLink>
        </div>
      </Card>
    </div>
  );
}
