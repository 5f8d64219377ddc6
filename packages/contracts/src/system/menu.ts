import { z } from 'zod';
import { statusSchema } from '../auth';
import { defineResource, textFilter } from '../resource';
import { optionalText, orderNumSchema } from './common';
import { systemManifest } from './entity';

export const menuTypes = ['dir', 'menu', 'button', 'link'] as const;
export const menuTypeSchema = z.enum(menuTypes);
export type MenuType = z.infer<typeof menuTypeSchema>;

export const menuSchema = z.object({
  id: z.number().int(),
  parentId: z.number().int().nullable(),
  type: menuTypeSchema,
  title: z.string(),
  routeName: z.string().nullable(),
  path: z.string().nullable(),
  icon: z.string().nullable(),
  locale: z.string().nullable(),
  permission: z.string().nullable(),
  orderNum: z.number().int(),
  hideInMenu: z.boolean(),
  hideChildrenInMenu: z.boolean(),
  requiresAuth: z.boolean(),
  roles: z.array(z.string()),
  activeMenu: z.string().nullable(),
  status: statusSchema,
  createTime: z.string(),
  updateTime: z.string(),
});

export const createMenuSchema = z
  .object({
    parentId: z.number().int().positive().nullable().default(null),
    type: menuTypeSchema,
    title: z.string().trim().min(1).max(20),
    routeName: z
      .string()
      .trim()
      .max(20)
      .regex(/^[A-Za-z][A-Za-z0-9_-]*$/, 'letters, digits, _ and -, starting with a letter')
      .or(z.literal(''))
      .nullish(),
    path: optionalText(200),
    icon: optionalText(200),
    locale: optionalText(200),
    permission: z
      .string()
      .trim()
      .max(100)
      .regex(/^[A-Za-z0-9_*]+(:[A-Za-z0-9_*]+)*$/, 'like system:user:list')
      .or(z.literal(''))
      .nullish(),
    orderNum: orderNumSchema.default(0),
    hideInMenu: z.boolean().default(false),
    hideChildrenInMenu: z.boolean().default(false),
    requiresAuth: z.boolean().default(true),
    roles: z.array(z.string().trim().min(1).max(20)).max(20).default(['*']),
    activeMenu: optionalText(20),
    status: statusSchema.default('0'),
  })
  .superRefine((menu, ctx) => {
    if (menu.type === 'menu' && !menu.routeName)
      ctx.addIssue({ code: 'custom', path: ['routeName'], message: 'a menu needs a route name' });
    if ((menu.type === 'menu' || menu.type === 'link') && !menu.path)
      ctx.addIssue({ code: 'custom', path: ['path'], message: 'needs a path' });
    if (menu.type === 'button' && !menu.permission)
      ctx.addIssue({ code: 'custom', path: ['permission'], message: 'a button needs a permission' });
  });

export const menuResource = defineResource({
  name: 'menu',
  domain: 'system',
  item: menuSchema,
  create: createMenuSchema,
  update: createMenuSchema,
  filters: z.object({ title: textFilter(20), routeName: textFilter(20), type: menuTypeSchema.optional(), status: statusSchema.optional() }),
  sortable: ['orderNum', 'title', 'createTime'],
  defaultSort: { column: 'orderNum', direction: 'desc' },
  actions: ['list', 'query', 'create', 'update', 'delete'],
  superAdminWrites: true,
  global: true,
});

/** The menu catalogue on the manifest machinery; its page is its own (the tree table). */
export const menuEntity = systemManifest(menuResource);

export type Menu = z.infer<typeof menuSchema>;
export type MenuTreeNode = Menu & { children: MenuTreeNode[] };
export const menuTreeSchema: z.ZodType<MenuTreeNode> = menuSchema.extend({
  get children() {
    return z.array(menuTreeSchema);
  },
});
export type CreateMenuInput = z.infer<typeof createMenuSchema>;
