import { type EntityManifest, manifestPermissions } from '../entity';
import type { CatalogueRoute } from '../routes';
import { activityEntity } from './activity';
import { categoryEntity } from './category';
import { memberEntity } from './member';
import { productEntity } from './product';
import { saleEntity } from './sale';
import { specEntity } from './spec';
import { supplierEntity } from './supplier';
import { warehouseEntity } from './warehouse';

/** The ERP entities in menu order; everything below is derived from this list. */
export const erpEntities: readonly EntityManifest[] = [
  warehouseEntity,
  specEntity,
  categoryEntity,
  supplierEntity,
  productEntity,
  memberEntity,
  saleEntity,
  activityEntity,
];

const any = ['*'];

/** The ERP menu's routes, from the manifests (the printer page belongs to its own issue). */
export function erpCatalogueRoutes(): CatalogueRoute[] {
  const routes: CatalogueRoute[] = [];
  for (const m of erpEntities) {
    routes.push({
      name: m.route.name,
      path: m.route.path,
      permission: m.resource.permission('list'),
      meta: { locale: m.route.locale, requiresAuth: true, roles: any, ...m.route.meta },
    });
    if (m.detail) {
      routes.push({
        name: m.detail.name,
        path: m.detail.path,
        permission: m.resource.permission('query'),
        meta: { locale: m.detail.locale, requiresAuth: true, roles: any, hideInMenu: true, activeMenu: m.route.name },
      });
    }
    if (m === productEntity) {
      routes.push({ name: 'mallPrinter', path: '/erp/printer', meta: { locale: 'menu.erp.printer', requiresAuth: true, roles: any } });
    }
  }
  return routes;
}

/** `erp:{entity}` → actions, for the permission catalogue. */
export const erpPermissionCatalogue: Record<string, readonly string[]> = Object.fromEntries(
  erpEntities.map((m) => [`${m.resource.domain}:${m.resource.name}`, manifestPermissions(m).map((p) => p.split(':')[2] as string)]),
);
