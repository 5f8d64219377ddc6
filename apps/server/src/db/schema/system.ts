import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  char,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { audit, id, ref, status } from './columns';
import { entityTable } from './entity-table';
import { accounts, menus } from './identity';
import { tenantId, tenantPolicy } from './tenancy';

// Tenant tables: tenant_id first in every key, row-level security by tenantPolicy (forced in migration 0002).

/** Departments: a tree per tenant. `ancestors` holds the ids from the root down, for "department and below". */
export const depts = pgTable(
  'depts',
  {
    tenantId: tenantId(),
    id: id(),
    parentId: ref('parent_id'),
    ancestors: jsonb('ancestors').$type<number[]>().notNull().default([]),
    name: varchar('name', { length: 100 }).notNull(),
    leader: varchar('leader', { length: 30 }),
    phone: varchar('phone', { length: 20 }),
    email: varchar('email', { length: 100 }),
    orderNum: integer('order_num').notNull().default(0),
    status: status(),
    ...audit,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({ columns: [t.tenantId, t.parentId], foreignColumns: [t.tenantId, t.id] }).onDelete('restrict'),
    index('depts_parent_idx').on(t.tenantId, t.parentId),
    index('depts_ancestors_idx').using('gin', t.ancestors),
    tenantPolicy('depts'),
  ],
);

export const posts = entityTable(
  'posts',
  {
    code: varchar('code', { length: 64 }).notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    orderNum: integer('order_num').notNull().default(0),
    status: status(),
    remark: varchar('remark', { length: 500 }),
  },
  (t) => [uniqueIndex('posts_code_key').on(t.tenantId, t.code)],
);

/**
 * Roles. `dataScope`: '1' all, '2' custom departments (role_depts), '3' own department,
 * '4' department and below, '5' self only.
 */
export const roles = pgTable(
  'roles',
  {
    tenantId: tenantId(),
    id: id(),
    name: varchar('name', { length: 20 }).notNull(),
    code: varchar('code', { length: 64 }).notNull(),
    dataScope: char('data_scope', { length: 1 }).notNull().default('1'),
    isDefault: boolean('is_default').notNull().default(false),
    orderNum: integer('order_num').notNull().default(0),
    status: status(),
    remark: varchar('remark', { length: 500 }),
    ...audit,
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), uniqueIndex('roles_code_key').on(t.tenantId, t.code), tenantPolicy('roles')],
);

export const roleMenus = pgTable(
  'role_menus',
  {
    tenantId: tenantId(),
    roleId: ref('role_id').notNull(),
    menuId: ref('menu_id')
      .notNull()
      .references(() => menus.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.roleId, t.menuId] }),
    foreignKey({ columns: [t.tenantId, t.roleId], foreignColumns: [roles.tenantId, roles.id] }).onDelete('cascade'),
    tenantPolicy('role_menus'),
  ],
);

export const roleDepts = pgTable(
  'role_depts',
  {
    tenantId: tenantId(),
    roleId: ref('role_id').notNull(),
    deptId: ref('dept_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.roleId, t.deptId] }),
    foreignKey({ columns: [t.tenantId, t.roleId], foreignColumns: [roles.tenantId, roles.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.tenantId, t.deptId], foreignColumns: [depts.tenantId, depts.id] }).onDelete('cascade'),
    tenantPolicy('role_depts'),
  ],
);

/**
 * A tenant's users: an account's membership in this tenant, with what it is here — user type
 * ('00' super admin, '01' system user, '02' ordinary user), department, status ('0' normal, '1' disabled).
 */
export const tenantUsers = pgTable(
  'tenant_users',
  {
    tenantId: tenantId(),
    id: id(),
    accountRef: ref('account_ref')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userType: char('user_type', { length: 2 }).notNull().default('02'),
    deptId: ref('dept_id'),
    status: status(),
    remark: varchar('remark', { length: 500 }),
    // the account's name in lower case, written only by the database's triggers (migration 0020): with
    // it in the list's index a name prefix walks the list's order without reading the accounts (ADR 040)
    nameKey: text('name_key').notNull().default(''),
    ...audit,
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('tenant_users_account_key').on(t.tenantId, t.accountRef),
    foreignKey({ columns: [t.tenantId, t.deptId], foreignColumns: [depts.tenantId, depts.id] }).onDelete('restrict'),
    index('tenant_users_dept_idx').on(t.tenantId, t.deptId),
    index('tenant_users_created_idx').on(t.tenantId, t.createTime, t.id),
    // the list's order with what its walks test (name prefix, status, department): read index-only
    index('tenant_users_list_idx').on(t.tenantId, t.createTime, t.id, t.nameKey, t.status, t.deptId),
    tenantPolicy('tenant_users'),
  ],
);

export const userRoles = pgTable(
  'user_roles',
  {
    tenantId: tenantId(),
    userId: ref('user_id').notNull(),
    roleId: ref('role_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId, t.roleId] }),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [tenantUsers.tenantId, tenantUsers.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.tenantId, t.roleId], foreignColumns: [roles.tenantId, roles.id] }).onDelete('cascade'),
    index('user_roles_role_idx').on(t.tenantId, t.roleId),
    tenantPolicy('user_roles'),
  ],
);

export const userPosts = pgTable(
  'user_posts',
  {
    tenantId: tenantId(),
    userId: ref('user_id').notNull(),
    postId: ref('post_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId, t.postId] }),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [tenantUsers.tenantId, tenantUsers.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.tenantId, t.postId], foreignColumns: [posts.tenantId, posts.id] }).onDelete('cascade'),
    index('user_posts_post_idx').on(t.tenantId, t.postId),
    tenantPolicy('user_posts'),
  ],
);

/** Every write through the API: who, what, on which target, before/after summary, result, duration, IP. */
export const operLogs = pgTable(
  'oper_logs',
  {
    tenantId: tenantId(),
    id: id(),
    accountRef: ref('account_ref'),
    operator: varchar('operator', { length: 30 }),
    module: varchar('module', { length: 50 }).notNull(),
    // create | update | delete | status | export | import | grant | reset_password | other
    action: varchar('action', { length: 30 }).notNull(),
    target: varchar('target', { length: 200 }),
    // the target's display name when the entry was written (`hq0001 张三`): it reads after a rename or delete
    targetName: varchar('target_name', { length: 200 }),
    method: varchar('method', { length: 10 }).notNull(),
    url: varchar('url', { length: 500 }).notNull(),
    ip: varchar('ip', { length: 64 }),
    summary: jsonb('summary').$type<Record<string, unknown>>(),
    // success | failure
    result: varchar('result', { length: 10 }).notNull(),
    errorMessage: text('error_message'),
    durationMs: integer('duration_ms').notNull().default(0),
    createTime: timestamp('create_time', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    // api_tokens.id when the operation was made with a personal API token; null in a signed-in session
    apiTokenId: bigint('api_token_id', { mode: 'number' }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('oper_logs_time_idx').on(t.tenantId, t.createTime),
    index('oper_logs_module_idx').on(t.tenantId, t.module, t.createTime),
    tenantPolicy('oper_logs'),
  ],
);

/** Stored notifications per account (message / notice / todo); delivered live over MQTT after storing. */
export const notifications = pgTable(
  'notifications',
  {
    tenantId: tenantId(),
    id: id(),
    accountRef: ref('account_ref')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    // message | notice | todo
    type: varchar('type', { length: 10 }).notNull(),
    title: varchar('title', { length: 200 }).notNull(),
    content: text('content').notNull().default(''),
    link: varchar('link', { length: 500 }),
    sender: varchar('sender', { length: 30 }),
    noticeId: ref('notice_id'),
    read: boolean('read').notNull().default(false),
    createTime: timestamp('create_time', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // the message box's order to the last key (newest first, ties by id): a page is read off the index
    // without sorting the account's notifications, in a generic plan as in a custom one
    index('notifications_account_idx').on(t.tenantId, t.accountRef, t.createTime, t.id),
    index('notifications_unread_idx').on(t.tenantId, t.accountRef, t.type).where(sql`not ${t.read}`),
    tenantPolicy('notifications'),
  ],
);

/**
 * Each account's notification counts per type, kept exact by statement triggers on `notifications`
 * (migration 0016): the message box and the bell read three rows instead of counting the account's
 * notifications on every request. Every filter of the list (type, read) is a sum of these.
 */
export const notificationCounts = pgTable(
  'notification_counts',
  {
    tenantId: tenantId(),
    accountRef: ref('account_ref')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    type: varchar('type', { length: 10 }).notNull(),
    total: integer('total').notNull().default(0),
    unread: integer('unread').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.accountRef, t.type] }), tenantPolicy('notification_counts')],
);

/** Notices an administrator sent: to the tenant, a role, a department (and below) or chosen users. */
export const notices = pgTable(
  'notices',
  {
    tenantId: tenantId(),
    id: id(),
    title: varchar('title', { length: 200 }).notNull(),
    content: text('content').notNull().default(''),
    type: varchar('type', { length: 10 }).notNull().default('notice'),
    // tenant | role | dept | users
    scope: varchar('scope', { length: 10 }).notNull(),
    targetIds: jsonb('target_ids').$type<number[]>().notNull().default([]),
    recipients: integer('recipients').notNull().default(0),
    senderRef: ref('sender_ref'),
    sender: varchar('sender', { length: 30 }),
    createTime: timestamp('create_time', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), index('notices_time_idx').on(t.tenantId, t.createTime), tenantPolicy('notices')],
);
