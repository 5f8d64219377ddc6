import { z } from 'zod';
import { statusSchema } from '../auth';
import { createTimeField, type ItemOf, remarkField, statusField } from '../entity';
import { textFilter } from '../resource';
import { codeSchema, idListSchema, optionalText, orderNumSchema } from './common';
import { systemEntity } from './entity';

/** '1' all, '2' custom departments, '3' own department, '4' department and below, '5' self only. */
export const dataScopes = ['1', '2', '3', '4', '5'] as const;
export const dataScopeSchema = z.enum(dataScopes);
export type DataScope = z.infer<typeof dataScopeSchema>;

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

/**
 * Kept beside the row (`role_menus`, `role_depts`), so answered by the single-role read and the writes
 * that take them, not by the list: granted menu ids (leaves and checked parents) and custom departments.
 */
const derived = { menuIds: z.array(z.number().int()).optional(), deptIds: z.array(z.number().int()).optional() };

/**
 * A role (spec §3): its menu grant (buttons included), data scope and the default flag. Its page is its
 * own (the grant trees), built from these fields, whose order is its drawer's.
 */
export const roleEntity = systemEntity({
  name: 'role',
  create: createRoleSchema,
  derived,
  filters: z.object({ name: textFilter(20), code: textFilter(64), status: statusSchema.optional() }),
  sortable: ['orderNum', 'name', 'code', 'createTime'],
  defaultSort: { column: 'orderNum', direction: 'asc' },
  actions: ['list', 'query', 'create', 'update', 'status', 'delete'],
  // the tenant's sign-in policies (second factors, single sign-on) are set with it
  extraActions: ['grant'],
  fields: [
    { field: 'name', label: 'system.role.name', search: true },
    { field: 'code', label: 'system.role.code', search: true },
    { field: 'orderNum', label: 'crud.orderNum', widget: 'number', column: { width: 90 } },
    { field: 'isDefault', label: 'system.role.isDefault', widget: 'switch' },
    statusField,
    {
      field: 'dataScope',
      label: 'system.role.dataScope',
      widget: 'select',
      options: dataScopes.map((v) => ({ label: `system.role.dataScope.${v}`, value: v })),
    },
    // the grant trees are the role page's own inputs
    { field: 'deptIds', label: 'system.role.depts', column: false },
    { field: 'menuIds', label: 'system.role.menus', column: false },
    { ...remarkField, column: false },
    { field: 'createBy', label: 'crud.createBy', column: { hidden: true }, form: false },
    createTimeField,
  ],
});
export const roleResource = roleEntity.resource;
export const roleSchema = roleResource.item as ItemOf<typeof createRoleSchema, typeof derived>;

export type Role = z.infer<typeof roleSchema>;
export type CreateRoleInput = z.infer<typeof createRoleSchema>;
