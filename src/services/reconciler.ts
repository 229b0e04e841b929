/**
 * The reconciler: PostgreSQL is the source of truth, Redis only carries work. It finds runs that should
 * have a job in Redis but do not (Redis restarted without persistence, a job failed for good while the
 * database was down, an enqueue lost to a crash) and gives them one again:
 *
 *   in-flight run, untouched for a while, no live stage job → a new visit of the same stage (attempt + 1)
 *   parked run whose review's expiry bucket has no job      → the bucket's job is scheduled again
 *
 * Safe on several workers at once: every requeue is a compare-and-set on (status, attempt), so a run is
 * requeued by at most one of them, and expiry jobs have deterministic ids.
 */
import { and, eq, inArray, isNotNull, isNull, lt } from 'drizzle-orm';
import { runs, type RunRow } from '../db/schema/index.ts';
import { IN_FLIGHT_STATUSES } from '../run-states.ts';
import { expiryBucket, expiryJobId, stageJobId } from '../queue/queues.ts';
import type { System } from '../system.ts';
import { logEvent } from '../observability/logger.ts';
import { advanceToStage, logContext } from './run-transitions.ts';

export interface ReconcileOptions {
  /** Runs changed more recently than this are left alone: their job may simply not have started yet. */
  graceMs?: number;
  /** At most this many runs per pass, oldest first; the next pass takes the rest. */
  batchSize?: number;
}

export interface ReconcileResult {
  examined: number;
  requeued: number;
  /** Expiry bucket jobs scheduled again (one bucket covers many reviews). */
  expiriesRestored: number;
}

/** Job states that mean "the work is in Redis and will happen". */
const LIVE_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

export async function reconcile(system: System, options: ReconcileOptions = {}): Promise<ReconcileResult> {
  const graceMs = options.graceMs ?? 60_000;
  const batchSize = options.batchSize ?? 500;
  const cutoff = new Date(system.clock.now().getTime() - graceMs);
  const db = system.database.db;

  const stale = await db
    .select()
    .from(runs)
    // completed_at and pending_review_id null: the predicate of runs_unfinished_idx, so only unfinished runs
    // are visited (no index covers status or updated_at: see the runs table).
    .where(and(isNull(runs.completedAt), isNull(runs.pendingReviewId), inArray(runs.status, [...IN_FLIGHT_STATUSES]), lt(runs.updatedAt, cutoff)))
    .orderBy(runs.updatedAt)
    .limit(batchSize);
  let requeued = 0;
  for (const run of stale) if (await requeueIfLost(system, run)) requeued++;

  const parked = await db
    .select()
    .from(runs)
    .where(and(isNotNull(runs.pendingReviewId), eq(runs.status, 'awaiting_human'), lt(runs.updatedAt, cutoff)))
    // Soonest due first (runs_review_expiry_idx): when Redis lost every bucket, those are the ones needed
    // first, and the later ones come back in later passes.
    .orderBy(runs.reviewExpiresAt)
    .limit(batchSize);
  let expiriesRestored = 0;
  const buckets = new Set(parked.filter((run) => run.reviewExpiresAt).map((run) => expiryBucket(run.reviewExpiresAt as Date)));
  for (const dueBy of buckets) if (await restoreExpiry(system, dueBy)) expiriesRestored++;

  return { examined: stale.length + parked.length, requeued, expiriesRestored };
}

async function requeueIfLost(system: System, run: RunRow): Promise<boolean> {
  const state = await system.queues.stages[run.stage].getJobState(stageJobId({ runId: run.id, stage: run.stage, attempt: run.attempt }));
  if (LIVE_STATES.has(state)) return false;
  const moved = await advanceToStage(
    system,
    run,
    run.stage,
    { from: [run.status], guard: { attempt: run.attempt }, actor: 'system:reconciler' },
    { eventType: 'run.requeued', data: { lostJobState: state, attempt: run.attempt } },
  );
  if (moved) logEvent(system.logger, 'RUN_REQUEUED', logContext(run), { stage: run.stage, lostJobState: state }, 'warn');
  return Boolean(moved);
}

/** Re-creates an expiry bucket's job when Redis lost it (or it failed for good). */
async function restoreExpiry(system: System, dueBy: number): Promise<boolean> {
  const state = await system.queues.expiry.getJobState(expiryJobId(dueBy));
  if (LIVE_STATES.has(state)) return false;
  await system.queues.expiry.remove(expiryJobId(dueBy)).catch(() => undefined);
  await system.queues.scheduleExpiry(new Date(dueBy));
  return true;
}
