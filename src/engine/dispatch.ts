/**
 * The Dispatch port: how the engine hands out work after a commit. BullMQ implements it in production
 * (src/queue/queues.ts); the in-process runner keeps its own list (in-process.ts). Job data holds ids only:
 * all run state lives in the RunStore.
 */
import type { StageName } from '../generated/contracts.ts';

/** A stage job: which run, which stage, and which visit of that stage (runs.attempt). */
export interface StageJob {
  runId: string;
  stage: StageName;
  /**
   * The run's `attempt` when the job was enqueued. It grows each time the run enters a stage, so a job left
   * over from an earlier visit recognises itself as stale. BullMQ's own attemptsMade counts retries.
   */
  attempt: number;
}

/** Deliver one run event to the run's callback URL. */
export interface WebhookJob {
  runId: string;
  /** run_events.id as a string (job data is JSON). */
  eventId: string;
}

export interface Dispatch {
  /** Adds the job for a run's stage visit (idempotent per visit). */
  enqueueStage(job: StageJob): Promise<void>;
  /** Makes sure reviews due at `expiresAt` will be expired then (idempotent). */
  scheduleExpiry(expiresAt: Date): Promise<void>;
  enqueueWebhook(job: WebhookJob): Promise<void>;
}
