import type { CreateMenuInput, ListQueryOf, MenuType, menuResource, Status } from '@atrium/contracts';
import { and, asc, count, eq, ne } from 'drizzle-orm';
import { z } from 'zod';
import { conflict, invalidField, refused, rethrowUnique } from '../../../crud/conflict';
import type { Ctx } from '../../../crud/context';
import { allOf } from '../../../crud/data-scope';
import { pageOffset } from '../../../crud/paging';
import { contains, isoDates, orderOf } from '../../../crud/query';
import { oneAtATime } from '../../../db/client';
import { menus } from '../../../db/schema';

type MenuQuery = ListQueryOf<typeof menuResource>;
type MenuRow = typeof menus.$inferSelect;
const sortColumns = { orderNum: menus.orderNum, title: menus.title, createTime: menus.createTime };
const uniques = { menus_route_name_key: 'routeName', menus_permission_key: 'permission' };

const toMenu = (row: MenuRow) => {
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

const blankToNull = (v: string | null | undefined) => (v ? v : null);
const fields = (input: CreateMenuInput) => ({
  ...input,
  routeName: blankToNull(input.routeName),
  path: blankToNull(input.path),
  icon: blankToNull(input.icon),
  locale: blankToNull(input.locale),
  permission: blankToNull(input.permission),
  activeMenu: blankToNull(input.activeMenu),
});

async function assertFree(ctx: Ctx, input: CreateMenuInput, exceptId?: number) {
  for (const [field, column] of [
    ['routeName', menus.routeName],
    ['permission', menus.permission],
  ] as const) {
    const value = blankToNull(input[field]);
    if (!value) continue;
    const [taken] = await ctx.tx
      .select({ id: menus.id })
      .from(menus)
      .where(and(eq(column, value), exceptId ? ne(menus.id, exceptId) : undefined))
      .limit(1);
    if (taken) throw conflict(field);
  }
}

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

export const menuRepository = {
  async list(ctx: Ctx, q: MenuQuery) {
    const where = allOf(
      contains(menus.title, q.title),
      contains(menus.routeName, q.routeName),
      q.type ? eq(menus.type, q.type) : undefined,
      q.status ? eq(menus.status, q.status) : undefined,
    );
    const page = pageOffset(q);
    const [rows, [total]] = await oneAtATime([
      ctx.tx
        .select()
        .from(menus)
        .where(where)
        .orderBy(...orderOf(q.sort, sortColumns, menus.id))
        .limit(page.limit)
        .offset(page.offset),
      ctx.tx.select({ n: count() }).from(menus).where(where),
    ]);
    return { list: rows.map(toMenu), total: total?.n ?? 0 };
  },

  async all(ctx: Ctx) {
    const rows = await ctx.tx.select().from(menus).orderBy(asc(menus.orderNum), asc(menus.id));
    return rows.map(toMenu);
  },

  async get(ctx: Ctx, id: number) {
    const [row] = await ctx.tx.select().from(menus).where(eq(menus.id, id));
    return row ? toMenu(row) : null;
  },

  async create(ctx: Ctx, input: CreateMenuInput) {
    await assertFree(ctx, input);
    await assertParent(ctx, input.parentId);
    const [row] = await ctx.tx
      .insert(menus)
      .values(fields(input))
      .returning()
      .catch((e) => rethrowUnique(e, uniques));
    return toMenu(row!);
  },

  async update(ctx: Ctx, id: number, input: CreateMenuInput) {
    await assertFree(ctx, input, id);
    await assertParent(ctx, input.parentId, id);
    const [row] = await ctx.tx
      .update(menus)
      .set({ ...fields(input), updateTime: new Date() })
      .where(eq(menus.id, id))
      .returning()
      .catch((e) => rethrowUnique(e, uniques));
    return toMenu(row!);
  },

  async remove(ctx: Ctx, id: number) {
    const [children] = await ctx.tx.select({ n: count() }).from(menus).where(eq(menus.parentId, id));
    if ((children?.n ?? 0) > 0) throw refused('id', 'hasChildren', 'menu.hasChildren', { count: children?.n ?? 0 });
    await ctx.tx.delete(menus).where(eq(menus.id, id));
  },
};
