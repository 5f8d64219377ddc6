import { erpPermissionCatalogue } from './erp/manifest';
import { mallPermissionCatalogue } from './mall/permissions';

/**
 * Permission strings, `domain:entity:action`. Menu-catalogue buttons carry them, roles grant them,
 * every API route declares the one it needs. A new entity adds its line here.
 */
const crud = ['list', 'query', 'create', 'update', 'delete'] as const;

export const permissionCatalogue = {
  'system:user': [...crud, 'status', 'export', 'import', 'resetPwd', 'grant'],
  'system:role': [...crud, 'status', 'grant'],
  'system:dept': [...crud, 'status'],
  'system:post': [...crud, 'status', 'export'],
  'system:menu': [...crud],
  'system:tenant': [...crud, 'status'],
  'system:certification': ['list', 'review'],
  'system:operlog': ['list', 'query', 'export'],
  'system:loginlog': ['list', 'export'],
  'system:session': ['list', 'forceLogout'],
  'system:notice': ['list', 'query', 'create', 'delete'],
  'form:step': ['list', 'query', 'create'],
  'form:group': ['query', 'update'],
  'list:set': [...crud, 'status', 'export'],
  'list:service': ['list', 'query', 'open', 'cancel', 'renew'],
  'dashboard:analysis': ['query', 'export'],
  'dashboard:monitor': ['query'],
  'profile:approval': ['list', 'query', 'create', 'approve'],
  // release management: what a role may do to its catalogue; tasks are decided by project grants
  'release:ability': ['list', 'query', 'create', 'update', 'publish', 'deprecate'],
  'release:env': ['list', 'query', 'create', 'update', 'delete'],
  'release:project': ['list', 'create', 'update', 'delete'],
  'release:process': ['list', 'create', 'update', 'delete'],
  'release:client': ['list', 'query', 'update', 'enrol', 'approve', 'disable', 'revoke'],
  'release:userProject': ['list', 'create', 'delete'],
} as const satisfies Record<string, readonly string[]>;

/**
 * Entities only the platform's super admin reaches (their contracts say `superAdminOnly`; the routes
 * refuse everyone else). A tenant's role may still hold their permissions (its `admin` role holds every
 * menu), but they grant nothing there: the menu and the permission list leave them out.
 */
export const platformEntities = ['system:tenant', 'system:certification'] as const satisfies readonly (keyof typeof permissionCatalogue)[];

/** Whether a permission (or a menu's) belongs to a platform-only entity. */
export const isPlatformPermission = (permission: string | null | undefined): boolean =>
  !!permission && platformEntities.some((entity) => permission.startsWith(`${entity}:`));

type Catalogue = typeof permissionCatalogue;
export type Permission = { [K in keyof Catalogue]: `${K}:${Catalogue[K][number]}` }[keyof Catalogue];

export const allPermissions: Permission[] = Object.entries({
  ...permissionCatalogue,
  ...erpPermissionCatalogue,
  ...mallPermissionCatalogue,
}).flatMap(([prefix, actions]) => actions.map((action) => `${prefix}:${action}` as Permission));

/** Granted to everyone: what a super admin holds in every tenant. */
export const ALL_PERMISSIONS = '*:*:*';

export function hasPermission(granted: readonly string[] | ReadonlySet<string>, needed: string): boolean {
  const has = (p: string) => (Array.isArray(granted) ? granted.includes(p) : (granted as ReadonlySet<string>).has(p));
  return has(ALL_PERMISSIONS) || has(needed);
}
