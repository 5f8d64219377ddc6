import { integer, pgTable, text, timestamp, varchar } from 'drizzle-orm/pg-core';

/**
 * Short-lived shared state when there is no Redis: captcha answers (hashed), rate-limit counters and
 * sign-in failure counts and locks. Global; every row expires, expired rows are swept.
 */
export const kvEntries = pgTable('kv_entries', {
  key: varchar('key', { length: 200 }).primaryKey(),
  value: text('value'),
  counter: integer('counter').notNull().default(0),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
});
