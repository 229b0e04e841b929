/**
 * Expires the pending reviews of one expiry bucket: every run still awaiting a human whose review was due
 * by the bucket's time. Each expiry is a compare-and-set on that review's id, so a review decided a moment
 * earlier (or one that moved on) is left alone.
 */
import { DelayedError, type Job } from 'bullmq';
import { and, eq, isNotNull, lte } from 'drizzle-orm';
import { runs } from '../src/db/schema/index.ts';
import type { ExpiryJobData } from '../src/queue/queues.ts';
import { endRun } from '../src/services/run-transitions.ts';
import type { System } from '../src/system.ts';

/** Expired per pass; a bucket with more is processed again at once. */
const BATCH = 500;

export async function processExpiryJob(system: System, job: Job<ExpiryJobData>, token?: string): Promise<number> {
  const now = system.clock.now().getTime();
  if (job.data.dueBy > now) {
    // Fired early (clocks disagree): wait for the rest, as the same job.
    await job.moveToDelayed(job.data.dueBy, token);
    throw new DelayedError();
  }
  let expired = 0;
  for (;;) {
    const due = await system.database.db
      .select()
      .from(runs)
      .where(and(isNotNull(runs.pendingReviewId), eq(runs.status, 'awaiting_human'), lte(runs.reviewExpiresAt, new Date(Math.min(job.data.dueBy, now)))))
      .limit(BATCH);
    for (const run of due) {
      const moved = await endRun(
        system,
        run,
        'expired',
        { code: 'REVIEW_EXPIRED', message: `Review ${run.pendingReviewId} got no decision before ${run.reviewExpiresAt?.toISOString()}` },
        { from: ['awaiting_human'], guard: { pendingReviewId: run.pendingReviewId ?? '' }, actor: 'system:expiry' },
      );
      if (moved) expired++;
    }
    if (due.length < BATCH) return expired;
  }
}
