/**
 * The timers of a review's SLA steps: which jobs a parked run's pending review still needs, and their ids
 * (one per review and step, so scheduling again is a no-op while the job exists). sla-steps.ts takes them.
 */
import { pendingSteps, type SlaStep } from '../review-model/sla.ts';
import type { Dispatch, SlaStepJob } from './dispatch.ts';
import type { RunRow } from './store.ts';

/** The step jobs a parked run's pending review still has to come (none without an SLA). */
export function stepJobsOf(run: RunRow): SlaStepJob[] {
  const review = run.pendingReview;
  if (!review || run.status !== 'awaiting_human') return [];
  return pendingSteps(review).map((due) => ({ runId: run.id, reviewId: review.reviewId, step: due.step, at: due.at.getTime() }));
}

/** Schedules every step the run's pending review still has to come. */
export async function scheduleSlaSteps(dispatch: Pick<Dispatch, 'scheduleSlaStep'>, run: RunRow): Promise<void> {
  for (const job of stepJobsOf(run)) await dispatch.scheduleSlaStep(job);
}

/** BullMQ job ids may not hold ':'. */
export function slaStepJobId(job: { reviewId: string; step: SlaStep }): string {
  return `sla.${job.reviewId}.${job.step}`;
}
