import { bigint, index, jsonb, pgTable, primaryKey, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { id, time } from './columns';
import { entityTable } from './entity-table';
import { tenantId, tenantPolicy } from './tenancy';

// The basic profile's parameter approvals and the user centre's certifications and pinned shortcuts:
// tenant_id first in every key, row-level security forced.

/** A parameter change that runs commit → approval → finish (spec §4). */
export const paramApprovals = entityTable(
  'param_approvals',
  {
    number: varchar('number', { length: 24 }).notNull(),
    title: varchar('title', { length: 50 }).notNull(),
    parameter: varchar('parameter', { length: 50 }).notNull(),
    oldValue: varchar('old_value', { length: 200 }).notNull().default(''),
    newValue: varchar('new_value', { length: 200 }).notNull(),
    reason: varchar('reason', { length: 500 }).notNull().default(''),
    stage: varchar('stage', { length: 12 }).notNull().default('approval'),
  },
  (t) => [
    uniqueIndex('param_approvals_number_key').on(t.tenantId, t.number),
    index('param_approvals_time_idx').on(t.tenantId, t.createTime),
  ],
);

/** Each stage of an approval as it was reached: pass, or auditing while it waits. */
export const paramApprovalRecords = pgTable(
  'param_approval_records',
  {
    tenantId: tenantId(),
    id: id(),
    approvalId: bigint('approval_id', { mode: 'number' }).notNull(),
    stage: varchar('stage', { length: 12 }).notNull(),
    result: varchar('result', { length: 12 }).notNull(),
    operator: varchar('operator', { length: 30 }),
    remark: varchar('remark', { length: 200 }).notNull().default(''),
    createTime: time('create_time').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('param_approval_records_approval_idx').on(t.tenantId, t.approvalId),
    tenantPolicy('param_approval_records'),
  ],
);

/** An account's enterprise certification requests in a tenant (spec §3); a pending one can be withdrawn, or reviewed by a platform administrator. */
export const userCertifications = pgTable(
  'user_certifications',
  {
    tenantId: tenantId(),
    id: id(),
    accountRef: bigint('account_ref', { mode: 'number' }).notNull(),
    accountType: varchar('account_type', { length: 12 }).notNull(),
    status: varchar('status', { length: 12 }).notNull().default('auditing'),
    legalPerson: varchar('legal_person', { length: 30 }).notNull(),
    certificateType: varchar('certificate_type', { length: 12 }).notNull(),
    certificateNumber: varchar('certificate_number', { length: 30 }).notNull(),
    enterpriseName: varchar('enterprise_name', { length: 100 }).notNull(),
    organisationCode: varchar('organisation_code', { length: 18 }).notNull(),
    /** The platform administrator who approved or rejected it, when, and why (a rejection's reason). */
    reviewBy: varchar('review_by', { length: 30 }),
    reviewTime: time('review_time'),
    reviewReason: varchar('review_reason', { length: 200 }).notNull().default(''),
    createTime: time('create_time').notNull().defaultNow(),
    updateTime: time('update_time').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('user_certifications_account_idx').on(t.tenantId, t.accountRef, t.createTime),
    tenantPolicy('user_certifications'),
  ],
);

/** The shortcuts an account pinned to its workbench in a tenant (route names, in order). */
export const userPins = pgTable(
  'user_pins',
  {
    tenantId: tenantId(),
    accountRef: bigint('account_ref', { mode: 'number' }).notNull(),
    pins: jsonb('pins').$type<string[]>().notNull().default([]),
    updateTime: time('update_time').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.accountRef] }), tenantPolicy('user_pins')],
);
