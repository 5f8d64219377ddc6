import { type EntityManifest, manifestPermissions } from '../entity';
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

export { erpCatalogueRoutes } from './pages';

/** `erp:{entity}` → actions, for the permission catalogue. */
export const erpPermissionCatalogue: Record<string, readonly string[]> = Object.fromEntries(
  erpEntities.map((m) => [`${m.resource.domain}:${m.resource.name}`, manifestPermissions(m).map((p) => p.split(':')[2] as string)]),
);
