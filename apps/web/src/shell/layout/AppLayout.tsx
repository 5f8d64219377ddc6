import { Drawer } from '@arco-design/web-react';
import { IconMenuFold, IconMenuUnfold } from '@arco-design/web-react/icon';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { queryClient } from '../../services/query-client';
import { emitRouteChange } from '../../services/route-listener';
import { useSettings } from '../../services/settings';
import { AppBreadcrumb } from '../breadcrumb/AppBreadcrumb';
import { KeepAliveOutlet } from '../keep-alive/KeepAliveOutlet';
import { useCurrentPage } from '../keep-alive/useCurrentPage';
import { MenuTree } from '../menu/MenuTree';
import { useMenu } from '../menu/useMenu';
import { Navbar } from '../navbar/Navbar';
import { FloatingSettingsButton } from '../settings/FloatingSettingsButton';
import { TabBar } from '../tab-bar/TabBar';
import '../shell.css';

const COLLAPSED_WIDTH = 48;
// the settings drawer downloads when first opened
const SettingsDrawer = lazy(() => import('../settings/SettingsDrawer').then((m) => ({ default: m.SettingsDrawer })));
// live notifications: the MQTT client downloads only once signed in
const RealtimeBridge = lazy(() => import('../../realtime/RealtimeBridge').then((m) => ({ default: m.RealtimeBridge })));

/** The signed-in frame: navbar, side (or top) menu, tab bar, breadcrumb, the page, footer. */
export function AppLayout() {
  const { t } = useTranslation();
  const settings = useSettings();
  const { route, key } = useCurrentPage();
  const { pathname, search } = useLocation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [settingsLoaded, setSettingsLoaded] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);

  useEffect(() => {
    if (route) {
      emitRouteChange({ name: route.name, key, pathname, search, locale: route.meta.locale, ignoreCache: Boolean(route.meta.ignoreCache) });
    }
  }, [route, key, pathname, search]);

  useEffect(() => {
    document.title = route ? `${t(route.meta.locale)} - ${t('app.name')}` : t('app.name');
  }, [route, t]);

  // the screen decides (app/settings.ts): on a phone `device` is mobile and `hideMenu` set, and the menu
  // opens as a drawer from the navbar; `hideMenu` set any other way does the same
  const sideMenu = settings.menu && !settings.hideMenu;
  const drawerMenu = settings.menu && settings.hideMenu;
  // top-menu mode beside a side menu splits it (as Arco Pro does): the first level on top, the chosen
  // section's pages at the side; a section that is a page itself leaves no side menu
  const split = settings.topMenu && sideMenu;
  const { items, sectionKey } = useMenu();
  const showSider = sideMenu && (!split || Boolean(items.find((node) => node.name === sectionKey)?.children?.length));
  const collapsed = settings.menuCollapse;
  const siderWidth = collapsed ? COLLAPSED_WIDTH : settings.menuWidth;
  const openSettings = () => {
    setSettingsLoaded(true);
    setSettingsOpen(true);
  };

  // server state is only used signed in, so the sign-in screens do not download the query library
  return (
    <QueryClientProvider client={queryClient}>
      <div className="app-layout" data-device={settings.device}>
        <a className="skip-link" href="#main-content">
          {t('common.skipToContent')}
        </a>
        {settings.navbar ? <Navbar onOpenSettings={openSettings} onOpenMenu={drawerMenu ? () => setDrawerOpen(true) : undefined} /> : null}
        <div className="app-body">
          {showSider ? (
            <aside className="app-sider" style={{ width: siderWidth }}>
              <div className="app-sider-menu">
                <MenuTree part={split ? 'section' : undefined} collapsed={collapsed} ariaLabel={t('menu.ariaLabel')} />
              </div>
              <button
                type="button"
                className="app-sider-toggle"
                aria-label={collapsed ? t('menu.expand') : t('menu.collapse')}
                aria-expanded={!collapsed}
                onClick={() => settings.update({ menuCollapse: !collapsed })}
              >
                {collapsed ? <IconMenuUnfold /> : <IconMenuFold />}
              </button>
            </aside>
          ) : null}
          {drawerMenu ? (
            <Drawer
              placement="left"
              width={Math.min(settings.menuWidth + 60, 280)}
              visible={drawerOpen}
              onCancel={() => setDrawerOpen(false)}
              footer={null}
              title={t('app.name')}
              className="menu-drawer"
            >
              <MenuTree ariaLabel={t('menu.ariaLabel')} onNavigate={() => setDrawerOpen(false)} />
            </Drawer>
          ) : null}
          <div className="app-main">
            {settings.topMenu ? (
              <div className="app-topmenu">
                <MenuTree mode="horizontal" part={split ? 'sections' : undefined} ariaLabel={t('menu.topAriaLabel')} />
              </div>
            ) : null}
            {settings.tabBar ? <TabBar /> : null}
            <div className="app-scroll" ref={scrollRef}>
              <AppBreadcrumb />
              <main id="main-content" tabIndex={-1} className="app-content">
                <KeepAliveOutlet scrollRef={scrollRef} />
              </main>
              {settings.footer ? <footer className="app-footer">{t('footer.text')}</footer> : null}
            </div>
          </div>
        </div>
        {settings.navbar ? null : <FloatingSettingsButton onOpen={openSettings} />}
        <Suspense fallback={null}>
          <RealtimeBridge />
        </Suspense>
        {settingsLoaded ? (
          <Suspense fallback={null}>
            <SettingsDrawer visible={settingsOpen} onClose={() => setSettingsOpen(false)} />
          </Suspense>
        ) : null}
      </div>
    </QueryClientProvider>
  );
}
