import type { MenuRoute, RouteMeta } from '@atrium/contracts/auth';
import { type CatalogueRoute, routeCatalogue } from '@atrium/contracts/routes';
import { matchPath } from 'react-router';

/** What each page route carries in its react-router `handle`. */
export type RouteHandle = { name: string; meta: RouteMeta & { locale: string }; parent?: CatalogueRoute };

export type LeafRoute = CatalogueRoute & { parent?: CatalogueRoute };

export const STAGING_NAME = 'Staging';
export const STAGING_PATH = '/staging';
export const REDIRECT_NAME = 'Redirect';

const isExternal = (route: { path: string; meta: RouteMeta }) => Boolean(route.meta.link) || /^https?:\/\//.test(route.path);

/** Every page of the catalogue (leaves, with their parent), external links left out. */
export const leafRoutes: LeafRoute[] = routeCatalogue.flatMap((route) =>
  isExternal(route) ? [] : route.children?.length ? route.children.map((child) => ({ ...child, parent: route })) : [route],
);

export function findLeafByPath(pathname: string): LeafRoute | undefined {
  return leafRoutes.find((route) => matchPath({ path: route.path, end: true }, pathname));
}

export function findLeafByName(name: string): LeafRoute | undefined {
  return leafRoutes.find((route) => route.name === name);
}

/** Spec 2, guard 4: no roles, the wildcard, or the user's role. Parents' roles apply too. */
export function isRoleAllowed(meta: RouteMeta | undefined, role: string): boolean {
  if (!meta || meta.requiresAuth === false) return true;
  const roles = meta.roles;
  return !roles || roles.length === 0 || roles.includes('*') || roles.includes(role);
}

export function isLeafAllowed(route: LeafRoute, role: string): boolean {
  return isRoleAllowed(route.parent?.meta, role) && isRoleAllowed(route.meta, role);
}

export function flattenMenuNames(menu: MenuRoute[]): Set<string> {
  const names = new Set<string>();
  const walk = (items: MenuRoute[]) => {
    for (const item of items) {
      names.add(item.name);
      if (item.children) walk(item.children);
    }
  };
  walk(menu);
  return names;
}

export type Access = { role: string; menuFromServer: boolean; serverMenu: MenuRoute[] };

export function canVisit(route: LeafRoute, access: Access): boolean {
  if (!isLeafAllowed(route, access.role)) return false;
  if (!access.menuFromServer) return true;
  return flattenMenuNames(access.serverMenu).has(route.name);
}

/** The first page the user may open, in menu order (larger `order` first). */
export function firstPermittedPath(access: Access): string | undefined {
  const ordered = [...leafRoutes]
    .filter((route) => !route.meta.hideInMenu && !route.path.includes(':'))
    .sort((a, b) => (b.parent?.meta.order ?? b.meta.order ?? 0) - (a.parent?.meta.order ?? a.meta.order ?? 0));
  return ordered.find((route) => canVisit(route, access))?.path;
}

/** A menu node, whichever source it came from. */
export type MenuNode = { name: string; path: string; meta: RouteMeta; children?: MenuNode[] };

const byOrder = (a: MenuNode, b: MenuNode) => (b.meta.order ?? 0) - (a.meta.order ?? 0);

function prune(nodes: MenuNode[], keep: (node: MenuNode) => boolean): MenuNode[] {
  const out: MenuNode[] = [];
  for (const node of nodes) {
    if (!keep(node) || node.meta.hideInMenu) continue;
    if (node.children?.length && !node.meta.hideChildrenInMenu) {
      const children = prune(node.children, keep);
      if (children.length) out.push({ ...node, children });
    } else if (node.children?.length) {
      // hidden children: the parent itself opens the first visible child
      const first = node.children.find(keep);
      if (first) out.push({ ...node, path: first.path, name: first.name, children: undefined });
    } else {
      out.push(node);
    }
  }
  return out.sort(byOrder);
}

/** The side menu: the server's tree when menu-from-server is on, else the catalogue filtered by role. */
export function buildMenu(access: Access): MenuNode[] {
  if (access.menuFromServer) return prune(access.serverMenu, () => true);
  return prune(routeCatalogue, (node) => isRoleAllowed(node.meta, access.role));
}

export function routeLocale(name: string): string | undefined {
  return findLeafByName(name)?.meta.locale;
}
