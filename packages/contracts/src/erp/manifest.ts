import { type EntityManifest, manifestPermissions } from '../entity';
import * as contracts from './entities';
import { erpPages } from './pages';

const isManifest = (value: unknown): value is EntityManifest =>
  typeof value === 'object' && value !== null && 'resource' in value && 'route' in value;

const manifests = Object.values(contracts).filter(isManifest);

/**
 * The ERP entities in menu order (`erpPages`): every manifest the domain's contracts export, so an entity
 * is registered by existing; a page without a manifest, or a manifest without a page, stops the start.
 */
export const erpEntities: readonly EntityManifest[] = Object.keys(erpPages).map((name) => {
  const found = manifests.filter((m) => m.resource.name === name);
  if (found.length !== 1) throw new Error(`erp: ${found.length} manifests for the page ${name}`);
  return found[0] as EntityManifest;
});
if (manifests.length !== erpEntities.length) throw new Error('erp: a manifest without a page in erpPages');

export { erpCatalogueRoutes } from './pages';

/** `erp:{entity}` → actions, for the permission catalogue. */
export const erpPermissionCatalogue: Record<string, readonly string[]> = Object.fromEntries(
  erpEntities.map((m) => [`${m.resource.domain}:${m.resource.name}`, manifestPermissions(m).map((p) => p.split(':')[2] as string)]),
);
