import { z } from 'zod';
import { statusSchema } from '../auth';
import type { ItemOf } from '../entity';
import { textFilter } from '../resource';
import { optionalEmail, optionalPhone, optionalText, orderNumSchema } from './common';
import { systemEntity } from './entity';

export const createDeptSchema = z.object({
  parentId: z.number().int().positive().nullable().default(null),
  name: z.string().trim().min(1).max(100),
  leader: optionalText(30),
  phone: optionalPhone(),
  email: optionalEmail(),
  orderNum: orderNumSchema.default(0),
  status: statusSchema.default('0'),
});

/** What the server writes itself: the ids above, and the contact fields, an empty one stored as none. */
const derived = { ancestors: z.array(z.number().int()), phone: z.string().nullable(), email: z.string().nullable() };

/**
 * A department (spec §3), a tree: its `ancestors` (the ids above it, root first) are the server's own.
 * Its page is its own (the tree table), so the manifest has no fields.
 */
export const deptEntity = systemEntity({
  // phone and e-mail here are how to reach the record's people, not what anyone signs in with
  accountIdentifiers: { create: { use: 'contact' }, update: { use: 'contact' } },
  name: 'dept',
  create: createDeptSchema,
  derived,
  filters: z.object({ name: textFilter(100), status: statusSchema.optional() }),
  sortable: ['orderNum', 'name', 'createTime'],
  defaultSort: { column: 'orderNum', direction: 'asc' },
  actions: ['list', 'query', 'create', 'update', 'status', 'delete'],
});
export const deptResource = deptEntity.resource;
export const deptSchema = deptResource.item as ItemOf<typeof createDeptSchema, typeof derived>;

export type Dept = z.infer<typeof deptSchema>;
export type DeptTreeNode = Dept & { children: DeptTreeNode[] };
export const deptTreeSchema = deptSchema.extend({
  get children() {
    return z.array(deptTreeSchema);
  },
}) as unknown as z.ZodType<DeptTreeNode>;
export type CreateDeptInput = z.infer<typeof createDeptSchema>;
