import { z } from 'zod';
import { statusSchema } from '../auth';
import { defineResource, textFilter } from '../resource';
import { auditFields, codeSchema, optionalText, orderNumSchema } from './common';

export const postSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  orderNum: z.number().int(),
  status: statusSchema,
  remark: z.string().nullable(),
  ...auditFields,
});

export const createPostSchema = z.object({
  code: codeSchema(64),
  name: z.string().trim().min(1).max(100),
  orderNum: orderNumSchema.default(0),
  status: statusSchema.default('0'),
  remark: optionalText(500),
});

export const postResource = defineResource({
  name: 'post',
  domain: 'system',
  basePath: '/system/post',
  item: postSchema,
  create: createPostSchema,
  update: createPostSchema,
  filters: z.object({ code: textFilter(64), name: textFilter(100), status: statusSchema.optional() }),
  sortable: ['orderNum', 'code', 'name', 'createTime'],
  defaultSort: { column: 'orderNum', direction: 'asc' },
  actions: ['list', 'query', 'create', 'update', 'status', 'delete', 'export'],
});

export type Post = z.infer<typeof postSchema>;
export type CreatePostInput = z.infer<typeof createPostSchema>;
