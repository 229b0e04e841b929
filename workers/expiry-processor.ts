/**
 * The BullMQ side of review expiry: one delayed job per expiry bucket (src/queue/queues.ts), run on time; and
 * of each review's SLA steps, one delayed job per review and step (src/engine/sla-steps.ts).
 */
import { DelayedError, type Job } from 'bullmq';
import type { Engine } from '../src/engine/engine.ts';
import { expireDueReviews } from '../src/engine/expiry.ts';
import { takeSlaStep, type SlaStepOutcome } from '../src/engine/sla-steps.ts';
import type { ExpiryJobData } from '../src/queue/queues.ts';

export async function processExpiryJob(engine: Engine, job: Job<ExpiryJobData>, token?: string): Promise<number | SlaStepOutcome> {
  const now = engine.clock.now().getTime();
  if ('step' in job.data) {
    const outcome = await takeSlaStep(engine, job.data);
    if (outcome !== 'not_due') return outcome;
    await job.moveToDelayed(Math.max(job.data.at, now + 1000), token);
    throw new DelayedError();
  }
  if (job.data.dueBy > now) {
    // Fired early (clocks disagree): wait for the rest, as the same job.
    await job.moveToDelayed(job.data.dueBy, token);
    throw new DelayedError();
  }
  return expireDueReviews(engine, new Date(Math.min(job.data.dueBy, now)));
}
