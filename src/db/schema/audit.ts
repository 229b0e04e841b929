/**
 * The audit chain: one row per review event a tenant's auditor may ask about (a review raised, claimed,
 * released, assigned, reminded, escalated, decided, overridden, answered in words, expired or cancelled), each
 * carrying the hash of the tenant's record before it, and one per review task decided (by a person, or by the
 * routing policy at submission). Triggers on run_events and tasks write the rows as they commit (migrations 0012
 * and 0015), so the chain is computed once, when the event is written, and never again.
 *
 * Only the skeleton is kept (ids, who, when, what, the payload hash): no free text, so the retention purge has
 * nothing to remove here and the chain survives it unchanged. src/audit/audit-record.ts says how a hash is made.
 */
import { bigint, boolean, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const auditRecords = pgTable(
  'audit_records',
  {
    tenantId: text().notNull(),
    /** 1, 2, 3… per tenant: a gap or a step back in an export is a removed or reordered record. */
    seq: bigint({ mode: 'number' }).notNull(),
    /** The event's time, to the millisecond (the hash covers it as ISO 8601 text). */
    at: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    /** The run; null for a review task's record (its task id is reviewId: a task is not a run). */
    runId: uuid(),
    /** The review, or the review task. */
    reviewId: uuid(),
    /** The run event's type (review.decided, run.expired, …). */
    type: text().notNull(),
    actor: text().notNull(),
    /** What happened: approve, reject, edit, override, reply, claim, assign, escalate, expire, cancel, … */
    action: text().notNull(),
    /** The hash of the payload the review showed, when it showed one. */
    payloadHash: text(),
    /** Whom it went to: the assignee, the escalation target. */
    target: text(),
    override: boolean().notNull().default(false),
    prevHash: text().notNull(),
    hash: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.seq] }), index('audit_records_tenant_at_idx').on(t.tenantId, t.at)],
);
