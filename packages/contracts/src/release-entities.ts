import { z } from 'zod';
import { createTimeField, type EntityManifest, manifestOf } from './entity';
import { projectCreateSchema, projectUpdateSchema } from './release';
import { projectSchema } from './release-items';
import { releaseEntityPages } from './release-pages';
import { defineResource, textFilter } from './resource';
import { catalogueRoute } from './routes';

/**
 * The release resources on the manifest machinery: routes, permissions and the generic page come from
 * these. A release delete answers the row it removed, as the release routes always have.
 */
export const projectResource = defineResource({
  domain: 'release',
  name: 'project',
  item: projectSchema,
  create: projectCreateSchema,
  update: projectUpdateSchema,
  filters: z.object({ key: textFilter(64), name: textFilter(100) }),
  sortable: ['key', 'name', 'keepReleases', 'createTime'],
  defaultSort: { column: 'key', direction: 'asc' },
  actions: ['list', 'create', 'update', 'delete'],
  deleteAnswersRow: true,
});

/** Projects: what is released, from where, and how many releases are kept for rollback. */
export const projectEntity = manifestOf(projectResource, {
  route: catalogueRoute(releaseEntityPages.project),
  fields: [
    { field: 'key', label: 'release.key', search: true, form: 'create' },
    { field: 'name', label: 'release.name', search: true, wide: true },
    { field: 'artifactSource', label: 'release.artifactSource', wide: true },
    { field: 'keepReleases', label: 'release.keepReleases', widget: 'number', column: { width: 120 } },
    createTimeField,
  ],
  createDefaults: { keepReleases: 5 },
});

/** Every release manifest, for the server's registration, the page map and the entity test kit. */
export const releaseEntities: readonly EntityManifest[] = [projectEntity];
