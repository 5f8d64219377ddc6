import type { EntityManifest } from '@atrium/contracts/entity';
import type { CatalogueRoute } from '@atrium/contracts/routes';
import type { ComponentType } from 'react';

type PageLoader = () => Promise<ComponentType>;

/**
 * The page map of a domain's entities that have no page of their own: for each list route of the menu
 * (`permission` `…:list`), a loader that fetches the domain's manifests and the generic page only when the
 * route opens, and renders the manifest whose route it is. A domain's page map adds its own pages after.
 */
export function entityPages(
  routes: readonly CatalogueRoute[],
  manifests: () => Promise<readonly EntityManifest[]>,
): Record<string, PageLoader> {
  const made = new Map<string, ComponentType>();
  const load = async (name: string) => {
    const [{ entityPage }, all] = await Promise.all([import('./EntityPage'), manifests()]);
    const manifest = all.find((m) => m.route.name === name);
    if (!manifest?.fields) throw new Error(`${name}: no manifest with fields renders this route`);
    const page = made.get(name) ?? entityPage(manifest);
    made.set(name, page);
    return page;
  };
  const lists = routes.filter((r) => r.permission?.endsWith(':list'));
  return Object.fromEntries(lists.map((r) => [r.name, () => load(r.name)]));
}
