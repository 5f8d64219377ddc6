import { z } from 'zod';
import { defineResource, textFilter } from '../resource';

/**
 * The card list's services (spec §4): opened, expired, cancelled or renewed. "Expired" is not stored:
 * an opened or renewed service whose end has passed reads as expired.
 */
export const serviceKinds = ['quality', 'content', 'rules'] as const;
export const serviceStates = ['opened', 'expired', 'cancelled', 'renewed'] as const;
export type ServiceState = (typeof serviceStates)[number];

export const serviceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  kind: z.enum(serviceKinds),
  status: z.enum(serviceStates),
  expireTime: z.string().nullable(),
  createTime: z.string(),
  updateBy: z.string().nullable(),
  updateTime: z.string(),
});
export type Service = z.infer<typeof serviceSchema>;

const createServiceSchema = z.object({
  name: z.string().trim().min(1).max(50),
  description: z.string().trim().max(200).default(''),
  kind: z.enum(serviceKinds),
});

export const serviceResource = defineResource({
  name: 'service',
  domain: 'list',
  item: serviceSchema,
  create: createServiceSchema,
  update: createServiceSchema,
  filters: z.object({ name: textFilter(50), kind: z.enum(serviceKinds).optional(), status: z.enum(serviceStates).optional() }),
  sortable: ['createTime', 'name', 'expireTime'],
  defaultSort: { column: 'createTime', direction: 'asc' },
  actions: ['list', 'query'],
});

/** The service actions and the states each may start from (the server checks them in one compare-and-set). */
export const serviceTransitions = {
  open: ['cancelled', 'expired'],
  cancel: ['opened', 'renewed'],
  renew: ['opened', 'renewed', 'expired'],
} as const satisfies Record<string, readonly ServiceState[]>;
export type ServiceAction = keyof typeof serviceTransitions;
