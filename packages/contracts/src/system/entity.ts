import type { z } from 'zod';
import { defineEntity, defineRecords, type EntityManifest, type FieldMeta, manifestOf, type RecordsConfig } from '../entity';
import type { Resource } from '../resource';
import { catalogueRoute } from '../routes';
import { type SystemEntityName, systemEntityPages } from './pages';

type EntityConfig = Parameters<typeof defineEntity>[0];

/** A system entity (`defineEntity` in the `system` domain): its page is its route in the catalogue (`systemEntityPages`). */
export function systemEntity<C extends Omit<EntityConfig, 'domain' | 'route'> & { name: SystemEntityName }>(config: C) {
  return defineEntity({ ...config, domain: 'system', route: catalogueRoute(systemEntityPages[config.name]) });
}

/** System records the server writes itself (`defineRecords` in the `system` domain): the audit logs, the sessions. */
export function systemRecords<Item extends z.ZodObject, Filters extends z.ZodObject, Sort extends string>(
  config: Omit<RecordsConfig<Item, Filters, Sort>, 'domain' | 'route'> & { name: SystemEntityName },
) {
  return defineRecords({ ...config, domain: 'system', route: catalogueRoute(systemEntityPages[config.name]) });
}

/**
 * A system resource whose contract is written out (`defineResource`: a tenant's create takes its first
 * administrator, the menus are a tree) as a manifest: its page is its route in the catalogue, its page its own;
 * `fields`, where given, are its Excel export's columns (the users'); `extraActions` the permissions of its own routes.
 */
export function systemManifest<R extends Resource>(
  resource: R,
  page: { fields?: readonly FieldMeta[]; extraActions?: readonly string[] } = {},
) {
  return manifestOf(resource, { route: catalogueRoute(systemEntityPages[resource.name as SystemEntityName]), ...page });
}

/** Checks that every page of `systemEntityPages` has its manifest among `manifests`, once. */
export function systemManifests(manifests: readonly EntityManifest[]): readonly EntityManifest[] {
  const names = Object.keys(systemEntityPages);
  if (manifests.length !== names.length || names.some((n) => manifests.filter((m) => m.resource.name === n).length !== 1))
    throw new Error('system: systemEntityPages and the system manifests differ');
  return manifests;
}
