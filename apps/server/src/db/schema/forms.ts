import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { status, time } from './columns';
import { entityTable } from './entity-table';
import { tenantId, tenantPolicy } from './tenancy';

// The template forms on real data (spec §2–§5): tenant_id first in every key, row-level security forced.

/** What the step form submits: one promotion-channel record per submit. */
export const formStepRecords = pgTable(
  'form_step_records',
  {
    tenantId: tenantId(),
    id: bigint('id', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    activityName: varchar('activity_name', { length: 20 }).notNull(),
    channelType: varchar('channel_type', { length: 8 }).notNull(),
    promotionTime: time('promotion_time').notNull(),
    promotionLink: varchar('promotion_link', { length: 500 }).notNull(),
    advertisingSource: varchar('advertising_source', { length: 50 }).notNull(),
    advertisingMedia: varchar('advertising_media', { length: 50 }).notNull(),
    keyword: jsonb('keyword').$type<string[]>().notNull(),
    pushNotify: boolean('push_notify').notNull().default(false),
    advertisingContent: text('advertising_content').notNull(),
    createBy: varchar('create_by', { length: 30 }),
    createTime: time('create_time').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('form_step_records_time_idx').on(t.tenantId, t.createTime),
    tenantPolicy('form_step_records'),
  ],
);

/** The group form's video and audio parameters: one row per tenant (absent: the defaults). */
export const formGroupSettings = pgTable(
  'form_group_settings',
  {
    tenantId: tenantId().primaryKey(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    updateBy: varchar('update_by', { length: 30 }),
    updateTime: time('update_time').notNull().defaultNow(),
  },
  () => [tenantPolicy('form_group_settings')],
);

/** The search table's sets (spec §3): a tenant table with the usual search, filters, sort and paging. */
export const listSets = entityTable(
  'list_sets',
  {
    number: varchar('number', { length: 20 }).notNull(),
    name: varchar('name', { length: 50 }).notNull(),
    contentType: varchar('content_type', { length: 20 }).notNull(),
    filterType: varchar('filter_type', { length: 20 }).notNull(),
    count: integer('count').notNull().default(0),
    status: status(),
  },
  (t) => [uniqueIndex('list_sets_number_key').on(t.tenantId, t.number), index('list_sets_time_idx').on(t.tenantId, t.createTime)],
);

/** The card list's services: `status` holds opened, cancelled or renewed; expiry is read from `expire_time`. */
export const listServices = pgTable(
  'list_services',
  {
    tenantId: tenantId(),
    id: bigint('id', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    name: varchar('name', { length: 50 }).notNull(),
    description: varchar('description', { length: 200 }).notNull().default(''),
    kind: varchar('kind', { length: 20 }).notNull(),
    status: varchar('status', { length: 12 }).notNull().default('opened'),
    expireTime: time('expire_time'),
    createBy: varchar('create_by', { length: 30 }),
    createTime: time('create_time').notNull().defaultNow(),
    updateBy: varchar('update_by', { length: 30 }),
    updateTime: time('update_time').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), tenantPolicy('list_services')],
);
