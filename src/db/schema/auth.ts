/** API keys: stored as a hash of the secret, each bound to one tenant and one role. */
import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export type Role = 'submitter' | 'reviewer' | 'admin';
export type ExtraPermission = 'override';

export const apiKeys = pgTable('api_keys', {
  /** The public part of the key (`vt_<id>.<secret>`), used to find the row. */
  id: text().primaryKey(),
  tenantId: text().notNull(),
  role: text().$type<Role>().notNull(),
  /** Permissions beyond the role's own, e.g. `override` (approve over blocking issues). */
  permissions: jsonb().$type<ExtraPermission[]>().notNull().default([]),
  /** sha256 of the secret part: keys are long random strings, so a fast hash is enough. */
  secretHash: text().notNull(),
  label: text(),
  createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  revokedAt: timestamp({ withTimezone: true, mode: 'date' }),
});

export type ApiKeyRow = typeof apiKeys.$inferSelect;
