import { routeCatalogue } from '@atrium/contracts/routes';
import { systemEntityPages } from '@atrium/contracts/system/pages';
import type { ComponentType } from 'react';
import { entityPages, listRoutes } from '../../crud/entity-pages';

type PageLoader = () => Promise<ComponentType>;

const entityRoutes: readonly string[] = Object.values(systemEntityPages);
const system = routeCatalogue.find((r) => r.name === 'system')?.children ?? [];

/** The system pages of their own (departments: the tree table; roles: the grant trees; the logs and sessions: their cells, pickers and force-logout). */
const ownPages: Record<string, PageLoader> = {
  systemUser: () => import('./user/UserPage').then((m) => m.UserPage),
  systemUserDetail: () => import('./user/UserDetailPage').then((m) => m.UserDetailPage),
  systemRole: () => import('./role/RolePage').then((m) => m.RolePage),
  systemDept: () => import('./dept/DeptPage').then((m) => m.DeptPage),
  systemMenu: () => import('./menu/MenuPage').then((m) => m.MenuPage),
  systemTenant: () => import('./tenant/TenantPage').then((m) => m.TenantPage),
  systemCertification: () => import('./certification/CertificationReviewPage').then((m) => m.CertificationReviewPage),
  systemOperlog: () => import('./audit/OperLogPage').then((m) => m.OperLogPage),
  systemLoginlog: () => import('./audit/LoginLogPage').then((m) => m.LoginLogPage),
  systemSession: () => import('./audit/SessionPage').then((m) => m.SessionPage),
};

/**
 * System route name → page: the entities of `systemEntityPages` without a page of their own render their
 * manifest through the generic page (`crud/EntityPage`).
 */
export const systemPages: Record<string, PageLoader> = {
  ...entityPages(listRoutes(system.filter((r) => entityRoutes.includes(r.name) && !(r.name in ownPages))), async () => {
    const [, { systemEntities }] = await Promise.all([import('./shared/messages'), import('@atrium/contracts/system/entities')]);
    return systemEntities;
  }),
  ...ownPages,
};
