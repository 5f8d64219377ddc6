import { bigint, char, timestamp, varchar } from 'drizzle-orm/pg-core';

// The columns the tables share, written once (not re-exported by index.ts: they are not tables).

/** A tenant table's own id: generated, unique within its tenant with `tenant_id` first in the key. */
export const id = () => bigint('id', { mode: 'number' }).notNull().generatedAlwaysAsIdentity();
/** A global table's id (accounts, sessions, tenants): generated, the primary key alone. */
export const globalId = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
/** A reference to another row's id (its foreign key is declared with the table's keys). */
export const ref = (name: string) => bigint(name, { mode: 'number' });
/** '0' normal, '1' disabled: the status convention of every system and ERP entity. */
export const status = () => char('status', { length: 1 }).notNull().default('0');
/** A point in time, with its zone. */
export const time = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const createTime = () => time('create_time').notNull().defaultNow();
export const updateTime = () => time('update_time').notNull().defaultNow();
/** Who created and last changed a row, and when. */
export const audit = {
  createBy: varchar('create_by', { length: 30 }),
  createTime: createTime(),
  updateBy: varchar('update_by', { length: 30 }),
  updateTime: updateTime(),
};
