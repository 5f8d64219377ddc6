import type { EntityManifest } from '@atrium/contracts/entity';
import type { CatalogueRoute } from '@atrium/contracts/routes';
import type { ComponentType } from 'react';

type PageLoader = () => Promise<ComponentType>;

/**
 * The page map of a domain's entities that have no page of their own: for each of the routes named, a
 * loader that fetches the domain's manifests and the generic page only when the route opens, and renders
 * the manifest whose route it is. A domain's page map adds its own pages after.
 */
export function entityPages(names: readonly string[], manifests: () => Promise<readonly EntityManifest[]>): Record<string, PageLoader> {
  const made = new Map<string, ComponentType>();
  const load = async (name: string) => {
    const [{ entityPage }, all] = await Promise.all([import('./EntityPage'), manifests()]);
    const manifest = all.find((m) => m.route.name === name);
    if (!manifest?.fields) throw new Error(`${name}: no manifest with fields renders this route`);
    const page = made.get(name) ?? entityPage(manifest);
    made.set(name, page);
    return page;
  };
  return Object.fromEntries(names.map((name) => [name, () => load(name)]));
}

/** The names of a menu's list routes (`permission` `…:list`): the pages of its entities. */
export const listRoutes = (routes: readonly CatalogueRoute[]): string[] =>
  routes.filter((r) => r.permission?.endsWith(':list')).map((r) => r.name);
