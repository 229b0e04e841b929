/** Per-tenant data retention (src/retention/): how long run documents are kept, and PII masking of stored text. */
import { boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { TenantRetentionRow } from '../../retention/retention-rows.ts';
import type { SameShape } from './same-shape.ts';

export type { TenantRetentionRow } from '../../retention/retention-rows.ts';

export const tenantRetention = pgTable('tenant_retention', {
  tenantId: text().primaryKey(),
  /** Documents of terminal runs older than this many days are purged; null keeps them forever. */
  documentsDays: integer(),
  /** Mask email addresses and phone numbers in stored free text (prompt, conversation, chat replies). */
  maskPii: boolean().notNull().default(false),
  updatedBy: text().notNull(),
  updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const tenantRetentionHoldsRetentionRow: SameShape<typeof tenantRetention.$inferSelect, TenantRetentionRow> = true;
