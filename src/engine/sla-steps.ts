/**
 * A review's SLA steps (policy.sla: remind, then escalate) on durable timers, the way expiry is done: each
 * step is one delayed job (BullMQ) or keyed timer (the embedded runner) per review and step, scheduled when the
 * review is raised (commit.ts), scheduled again by the reconciler when its job was lost, and taken here as a
 * move. The move is a compare-and-set on the review as read, so a decision (or the other step) that came first
 * makes the timer a no-op.
 */
import { isDue, pendingSteps } from '../review-model/sla.ts';
import { commit } from './commit.ts';
import type { SlaStepJob } from './dispatch.ts';
import type { Engine } from './engine.ts';

/** What a step job came to (logs and tests). */
export type SlaStepOutcome = 'taken' | 'not_due' | 'gone';

/**
 * Takes the review's step if it is still the run's pending review and the step is still to come.
 * `not_due`: the job fired before its time (clocks disagree); the caller waits for the rest.
 */
export async function takeSlaStep(engine: Engine, job: Pick<SlaStepJob, 'runId' | 'reviewId' | 'step'>): Promise<SlaStepOutcome> {
  // Read again on a miss: a claim or a quorum approval may have changed the review a moment before.
  for (let tries = 0; tries < 3; tries++) {
    const run = await engine.store.get(job.runId);
    const review = run?.status === 'awaiting_human' && run.pendingReviewId === job.reviewId ? run.pendingReview : null;
    if (!run || !review || !pendingSteps(review).some((due) => due.step === job.step)) return 'gone';
    if (!isDue(review, job.step, engine.clock.now())) return 'not_due';
    if (await commit(engine, { kind: job.step, run })) return 'taken';
  }
  return 'gone';
}
