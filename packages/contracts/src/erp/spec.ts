import { z } from 'zod';
import { type EntityManifest, rowOf } from '../entity';
import { textFilter } from '../resource';
import { auditFields, closingFields, erpResource, erpStatus, nameSchema, optionalText, sortSchemaField } from './common';
import { erpRoute } from './pages';

/** A spec (颜色) and its ordered values (红, 蓝); products combine spec values into SKUs. */
const specValue = z.string().trim().min(1).max(30);
export const createSpecSchema = z.object({
  name: nameSchema(30),
  values: z
    .array(specValue)
    .min(1)
    .max(50)
    .refine((v) => new Set(v).size === v.length, 'values must be distinct'),
  sort: sortSchemaField.default(0),
  status: erpStatus.status.default('0'),
  remark: optionalText(500),
});
export const specSchema = z.object({ id: z.number().int(), ...rowOf(createSpecSchema), ...auditFields });

export const specResource = erpResource({
  name: 'spec',
  item: specSchema,
  create: createSpecSchema,
  filters: z.object({ name: textFilter(30), status: erpStatus.status.optional() }),
  sortable: ['sort', 'name', 'createTime'],
  defaultSort: { column: 'sort', direction: 'asc' },
  actions: ['list', 'query', 'create', 'update', 'status', 'delete', 'export'],
});
export type Spec = z.infer<typeof specSchema>;

export const specEntity: EntityManifest = {
  resource: specResource,
  route: erpRoute('spec'),
  fields: [
    { field: 'name', label: 'erp.spec.name', search: true },
    { field: 'values', label: 'erp.spec.values', widget: 'tags', wide: true },
    { field: 'sort', label: 'erp.sort', widget: 'number' },
    ...closingFields,
  ],
  createDefaults: { status: '0', sort: 0, values: [] },
};
