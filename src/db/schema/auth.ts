/**
 * Reviewers (people, with a name, a role and a team) and API keys (stored as a hash of the secret, each bound
 * to one tenant and one role, and, for a person's key, to that person).
 */
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { ApiKeyRow, ExtraPermission, ReviewerRow, Role } from '../../auth/key-rows.ts';
import type { SameShape } from './same-shape.ts';

export type { ApiKeyRow, ExtraPermission, ReviewerRow, Role } from '../../auth/key-rows.ts';

export const reviewers = pgTable(
  'reviewers',
  {
    /** `rv_<12>`: what decisions record as their actor (`reviewer:<id>`). */
    id: text().primaryKey(),
    tenantId: text().notNull(),
    name: text().notNull(),
    role: text().$type<Role>().notNull(),
    team: text(),
    /** Slack user id (`U…`); one person per Slack user within a tenant. */
    slackUserId: text(),
    /** Where decision links are signed for this person. */
    email: text(),
    /** False while they are away: auto-assignment skips them. */
    available: boolean().notNull().default(true),
    /** When auto-assignment last gave them a review (round robin: whoever waited longest is next). */
    lastAssignedAt: timestamp({ withTimezone: true, mode: 'date' }),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Set when the person is removed: the row stays for the audit trail's names. */
    removedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('reviewers_tenant_idx').on(t.tenantId, t.name),
    uniqueIndex('reviewers_tenant_slack_user_idx').on(t.tenantId, t.slackUserId),
    index('reviewers_tenant_email_idx').on(t.tenantId, t.email),
  ],
);

export const reviewersHoldReviewerRow: SameShape<typeof reviewers.$inferSelect, ReviewerRow> = true;

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
  /** The person the key belongs to; null for a service's key (an upstream app). */
  reviewerId: text().references(() => reviewers.id),
  createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  revokedAt: timestamp({ withTimezone: true, mode: 'date' }),
});

export const apiKeysHoldApiKeyRow: SameShape<typeof apiKeys.$inferSelect, ApiKeyRow> = true;
