import { z } from 'zod';
import { type EntityManifest, rowOf } from '../entity';
import { defineResource, textFilter } from '../resource';
import {
  auditFields,
  createTimeField,
  erpStatus,
  nameSchema,
  optionalEmail,
  optionalPhone,
  optionalText,
  remarkField,
  statusField,
} from './common';
import { erpPages } from './pages';

export const createSupplierSchema = z.object({
  name: nameSchema(100),
  contact: optionalText(30),
  mobile: optionalPhone(),
  phone: optionalPhone(),
  email: optionalEmail(),
  taxNo: optionalText(50),
  bankAccount: optionalText(50),
  status: erpStatus.status.default('0'),
  remark: optionalText(500),
});
export const supplierSchema = z.object({ id: z.number().int(), ...rowOf(createSupplierSchema), ...auditFields });

export const supplierResource = defineResource({
  // phone and e-mail here are how to reach the record's people, not what anyone signs in with
  accountIdentifiers: { create: { use: 'contact' }, update: { use: 'contact' } },
  name: 'supplier',
  domain: 'erp',
  basePath: '/erp/supplier',
  item: supplierSchema,
  create: createSupplierSchema,
  update: createSupplierSchema,
  filters: z.object({ name: textFilter(100), mobile: textFilter(20), status: erpStatus.status.optional() }),
  sortable: ['name', 'createTime'],
  defaultSort: { column: 'createTime', direction: 'desc' },
  actions: ['list', 'query', 'create', 'update', 'status', 'delete', 'export'],
});
export type Supplier = z.infer<typeof supplierSchema>;

export const supplierEntity: EntityManifest = {
  resource: supplierResource,
  route: erpPages.supplier.route,
  fields: [
    { field: 'name', label: 'erp.supplier.name', search: true },
    { field: 'contact', label: 'erp.supplier.contact' },
    { field: 'mobile', label: 'erp.supplier.mobile', search: true },
    { field: 'phone', label: 'erp.supplier.phone', column: { hidden: true } },
    { field: 'email', label: 'erp.supplier.email' },
    { field: 'taxNo', label: 'erp.supplier.taxNo', column: { hidden: true } },
    { field: 'bankAccount', label: 'erp.supplier.bankAccount', column: { hidden: true } },
    statusField,
    remarkField,
    createTimeField,
  ],
  createDefaults: { status: '0' },
};
