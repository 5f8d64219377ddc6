import { sql } from 'drizzle-orm';
import { bigint, char, pgPolicy, pgTable, varchar } from 'drizzle-orm/pg-core';
import { createTime, globalId, time, updateTime } from './columns';

/** Tenants: a global table (no tenant_id). Everything tenant-owned points here through `tenant_id`. */
export const tenants = pgTable('tenants', {
  id: globalId(),
  code: varchar('code', { length: 32 }).notNull().unique(),
  name: varchar('name', { length: 100 }).notNull(),
  // '0' normal, '1' disabled — the same status convention as every system entity
  status: char('status', { length: 1 }).notNull().default('0'),
  contact: varchar('contact', { length: 100 }),
  expireTime: time('expire_time'),
  // the IANA zone whose calendar day is the tenant's business day (document numbers, "today", "this
  // month"); null: the platform's (TIME_ZONE)
  timeZone: varchar('time_zone', { length: 64 }),
  // who must sign in with a second factor: 'optional' (nobody), 'admins' (super admins and holders of the
  // tenant's admin role), 'everyone' (docs/adr/048-second-factor.md)
  mfaPolicy: varchar('mfa_policy', { length: 10 }).notNull().default('optional'),
  createTime: createTime(),
  updateTime: updateTime(),
});

/** The `tenant_id` column every tenant table starts with. */
export const tenantId = () =>
  bigint('tenant_id', { mode: 'number' })
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });

/** The tenant of the running transaction (`app.tenant_id`), null outside one. */
export const currentTenant = sql`nullif(current_setting('app.tenant_id', true), '')::bigint`;

/**
 * The row-level-security policy of a tenant table: rows are visible and writable only inside a
 * transaction whose `app.tenant_id` is theirs. With no tenant set, nothing is visible.
 * The migration that creates the table must also `FORCE ROW LEVEL SECURITY` (the architecture test checks).
 */
export const tenantPolicy = (table: string) =>
  pgPolicy(`${table}_tenant_isolation`, {
    as: 'permissive',
    for: 'all',
    to: 'public',
    using: sql`tenant_id = ${currentTenant}`,
    withCheck: sql`tenant_id = ${currentTenant}`,
  });
