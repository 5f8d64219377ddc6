import { type ReactElement, type RefObject, useLayoutEffect, useRef } from 'react';
import { useLocation, useOutlet } from 'react-router';
import { useSession } from '../../services/session';
import { useSettings } from '../../services/settings';
import { useTabs } from '../tab-bar/tabs-store';
import { isCacheable, paneKey, staleKeys } from './keys';
import { useCurrentPage } from './useCurrentPage';

type Props = { scrollRef: RefObject<HTMLElement | null> };

/**
 * Keeps the page of every open tab mounted (hidden when not current), so switching tabs keeps form
 * input, table pages and scroll position. A page is kept under its route name (with its path when the
 * route has parameters: `keys.ts`). Pages marked `ignoreCache`, and every page while the tab bar is
 * off, mount afresh. Closing a tab drops its page; "reload" and a tenant switch mount it again.
 */
export function KeepAliveOutlet({ scrollRef }: Props) {
  const outlet = useOutlet();
  const { pathname } = useLocation();
  const { route, key: current } = useCurrentPage();
  const tabBar = useSettings((s) => s.tabBar);
  const tabs = useTabs((s) => s.tabs);
  const versions = useTabs((s) => s.versions);
  // a page belongs to the tenant it was opened in: after a switch every page mounts afresh
  const tenant = useSession((s) => s.userInfo?.tenantId ?? 0);
  // by page key: the path it was shown at (named on the pane) and the element
  const cache = useRef(new Map<string, { path: string; element: ReactElement | null }>());
  const scrollTops = useRef(new Map<string, number>());
  const previous = useRef(current);

  const cacheable = isCacheable(tabBar, route);
  if (cacheable) cache.current.set(current, { path: pathname, element: outlet });
  else cache.current.delete(current);
  for (const key of staleKeys(
    cache.current.keys(),
    tabs.map((tab) => tab.key),
    current,
    tabBar,
  )) {
    cache.current.delete(key);
    scrollTops.current.delete(key);
  }

  // remember where the page we leave was scrolled, put the one we come back to where it was
  useLayoutEffect(() => {
    const scroller = scrollRef.current;
    if (previous.current !== current) {
      previous.current = current;
      if (scroller) scroller.scrollTop = scrollTops.current.get(current) ?? 0;
    }
    if (!scroller) return;
    const onScroll = () => scrollTops.current.set(current, scroller.scrollTop);
    scroller.addEventListener('scroll', onScroll, { passive: true });
    return () => scroller.removeEventListener('scroll', onScroll);
  }, [current, scrollRef]);

  const panes = [...cache.current.entries()].map(([key, { path, element }]) => (
    <div key={paneKey(tenant, key, versions)} className="page-pane" hidden={key !== current} data-page={path}>
      {element}
    </div>
  ));
  if (!cacheable) {
    panes.push(
      <div key={paneKey(tenant, current, versions, true)} className="page-pane" data-page={pathname}>
        {outlet}
      </div>,
    );
  }
  return <>{panes}</>;
}
