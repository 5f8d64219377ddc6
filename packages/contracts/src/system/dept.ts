import { z } from 'zod';
import { statusSchema } from '../auth';
import { defineResource, textFilter } from '../resource';
import { auditFields, optionalEmail, optionalPhone, optionalText, orderNumSchema } from './common';

export const deptSchema = z.object({
  id: z.number().int(),
  parentId: z.number().int().nullable(),
  ancestors: z.array(z.number().int()),
  name: z.string(),
  leader: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  orderNum: z.number().int(),
  status: statusSchema,
  ...auditFields,
});

export const createDeptSchema = z.object({
  parentId: z.number().int().positive().nullable().default(null),
  name: z.string().trim().min(1).max(100),
  leader: optionalText(30),
  phone: optionalPhone(),
  email: optionalEmail(),
  orderNum: orderNumSchema.default(0),
  status: statusSchema.default('0'),
});

export const deptResource = defineResource({
  // phone and e-mail here are how to reach the record's people, not what anyone signs in with
  accountIdentifiers: { create: { use: 'contact' }, update: { use: 'contact' } },
  name: 'dept',
  domain: 'system',
  basePath: '/system/dept',
  item: deptSchema,
  create: createDeptSchema,
  update: createDeptSchema,
  filters: z.object({ name: textFilter(100), status: statusSchema.optional() }),
  sortable: ['orderNum', 'name', 'createTime'],
  defaultSort: { column: 'orderNum', direction: 'asc' },
  actions: ['list', 'query', 'create', 'update', 'status', 'delete'],
});

export type Dept = z.infer<typeof deptSchema>;
export type DeptTreeNode = Dept & { children: DeptTreeNode[] };
export const deptTreeSchema: z.ZodType<DeptTreeNode> = deptSchema.extend({
  get children() {
    return z.array(deptTreeSchema);
  },
});
export type CreateDeptInput = z.infer<typeof createDeptSchema>;
