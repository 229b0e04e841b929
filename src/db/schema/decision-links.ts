/**
 * Decision links sent by email are single use: the first POST that carries one records its hash here, in the
 * same statement that checks it was not used (a primary key), so two clicks on one link decide at most once.
 */
import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const decisionLinkUses = pgTable('decision_link_uses', {
  /** sha256 of the whole token: the token itself is a credential and is not stored. */
  tokenHash: text().primaryKey(),
  tenantId: text().notNull(),
  reviewId: text().notNull(),
  reviewerId: text().notNull(),
  action: text().notNull(),
  usedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
