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
import { commit } from './commit.ts';
import { expiryBucket, type Dispatch, type JobInspection } from './dispatch.ts';
import type { Engine } from './engine.ts';
import type { RunRow } from './store.ts';

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

/** The dispatch that holds the jobs (BullMQ's queues): it answers about them and schedules expiries again. */
export type ReconciledDispatch = JobInspection & Pick<Dispatch, 'scheduleExpiry'>;

export async function reconcile(engine: Engine, queues: ReconciledDispatch, options: ReconcileOptions = {}): Promise<ReconcileResult> {
  const graceMs = options.graceMs ?? 60_000;
  const limit = options.batchSize ?? 500;
  const idleSince = new Date(engine.clock.now().getTime() - graceMs);

  const stale = await engine.store.list({ kind: 'in_flight_idle', idleSince, limit });
  let requeued = 0;
  for (const run of stale) if (await requeueIfLost(engine, queues, run)) requeued++;

  const parked = await engine.store.list({ kind: 'parked_idle', idleSince, limit });
  let expiriesRestored = 0;
  const buckets = new Set(parked.filter((run) => run.reviewExpiresAt).map((run) => expiryBucket(run.reviewExpiresAt as Date)));
  for (const dueBy of buckets) if (await restoreExpiry(queues, dueBy)) expiriesRestored++;

  return { examined: stale.length + parked.length, requeued, expiriesRestored };
}

async function requeueIfLost(engine: Engine, queues: ReconciledDispatch, run: RunRow): Promise<boolean> {
  const state = await queues.stageJobState({ runId: run.id, stage: run.stage, attempt: run.attempt });
  if (LIVE_STATES.has(state)) return false;
  return Boolean(await commit(engine, { kind: 'requeue', run, lostJobState: state }));
}

/** Re-creates an expiry bucket's job when Redis lost it (or it failed for good). */
async function restoreExpiry(queues: ReconciledDispatch, dueBy: number): Promise<boolean> {
  const state = await queues.expiryJobState(dueBy);
  if (LIVE_STATES.has(state)) return false;
  await queues.removeExpiryJob(dueBy).catch(() => undefined);
  await queues.scheduleExpiry(new Date(dueBy));
  return true;
}
