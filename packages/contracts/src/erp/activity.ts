import { z } from 'zod';
import { isoDateTime } from '../dates';
import type { EntityManifest } from '../entity';
import { textFilter } from '../resource';
import { auditFields, erpResource, moneySchema, nameSchema, optionalText, refId } from './common';
import { erpRoute } from './pages';

export const activityTypes = ['discount', 'reduction'] as const;
export const activityTypeSchema = z.enum(activityTypes);
export const activityStatuses = ['Y', 'N'] as const;
export const activityStatusSchema = z.enum(activityStatuses);

export const activitySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: activityTypeSchema,
  /** discount: the percent paid (90 = 10 % off) */
  discountPercent: z.number().int().nullable(),
  /** reduction: spend ≥ threshold (fen), take off reduction (fen) */
  threshold: z.number().int().nullable(),
  reduction: z.number().int().nullable(),
  startTime: z.string(),
  endTime: z.string(),
  skuIds: z.array(z.number().int()),
  status: activityStatusSchema,
  remark: z.string().nullable(),
  ...auditFields,
});
export type Activity = z.infer<typeof activitySchema>;

export const createActivitySchema = z
  .object({
    name: nameSchema(50),
    type: activityTypeSchema,
    discountPercent: z.number().int().min(1).max(99).nullish(),
    threshold: moneySchema.nullish(),
    reduction: moneySchema.nullish(),
    startTime: isoDateTime(),
    endTime: isoDateTime(),
    skuIds: z.array(refId).min(1).max(1000),
    remark: optionalText(500),
  })
  .superRefine((a, ctx) => {
    if (new Date(a.endTime) <= new Date(a.startTime))
      ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'must be after startTime' });
    if (a.type === 'discount' && !a.discountPercent)
      ctx.addIssue({ code: 'custom', path: ['discountPercent'], message: 'required for a discount' });
    if (a.type === 'reduction') {
      if (!a.reduction) ctx.addIssue({ code: 'custom', path: ['reduction'], message: 'required for a reduction' });
      if (a.threshold === null || a.threshold === undefined)
        ctx.addIssue({ code: 'custom', path: ['threshold'], message: 'required for a reduction' });
      else if (a.reduction && a.reduction > a.threshold)
        ctx.addIssue({ code: 'custom', path: ['reduction'], message: 'must not exceed threshold' });
    }
  });
export const activityStatusInputSchema = z.object({ status: activityStatusSchema });

export const activityResource = erpResource({
  name: 'activity',
  item: activitySchema,
  create: createActivitySchema as unknown as z.ZodObject<(typeof createActivitySchema)['shape']>,
  filters: z.object({ name: textFilter(50), type: activityTypeSchema.optional(), status: activityStatusSchema.optional() }),
  sortable: ['name', 'startTime', 'createTime'],
  actions: ['list', 'query', 'create', 'update', 'delete', 'export'],
});
export type CreateActivityInput = z.infer<typeof createActivitySchema>;

const typeOptions = [
  { label: 'erp.activity.type.discount', value: 'discount' },
  { label: 'erp.activity.type.reduction', value: 'reduction' },
];
export const activityEntity: EntityManifest = {
  resource: activityResource,
  route: erpRoute('activity'),
  extraActions: ['status'],
  fields: [
    { field: 'name', label: 'erp.activity.name', search: true },
    { field: 'type', label: 'erp.activity.type', widget: 'select', options: typeOptions, search: true },
    { field: 'discountPercent', label: 'erp.activity.discountPercent', widget: 'number' },
    { field: 'threshold', label: 'erp.activity.threshold', widget: 'money' },
    { field: 'reduction', label: 'erp.activity.reduction', widget: 'money' },
    { field: 'startTime', label: 'erp.activity.startTime', widget: 'datetime' },
    { field: 'endTime', label: 'erp.activity.endTime', widget: 'datetime' },
    {
      field: 'status',
      label: 'erp.activity.status',
      widget: 'select',
      options: [
        { label: 'erp.activity.status.Y', value: 'Y' },
        { label: 'erp.activity.status.N', value: 'N' },
      ],
      form: false,
      search: true,
    },
    { field: 'remark', label: 'crud.remark', widget: 'textarea', column: { hidden: true }, wide: true },
  ],
};
