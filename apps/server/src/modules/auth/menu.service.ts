import type { MenuRoute, RouteMeta } from '@atrium/contracts';
import { isPlatformPermission } from '@atrium/contracts';
import { asc, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { RawResult } from '../../db/client';
import { menus } from '../../db/schema';
import { type AuthContext, can } from '../../plugins/external/access';

type MenuRow = typeof menus.$inferSelect;

function metaOf(row: MenuRow): RouteMeta {
  const meta: RouteMeta = {
    locale: row.locale ?? undefined,
    requiresAuth: row.requiresAuth,
    roles: row.roles,
    order: row.orderNum,
  };
  if (row.icon) meta.icon = row.icon;
  if (row.hideInMenu) meta.hideInMenu = true;
  if (row.hideChildrenInMenu) meta.hideChildrenInMenu = true;
  if (row.noAffix) meta.noAffix = true;
  if (row.activeMenu) meta.activeMenu = row.activeMenu;
  if (row.ignoreCache) meta.ignoreCache = true;
  if (row.type === 'link' && row.path) meta.link = row.path;
  return meta;
}

const roleAllows = (roles: string[], role: string) => roles.length === 0 || roles.includes('*') || (role !== '' && roles.includes(role));

/** A button granting the list (or the query) of an entity: what a page needs to show anything. */
const readsList = (permission: string | null) => !!permission && /:(list|query)$/.test(permission);

/**
 * The signed-in user's menu for the current tenant in route form: what the user's roles grant, kept
 * to entries whose `meta.roles` admit the user's current role, and to pages whose list the user may
 * read: a page carrying a permission needs it, a page without one needs one of the list (or query)
 * buttons under it if it has any, so no entry opens only "no permission to view this list". A super
 * admin sees every entry. Buttons are not routes; directories left without children are dropped.
 */
export async function menuTree(app: FastifyInstance, auth: AuthContext): Promise<MenuRoute[]> {
  const rows = await app.database.db.select().from(menus).where(eq(menus.status, '0')).orderBy(desc(menus.orderNum), asc(menus.id));
  let granted: Set<number> | null = null;
  if (!auth.superAdmin) {
    const ids = await app.withTenant(auth.tenantId, async (tx) => {
      // granted through any enabled role the user holds here, or the one the session acts as (tenant filtered
      // explicitly and by row-level security)
      const result = (await tx.execute(
        sql`
          select distinct rm.menu_id::int as id
            from user_roles ur
            join roles r on r.tenant_id = ur.tenant_id and r.id = ur.role_id and r.status = '0'
            join role_menus rm on rm.tenant_id = r.tenant_id and rm.role_id = r.id
           where ur.tenant_id = ${auth.tenantId} and ur.user_id = ${auth.userId ?? 0}
             ${auth.activeRole === null ? sql`` : sql`and r.code = ${auth.activeRole}`}`,
      )) as RawResult<{ id: number }>;
      return result.rows.map((r) => Number(r.id));
    });
    granted = new Set(ids);
  }
  // a platform-only page (tenants) is the super admin's, whatever a tenant's role was granted
  const children = new Map<number | null, MenuRow[]>();
  for (const row of rows) children.set(row.parentId, [...(children.get(row.parentId) ?? []), row]);
  const listReadable = (row: MenuRow) => {
    if (row.type !== 'menu') return true;
    if (row.permission) return can(auth, row.permission);
    const lists = (children.get(row.id) ?? []).filter((c) => c.type === 'button' && readsList(c.permission));
    return lists.length === 0 || lists.some((c) => can(auth, c.permission as string));
  };
  const visible = (row: MenuRow) =>
    row.type !== 'button' &&
    (granted === null ||
      (granted.has(row.id) && roleAllows(row.roles, auth.role) && !isPlatformPermission(row.permission) && listReadable(row)));
  const build = (parentId: number | null): MenuRoute[] =>
    (children.get(parentId) ?? []).filter(visible).flatMap((row) => {
      const route: MenuRoute = { name: row.routeName ?? String(row.id), path: row.path ?? '', meta: metaOf(row) };
      if (row.type === 'dir') {
        const kids = build(row.id);
        if (kids.length === 0) return [];
        route.children = kids;
      }
      return [route];
    });
  return build(null);
}
