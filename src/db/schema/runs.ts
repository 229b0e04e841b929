/** Runs and their append-only event trail: the source of truth for every request Vetted acknowledged. */
import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { PendingReview, PolicySpec, RunError, RunEventType, RunStatus, StageName } from '../../generated/contracts.ts';
import { RUN_DOCUMENT_KINDS } from '../../engine/run-rows.ts';
import type { NewRunRow, RecheckReason, RunDocumentKind, RunDocuments, RunEventRow, RunHotRow } from '../../engine/run-rows.ts';
import type { SameShape } from './same-shape.ts';

// The rows are the engine's (src/engine/run-rows.ts); this file stores them and is checked against them below.
export { RUN_DOCUMENT_KINDS };
export type { NewRunRow, RecheckReason, RunDocumentKind, RunDocuments, RunEventRow, RunHotRow, RunRow } from '../../engine/run-rows.ts';

/**
 * The hot half of a run: what a stage move changes (status, stage, attempt, timings, the small outcome) and
 * the small fields beside it. The large documents are in run_documents, written once each when produced.
 *
 * The column order is the physical one (migration 0011 rebuilt the table in it) and it matters: an update
 * whose new version lands on the old one's page logs only the bytes between the common prefix and the common
 * suffix of the two versions. So what never changes comes first, what a review or the end of a run changes
 * next, and the columns every stage move changes last: a move then logs a few dozen bytes, not the row.
 */
export const runs = pgTable(
  'runs',
  {
    id: uuid().primaryKey(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    tenantId: text().notNull(),
    traceId: text().notNull(),
    threadId: text().notNull(),
    requestKey: text(),
    userId: text(),
    sessionId: text(),
    builder: text().notNull(),
    provider: text().notNull(),
    policy: jsonb().$type<PolicySpec>().notNull(),
    // Set once, by the extract stage.
    model: text(),
    /** The model_schemas cache key the extract stage resolved (version id or content hash). */
    schemaKey: text(),
    schemaHash: text(),
    // Changed by reviews, operators and the end of a run.
    executionSeq: integer().notNull().default(1),
    /** Edits people made in reviews; the assembler merges them over the request's own. */
    reviewEdits: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    /** Hash of the payload a person approved or wrote; require_human does not ask again for it. */
    approvedPayloadHash: text(),
    /**
     * Why the validate stage must ask a person whatever the gate's other rules say: set by a decision whose
     * model schema changed while the run waited (the approval was of a payload checked against the old one),
     * cleared by the validate stage's move.
     */
    recheck: text().$type<RecheckReason>(),
    pausedFrom: text().$type<RunStatus>(),
    error: jsonb().$type<RunError>(),
    /**
     * When the tenant's retention purged the run's documents (request, bundle, candidate, issues, output, review
     * edits); the audit skeleton (ids, status, events, decisions' actors and actions, hashes, timings) stays.
     */
    purgedAt: timestamp({ withTimezone: true, mode: 'date' }),
    pendingReview: jsonb().$type<PendingReview>(),
    /** The pending review's id, as a column so a review can be found (and a decision compare-and-set) by index. */
    pendingReviewId: uuid(),
    /** When the current review was raised; the pending queue is served oldest first. */
    parkedAt: timestamp({ withTimezone: true, mode: 'date' }),
    reviewExpiresAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** The person working the pending review (a lease: claimExpiresAt), so two people do not work the same one. */
    claimedBy: text(),
    claimExpiresAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** The reviewer the pending review is assigned to (by the team's policy, or by a holder of reviews:assign). */
    assignedTo: text(),
    /** Who snoozed the pending review out of their own queue, until when (actor → ISO time). */
    snoozes: jsonb().$type<Record<string, string>>().notNull().default({}),
    completedAt: timestamp({ withTimezone: true, mode: 'date' }),
    // Changed by every stage move.
    stageStartedAt: timestamp({ withTimezone: true, mode: 'date' }),
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Bumped by every stage claim; stage jobs carry it so a stale job recognises itself. */
    attempt: integer().notNull().default(0),
    stage: text().$type<StageName>().notNull(),
    status: text().$type<RunStatus>().notNull(),
  },
  // Stage moves are HOT updates (heap-only: no index entry written) as long as no index covers or filters on
  // a column they change: status, stage, attempt, updated_at, stage_started_at and the stage outputs. So
  // nothing here mentions those. The review-queue indexes filter on pending_review_id (set exactly while a
  // review is pending) instead of status, and the reconciler finds unfinished runs through completed_at and
  // pending_review_id, which change once per run and once per review.
  (t) => [
    uniqueIndex('runs_tenant_request_key_idx').on(t.tenantId, t.requestKey).where(sql`${t.requestKey} is not null`),
    index('runs_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    index('runs_tenant_session_idx').on(t.tenantId, t.sessionId).where(sql`${t.sessionId} is not null`),
    index('runs_tenant_user_idx').on(t.tenantId, t.userId).where(sql`${t.userId} is not null`),
    index('runs_unfinished_idx').on(t.createdAt).where(sql`${t.completedAt} is null and ${t.pendingReviewId} is null`),
    index('runs_completed_idx').on(t.completedAt).where(sql`${t.completedAt} is not null`),
    index('runs_pending_review_id_idx').on(t.pendingReviewId).where(sql`${t.pendingReviewId} is not null`),
    index('runs_tenant_parked_idx').on(t.tenantId, t.parkedAt).where(sql`${t.pendingReviewId} is not null`),
    // The review queue filtered by checkpoint or model, still oldest first: without these a rare checkpoint
    // walks most of a tenant's parked runs to fill one page. Only parked rows are in them.
    index('runs_tenant_checkpoint_parked_idx')
      .on(t.tenantId, sql`(${t.pendingReview} ->> 'checkpoint')`, t.parkedAt, t.id)
      .where(sql`${t.pendingReviewId} is not null`),
    index('runs_tenant_model_parked_idx').on(t.tenantId, t.model, t.parkedAt, t.id).where(sql`${t.pendingReviewId} is not null`),
    // Fewest pending: how many pending reviews each person of a team holds, counted at every auto-assignment.
    index('runs_tenant_assigned_idx').on(t.tenantId, t.assignedTo).where(sql`${t.pendingReviewId} is not null and ${t.assignedTo} is not null`),
    index('runs_review_expiry_idx').on(t.reviewExpiresAt).where(sql`${t.pendingReviewId} is not null`),
  ],
);

/**
 * The cold half of a run: its large documents (RunDocuments), one row per kind, each written by the move that
 * produced it. A kind without a row reads as its empty value (null, [] for issues, {} for a purged request), and
 * writing the empty value deletes the row (src/db/run-documents.ts).
 */
export const runDocuments = pgTable(
  'run_documents',
  {
    /**
     * The run's id, without a foreign key (as run_events): every row is written by a statement that selects the
     * run it belongs to (run-moves.ts), and the key's check would lock the run's row on every write.
     */
    runId: uuid().notNull(),
    kind: text().$type<RunDocumentKind>().notNull(),
    /** The stage visit (runs.attempt) whose move wrote this version; a later visit's move replaces it. */
    attempt: integer().notNull(),
    body: jsonb().$type<unknown>().notNull(),
    writtenAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.kind] }),
    check('run_documents_kind_check', sql`${t.kind} in ('request', 'bundle', 'candidate', 'issues', 'result')`),
  ],
);

export const runEvents = pgTable(
  'run_events',
  {
    id: bigserial({ mode: 'bigint' }).primaryKey(),
    /**
     * The run's id, without a foreign key: every event is inserted by a statement that selects the run it
     * belongs to (run-moves.ts), so the id exists by construction, and the key's per-row check was a
     * measurable share of every stage move (`npm run bench`). The trail is append-only and outlives the run.
     */
    runId: uuid().notNull(),
    tenantId: text().notNull(),
    type: text().$type<RunEventType>().notNull(),
    actor: text().notNull(),
    at: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    traceId: text().notNull(),
    threadId: text().notNull(),
  },
  (t) => [index('run_events_run_id_idx').on(t.runId, t.id)],
);

export type RunDocumentRow = typeof runDocuments.$inferSelect;

// The tables hold the engine's rows exactly (a drift in either fails to compile here).
export const runsHoldRunHotRow: SameShape<typeof runs.$inferSelect, RunHotRow> = true;
export const runsInsertTakesNewRunRow: SameShape<typeof runs.$inferInsert, Omit<NewRunRow, keyof RunDocuments>> = true;
export const runEventsHoldRunEventRow: SameShape<typeof runEvents.$inferSelect, RunEventRow> = true;
export const documentKindsMatch: SameShape<RunDocumentRow['kind'], RunDocumentKind> = true;
