/**
 * The review queue as every channel reads it (the HTTP API, the MCP tools, the console): a page of pending
 * reviews (with the total when asked), one review whether pending or ended, and the queue's depth per
 * checkpoint. The rules live here once: `assignee=me` means the caller's own claims, a review of another
 * tenant is "not found", a review that ended is read from the decision that closed it.
 */
import { actorOf, type Principal } from '../auth/api-keys.ts';
import type { DecidedRow, PendingFilters, RunQueries } from '../engine/run-queries.ts';
import type { Engine } from '../engine/engine.ts';
import type { RunRow } from '../engine/store.ts';
import { VettedError } from '../errors.ts';
import type { PendingReview } from '../generated/contracts.ts';

/** What these reads need: the engine (store, clock) and the read-side run queries a System holds. */
export interface ReviewReader extends Engine {
  readonly runQueries: RunQueries;
}

export type Checkpoint = PendingReview['checkpoint'];

/** Every checkpoint, in the pipeline's order (a Record over the union, so a new one cannot be missed). */
const CHECKPOINT_ORDER: Record<Checkpoint, number> = { information_review: 0, payload_review: 1, response_review: 2, error_recovery: 3 };
export const CHECKPOINTS = (Object.keys(CHECKPOINT_ORDER) as Checkpoint[]).sort((a, b) => CHECKPOINT_ORDER[a] - CHECKPOINT_ORDER[b]);

export interface PendingQuery extends Omit<PendingFilters, 'claimedBy' | 'assignedTo' | 'notSnoozedBy'> {
  /** `me` (the caller's live claims) or an actor id. */
  assignee?: string;
  /** `me` (reviews assigned to the caller's person), `none` (unassigned) or a reviewer id. */
  assignedTo?: string;
  /** Also list the reviews the caller snoozed (left out by default). */
  includeSnoozed?: boolean;
  /** Also count every review the filters find (one more query; the MCP tool reports it). */
  withTotal?: boolean;
}

export interface PendingPage {
  items: RunRow[];
  nextCursor: string | null;
  /** Every pending review the filters find, when asked for (`withTotal`). */
  total?: number;
}

/** The caller's tenant's pending reviews, oldest first. */
export async function listPendingReviews(reader: ReviewReader, caller: Principal, query: PendingQuery): Promise<PendingPage> {
  const { assignee, assignedTo, includeSnoozed, withTotal, ...rest } = query;
  const claimedBy = assignee === undefined ? undefined : assignee === 'me' ? actorOf(caller) : assignee;
  const filters = { ...rest, claimedBy, assignedTo: assignedToFilter(caller, assignedTo), notSnoozedBy: includeSnoozed ? undefined : actorOf(caller) };
  const now = reader.clock.now();
  const page = await reader.runQueries.listPendingReviews(caller.tenantId, filters, now);
  if (!withTotal) return page;
  // The first page holding everything needs no second query.
  const total = !query.cursor && page.nextCursor === null ? page.items.length : await reader.runQueries.countPendingReviews(caller.tenantId, filters, now);
  return { ...page, total };
}

/** `me` is the caller's person; a key that is no one's has no reviews assigned to it. */
function assignedToFilter(caller: Principal, assignedTo: string | undefined): string | undefined {
  if (assignedTo !== 'me') return assignedTo;
  if (!caller.reviewer) throw new VettedError('INVALID_REQUEST', "assignedTo=me needs a person's key (vetted keys create --reviewer rv_…)", { field: 'assignedTo' });
  return caller.reviewer.id;
}

/** pending, or how the review ended. */
export type ReviewState = 'pending' | 'decided' | 'expired' | 'cancelled';

export interface ReviewRecord {
  state: ReviewState;
  /** The review as it is (pending) or as it stood when it ended. */
  review: PendingReview;
  /** The run it belongs to, as it stands now. */
  run: RunRow;
  /** Every decision on the review, oldest first (empty while pending, unless a quorum or a re-ask is under way). */
  decisions: DecidedRow[];
  /** A live claim on a pending review. */
  claim: { claimedBy: string; claimExpiresAt: Date } | null;
}

/** One review, pending or ended. @throws VettedError REVIEW_NOT_FOUND (also for another tenant's review) */
export async function getReview(reader: ReviewReader, tenantId: string, reviewId: string): Promise<ReviewRecord> {
  const pending = await reader.runQueries.findByReviewId(tenantId, reviewId);
  const decisions = await reader.runQueries.decisionsOfReview(tenantId, reviewId);
  if (pending?.pendingReview) {
    return { state: 'pending', review: pending.pendingReview, run: pending, decisions, claim: liveClaim(pending, reader.clock.now()) };
  }
  const closing = decisions.at(-1);
  const review = closing?.decision.review;
  const run = closing ? await reader.store.get(closing.run.id, tenantId) : undefined;
  if (!closing || !review || !run) throw new VettedError('REVIEW_NOT_FOUND', `No review ${reviewId}`, { field: 'reviewId' });
  return { state: endedAs(closing.decision.action), review, run, decisions, claim: null };
}

/**
 * The run a review belongs to, pending or not, so a decision or a reply can name the review alone (the MCP
 * tools do). @throws VettedError REVIEW_NOT_FOUND
 */
export async function runIdOfReview(reader: ReviewReader, tenantId: string, reviewId: string): Promise<string> {
  const pending = await reader.runQueries.findByReviewId(tenantId, reviewId);
  if (pending) return pending.id;
  const closing = (await reader.runQueries.decisionsOfReview(tenantId, reviewId)).at(-1);
  if (!closing) throw new VettedError('REVIEW_NOT_FOUND', `No review ${reviewId}`, { field: 'reviewId' });
  return closing.run.id;
}

/** How a review ended, from the action of the decision that closed it. */
function endedAs(action: string): Exclude<ReviewState, 'pending'> {
  if (action === 'expire') return 'expired';
  if (action === 'cancel') return 'cancelled';
  return 'decided';
}

function liveClaim(run: RunRow, now: Date): ReviewRecord['claim'] {
  return run.claimedBy && run.claimExpiresAt && run.claimExpiresAt >= now ? { claimedBy: run.claimedBy, claimExpiresAt: run.claimExpiresAt } : null;
}

export interface DepthStats {
  pending: number;
  /** Seconds the oldest pending review has waited; null when none waits. */
  oldestAgeSeconds: number | null;
}

export interface QueueStats extends DepthStats {
  /** Every checkpoint, with zeros where nothing waits. */
  byCheckpoint: Record<Checkpoint, DepthStats>;
}

/** The tenant's queue at a glance: how many reviews wait, the oldest wait, per checkpoint. */
export async function queueStats(reader: ReviewReader, tenantId: string): Promise<QueueStats> {
  const now = reader.clock.now().getTime();
  const rows = await reader.runQueries.pendingByCheckpoint(tenantId);
  const age = (at: Date | null) => (at === null ? null : Math.max(0, Math.floor((now - at.getTime()) / 1000)));
  const byCheckpoint = Object.fromEntries(CHECKPOINTS.map((checkpoint) => [checkpoint, { pending: 0, oldestAgeSeconds: null }])) as Record<Checkpoint, DepthStats>;
  let oldest: Date | null = null;
  for (const row of rows) {
    if (!Object.hasOwn(CHECKPOINT_ORDER, row.checkpoint)) continue;
    byCheckpoint[row.checkpoint as Checkpoint] = { pending: row.pending, oldestAgeSeconds: age(row.oldestParkedAt) };
    if (row.oldestParkedAt && (!oldest || row.oldestParkedAt < oldest)) oldest = row.oldestParkedAt;
  }
  const pending = rows.reduce((sum, row) => sum + row.pending, 0);
  return { pending, oldestAgeSeconds: age(oldest), byCheckpoint };
}
