/** Every decision a person made on a review, kept forever: who, when, the raw body and what it meant. */
import { bigserial, boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { PendingReview } from '../../generated/contracts.ts';
import { runs } from './runs.ts';
import type { DecisionRow } from '../../engine/run-rows.ts';
import type { SameShape } from './same-shape.ts';

export type { DecisionRow } from '../../engine/run-rows.ts';

export const decisions = pgTable(
  'decisions',
  {
    id: bigserial({ mode: 'bigint' }).primaryKey(),
    runId: uuid()
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    tenantId: text().notNull(),
    reviewId: uuid().notNull(),
    actor: text().notNull(),
    action: text().notNull(),
    /** The body exactly as received (secrets redacted). */
    raw: jsonb().$type<Record<string, unknown>>().notNull(),
    /** What Vetted made of it: the route taken, the resulting status. */
    parsed: jsonb().$type<Record<string, unknown>>().notNull(),
    edits: jsonb().$type<Record<string, unknown>>(),
    override: boolean().notNull().default(false),
    /** The review as it was when this decision was made, so a decided review stays readable. */
    review: jsonb().$type<PendingReview>(),
    at: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('decisions_run_idx').on(t.runId, t.at),
    index('decisions_review_idx').on(t.reviewId),
    index('decisions_tenant_at_idx').on(t.tenantId, t.at, t.id),
    // Decisions in the last minutes across tenants (review metrics, src/db/review-stats-queries.ts).
    index('decisions_at_idx').on(t.at),
  ],
);

/** The table holds the engine's DecisionRow exactly. */
export const decisionsHoldDecisionRow: SameShape<typeof decisions.$inferSelect, DecisionRow> = true;
