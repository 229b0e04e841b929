/**
 * The RunQueries port: the read side of runs that the channels and the review queue list from (runs by filter,
 * a scope's live runs, the pending-review queue, decided reviews). Read-only, paged by opaque cursors. The
 * PostgreSQL implementation is src/db/run-queries.ts; the composition roots inject it.
 */
import type { RunStatus } from '../generated/contracts.ts';
import type { DecisionRow, RunRow } from './run-rows.ts';

export interface RunFilters {
  status?: RunStatus[];
  userId?: string;
  sessionId?: string;
  model?: string;
  createdAfter?: Date;
  createdBefore?: Date;
  limit: number;
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  /** Pass back as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

export interface PendingFilters {
  checkpoint?: string;
  model?: string;
  /** Only reviews routed to this team (policy.team). */
  team?: string;
  /** Only reviews this actor holds a live claim on. */
  claimedBy?: string;
  /** Only reviews nobody holds a live claim on. */
  unclaimed?: boolean;
  /** Only reviews assigned to this reviewer (`rv_…`), or to nobody (`none`). */
  assignedTo?: string;
  /** Leave out the reviews this actor snoozed until a time still to come. */
  notSnoozedBy?: string;
  /** Only reviews waiting at least this long. */
  minAgeSeconds?: number;
  /** Only reviews waiting at most this long. */
  maxAgeSeconds?: number;
  limit: number;
  cursor?: string;
}

/** Pending reviews per checkpoint: how many, and when the oldest was raised (the queue's health at a glance). */
export interface CheckpointDepth {
  checkpoint: string;
  pending: number;
  oldestParkedAt: Date | null;
}

/** A decision with the run it was made on (what a decided review shows). */
export interface DecidedRow {
  decision: DecisionRow;
  run: { id: string; status: RunRow['status']; model: string | null; traceId: string; threadId: string };
}

export interface DecidedFilters {
  model?: string;
  since?: Date;
  limit: number;
  cursor?: string;
}

export interface RunQueries {
  list(tenantId: string, filters: RunFilters): Promise<Page<RunRow>>;
  listActive(tenantId: string, scope: { userId?: string; sessionId?: string }): Promise<RunRow[]>;
  listPendingReviews(tenantId: string, filters: PendingFilters, now: Date): Promise<Page<RunRow>>;
  countPendingReviews(tenantId: string, filters: Omit<PendingFilters, 'limit' | 'cursor'>, now: Date): Promise<number>;
  pendingByCheckpoint(tenantId: string): Promise<CheckpointDepth[]>;
  findByReviewId(tenantId: string, reviewId: string): Promise<RunRow | undefined>;
  /** Every decision on a review, oldest first. */
  decisionsOfReview(tenantId: string, reviewId: string): Promise<DecidedRow[]>;
  /** Decisions on the tenant's reviews, newest first. */
  listDecided(tenantId: string, filters: DecidedFilters): Promise<Page<DecidedRow>>;
  /** The schema key of each of these runs of the tenant (what an answer's masking needs to know). */
  schemaKeysOfRuns(tenantId: string, runIds: readonly string[]): Promise<{ schemaKey: string | null }[]>;
}
