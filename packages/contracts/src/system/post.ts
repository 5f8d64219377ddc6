import { z } from 'zod';
import { statusSchema } from '../auth';
import { closingFields } from '../entity';
import { textFilter } from '../resource';
import { codeSchema, optionalText, orderNumSchema } from './common';
import { systemEntity } from './entity';

export const createPostSchema = z.object({
  code: codeSchema(64),
  name: z.string().trim().min(1).max(100),
  orderNum: orderNumSchema.default(0),
  status: statusSchema.default('0'),
  remark: optionalText(500),
});

/** A post (spec §3: name, code, status), the smallest system entity: contract, table and one registration line. */
export const postEntity = systemEntity({
  name: 'post',
  create: createPostSchema,
  filters: z.object({ code: textFilter(64), name: textFilter(100), status: statusSchema.optional() }),
  sortable: ['orderNum', 'code', 'name', 'createTime'],
  defaultSort: { column: 'orderNum', direction: 'asc' },
  fields: [
    { field: 'code', label: 'system.post.code', search: true },
    { field: 'name', label: 'system.post.name', search: true },
    { field: 'orderNum', label: 'crud.orderNum', widget: 'number', column: { width: 90 } },
    ...closingFields,
  ],
});
export const postResource = postEntity.resource;

export type Post = z.infer<typeof postResource.item>;
