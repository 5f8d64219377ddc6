import type { RouteHandle } from '../../services/routes';

/**
 * Whether the shown page stays mounted while another tab is open: only with the tab bar on (a kept page
 * belongs to its tab, and only a tab can be closed), and not for pages marked `ignoreCache` or the
 * redirect page.
 */
export function isCacheable(tabBar: boolean, route: RouteHandle | undefined): boolean {
  return tabBar && route !== undefined && !route.meta.ignoreCache && route.name !== 'Redirect';
}

/**
 * The key a page is kept under: its route name (spec §2: pages are cached by route name). A route with
 * parameters is one page per parameter set — two open orders are two pages — so its key adds the path
 * (docs/adr/044-pages-kept-by-route-name.md).
 */
export function pageKey(name: string, pathname: string, params: Readonly<Record<string, string | undefined>> = {}): string {
  return Object.keys(params).length > 0 ? `${name}:${pathname}` : name;
}

/**
 * The React key of a page's pane: the page's key, plus the tenant (a page belongs to the tenant it was
 * opened in) and the tab's reload count, so a tenant switch or a "reload" mounts it afresh. A page that
 * is not kept has keys of its own (`live`).
 */
export function paneKey(tenant: number, key: string, versions: Readonly<Record<string, number>>, live = false): string {
  return `${live ? 'live:' : ''}${tenant}:${key}#${versions[key] ?? 0}`;
}

/** The kept pages to drop: all of them with the tab bar off, else those whose tab closed (the shown one stays). */
export function staleKeys(cached: Iterable<string>, openKeys: Iterable<string>, current: string, tabBar: boolean): string[] {
  const open = new Set(openKeys);
  return [...cached].filter((key) => !tabBar || (!open.has(key) && key !== current));
}
