import { Avatar, Dropdown, Menu, Message } from '@arco-design/web-react';
import { IconCheck, IconExport, IconSettings, IconSwap, IconUser, IconUserGroup } from '@arco-design/web-react/icon';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { authApi } from '../../api/auth';
import { afterLoginPath } from '../../services/guard';
import { logout, startLeaving, useSession } from '../../services/session';
import { reenter } from './reenter';

// the tenant list (modal, list, pagination) downloads when first asked for
const TenantSwitchModal = lazy(() => import('./TenantSwitchModal').then((m) => ({ default: m.TenantSwitchModal })));

// menu keys of the roles offered: `role:{code}`, and `role:` for all of them again
const ROLE_KEY = 'role:';

export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const userInfo = useSession((s) => s.userInfo);
  const [tenantOpen, setTenantOpen] = useState(false);
  const name = userInfo?.nickname || userInfo?.name || userInfo?.accountId || '';
  const held = userInfo?.heldRoles ?? [];
  const active = userInfo?.activeRole ?? null;

  // spec §2: the session acts as one of the roles the user holds; the server decides, the menu and the
  // guards follow what it answers, and the message says only what happened
  const switchRole = async (code: string | null) => {
    try {
      await authApi.switchRole(code);
      await reenter(queryClient);
    } catch {
      // the HTTP client showed why
      return;
    }
    const now = useSession.getState().userInfo;
    const role = now?.heldRoles.find((r) => r.code === now.activeRole);
    Message.success(role ? t('navbar.switchRoles.done', { role: role.name }) : t('navbar.switchRoles.allDone'));
    navigate(afterLoginPath(''), { replace: true });
  };

  const onClick = async (key: string) => {
    if (key.startsWith(ROLE_KEY)) await switchRole(key.slice(ROLE_KEY.length) || null);
    else if (key === 'userCentre') navigate('/user/info');
    else if (key === 'userSettings') navigate('/user/setting');
    else if (key === 'switchTenant') setTenantOpen(true);
    else if (key === 'logout') {
      // leave first: pages still mounted would refetch without a token once it is cleared
      startLeaving();
      navigate('/login', { replace: true });
      // signed in by single sign-on: on to the provider, which signs out there and comes back to /login
      const atProvider = await logout();
      if (atProvider) window.location.assign(atProvider);
    }
  };

  const roles =
    held.length < 2 ? (
      <Menu.Item key="switchRoles" disabled className="user-menu-explained" title={t('navbar.switchRoles.single')}>
        <IconSwap /> {t('navbar.switchRoles')}
        <span className="user-menu-reason">{t('navbar.switchRoles.single')}</span>
      </Menu.Item>
    ) : (
      <Menu.SubMenu
        key="switchRoles"
        title={
          <>
            <IconSwap /> {t('navbar.switchRoles')}
          </>
        }
      >
        {held.map((role) => (
          <Menu.Item key={`${ROLE_KEY}${role.code}`} disabled={role.code === active}>
            {role.code === active ? <IconCheck /> : null} {role.name}
            {role.code === active ? t('navbar.switchRoles.current') : ''}
          </Menu.Item>
        ))}
        <Menu.Item key={ROLE_KEY} disabled={active === null}>
          {active === null ? <IconCheck /> : null} {t('navbar.switchRoles.all')}
          {active === null ? t('navbar.switchRoles.current') : ''}
        </Menu.Item>
      </Menu.SubMenu>
    );

  return (
    <>
      <Dropdown
        trigger="click"
        position="br"
        droplist={
          <Menu onClickMenuItem={(key) => void onClick(key)} className="user-menu">
            {roles}
            <Menu.Item key="userCentre">
              <IconUser /> {t('navbar.userCentre')}
            </Menu.Item>
            <Menu.Item key="userSettings">
              <IconSettings /> {t('navbar.userSettings')}
            </Menu.Item>
            {/* a one-tenant account has nowhere to switch to */}
            {(userInfo?.tenantCount ?? 0) > 1 ? (
              <Menu.Item key="switchTenant">
                <IconUserGroup /> {t('navbar.switchTenant')}
              </Menu.Item>
            ) : null}
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
