import { Card, Descriptions, Empty, Input, Typography } from '@arco-design/web-react';
import { IconSearch } from '@arco-design/web-react/icon';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../app/session';
import { MenuIcon } from '../../shell/menu/icons';
import { useMenuPages } from '../../shell/menu/useMenu';

/** The home every signed-in user lands on: who and where they are, and a way into every page. */
export function StagingPage() {
  const { t } = useTranslation();
  const userInfo = useSession((s) => s.userInfo);
  const role = useSession((s) => s.role);
  const pages = useMenuPages();
  const [filter, setFilter] = useState('');
  const name = userInfo?.nickname || userInfo?.name || userInfo?.accountId || '';
  const needle = filter.trim().toLowerCase();
  const shown = pages.filter((page) => {
    if (!needle) return true;
    const label = `${page.section?.meta.locale ? t(page.section.meta.locale) : ''} ${t(page.meta.locale ?? page.name)}`;
    return label.toLowerCase().includes(needle) || page.path.includes(needle);
  });

  return (
    <div className="page-stack">
      <Card className="welcome-card" bordered={false}>
        <Typography.Title heading={4} className="welcome-title">
          {t('staging.welcome', { name })}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('staging.intro')}</Typography.Paragraph>
        <Descriptions
          column={{ xs: 1, sm: 3 }}
          data={[
            { label: t('staging.tenant'), value: userInfo ? `${userInfo.tenantName} (${userInfo.tenantCode})` : '' },
            // the role's name, not its code (admin → 管理员); an unknown code shows as it is
            { label: t('staging.role'), value: role ? t(`staging.role.${role}`, { defaultValue: role }) : '' },
            { label: t('staging.account'), value: userInfo?.accountId ?? '' },
          ]}
        />
      </Card>
      <Card
        bordered={false}
        title={t('staging.shortcuts')}
        extra={
          <Input
            allowClear
            prefix={<IconSearch />}
            value={filter}
            onChange={setFilter}
            placeholder={t('staging.searchPlaceholder')}
            aria-label={t('staging.search')}
            style={{ width: 240 }}
          />
        }
      >
        {shown.length === 0 ? (
          <Empty description={t('staging.noShortcuts')} />
        ) : (
          <ul className="shortcut-grid">
            {shown.map((page) => (
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
        )}
      </Card>
    </div>
  );
}
