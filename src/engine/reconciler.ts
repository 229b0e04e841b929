/**
 * The reconciler: PostgreSQL is the source of truth, the queues only carry work. It finds runs that should
 * have a job but do not (Redis restarted without persistence, a job failed for good while the database was
 * down, an enqueue lost to a crash) and gives them one again:
 *
 *   in-flight run, untouched for a while, no live stage job → a new visit of the same stage (attempt + 1)
 *   parked run whose review's expiry has no job             → its expiry is scheduled again
 *   parked run whose review's SLA step has no job           → the step is scheduled again (at once if overdue)
 *
 * Where the work is carried is a port (CarriedWork): BullMQ's queues (src/queue/queues.ts) or the embedded
 * runner (src/embedded/embedded-runner.ts), so both run this same pass. Safe on several workers at once: every requeue
 * is a compare-and-set on (status, attempt), so a run is requeued by at most one of them, and expiry jobs
 * have deterministic ids.
 */
import { commit } from './commit.ts';
import type { SlaStepJob, StageJob } from './dispatch.ts';
import type { Engine } from './engine.ts';
import { stepJobsOf } from './sla-timers.ts';

/** What the reconciler asks of whatever carries the work. */
export interface CarriedWork {
  /** Why a stage visit's job will not run ('unknown' when there is none, 'failed'...), or undefined while it will. */
  lostStageJob(job: StageJob): Promise<string | undefined>;
  /** Schedules the expiry of reviews due at `expiresAt` again when its job was lost; true when it was. */
  restoreExpiry(expiresAt: Date): Promise<boolean>;
  /** Schedules a review's SLA step again when its job was lost; true when it was. */
  restoreSlaStep(job: SlaStepJob): Promise<boolean>;
}

export interface ReconcileOptions {
  /** Runs changed more recently than this are left alone: their job may simply not have started yet. */
  graceMs?: number;
  /** At most this many runs per pass, oldest first; the next pass takes the rest. */
  batchSize?: number;
  /** Lost runs checked and requeued this many at a time (default {@link REQUEUE_CONCURRENCY}). */
  concurrency?: number;
}

/**
 * After Redis lost its data every in-flight run needs a requeue in the same pass, and one requeue is a few
 * round trips to Redis and PostgreSQL. One at a time, on a loaded machine (1.5 s each), 224 lost runs took six
 * minutes to come back and the expired notices waiting behind them as long; eight at a time overlaps the waits.
 */
export const REQUEUE_CONCURRENCY = 8;

export interface ReconcileResult {
  examined: number;
  requeued: number;
  /** Expiry jobs scheduled again (one covers every review due in the same few seconds). */
  expiriesRestored: number;
  /** SLA step jobs (remind, escalate) scheduled again. */
  slaStepsRestored: number;
}

export async function reconcile(engine: Engine, work: CarriedWork, options: ReconcileOptions = {}): Promise<ReconcileResult> {
  const graceMs = options.graceMs ?? 60_000;
  const limit = options.batchSize ?? 500;
  const idleSince = new Date(engine.clock.now().getTime() - graceMs);

  const stale = await engine.store.list({ kind: 'in_flight_idle', idleSince, limit });
  let requeued = 0;
  await eachAtMost(stale, options.concurrency ?? REQUEUE_CONCURRENCY, async (run) => {
    const lostJobState = await work.lostStageJob({ runId: run.id, stage: run.stage, attempt: run.attempt });
    if (lostJobState !== undefined && (await commit(engine, { kind: 'requeue', run, lostJobState }))) requeued++;
  });

  const parked = await engine.store.list({ kind: 'parked_idle', idleSince, limit });
  let expiriesRestored = 0;
  const deadlines = new Set(parked.flatMap((run) => (run.reviewExpiresAt ? [run.reviewExpiresAt.getTime()] : [])));
  // Reviews due close together share one job: the first restores it, the others find it live.
  for (const expiresAt of deadlines) if (await work.restoreExpiry(new Date(expiresAt))) expiriesRestored++;

  let slaStepsRestored = 0;
  for (const job of parked.flatMap(stepJobsOf)) if (await work.restoreSlaStep(job)) slaStepsRestored++;

  return { examined: stale.length + parked.length, requeued, expiriesRestored, slaStepsRestored };
}

/** Runs `task` over `items`, at most `limit` at once; a failure stops its lane, and is thrown once the others are done. */
async function eachAtMost<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await task(item);
    }
  });
  const failed = (await Promise.allSettled(lanes)).find((lane) => lane.status === 'rejected');
  if (failed) throw failed.reason;
}
