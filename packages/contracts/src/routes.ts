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

export const routeCatalogue: CatalogueRoute[] = [
  {
    name: 'staging',
    path: '/staging',
    meta: { locale: 'menu.staging', requiresAuth: true, roles: any, icon: 'IconHome', order: 10, hideChildrenInMenu: true },
    children: [{ name: 'Staging', path: '/staging', meta: { locale: 'menu.staging', requiresAuth: true, roles: any, noAffix: true } }],
  },
  {
    name: 'dashboard',
    path: '/dashboard',
    meta: { locale: 'menu.dashboard', requiresAuth: true, roles: any, icon: 'IconDashboard', order: 0 },
    children: [
      { name: 'Workplace', path: '/dashboard/workplace', meta: { locale: 'menu.dashboard.workplace', requiresAuth: true, roles: any } },
      {
        name: 'Monitor',
        path: '/dashboard/monitor',
        permission: 'dashboard:monitor:query',
        meta: { locale: 'menu.dashboard.monitor', requiresAuth: true, roles: admin },
      },
    ],
  },
  {
    name: 'visualization',
    path: '/visualization',
    meta: { locale: 'menu.visualization', requiresAuth: true, roles: admin, icon: 'IconApps', order: 1 },
    children: [
      {
        name: 'DataAnalysis',
        path: '/visualization/data-analysis',
        permission: 'dashboard:analysis:query',
        meta: { locale: 'menu.visualization.dataAnalysis', requiresAuth: true, roles: admin },
      },
      {
        name: 'MultiDAnalysis',
        path: '/visualization/multi-dimension-data-analysis',
        meta: { locale: 'menu.visualization.multiDimensionDataAnalysis', requiresAuth: true, roles: admin },
      },
    ],
  },
  {
    name: 'list',
    path: '/list',
    meta: { locale: 'menu.list', requiresAuth: true, roles: any, icon: 'IconList', order: 2 },
    children: [
      {
        name: 'SearchTable',
        path: '/list/search-table',
        permission: 'list:set:list',
        meta: { locale: 'menu.list.searchTable', requiresAuth: true, roles: any },
      },
      {
        name: 'Card',
        path: '/list/card',
        permission: 'list:service:list',
        meta: { locale: 'menu.list.cardList', requiresAuth: true, roles: any },
      },
    ],
  },
  {
    name: 'form',
    path: '/form',
    meta: { locale: 'menu.form', requiresAuth: true, roles: admin, icon: 'IconSettings', order: 3 },
    children: [
      {
        name: 'Step',
        path: '/form/step',
        permission: 'form:step:list',
        meta: { locale: 'menu.form.step', requiresAuth: true, roles: admin },
      },
      {
        name: 'Group',
        path: '/form/group',
        permission: 'form:group:query',
        meta: { locale: 'menu.form.group', requiresAuth: true, roles: admin },
      },
    ],
  },
  {
    name: 'profile',
    path: '/profile',
    meta: { locale: 'menu.profile', requiresAuth: true, roles: admin, icon: 'IconFile', order: 4 },
    children: [
      {
        name: 'Basic',
        path: '/profile/basic',
        permission: 'profile:approval:list',
        meta: { locale: 'menu.profile.basic', requiresAuth: true, roles: admin },
      },
    ],
  },
  {
    name: 'result',
    path: '/result',
    meta: { locale: 'menu.result', requiresAuth: true, roles: admin, icon: 'IconCheckCircle', order: 5 },
    children: [
      { name: 'Success', path: '/result/success', meta: { locale: 'menu.result.success', requiresAuth: true, roles: admin } },
      { name: 'Error', path: '/result/error', meta: { locale: 'menu.result.error', requiresAuth: true, roles: admin } },
    ],
  },
  {
    name: 'exception',
    path: '/exception',
    meta: { locale: 'menu.exception', requiresAuth: true, roles: any, icon: 'IconExclamationCircle', order: 6 },
    children: [
      { name: '403', path: '/exception/403', meta: { locale: 'menu.exception.403', requiresAuth: true, roles: admin } },
      { name: '404', path: '/exception/404', meta: { locale: 'menu.exception.404', requiresAuth: true, roles: any } },
      { name: '500', path: '/exception/500', meta: { locale: 'menu.exception.500', requiresAuth: true, roles: any } },
    ],
  },
  {
    name: 'system',
    path: '/system',
    meta: { locale: 'menu.system', requiresAuth: true, roles: any, icon: 'IconUserGroup', order: 7 },
    children: [
      {
        name: 'systemMenu',
        path: '/system/menu',
        permission: 'system:menu:list',
        meta: { locale: 'menu.system.menu', requiresAuth: true, roles: any },
      },
      {
        name: 'systemRole',
        path: '/system/role',
        permission: 'system:role:list',
        meta: { locale: 'menu.system.role', requiresAuth: true, roles: any },
      },
      {
        name: 'systemUser',
        path: '/system/user',
        permission: 'system:user:list',
        meta: { locale: 'menu.system.user', requiresAuth: true, roles: any },
      },
      {
        name: 'systemUserDetail',
        path: '/system/user/detail/:id',
        permission: 'system:user:query',
        meta: { locale: 'menu.system.userDetail', requiresAuth: true, roles: any, hideInMenu: true, activeMenu: 'systemUser' },
      },
      {
        name: 'systemPost',
        path: '/system/post',
        permission: 'system:post:list',
        meta: { locale: 'menu.system.post', requiresAuth: true, roles: any },
      },
      {
        name: 'systemDept',
        path: '/system/dept',
        permission: 'system:dept:list',
        meta: { locale: 'menu.system.dept', requiresAuth: true, roles: any },
      },
      {
        name: 'systemTenant',
        path: '/system/tenant',
        permission: 'system:tenant:list',
        meta: { locale: 'menu.system.tenant', requiresAuth: true, roles: any },
      },
      {
        name: 'systemCertification',
        path: '/system/certification',
        permission: 'system:certification:list',
        meta: { locale: 'menu.system.certification', requiresAuth: true, roles: any },
      },
      {
        name: 'systemNotice',
        path: '/system/notice',
        permission: 'system:notice:list',
        meta: { locale: 'menu.system.notice', requiresAuth: true, roles: any },
      },
      {
        name: 'systemOperlog',
        path: '/system/operlog',
        permission: 'system:operlog:list',
        meta: { locale: 'menu.system.operlog', requiresAuth: true, roles: any },
      },
      {
        name: 'systemLoginlog',
        path: '/system/loginlog',
        permission: 'system:loginlog:list',
        meta: { locale: 'menu.system.loginlog', requiresAuth: true, roles: any },
      },
      {
        name: 'systemSession',
        path: '/system/session',
        permission: 'system:session:list',
        meta: { locale: 'menu.system.session', requiresAuth: true, roles: any },
      },
    ],
  },
  {
    name: 'release',
    path: '/release',
    meta: { locale: 'menu.release', requiresAuth: true, roles: any, icon: 'IconCloud', order: 7 },
    children: [
      { name: 'releaseProject', path: '/release/project', meta: { locale: 'menu.release.project', requiresAuth: true, roles: any } },
      { name: 'releaseEnv', path: '/release/env', meta: { locale: 'menu.release.env', requiresAuth: true, roles: any } },
      { name: 'releaseClient', path: '/release/client', meta: { locale: 'menu.release.client', requiresAuth: true, roles: any } },
      { name: 'releaseAbility', path: '/release/ability', meta: { locale: 'menu.release.ability', requiresAuth: true, roles: any } },
      { name: 'releaseProcess', path: '/release/process', meta: { locale: 'menu.release.process', requiresAuth: true, roles: any } },
      { name: 'releaseTask', path: '/release/task', meta: { locale: 'menu.release.task', requiresAuth: true, roles: any } },
      {
        name: 'releaseUserProject',
        path: '/release/user-project',
        meta: { locale: 'menu.release.userProject', requiresAuth: true, roles: any },
      },
    ],
  },
  {
    name: 'erp',
    path: '/erp',
    meta: { locale: 'menu.erp', requiresAuth: true, roles: any, icon: 'IconStorage', order: 7 },
    // derived from the ERP entity manifests (packages/contracts/src/erp/manifest.ts)
    children: erpCatalogueRoutes(),
  },
  {
    name: 'mall',
    path: '/mall',
    meta: { locale: 'menu.mall', requiresAuth: true, roles: any, icon: 'IconGift', order: 7 },
    children: [
      { name: 'mallGoods', path: '/mall/goods', meta: { locale: 'menu.mall.goods', requiresAuth: true, roles: any } },
      {
        name: 'mallGoodsUpdate',
        path: '/mall/goods/update/:id',
        meta: { locale: 'menu.mall.goodsUpdate', requiresAuth: true, roles: any, hideInMenu: true, activeMenu: 'mallGoods' },
      },
    ],
  },
  {
    name: 'user',
    path: '/user',
    meta: { locale: 'menu.user', requiresAuth: true, roles: any, icon: 'IconUser', order: 7 },
    children: [
      { name: 'Info', path: '/user/info', meta: { locale: 'menu.user.info', requiresAuth: true, roles: any } },
      { name: 'Setting', path: '/user/setting', meta: { locale: 'menu.user.setting', requiresAuth: true, roles: any } },
      // every notification of the signed-in person (the message box's "view all")
      { name: 'Notification', path: '/user/notification', meta: { locale: 'menu.user.notification', requiresAuth: true, roles: any } },
    ],
  },
  {
    name: 'arcoWebsite',
    path: 'https://arco.design',
    meta: { locale: 'menu.arcoWebsite', requiresAuth: true, roles: any, icon: 'IconLink', order: 8, link: 'https://arco.design' },
  },
  {
    name: 'faq',
    path: 'https://arco.design/docs/pro/faq',
    meta: {
      locale: 'menu.faq',
      requiresAuth: true,
      roles: any,
      icon: 'IconQuestionCircle',
      order: 9,
      link: 'https://arco.design/docs/pro/faq',
    },
  },
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
