import { type ReactElement, type RefObject, useLayoutEffect, useRef } from 'react';
import { useLocation, useOutlet } from 'react-router';
import { useSession } from '../../app/session';
import { useSettings } from '../../app/settings';
import { useTabs } from '../tab-bar/tabs-store';
import { useCurrentRoute } from '../useCurrentRoute';
import { isCacheable, paneKey, stalePaths } from './keys';

type Props = { scrollRef: RefObject<HTMLElement | null> };

/**
 * Keeps the page of every open tab mounted (hidden when not current), so switching tabs keeps form
 * input, table pages and scroll position. Pages marked `ignoreCache`, and every page while the tab
 * bar is off, mount afresh. Closing a tab drops its page; "reload" and a tenant switch mount it again.
 */
export function KeepAliveOutlet({ scrollRef }: Props) {
  const outlet = useOutlet();
  const { pathname } = useLocation();
  const route = useCurrentRoute();
  const tabBar = useSettings((s) => s.tabBar);
  const tabs = useTabs((s) => s.tabs);
  const versions = useTabs((s) => s.versions);
  // a page belongs to the tenant it was opened in: after a switch every page mounts afresh
  const tenant = useSession((s) => s.userInfo?.tenantId ?? 0);
  const cache = useRef(new Map<string, ReactElement | null>());
  const scrollTops = useRef(new Map<string, number>());
  const previous = useRef(pathname);

  const cacheable = isCacheable(tabBar, route);
  if (cacheable) cache.current.set(pathname, outlet);
  else cache.current.delete(pathname);
  for (const key of stalePaths(
    cache.current.keys(),
    tabs.map((tab) => tab.path),
    pathname,
    tabBar,
  )) {
    cache.current.delete(key);
    scrollTops.current.delete(key);
  }

  // remember where the page we leave was scrolled, put the one we come back to where it was
  useLayoutEffect(() => {
    const scroller = scrollRef.current;
    if (previous.current !== pathname) {
      previous.current = pathname;
      if (scroller) scroller.scrollTop = scrollTops.current.get(pathname) ?? 0;
    }
    if (!scroller) return;
    const onScroll = () => scrollTops.current.set(pathname, scroller.scrollTop);
    scroller.addEventListener('scroll', onScroll, { passive: true });
    return () => scroller.removeEventListener('scroll', onScroll);
  }, [pathname, scrollRef]);

  const panes = [...cache.current.entries()].map(([key, element]) => (
    <div key={paneKey(tenant, key, versions)} className="page-pane" hidden={key !== pathname} data-page={key}>
      {element}
    </div>
  ));
  if (!cacheable) {
    panes.push(
      <div key={paneKey(tenant, pathname, versions, true)} className="page-pane" data-page={pathname}>
        {outlet}
      </div>,
    );
  }
  return <>{panes}</>;
}
