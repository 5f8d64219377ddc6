import { z } from 'zod';
import { statusSchema } from '../auth';
import { defineResource, textFilter } from '../resource';
import { auditFields, codeSchema, idListSchema, optionalText, orderNumSchema } from './common';

/** '1' all, '2' custom departments, '3' own department, '4' department and below, '5' self only. */
export const dataScopes = ['1', '2', '3', '4', '5'] as const;
export const dataScopeSchema = z.enum(dataScopes);
export type DataScope = z.infer<typeof dataScopeSchema>;

export const roleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  code: z.string(),
  dataScope: dataScopeSchema,
  isDefault: z.boolean(),
  orderNum: z.number().int(),
  status: statusSchema,
  remark: z.string().nullable(),
  /** Filled on the single-role read: granted menu ids (leaves and checked parents) and custom departments. */
  menuIds: z.array(z.number().int()).optional(),
  deptIds: z.array(z.number().int()).optional(),
  ...auditFields,
});

export const createRoleSchema = z
  .object({
    name: z.string().trim().min(1).max(20),
    code: codeSchema(64),
    dataScope: dataScopeSchema.default('1'),
    isDefault: z.boolean().default(false),
    orderNum: orderNumSchema.default(0),
    status: statusSchema.default('0'),
    remark: optionalText(500),
    menuIds: idListSchema.default([]),
    deptIds: idListSchema.default([]),
  })
  // custom departments with none ticked would let the role's holders see no one's data but their own;
  // said beside the other fields' issues, not only once they are right
  .refine((role) => role.dataScope !== '2' || role.deptIds.length > 0, {
    path: ['deptIds'],
    message: 'role.deptRequired',
    when: ({ issues }) => !issues.some((i) => i.path?.[0] === 'dataScope' || i.path?.[0] === 'deptIds'),
  });

export const roleResource = defineResource({
  name: 'role',
  domain: 'system',
  basePath: '/system/role',
  item: roleSchema,
  create: createRoleSchema,
  update: createRoleSchema,
  filters: z.object({ name: textFilter(20), code: textFilter(64), status: statusSchema.optional() }),
  sortable: ['orderNum', 'name', 'code', 'createTime'],
  defaultSort: { column: 'orderNum', direction: 'asc' },
  actions: ['list', 'query', 'create', 'update', 'status', 'delete'],
});

export type Role = z.infer<typeof roleSchema>;
export type CreateRoleInput = z.infer<typeof createRoleSchema>;
