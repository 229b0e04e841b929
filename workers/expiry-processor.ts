/** The BullMQ side of review expiry: one delayed job per expiry bucket (src/queue/queues.ts), run on time. */
import { DelayedError, type Job } from 'bullmq';
import type { Engine } from '../src/engine/engine.ts';
import { expireDueReviews } from '../src/engine/expiry.ts';
import type { ExpiryJobData } from '../src/queue/queues.ts';

export async function processExpiryJob(engine: Engine, job: Job<ExpiryJobData>, token?: string): Promise<number> {
  const now = engine.clock.now().getTime();
  if (job.data.dueBy > now) {
    // Fired early (clocks disagree): wait for the rest, as the same job.
    await job.moveToDelayed(job.data.dueBy, token);
    throw new DelayedError();
  }
  return expireDueReviews(engine, new Date(Math.min(job.data.dueBy, now)));
}
