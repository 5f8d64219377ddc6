import type { Menu, MenuType, Status } from '@atrium/contracts';
import { asc, count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { invalidField, refused } from '../../../crud/conflict';
import type { Ctx } from '../../../crud/context';
import { isoDates } from '../../../crud/query';
import type { RepositoryOptions } from '../../../crud/repository';
import { menus } from '../../../db/schema';
import { invalidateAccess } from '../../auth/session.service';

type MenuRow = typeof menus.$inferSelect;

const toMenu = (row: MenuRow): Menu => {
  const { noAffix: _n, ignoreCache: _i, ...rest } = isoDates(row);
  return { ...rest, type: rest.type as MenuType, status: rest.status as Status };
};

type GrantNode = { id: number; parentId: number | null; type: MenuType; title: string; locale: string | null; permission: string | null };
export type GrantMenuNode = GrantNode & { children: GrantMenuNode[] };
export const grantMenuTreeSchema: z.ZodType<GrantMenuNode> = z.object({
  id: z.number().int(),
  parentId: z.number().int().nullable(),
  type: z.enum(['dir', 'menu', 'button', 'link']),
  title: z.string(),
  locale: z.string().nullable(),
  permission: z.string().nullable(),
  get children() {
    return z.array(grantMenuTreeSchema);
  },
});

/** The enabled catalogue, buttons included, flat; the role page builds its grant tree from it. */
export async function grantableMenus(ctx: Ctx): Promise<GrantNode[]> {
  const rows = await ctx.tx
    .select({
      id: menus.id,
      parentId: menus.parentId,
      type: menus.type,
      title: menus.title,
      locale: menus.locale,
      permission: menus.permission,
    })
    .from(menus)
    .where(eq(menus.status, '0'))
    .orderBy(asc(menus.parentId), asc(menus.id));
  return rows.map((r) => ({ ...r, type: r.type as MenuType }));
}

const blankToNull = (v: unknown) => (v ? (v as string) : null);

async function assertParent(ctx: Ctx, parentId: number | null, selfId?: number) {
  let current = parentId;
  // walk up: the parent must exist and the chain must not pass through the menu itself
  for (let depth = 0; current !== null; depth++) {
    if (current === selfId || depth > 20) throw invalidField('parentId', 'cycle', 'tree.cycle');
    const [parent] = await ctx.tx.select({ parentId: menus.parentId }).from(menus).where(eq(menus.id, current));
    if (!parent) throw invalidField('parentId', 'exists', 'ref.missing');
    current = parent.parentId;
  }
}

/** The whole catalogue, flat, for the menu page's tree. */
export async function allMenus(ctx: Ctx) {
  const rows = await ctx.tx.select().from(menus).orderBy(asc(menus.orderNum), asc(menus.id));
  return rows.map(toMenu);
}

/**
 * The menu's rules as hooks of the generic repository over a global table (the catalogue has no
 * tenant): a route name and a permission are unique, the parent exists and no menu is its own ancestor,
 * a menu with children stays, and every change drops every tenant's cached access (menus carry the
 * permissions), once committed.
 */
export function menuRules(app: FastifyInstance): RepositoryOptions<Menu> {
  const changed = (ctx: Ctx) => ctx.afterCommit(() => invalidateAccess(app, {}));
  return {
    unique: { routeName: 'menus_route_name_key', permission: 'menus_permission_key' },
    async beforeWrite(ctx, input, id) {
      await assertParent(ctx, input.parentId as number | null, id);
      // empty optional texts are stored as none; the table keeps no updateBy, so the time is set here
      return {
        ...Object.fromEntries(['routeName', 'path', 'icon', 'locale', 'permission', 'activeMenu'].map((k) => [k, blankToNull(input[k])])),
        ...(id ? { updateTime: new Date() } : {}),
      };
    },
    afterWrite: async (ctx) => changed(ctx),
    async beforeDelete(ctx, id) {
      const [children] = await ctx.tx.select({ n: count() }).from(menus).where(eq(menus.parentId, id));
      if ((children?.n ?? 0) > 0) throw refused('id', 'hasChildren', 'menu.hasChildren', { count: children?.n ?? 0 });
      changed(ctx);
    },
    toItem: (row) => toMenu(row as MenuRow),
  };
}
