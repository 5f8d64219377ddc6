import type { RouteMeta } from './auth';
import { erpCatalogueRoutes } from './erp/pages';

/**
 * The route catalogue (spec section 2): one definition that seeds the server's menu catalogue and gives
 * the web app its local routes. `order`: a larger order comes earlier in the menu.
 * `permission` on a route names the list permission it shows; buttons come from permissions.ts.
 */
export type CatalogueRoute = {
  name: string;
  path: string;
  meta: RouteMeta & { locale: string };
  /** The permission that makes the route appear in a role's grant (menus without one are open to the role). */
  permission?: string;
  children?: CatalogueRoute[];
};

const admin = ['admin'];
const any = ['*'];

type Extra = Omit<CatalogueRoute['meta'], 'locale' | 'requiresAuth' | 'roles'>;

/**
 * A page labelled `locale` in the menu, for `roles` (every page asks for a session); `permission` puts it in a
 * role's grant, `meta` adds to what every page has (an icon, an order, hidden from the menu…).
 */
const page = (locale: string, name: string, path: string, roles: string[], more: { permission?: string; meta?: Extra } = {}) => ({
  name,
  path,
  ...(more.permission ? { permission: more.permission } : {}),
  meta: { locale, requiresAuth: true, roles, ...more.meta },
});

/** A top menu entry `/{name}` labelled `menu.{name}`, with its icon, its order and its pages. */
const section = (name: string, roles: string[], meta: Extra, children: CatalogueRoute[]): CatalogueRoute => ({
  ...page(`menu.${name}`, name, `/${name}`, roles, { meta }),
  children,
});

/**
 * The pages of a domain's entities that follow the convention: `{domain}{Entity}` at `/{domain}/{entity}`,
 * labelled `menu.{domain}.{entity}`, for every role, each in a grant by its list permission when `listed`.
 */
const entityPages = (domain: string, entities: string[], listed: boolean) =>
  entities.map((entity) =>
    page(`menu.${domain}.${entity}`, `${domain}${entity[0]?.toUpperCase()}${entity.slice(1)}`, `/${domain}/${entity}`, any, {
      permission: listed ? `${domain}:${entity}:list` : undefined,
    }),
  );

export const routeCatalogue: CatalogueRoute[] = [
  section('staging', any, { icon: 'IconHome', order: 10, hideChildrenInMenu: true }, [
    page('menu.staging', 'Staging', '/staging', any, { meta: { noAffix: true } }),
  ]),
  section('dashboard', any, { icon: 'IconDashboard', order: 0 }, [
    page('menu.dashboard.workplace', 'Workplace', '/dashboard/workplace', any),
    page('menu.dashboard.monitor', 'Monitor', '/dashboard/monitor', admin, { permission: 'dashboard:monitor:query' }),
  ]),
  section('visualization', admin, { icon: 'IconApps', order: 1 }, [
    page('menu.visualization.dataAnalysis', 'DataAnalysis', '/visualization/data-analysis', admin, {
      permission: 'dashboard:analysis:query',
    }),
    page('menu.visualization.multiDimensionDataAnalysis', 'MultiDAnalysis', '/visualization/multi-dimension-data-analysis', admin),
  ]),
  section('list', any, { icon: 'IconList', order: 2 }, [
    page('menu.list.searchTable', 'SearchTable', '/list/search-table', any, { permission: 'list:set:list' }),
    page('menu.list.cardList', 'Card', '/list/card', any, { permission: 'list:service:list' }),
  ]),
  section('form', admin, { icon: 'IconSettings', order: 3 }, [
    page('menu.form.step', 'Step', '/form/step', admin, { permission: 'form:step:list' }),
    page('menu.form.group', 'Group', '/form/group', admin, { permission: 'form:group:query' }),
  ]),
  section('profile', admin, { icon: 'IconFile', order: 4 }, [
    page('menu.profile.basic', 'Basic', '/profile/basic', admin, { permission: 'profile:approval:list' }),
  ]),
  section('result', admin, { icon: 'IconCheckCircle', order: 5 }, [
    page('menu.result.success', 'Success', '/result/success', admin),
    page('menu.result.error', 'Error', '/result/error', admin),
  ]),
  section('exception', any, { icon: 'IconExclamationCircle', order: 6 }, [
    page('menu.exception.403', '403', '/exception/403', admin),
    page('menu.exception.404', '404', '/exception/404', any),
    page('menu.exception.500', '500', '/exception/500', any),
  ]),
  section('system', any, { icon: 'IconUserGroup', order: 7 }, [
    ...entityPages('system', ['menu', 'role', 'user'], true),
    page('menu.system.userDetail', 'systemUserDetail', '/system/user/detail/:id', any, {
      permission: 'system:user:query',
      meta: { hideInMenu: true, activeMenu: 'systemUser' },
    }),
    ...entityPages('system', ['post', 'dept', 'tenant', 'certification', 'notice', 'operlog', 'loginlog', 'session'], true),
  ]),
  section('release', any, { icon: 'IconCloud', order: 7 }, [
    ...entityPages('release', ['project', 'env', 'client', 'ability', 'process', 'task'], false),
    page('menu.release.userProject', 'releaseUserProject', '/release/user-project', any),
  ]),
  // the ERP pages are derived from the ERP entity manifests (packages/contracts/src/erp/manifest.ts)
  section('erp', any, { icon: 'IconStorage', order: 7 }, erpCatalogueRoutes()),
  section('mall', any, { icon: 'IconGift', order: 7 }, [
    page('menu.mall.goods', 'mallGoods', '/mall/goods', any),
    page('menu.mall.goodsUpdate', 'mallGoodsUpdate', '/mall/goods/update/:id', any, {
      meta: { hideInMenu: true, activeMenu: 'mallGoods' },
    }),
  ]),
  section('user', any, { icon: 'IconUser', order: 7 }, [
    page('menu.user.info', 'Info', '/user/info', any),
    page('menu.user.setting', 'Setting', '/user/setting', any),
    // every notification of the signed-in person (the message box's "view all")
    page('menu.user.notification', 'Notification', '/user/notification', any),
  ]),
  page('menu.arcoWebsite', 'arcoWebsite', 'https://arco.design', any, {
    meta: { icon: 'IconLink', order: 8, link: 'https://arco.design' },
  }),
  page('menu.faq', 'faq', 'https://arco.design/docs/pro/faq', any, {
    meta: { icon: 'IconQuestionCircle', order: 9, link: 'https://arco.design/docs/pro/faq' },
  }),
];

/** A catalogue page by its name, as an entity manifest's route: name, path and menu label key. */
export function catalogueRoute(name: string): { name: string; path: string; locale: string } {
  const walk = (routes: readonly CatalogueRoute[]): CatalogueRoute | undefined =>
    routes.reduce<CatalogueRoute | undefined>((found, r) => found ?? (r.name === name ? r : walk(r.children ?? [])), undefined);
  const route = walk(routeCatalogue);
  if (!route) throw new Error(`no catalogue route ${name}`);
  return { name: route.name, path: route.path, locale: route.meta.locale };
}

/** Routes the guards let through without a session. */
export const publicRouteNames = ['login', 'register', 'findPassword', 'notFound'] as const;
