import { z } from 'zod';
import { createTimeField, type EntityManifest, statusField } from '../entity';
import { textFilter } from '../resource';
import { auditFields, codeSchema, erpResource, erpStatus, idFilter, nameSchema, refId, sortSchemaField } from './common';
import { erpRoute } from './pages';

/** Product categories: a tree per tenant; one with products or children cannot be deleted. */
export const categorySchema = z.object({
  id: z.number().int(),
  parentId: z.number().int().nullable(),
  parentName: z.string().nullable(),
  name: z.string(),
  code: z.string(),
  sort: z.number().int(),
  ...erpStatus,
  ...auditFields,
});
export const createCategorySchema = z.object({
  parentId: refId.nullish(),
  name: nameSchema(50),
  code: codeSchema(32),
  sort: sortSchemaField.default(0),
  status: erpStatus.status.default('0'),
});

export const categoryResource = erpResource({
  name: 'category',
  item: categorySchema,
  create: createCategorySchema,
  filters: z.object({ name: textFilter(50), code: textFilter(32), parentId: idFilter, status: erpStatus.status.optional() }),
  sortable: ['sort', 'code', 'name', 'createTime'],
  defaultSort: { column: 'sort', direction: 'asc' },
  actions: ['list', 'query', 'create', 'update', 'status', 'delete', 'export'],
});
export type Category = z.infer<typeof categorySchema>;

export const categoryEntity: EntityManifest = {
  resource: categoryResource,
  route: erpRoute('category'),
  fields: [
    { field: 'name', label: 'erp.category.name', search: true },
    { field: 'code', label: 'erp.category.code', search: true },
    { field: 'parentId', label: 'erp.category.parent', widget: 'select', source: '/erp/category', column: false },
    { field: 'parentName', label: 'erp.category.parent', form: false },
    { field: 'sort', label: 'erp.sort', widget: 'number' },
    statusField,
    createTimeField,
  ],
  createDefaults: { status: '0', sort: 0 },
};
