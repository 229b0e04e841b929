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

/**
 * Tell people that a review or a task waits, nears its expiry or expired (src/notifications). Ids only; the
 * notification worker reads the tenant's channels and the subject when it runs.
 */
export interface NotificationJob {
  tenantId: string;
  subject: 'review' | 'task';
  /** The review id or the task id. */
  subjectId: string;
  /** The run a review belongs to. */
  runId?: string;
  event: 'waiting' | 'expiring' | 'expired';
}

export interface Dispatch {
  /** Adds the job for a run's stage visit (idempotent per visit). */
  enqueueStage(job: StageJob): Promise<void>;
  /** Makes sure reviews due at `expiresAt` will be expired then (idempotent). */
  scheduleExpiry(expiresAt: Date): Promise<void>;
  enqueueWebhook(job: WebhookJob): Promise<void>;
  /**
   * Queues a notification (idempotent per subject and event while the job exists; the delivery ledger makes it
   * once for good). Tenants without notification settings cost nothing: no job is added for them.
   */
  enqueueNotification(job: NotificationJob): Promise<void>;
}

/**
 * What the reconciler asks the dispatch about the jobs it holds: PostgreSQL says which work should exist, the
 * dispatch says whether its job still does. BullMQ answers in production (src/queue/queues.ts).
 */
export interface JobInspection {
  /** The state of a stage visit's job ('waiting', 'active', 'delayed', ...), 'unknown' when there is none. */
  stageJobState(job: StageJob): Promise<string>;
  /** The state of the expiry job of the bucket due at `dueBy` (ms, {@link expiryBucket}), 'unknown' when there is none. */
  expiryJobState(dueBy: number): Promise<string>;
  /** Drops the bucket's expiry job, if any (a failed one keeps its id and would block scheduling it again). */
  removeExpiryJob(dueBy: number): Promise<void>;
}

/** Reviews expire at the end of the bucket that holds their deadline: at most this late. */
export const EXPIRY_BUCKET_MS = 5000;

/** The end of the bucket that holds `expiresAt`: one expiry job covers every review due in it. */
export function expiryBucket(expiresAt: Date, bucketMs = EXPIRY_BUCKET_MS): number {
  return Math.ceil(expiresAt.getTime() / bucketMs) * bucketMs;
}
