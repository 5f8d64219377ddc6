import { z } from 'zod';
import { statusSchema } from '../auth';
import type { EntityManifest } from '../entity';
import { dateFilter, defineResource, textFilter } from '../resource';
import { auditFields, codeSchema } from '../system/common';

/** The search table's "set" (spec §3): number, name, content type, filter type, count, online/offline. */
export const setContentTypes = ['imageText', 'horizontalVideo', 'verticalVideo'] as const;
export const setFilterTypes = ['artificial', 'rules'] as const;

export const setSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  name: z.string(),
  contentType: z.enum(setContentTypes),
  filterType: z.enum(setFilterTypes),
  count: z.number().int(),
  // '0' online, '1' offline: the status convention of every entity, with the set's own words
  status: statusSchema,
  ...auditFields,
});

export const createSetSchema = z.object({
  number: codeSchema(20),
  name: z.string().trim().min(1).max(50),
  contentType: z.enum(setContentTypes),
  filterType: z.enum(setFilterTypes),
  count: z.number().int().min(0).max(1_000_000_000).default(0),
  status: statusSchema.default('0'),
});

export const setResource = defineResource({
  name: 'set',
  domain: 'list',
  item: setSchema,
  create: createSetSchema,
  update: createSetSchema,
  filters: z.object({
    number: textFilter(20),
    name: textFilter(50),
    contentType: z.enum(setContentTypes).optional(),
    filterType: z.enum(setFilterTypes).optional(),
    status: statusSchema.optional(),
    createTimeFrom: dateFilter(),
    createTimeTo: dateFilter(),
  }),
  sortable: ['createTime', 'count', 'number', 'name'],
  defaultSort: { column: 'createTime', direction: 'desc' },
  actions: ['list', 'query', 'create', 'update', 'status', 'delete', 'export'],
});
export type SetItem = z.infer<typeof setSchema>;

const optionsOf = (prefix: string, values: readonly string[]) => values.map((value) => ({ value, label: `${prefix}.${value}` }));

export const setEntity: EntityManifest = {
  resource: setResource,
  route: { name: 'SearchTable', path: '/list/search-table', locale: 'menu.list.searchTable' },
  fields: [
    { field: 'number', label: 'list.set.number', search: 'prefix' },
    { field: 'name', label: 'list.set.name', search: true },
    {
      field: 'contentType',
      label: 'list.set.contentType',
      widget: 'select',
      options: optionsOf('list.set.contentType', setContentTypes),
      codes: 'setContentType',
      search: true,
    },
    {
      field: 'filterType',
      label: 'list.set.filterType',
      widget: 'select',
      options: optionsOf('list.set.filterType', setFilterTypes),
      codes: 'setFilterType',
      search: true,
    },
    { field: 'count', label: 'list.set.count', widget: 'number' },
    {
      field: 'status',
      label: 'list.set.status',
      widget: 'radio',
      options: optionsOf('list.set.status', ['0', '1']),
      codes: 'setStatus',
      search: true,
    },
    { field: 'createTime', label: 'crud.createTime', widget: 'datetime', form: false },
  ],
  createDefaults: { status: '0', count: 0, contentType: 'imageText', filterType: 'artificial' },
};
