import { z } from 'zod';
import { createTimeField, type EntityManifest, manifestOf } from './entity';
import {
  abilityCreateSchema,
  abilityStatuses,
  abilityUpdateSchema,
  clientStatuses,
  clientUpdateSchema,
  envCreateSchema,
  envUpdateSchema,
  permissionLevels,
  processCreateSchema,
  processUpdateSchema,
  projectCreateSchema,
  projectUpdateSchema,
  taskCreateSchema,
  taskStatuses,
  userProjectSchema,
} from './release';
import {
  abilitySchema,
  clientSchema,
  envSchema,
  processSchema,
  projectSchema,
  taskDetailSchema,
  taskListItemSchema,
  userProjectItemSchema,
} from './release-items';
import { releaseEntityPages } from './release-pages';
import { defineResource, idFilter, textFilter } from './resource';
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

/**
 * Environments, shared by every project; their page is their own (the variables editor). A secret
 * variable comes back by its name only; changing protection, approvals or variables needs a MAINTAINER
 * of the environment (ADR 029).
 */
export const envResource = defineResource({
  domain: 'release',
  name: 'env',
  item: envSchema,
  create: envCreateSchema,
  update: envUpdateSchema,
  filters: z.object({ key: textFilter(64), name: textFilter(100) }),
  sortable: ['key', 'name', 'createTime'],
  defaultSort: { column: 'key', direction: 'asc' },
  actions: ['list', 'query', 'create', 'update', 'delete'],
  deleteAnswersRow: true,
});
export const envEntity = manifestOf(envResource, { route: catalogueRoute(releaseEntityPages.env) });

/**
 * User-project grants: a user's level on a project, or on one environment of it. Granting what is granted
 * already changes its level; the permissions are `release:userProject:*`, the path `/release/user-project`.
 */
export const userProjectResource = defineResource({
  domain: 'release',
  name: 'userProject',
  basePath: '/release/user-project',
  item: userProjectItemSchema,
  create: userProjectSchema,
  filters: z.object({ userId: idFilter, projectId: idFilter, envId: idFilter, level: z.enum(permissionLevels).optional() }),
  sortable: ['id', 'level', 'createTime'],
  defaultSort: { column: 'id', direction: 'asc' },
  actions: ['list', 'create', 'delete'],
  deleteAnswersRow: true,
});

export const userProjectEntity = manifestOf(userProjectResource, {
  route: catalogueRoute(releaseEntityPages.userProject),
  fields: [
    { field: 'userId', label: 'release.user', source: '/system/user/user', column: false, search: true },
    { field: 'userName', label: 'release.user', form: false },
    { field: 'projectId', label: 'release.project', source: '/release/project', column: false, search: true },
    { field: 'projectName', label: 'release.project', form: false },
    { field: 'envId', label: 'release.env', source: '/release/env', column: false, search: true, empty: 'release.allEnvs' },
    { field: 'envName', label: 'release.env', form: false, empty: 'release.allEnvs' },
    { field: 'level', label: 'release.level', widget: 'select', codes: 'permissionLevel', search: true },
    createTimeField,
  ],
  createDefaults: { level: 'VIEWER' },
});

/**
 * Processes: a project's steps, each an ability with its parameters; their page is their own (the steps
 * editor). Only a MAINTAINER of the project says what it runs.
 */
export const processResource = defineResource({
  domain: 'release',
  name: 'process',
  item: processSchema,
  create: processCreateSchema,
  update: processUpdateSchema,
  filters: z.object({ projectId: idFilter, name: textFilter(100) }),
  sortable: ['id', 'name', 'createTime'],
  defaultSort: { column: 'id', direction: 'asc' },
  actions: ['list', 'create', 'update', 'delete'],
  deleteAnswersRow: true,
});
export const processEntity = manifestOf(processResource, { route: catalogueRoute(releaseEntityPages.process) });

/**
 * Abilities: versioned shell scripts, their page their own (the script editor, the history). A key seen
 * before starts its next version; a published version is frozen; publishing and deprecating are actions
 * of their own. Nothing deletes one: the tasks that ran it keep its version.
 */
export const abilityResource = defineResource({
  domain: 'release',
  name: 'ability',
  item: abilitySchema,
  create: abilityCreateSchema,
  update: abilityUpdateSchema,
  filters: z.object({ key: textFilter(64), name: textFilter(100), status: z.enum(abilityStatuses).optional() }),
  sortable: ['key', 'version', 'name', 'status', 'createTime'],
  defaultSort: { column: 'key', direction: 'asc' },
  actions: ['list', 'query', 'create', 'update'],
});
export const abilityEntity = manifestOf(abilityResource, {
  route: catalogueRoute(releaseEntityPages.ability),
  extraActions: ['publish', 'deprecate'],
});

/**
 * Agents (clients): a row is made by an agent's enrolment with a one-time token, not by a form; the tenant
 * approves, disables or revokes it (actions of their own) and edits its labels and concurrency. Their page
 * is their own (the enrolment command, presence live).
 */
export const clientResource = defineResource({
  domain: 'release',
  name: 'client',
  item: clientSchema,
  create: clientUpdateSchema,
  filters: z.object({
    hostname: textFilter(255),
    status: z.enum(clientStatuses).optional(),
    presence: z.enum(['online', 'offline']).optional(),
  }),
  sortable: ['id', 'hostname', 'status', 'lastSeenAt', 'createTime'],
  defaultSort: { column: 'id', direction: 'asc' },
  actions: ['list', 'query', 'update'],
});
export const clientEntity = manifestOf(clientResource, {
  route: catalogueRoute(releaseEntityPages.client),
  extraActions: ['enrol', 'approve', 'disable', 'revoke'],
});

/**
 * Tasks: a process run on an environment at a version. No role permission reaches them: the caller's
 * grants on the project and environment decide (`grant`; OPERATOR to start one), a caller sees the tasks of
 * what their grants cover, and one task is read with its step runs (`detailItem`). Retrying, rolling back,
 * cancelling, approving, rejecting and freeing a lost lock are routes of their own; their page is their own.
 */
export const taskResource = defineResource({
  domain: 'release',
  name: 'task',
  item: taskListItemSchema,
  detailItem: taskDetailSchema,
  create: taskCreateSchema,
  filters: z.object({ projectId: idFilter, envId: idFilter, status: z.enum(taskStatuses).optional() }),
  sortable: ['id', 'createTime'],
  defaultSort: { column: 'id', direction: 'desc' },
  actions: ['list', 'query', 'create'],
  grant: 'release',
});
export const taskEntity = manifestOf(taskResource, { route: catalogueRoute(releaseEntityPages.task) });

/** Every release manifest, for the server's registration, the page map and the entity test kit. */
export const releaseEntities: readonly EntityManifest[] = [
  abilityEntity,
  clientEntity,
  projectEntity,
  envEntity,
  userProjectEntity,
  processEntity,
  taskEntity,
];
