import { z } from 'zod';
import { closingFields, type EntityManifest, rowOf } from '../entity';
import { textFilter } from '../resource';
import { auditFields, codeSchema, erpResource, erpStatus, nameSchema, optionalPhone, optionalText, sortSchemaField } from './common';
import { erpRoute } from './pages';

export const createWarehouseSchema = z.object({
  name: nameSchema(50),
  code: codeSchema(32),
  address: optionalText(200),
  principal: optionalText(30),
  phone: optionalPhone(),
  isDefault: z.boolean().default(false),
  sort: sortSchemaField.default(0),
  status: erpStatus.status.default('0'),
  remark: optionalText(500),
});
export const warehouseSchema = z.object({ id: z.number().int(), ...rowOf(createWarehouseSchema), ...auditFields });

export const warehouseResource = erpResource({
  // phone and e-mail here are how to reach the record's people, not what anyone signs in with
  accountIdentifiers: { create: { use: 'contact' }, update: { use: 'contact' } },
  name: 'warehouse',
  item: warehouseSchema,
  create: createWarehouseSchema,
  filters: z.object({ name: textFilter(50), code: textFilter(32), status: erpStatus.status.optional() }),
  sortable: ['sort', 'code', 'name', 'createTime'],
  defaultSort: { column: 'sort', direction: 'asc' },
  actions: ['list', 'query', 'create', 'update', 'status', 'delete', 'export'],
});
export type Warehouse = z.infer<typeof warehouseSchema>;

export const warehouseEntity: EntityManifest = {
  resource: warehouseResource,
  route: erpRoute('warehouse'),
  fields: [
    { field: 'name', label: 'erp.warehouse.name', search: true },
    { field: 'code', label: 'erp.warehouse.code', search: true },
    { field: 'address', label: 'erp.warehouse.address', wide: true },
    { field: 'principal', label: 'erp.warehouse.principal' },
    { field: 'phone', label: 'erp.warehouse.phone' },
    { field: 'isDefault', label: 'erp.warehouse.isDefault', widget: 'switch' },
    { field: 'sort', label: 'erp.sort', widget: 'number' },
    ...closingFields,
  ],
  createDefaults: { status: '0', sort: 0, isDefault: false },
};
