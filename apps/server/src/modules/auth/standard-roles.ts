import { type CatalogueRoute, routeCatalogue } from '@atrium/contracts';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { menus, roleMenus, roles } from '../../db/schema';

/** Grants a role every menu of the catalogue (the `admin` role of a new tenant). */
async function grantAllMenus(tx: Tx, tenantId: number, roleId: number): Promise<void> {
  await tx.execute(sql`insert into role_menus (tenant_id, role_id, menu_id)
                       select ${tenantId}, ${roleId}, id from menus on conflict do nothing`);
}

/** A role by code in the tenant, created (with the given grants) when missing. Runs inside withTenant. */
export async function ensureRole(
  tx: Tx,
  tenantId: number,
  role: { code: string; name: string; dataScope: string; orderNum: number; isDefault?: boolean },
  grant: 'all' | string[],
): Promise<number> {
  const [existing] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.tenantId, tenantId), eq(roles.code, role.code)));
  if (existing) return existing.id;
  const [created] = await tx
    .insert(roles)
    .values({ tenantId, ...role, createBy: 'system' })
    .returning({ id: roles.id });
  const roleId = (created as { id: number }).id;
  if (grant === 'all') await grantAllMenus(tx, tenantId, roleId);
  else if (grant.length) {
    const granted = await tx
      .select({ id: menus.id })
      .from(menus)
      .where(or(inArray(menus.routeName, grant), inArray(menus.permission, grant)));
    if (granted.length)
      await tx
        .insert(roleMenus)
        .values(granted.map((m) => ({ tenantId, roleId, menuId: m.id })))
        .onConflictDoNothing();
  }
  return roleId;
}

// spec section 2 opens these to any role (what they may do there stays with server permissions)
const openToAnyRole = ['release', 'erp', 'mall', 'arcoWebsite', 'faq'];
const namesUnder = (routes: CatalogueRoute[]): string[] => routes.flatMap((r) => [r.name, ...namesUnder(r.children ?? [])]);

/** What the demo role `user` is granted: the non-admin pages, read-only system lists, ERP, mall, release and the links. */
const userRoleGrants = [
  ...namesUnder(routeCatalogue.filter((r) => openToAnyRole.includes(r.name))),
  'staging',
  'Staging',
  'dashboard',
  'Workplace',
  'list',
  'SearchTable',
  'Card',
  'exception',
  '404',
  '500',
  'user',
  'Info',
  'Setting',
  'Notification',
  'system',
  'systemMenu',
  'systemRole',
  'systemUser',
  'systemUserDetail',
  'systemPost',
  'systemDept',
  'system:menu:query',
  'system:role:query',
  'system:post:query',
  'system:dept:query',
  'list:set:query',
  'list:set:export',
  'list:service:query',
];

/**
 * The two roles every tenant starts with — `admin` with every menu, `user` (the default for new members)
 * with {@link userRoleGrants} — created when missing. Runs inside the tenant's transaction.
 */
export async function ensureStandardRoles(tx: Tx, tenantId: number): Promise<{ admin: number; user: number }> {
  return {
    admin: await ensureRole(tx, tenantId, { code: 'admin', name: '管理员', dataScope: '1', orderNum: 1 }, 'all'),
    user: await ensureRole(tx, tenantId, { code: 'user', name: '普通用户', dataScope: '5', orderNum: 2, isDefault: true }, userRoleGrants),
  };
}
