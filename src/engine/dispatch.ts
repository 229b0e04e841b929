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
  event: NotifiedEvent;
}

/**
 * What people are told: the events a tenant's settings choose from, and the SLA steps, which the run's policy
 * asked for (src/review-model/sla.ts).
 */
export type NotifiedEvent = 'waiting' | 'expiring' | 'expired' | 'reminded' | 'escalated';

/** One SLA step of one review (remind, escalate), due at `at`: one delayed job (or timer) per review and step. */
export interface SlaStepJob {
  runId: string;
  reviewId: string;
  step: 'remind' | 'escalate';
  /** Epoch milliseconds. */
  at: number;
}

export interface Dispatch {
  /** Adds the job for a run's stage visit (idempotent per visit). */
  enqueueStage(job: StageJob): Promise<void>;
  /** Makes sure reviews due at `expiresAt` will be expired then (idempotent). */
  scheduleExpiry(expiresAt: Date): Promise<void>;
  /** Makes sure the review's SLA step will be taken at its time (idempotent per review and step). */
  scheduleSlaStep(job: SlaStepJob): Promise<void>;
  enqueueWebhook(job: WebhookJob): Promise<void>;
  /**
   * Queues a notification (idempotent per subject and event while the job exists; the delivery ledger makes it
   * once for good). Tenants without notification settings cost nothing: no job is added for them. With `at`,
   * the job waits until then ("nears expiry").
   */
  enqueueNotification(job: NotificationJob, at?: Date): Promise<void>;
  /**
   * Drops a notification that has not gone out yet (a decided review's "nears expiry" warning): it would find the
   * review decided and do nothing, but it would hold its keys in Redis until its time. Nothing queued is no error.
   */
  withdrawNotification(job: NotificationJob): Promise<void>;
}
