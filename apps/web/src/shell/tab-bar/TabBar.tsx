import { Dropdown, Menu } from '@arco-design/web-react';
import { IconClose, IconDown, IconRefresh } from '@arco-design/web-react/icon';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { listenRouteChange } from '../../services/route-listener';
import { STAGING_PATH } from '../../services/routes';
import { IconButton } from '../navbar/IconButton';
import { type Tab, useTabs } from './tabs-store';

type Action = 'reload' | 'closeCurrent' | 'closeLeft' | 'closeRight' | 'closeOthers' | 'closeAll';
const ACTIONS_MENU = '#actions';
const actions: Action[] = ['reload', 'closeCurrent', 'closeLeft', 'closeRight', 'closeOthers', 'closeAll'];
// a menu leaves at once: while one faded out, the next could open beside it and both showed the same items
const popupTiming = { triggerProps: { duration: { enter: 200, exit: 0 } } };

function tabTitle(tab: Tab, t: (key: string) => string): string {
  const title = t(tab.locale);
  // detail pages: say which record, so two open details can be told apart
  const id = tab.path.split('/').at(-1);
  return tab.path.includes('/detail/') || tab.path.includes('/update/') ? `${title} ${id}` : title;
}

export function TabBar() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const store = useTabs();
  const { tabs } = store;
  const activeRef = useRef<HTMLDivElement>(null);
  // which menu is open: a tab's context menu (its path) or the actions menu; closed after every action
  const [menuFor, setMenuFor] = useState<string | null>(null);

  useEffect(() => listenRouteChange((change) => useTabs.getState().open(change)), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the active tab changes with the path
  useEffect(() => {
    activeRef.current?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [pathname]);

  const goTo = (tab: Tab) => navigate(`${tab.path}${tab.search}`);
  // after closing, stay if the current page is still open, else go to the nearest tab on the left
  const settle = (left: Tab[], closedIndex: number) => {
    if (left.some((tab) => tab.path === pathname)) return;
    const next = left[Math.min(Math.max(closedIndex - 1, 0), left.length - 1)] ?? left[0];
    if (next) goTo(next);
  };

  const run = (action: Action, tab: Tab) => {
    setMenuFor(null);
    const index = tabs.findIndex((item) => item.path === tab.path);
    if (action === 'reload') {
      store.reload(tab.key);
      if (tab.path !== pathname) goTo(tab);
    } else if (action === 'closeCurrent') settle(store.close(tab.path), index);
    else if (action === 'closeLeft') settle(store.closeLeft(tab.path), index);
    else if (action === 'closeRight') settle(store.closeRight(tab.path), index);
    else if (action === 'closeOthers') {
      store.closeOthers(tab.path);
      if (tab.path !== pathname) goTo(tab);
    } else {
      store.closeAll();
      navigate(STAGING_PATH);
    }
  };

  const disabled = (action: Action, tab: Tab) => {
    const index = tabs.findIndex((item) => item.path === tab.path);
    if (action === 'closeCurrent') return tab.path === STAGING_PATH;
    if (action === 'closeLeft') return index <= 1;
    if (action === 'closeRight') return index === tabs.length - 1;
    if (action === 'closeOthers') return tabs.length <= (tab.path === STAGING_PATH ? 1 : 2);
    if (action === 'closeAll') return tabs.length <= 1;
    return false;
  };

  const actionMenu = (tab: Tab, label: string) => (
    <Menu aria-label={label} className="tab-bar-menu" onClickMenuItem={(key) => run(key as Action, tab)}>
      {actions.map((action) => (
        <Menu.Item key={action} disabled={disabled(action, tab)}>
          {action === 'reload' ? <IconRefresh /> : <IconClose />}{' '}
          {t(action === 'closeCurrent' ? 'tabBar.closeCurrent' : `tabBar.${action}`)}
        </Menu.Item>
      ))}
    </Menu>
  );

  const current = tabs.find((tab) => tab.path === pathname) ?? tabs[0];

  return (
    <div className="tab-bar">
      <div className="tab-bar-scroll" role="tablist" aria-label={t('tabBar.ariaLabel')}>
        {tabs.map((tab) => {
          const active = tab.path === pathname;
          const title = tabTitle(tab, t);
          return (
            <Dropdown
              key={tab.path}
              trigger="contextMenu"
              droplist={actionMenu(tab, t('tabBar.menuOf', { title }))}
              {...popupTiming}
              position="bl"
              popupVisible={menuFor === tab.path}
              onVisibleChange={(visible) => setMenuFor(visible ? tab.path : null)}
            >
              <div ref={active ? activeRef : undefined} className={active ? 'tab-item active' : 'tab-item'} data-path={tab.path}>
                <button
                  type="button"
                  role="tab"
                  aria-selected={active}
                  className="tab-item-title"
                  onClick={() => goTo(tab)}
                  onKeyDown={(event) => {
                    if (event.key === 'Delete' && tab.path !== STAGING_PATH) run('closeCurrent', tab);
                  }}
                >
                  {title}
                </button>
                {tab.path === STAGING_PATH ? null : (
                  <button
                    type="button"
                    className="tab-item-close"
                    aria-label={t('tabBar.close', { title })}
                    onClick={() => run('closeCurrent', tab)}
                  >
                    <IconClose />
                  </button>
                )}
              </div>
            </Dropdown>
          );
        })}
      </div>
      {current ? (
        <Dropdown
          trigger="click"
          droplist={actionMenu(current, t('tabBar.actions'))}
          {...popupTiming}
          position="br"
          popupVisible={menuFor === ACTIONS_MENU}
          onVisibleChange={(visible) => setMenuFor(visible ? ACTIONS_MENU : null)}
        >
          <IconButton label={t('tabBar.actions')} icon={<IconDown />} tooltip={false} title={t('tabBar.actions')} />
        </Dropdown>
      ) : null}
    </div>
  );
}
