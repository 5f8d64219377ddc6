import { z } from 'zod';
import { statusSchema } from './auth';
import { pageQuerySchema } from './envelope';

/** The actions a conventional resource answers; an entity lists the ones it has. */
export type ResourceAction = 'list' | 'query' | 'create' | 'update' | 'status' | 'delete' | 'export' | 'import';

export type SortDirection = 'asc' | 'desc';
export type SortOrder<C extends string = string> = { column: C; direction: SortDirection };

/** `status` of every system entity: '0' normal, '1' disabled. */
export type Status = z.infer<typeof statusSchema>;
export const statusInputSchema = z.object({ status: statusSchema });

/** A path id: decimal digits only (not `0x10`, `1e3` or ` 1`), so injection strings never reach a query. */
export const idParamSchema = z.object({
  id: z
    .string()
    .regex(/^[0-9]{1,16}$/, 'digits only')
    .transform(Number)
    .pipe(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)),
});

/** Optional text filter from a query string: trimmed, empty means "no filter". */
export const textFilter = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => (v ? v : undefined));

/** Optional id filter from a query string (a row's project, category…). */
export const idFilter = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional();

/** Optional date-time filter (ISO string or yyyy-mm-dd) from a query string. */
export const dateFilter = () =>
  z
    .string()
    .trim()
    .max(40)
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      const d = new Date(v);
      // years outside 1900–9999 are typing mistakes or probes, and some overflow the database's range
      const year = d.getUTCFullYear();
      if (Number.isNaN(d.getTime()) || year < 1900 || year > 9999) {
        ctx.addIssue({ code: 'custom', message: 'invalid date (years 1900 to 9999)' });
        return z.NEVER;
      }
      return d;
    });

/** `sort=column:asc|desc`, where column must be on the allow-list; anything else is a 400 naming `sort`. */
export function sortSchema<C extends string>(columns: readonly [C, ...C[]], fallback: SortOrder<C>) {
  return z
    .string()
    .max(64)
    .optional()
    .transform((value, ctx): SortOrder<C> => {
      if (!value) return fallback;
      const [column, direction = 'asc', extra] = value.split(':');
      if (extra !== undefined || !(columns as readonly string[]).includes(column ?? '') || (direction !== 'asc' && direction !== 'desc')) {
        ctx.addIssue({ code: 'custom', message: `sort must be one of ${columns.join(', ')} with :asc or :desc` });
        return z.NEVER;
      }
      return { column: column as C, direction };
    });
}

export type ResourceConfig<
  Item extends z.ZodObject,
  Create extends z.ZodObject,
  Update extends z.ZodObject,
  Filters extends z.ZodObject,
  Sort extends string,
> = {
  /** Entity name, e.g. `post`; with `domain` it names the permission prefix and i18n keys. */
  name: string;
  domain: string;
  /** Path under /api: `/{domain}/{name}` unless given (`/mall/print-job`). */
  basePath?: string;
  item: Item;
  /**
   * One row as its own route (`GET :id`) answers it, when that says more than a list's row: a release
   * task's step runs. The item unless given.
   */
  detailItem?: z.ZodObject;
  create: Create;
  /** The update body: the create body unless given. */
  update?: Update;
  filters: Filters;
  sortable: readonly [Sort, ...Sort[]];
  /** The list's order unless asked: newest first (`createTime`) unless given. */
  defaultSort?: SortOrder<NoInfer<Sort>>;
  /** Which conventional actions exist; each maps to the permission `${domain}:${name}:${action}`. */
  actions: readonly ResourceAction[];
  /** Exact paths where a spec fixes them (users); otherwise the convention of ARCHITECTURE section 4. */
  paths?: Partial<Record<ResourceAction, string>>;
  /** Only the platform's super admin may write (global catalogues). */
  superAdminWrites?: boolean;
  /** Only the platform's super admin may call any route (tenants). */
  superAdminOnly?: boolean;
  /**
   * Its rows belong to no tenant (the tenants, the menu catalogue): no tenant filter, and the checks that
   * another tenant's ids answer 404 leave it out (the entity kit checks that a tenant's owner cannot write it).
   */
  global?: boolean;
  /** i18n key prefix, defaults to `${domain}.${name}`. */
  i18n?: string;
  /**
   * The list also pages by keyset: `after` (or `before`) a row id gives the page that follows (precedes)
   * that row in the list's order, read from the index where OFFSET would walk every row before it.
   * Only for lists whose repository implements it; elsewhere the two parameters are refused.
   */
  keyset?: boolean;
  /**
   * No role-menu permission: every signed-in caller reaches the routes, whose handlers decide by the
   * caller's grants on what they touch (release tasks: `'release'`, the project grants). Its manifest
   * names no permission, and the authorization matrix leaves its routes out.
   */
  grant?: string;
  /** The delete answers the row as it was before it went (release management's callers read it); otherwise `null`. */
  deleteAnswersRow?: boolean;
  /** How the create and update bodies use the sign-in identifiers they carry (see ACCOUNT_IDENTIFIER_FIELDS). */
  accountIdentifiers?: Partial<Record<'create' | 'update', AccountIdentifierUse>>;
};

/**
 * How a route uses the sign-in identifier fields of its body (ACCOUNT_IDENTIFIER_FIELDS): `target` changes
 * those of the account of the user named by `:id`, read back through `read` (a path under /api); `own` the
 * caller's own (behind the current password); `new` gives them to an account it creates; `lookup` only finds
 * an account by them; `contact` means the fields are a record's contact details nobody signs in with.
 */
export type AccountIdentifierUse = { use: 'target'; read: string } | { use: 'own' | 'new' | 'lookup' | 'contact' };

/** A row id to page after or before; `never` where the list has no keyset paging (a 400 naming it). */
const cursorSchema = z.coerce.number().int().min(1).max(2_147_483_647).optional();
const noCursor = z.never().optional() as unknown as typeof cursorSchema;

/** The order of a list that names none: newest first (by `createTime`). */
const newestFirst = { column: 'createTime', direction: 'desc' } as const;

/**
 * A `defineResource` for the resources of one domain, which it then does not name.
 */
export function resourcesIn(domain: string) {
  return <
    Item extends z.ZodObject,
    Create extends z.ZodObject,
    Update extends z.ZodObject = Create,
    Filters extends z.ZodObject = z.ZodObject,
    Sort extends string = string,
  >(
    config: Omit<ResourceConfig<Item, Create, Update, Filters, Sort>, 'domain'>,
  ) => defineResource<Item, Create, Update, Filters, Sort>({ ...config, domain });
}

/**
 * One entity's contract: schemas, list query (paging + filters + allow-listed sort), permissions,
 * paths and i18n prefix. The server derives its routes from it and the web app its page.
 */
export function defineResource<
  Item extends z.ZodObject,
  Create extends z.ZodObject,
  Update extends z.ZodObject = Create,
  Filters extends z.ZodObject = z.ZodObject,
  Sort extends string = string,
>(config: ResourceConfig<Item, Create, Update, Filters, Sort>) {
  const update = (config.update ?? config.create) as Update;
  const defaultSort = config.defaultSort ?? (newestFirst as SortOrder<Sort>);
  const prefix = `${config.domain}:${config.name}`;
  const permission = (action: ResourceAction | (string & {})) => `${prefix}:${action}`;
  const base = `/${(config.basePath ?? `${config.domain}/${config.name}`).replace(/^\//, '')}`;
  const paths: Record<ResourceAction, string> = {
    list: base,
    query: `${base}/:id`,
    create: base,
    update: `${base}/:id`,
    status: `${base}/:id/status`,
    delete: `${base}/:id`,
    export: `${base}/export`,
    import: `${base}/import`,
    ...config.paths,
  };
  const listQuery = pageQuerySchema.extend(config.filters.shape).extend({
    sort: sortSchema(config.sortable, defaultSort),
    after: config.keyset ? cursorSchema : noCursor,
    before: config.keyset ? cursorSchema : noCursor,
  }) as unknown as z.ZodObject<
    typeof pageQuerySchema.shape &
      Filters['shape'] & { sort: ReturnType<typeof sortSchema<Sort>>; after: typeof cursorSchema; before: typeof cursorSchema }
  >;
  return {
    ...config,
    update,
    defaultSort,
    basePath: base,
    i18n: config.i18n ?? `${config.domain}.${config.name}`,
    paths,
    listQuery,
    permission,
    has: (action: ResourceAction) => config.actions.includes(action),
  };
}

export type Resource = ReturnType<typeof defineResource<z.ZodObject, z.ZodObject, z.ZodObject, z.ZodObject, string>>;
export type ListQueryOf<R extends { listQuery: z.ZodType }> = z.output<R['listQuery']>;

/** Builds a tree from flat rows with `id` and `parentId` (roots: parent missing from the set). */
export function buildTree<T extends { id: number; parentId: number | null }>(rows: readonly T[]): (T & { children: TreeNode<T>[] })[] {
  const nodes = new Map<number, T & { children: TreeNode<T>[] }>();
  for (const row of rows) nodes.set(row.id, { ...row, children: [] });
  const roots: (T & { children: TreeNode<T>[] })[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}
export type TreeNode<T> = T & { children: TreeNode<T>[] };
