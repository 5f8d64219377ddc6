import { hasPermission } from '@atrium/contracts/permissions';
import { type ReactNode, useCallback, useMemo } from 'react';
import { flattenMenuNames } from '../../services/routes';
import { useSession } from '../../services/session';

/** True when the user's role is in `roles`; a list that is not an array is a programming error. */
export function useRoles(roles: readonly string[]): boolean {
  if (!Array.isArray(roles)) throw new Error('need roles! Like roles={["admin","user"]}');
  const role = useSession((s) => s.role);
  return roles.includes(role);
}

/** Renders its children only for the listed roles. */
export function RolePermission({ roles, children }: { roles: readonly string[]; children: ReactNode }) {
  return useRoles(roles) ? children : null;
}

/** True when `name` is a route name of the server menu (the element's id, spec 2 "element visibility"). */
export function useMenuName(name: string): boolean {
  const serverMenu = useSession((s) => s.serverMenu);
  const names = useMemo(() => flattenMenuNames(serverMenu), [serverMenu]);
  return names.has(name);
}

/** Removes its child unless `id` names a route of the flattened server menu. */
export function MenuNamePermission({ id, children }: { id: string; children: ReactNode }) {
  return useMenuName(id) ? children : null;
}

/** `can('system:user:create')`: checks the permission strings granted in the current tenant. */
export function useCan(): (permission: string) => boolean {
  const permissions = useSession((s) => s.userInfo?.permissions);
  return useCallback((permission: string) => hasPermission(permissions ?? [], permission), [permissions]);
}

/** Renders its children only when the permission is granted. */
export function Can({ permission, children }: { permission: string; children: ReactNode }) {
  return useCan()(permission) ? children : null;
}
