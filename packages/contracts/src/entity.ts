import { z } from 'zod';
import type { RouteMeta } from './auth';
import type { CodeKind } from './labels';
import { defineResource, type Resource, type ResourceAction, type ResourceConfig } from './resource';
import { auditFields } from './system/common';

/** How a field is edited and shown; `money` is integer fen in the API, yuan on screen. */
export type Widget = 'text' | 'textarea' | 'number' | 'money' | 'select' | 'radio' | 'switch' | 'date' | 'datetime' | 'tags';

/**
 * One field of an entity as the generic page renders it: the list column, the search form and the
 * drawer form all come from this list. `label` is an i18n key; option labels are i18n keys too.
 */
export type FieldMeta = {
  field: string;
  label: string;
  widget?: Widget;
  options?: readonly { label: string; value: string | number }[];
  /** the field holds codes of this kind of the label registry (labels.ts): an export writes their words */
  codes?: CodeKind;
  /** a list column (default true); `hidden` starts it hidden in the column settings */
  column?: boolean | { width?: number; hidden?: boolean };
  /** a search field; `prefix` when the server matches from the start */
  search?: boolean | 'prefix';
  /** in the create/edit drawer (default true); `'create'` only when creating (a key the update does not take) */
  form?: boolean | 'create';
  /** full width in the drawer */
  wide?: boolean;
  /** select options from a list API (`/erp/warehouse`): its rows' `id` and `name` */
  source?: string;
  /** what an empty value means, as an i18n key (an environment left out of a grant: every environment) */
  empty?: string;
  /** the width of its Excel column, in characters (default 18) */
  exportWidth?: number;
};

/**
 * One entity's manifest: its contract, its page route, its permissions and its fields. The route
 * catalogue, the permission catalogue, the server registration and the web page map are derived from
 * the manifests of a domain, and a test checks that they agree.
 */
export type EntityManifest = {
  resource: Resource;
  /** the catalogue route (menu entry) of the entity's page; `detail` for its hidden detail page */
  route: { name: string; path: string; locale: string; meta?: Partial<RouteMeta> };
  detail?: { name: string; path: string; locale: string };
  /** actions beyond the resource's conventional ones (confirm, adjust…), each a permission */
  extraActions?: readonly string[];
  /** present: the generic page renders the entity; absent: a custom page does */
  fields?: readonly FieldMeta[];
  /** values a new row starts with in the generic drawer */
  createDefaults?: Record<string, unknown>;
};

/** The status options the generic page shows (labels are i18n keys). */
export const statusOptionsMeta = [
  { label: 'status.0', value: '0' },
  { label: 'status.1', value: '1' },
] as const;
export const statusField = { field: 'status', label: 'crud.status', widget: 'radio', options: statusOptionsMeta, search: true } as const;
export const remarkField = { field: 'remark', label: 'crud.remark', widget: 'textarea', column: { hidden: true }, wide: true } as const;
export const createTimeField = { field: 'createTime', label: 'crud.createTime', widget: 'datetime', form: false } as const;
/** Status, remark and creation time: the last fields of most simple entities' pages. */
export const closingFields = [statusField, remarkField, createTimeField] as const;

/** Every permission string a manifest needs: the resource's actions plus its extra ones (none for a grant-checked one). */
export function manifestPermissions(m: EntityManifest): string[] {
  // decided by the caller's grants, not by role permissions
  if (m.resource.grant) return [];
  return [...new Set([...m.resource.actions, ...(m.extraActions ?? [])])].map((a) => m.resource.permission(a));
}

/** Every i18n key a manifest's page uses: the menu entries and the field labels and options. */
export function manifestLocaleKeys(m: EntityManifest): string[] {
  const keys = [m.route.locale, ...(m.detail ? [m.detail.locale] : [])];
  for (const f of m.fields ?? []) keys.push(f.label, ...(f.options ?? []).map((o) => o.label));
  return [...new Set(keys)];
}

type Stored<T> = undefined extends T ? Exclude<T, undefined> | null : T;
/** The row fields of an input shape: each field's output as stored; an optional input is `null` when absent. */
export type RowShape<S extends z.ZodRawShape> = { [K in keyof S]: z.ZodType<Stored<z.output<S[K]>>> };

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; options?: z.ZodType[]; element?: z.ZodType };

/** One input field as a row field: its type without the input's rules (lengths, patterns, defaults). */
function stored(schema: z.ZodType): z.ZodType {
  const def = (schema as unknown as { def: Def }).def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
      return stored(def.innerType as z.ZodType).nullable();
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
      return stored(def.innerType as z.ZodType);
    case 'pipe':
      return stored(def.in as z.ZodType);
    case 'union':
      return z.union((def.options ?? []).map(stored) as [z.ZodType, z.ZodType]);
    case 'string':
      return z.string();
    case 'number':
      return (schema as unknown as { isInt: boolean }).isInt ? z.number().int() : z.number();
    case 'array':
      return z.array(stored(def.element as z.ZodType));
    default:
      // booleans, enums, literals: as they are
      return schema;
  }
}

/**
 * The fields of a simple entity's row, derived from its input schema, so that a contract writes its
 * fields once: `z.object({ id, ...rowOf(createSchema), ...auditFields })`. Answers are not held to the
 * input's rules (a row stored before a rule tightened still answers).
 */
export function rowOf<S extends z.ZodRawShape>(input: z.ZodObject<S>): RowShape<S> {
  return Object.fromEntries(Object.entries(input.shape).map(([key, schema]) => [key, stored(schema as z.ZodType)])) as RowShape<S>;
}

/** The row schema `defineEntity` derives: `id`, the input's fields as stored, the derived fields, the audit fields. */
export type ItemOf<Create extends z.ZodObject, Derived extends z.ZodRawShape> = z.ZodObject<
  { id: z.ZodNumber } & RowShape<Create['shape']> & Derived & typeof auditFields,
  z.core.$strip
>;

/** The conventional actions of a simple entity. */
const simpleActions: readonly ResourceAction[] = ['list', 'query', 'create', 'update', 'status', 'delete', 'export'];

/** The values a create schema's own defaults give a new row (`status: statusSchema.default('0')`). */
function schemaDefaults(create: z.ZodObject): Record<string, unknown> | undefined {
  const found = Object.entries(create.shape).flatMap(([key, schema]) => {
    const def = (schema as unknown as { def: { type: string; defaultValue?: unknown } }).def;
    return def.type === 'default' ? [[key, def.defaultValue] as const] : [];
  });
  return found.length ? Object.fromEntries(found) : undefined;
}

/**
 * A simple entity's contract and manifest in one: what is not written is derived. The row is the
 * create schema's fields as stored with `id` and the audit fields; updates take the create schema; the
 * path is `/{domain}/{name}`; the actions are the conventional seven; the list sorts by creation, newest
 * first; a new row in the drawer starts with the create schema's defaults.
 */
export function defineEntity<
  Create extends z.ZodObject,
  Filters extends z.ZodObject,
  Sort extends string,
  // biome-ignore lint/complexity/noBannedTypes: no derived fields unless given
  Derived extends z.ZodRawShape = {},
>(
  config: Omit<ResourceConfig<ItemOf<Create, Derived>, Create, Create, Filters, Sort>, 'item' | 'update' | 'basePath' | 'actions'> & {
    // named here as well, so that the create schema's own type is inferred (not through the Omit above)
    create: Create;
    basePath?: string;
    actions?: readonly ResourceAction[];
    /** row fields the server derives and writes itself, answered after the input's (a department's ancestors) */
    derived?: Derived;
  } & Omit<EntityManifest, 'resource'>,
) {
  const { route, detail, extraActions, fields, createDefaults, derived, ...contract } = config;
  const resource = defineResource({
    ...contract,
    basePath: contract.basePath,
    item: z.object({ id: z.number().int(), ...rowOf(contract.create), ...derived, ...auditFields }) as ItemOf<Create, Derived>,
    actions: contract.actions ?? simpleActions,
  });
  return manifestOf(resource, { route, detail, extraActions, fields, createDefaults: createDefaults ?? schemaDefaults(contract.create) });
}

/** A manifest from its resource and its page: the parts left out stay out. */
export function manifestOf<R extends Resource>(resource: R, page: Omit<EntityManifest, 'resource'>) {
  const { route, detail, extraActions, fields, createDefaults } = page;
  return {
    resource,
    route,
    ...(detail ? { detail } : {}),
    ...(extraActions ? { extraActions } : {}),
    ...(fields ? { fields } : {}),
    ...(createDefaults ? { createDefaults } : {}),
  } satisfies EntityManifest;
}

const noInput = z.object({});

/** What `defineRecords` is told: the resource's contract without input, and the manifest's page. */
export type RecordsConfig<Item extends z.ZodObject, Filters extends z.ZodObject, Sort extends string> = Omit<
  ResourceConfig<Item, typeof noInput, typeof noInput, Filters, Sort>,
  'create' | 'update' | 'basePath'
> & {
  // named here as well, so that their own types are inferred (not through the Omit above)
  item: Item;
  filters: Filters;
  basePath?: string;
} & Omit<EntityManifest, 'resource' | 'createDefaults'>;

/**
 * An entity whose rows the server writes itself (the audit logs, the online sessions): its row schema is
 * written out, it takes no input, and its path is `/{domain}/{name}`; its actions are read-only ones and
 * the actions of its own routes (a forced logout) are `extraActions`.
 */
export function defineRecords<Item extends z.ZodObject, Filters extends z.ZodObject, Sort extends string>(
  config: RecordsConfig<Item, Filters, Sort>,
) {
  const { route, detail, extraActions, fields, ...contract } = config;
  const resource = defineResource({
    ...contract,
    basePath: contract.basePath,
    create: noInput,
    update: noInput,
  });
  return manifestOf(resource, { route, detail, extraActions, fields });
}
