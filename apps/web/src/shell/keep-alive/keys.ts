import type { RouteHandle } from '../../app/routes';

/**
 * Whether the shown page stays mounted while another tab is open: only with the tab bar on, and not for
 * pages marked `ignoreCache` or the redirect page.
 */
export function isCacheable(tabBar: boolean, route: RouteHandle | undefined): boolean {
  return tabBar && route !== undefined && !route.meta.ignoreCache && route.name !== 'Redirect';
}

/**
 * The React key of a page's pane. A kept page is cached by its path; the key also carries the tenant
 * (a page belongs to the tenant it was opened in) and the tab's reload count, so a tenant switch or a
 * "reload" mounts it afresh. A page that is not kept has keys of its own (`live`).
 */
export function paneKey(tenant: number, path: string, versions: Readonly<Record<string, number>>, live = false): string {
  return `${live ? 'live:' : ''}${tenant}:${path}#${versions[path] ?? 0}`;
}

/** The cached paths to drop: all of them with the tab bar off, else those whose tab closed (the shown one stays). */
export function stalePaths(cached: Iterable<string>, openPaths: Iterable<string>, current: string, tabBar: boolean): string[] {
  const open = new Set(openPaths);
  return [...cached].filter((path) => !tabBar || (!open.has(path) && path !== current));
}
