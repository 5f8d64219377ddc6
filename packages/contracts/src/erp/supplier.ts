import { z } from 'zod';
import { closingFields, erpEntity, erpStatus, nameSchema, optionalEmail, optionalPhone, optionalText, textFilter } from './common';

export const supplierEntity = erpEntity({
  name: 'supplier',
  create: z.object({
    name: nameSchema(100),
    contact: optionalText(30),
    mobile: optionalPhone(),
    phone: optionalPhone(),
    email: optionalEmail(),
    taxNo: optionalText(50),
    bankAccount: optionalText(50),
    status: erpStatus.status.default('0'),
    remark: optionalText(500),
  }),
  filters: z.object({ name: textFilter(100), mobile: textFilter(20), status: erpStatus.status.optional() }),
  sortable: ['name', 'createTime'],
  // phone and e-mail here are how to reach the record's people, not what anyone signs in with
  accountIdentifiers: { create: { use: 'contact' }, update: { use: 'contact' } },
  fields: [
    { field: 'name', label: 'erp.supplier.name', search: true },
    { field: 'contact', label: 'erp.supplier.contact' },
    { field: 'mobile', label: 'erp.supplier.mobile', search: true },
    { field: 'phone', label: 'erp.supplier.phone', column: { hidden: true } },
    { field: 'email', label: 'erp.supplier.email' },
    { field: 'taxNo', label: 'erp.supplier.taxNo', column: { hidden: true } },
    { field: 'bankAccount', label: 'erp.supplier.bankAccount', column: { hidden: true } },
    ...closingFields,
  ],
});
