import { Avatar, Dropdown, Menu, Message } from '@arco-design/web-react';
import { IconExport, IconSettings, IconSwap, IconUser, IconUserGroup } from '@arco-design/web-react/icon';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { logout, startLeaving, useSession } from '../../app/session';

// the tenant list (modal, list, pagination) downloads when first asked for
const TenantSwitchModal = lazy(() => import('./TenantSwitchModal').then((m) => ({ default: m.TenantSwitchModal })));

export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const userInfo = useSession((s) => s.userInfo);
  const switchRoles = useSession((s) => s.switchRoles);
  const [tenantOpen, setTenantOpen] = useState(false);
  const name = userInfo?.nickname || userInfo?.name || userInfo?.accountId || '';

  const onClick = async (key: string) => {
    if (key === 'switchRoles') Message.success(t('navbar.switchRoles.done', { role: switchRoles() }));
    else if (key === 'userCentre') navigate('/user/info');
    else if (key === 'userSettings') navigate('/user/setting');
    else if (key === 'switchTenant') setTenantOpen(true);
    else if (key === 'logout') {
      // leave first: pages still mounted would refetch without a token once it is cleared
      startLeaving();
      navigate('/login', { replace: true });
      await logout();
    }
  };

  return (
    <>
      <Dropdown
        trigger="click"
        position="br"
        droplist={
          <Menu onClickMenuItem={(key) => void onClick(key)} className="user-menu">
            <Menu.Item key="switchRoles">
              <IconSwap /> {t('navbar.switchRoles')}
            </Menu.Item>
            <Menu.Item key="userCentre">
              <IconUser /> {t('navbar.userCentre')}
            </Menu.Item>
            <Menu.Item key="userSettings">
              <IconSettings /> {t('navbar.userSettings')}
            </Menu.Item>
            <Menu.Item key="switchTenant">
              <IconUserGroup /> {t('navbar.switchTenant')}
            </Menu.Item>
            <Menu.Item key="logout">
              <IconExport /> {t('navbar.logout')}
            </Menu.Item>
          </Menu>
        }
      >
        <button type="button" className="nav-user" aria-label={t('navbar.user')} title={name}>
          <Avatar size={32} className="nav-avatar">
            {userInfo?.avatar ? <img src={userInfo.avatar} alt="" /> : name.slice(0, 1).toUpperCase()}
          </Avatar>
          <span className="nav-user-text">
            <span className="nav-user-name">{name}</span>
            <span className="nav-user-tenant">{userInfo?.tenantName}</span>
          </span>
        </button>
      </Dropdown>
      {tenantOpen ? (
        <Suspense fallback={null}>
          <TenantSwitchModal visible onClose={() => setTenantOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
