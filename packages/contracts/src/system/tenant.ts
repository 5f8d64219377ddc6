import { z } from 'zod';
import { passwordSchema, statusSchema } from '../auth';
import { ianaTimeZone, isoDateTime, isoDay } from '../dates';
import { defineResource, textFilter } from '../resource';
import { codeSchema, optionalText } from './common';
import { systemManifest } from './entity';

export const tenantSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  status: statusSchema,
  contact: z.string().nullable(),
  expireTime: z.string().nullable(),
  /** the zone of the tenant's business day (document numbers, "today"); null: the platform's */
  timeZone: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
});

const expireTime = isoDateTime().or(isoDay()).nullish();

export const updateTenantSchema = z.object({
  name: z.string().trim().min(1).max(100),
  contact: optionalText(100),
  expireTime,
  /** null: the platform's; left out: unchanged */
  timeZone: ianaTimeZone().nullish(),
  status: statusSchema.default('0'),
});

/** Creating a tenant also creates its `admin` role and its first administrator. */
export const createTenantSchema = updateTenantSchema.extend({
  code: codeSchema(32),
  adminAccountId: z
    .string()
    .trim()
    .min(2)
    .max(30)
    .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . and - only'),
  adminPassword: passwordSchema,
});

export const tenantResource = defineResource({
  name: 'tenant',
  domain: 'system',
  item: tenantSchema,
  create: createTenantSchema,
  update: updateTenantSchema,
  filters: z.object({ code: textFilter(32), name: textFilter(100), status: statusSchema.optional() }),
  sortable: ['createTime', 'code', 'name'],
  defaultSort: { column: 'createTime', direction: 'asc' },
  actions: ['list', 'query', 'create', 'update', 'status', 'delete'],
  superAdminOnly: true,
  global: true,
});

/** Tenants on the manifest machinery; their page is their own (the first administrator, the zone picker). */
export const tenantEntity = systemManifest(tenantResource);

export type Tenant = z.infer<typeof tenantSchema>;
export type CreateTenantInput = z.infer<typeof createTenantSchema>;
export type UpdateTenantInput = z.infer<typeof updateTenantSchema>;
