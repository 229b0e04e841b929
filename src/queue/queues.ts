/**
 * Every BullMQ queue Vetted uses, in one module: names, job data, default options and the key prefix.
 * No other file calls `new Queue(`. Job data holds ids only; all run state lives in PostgreSQL.
 */
import { Queue, type JobsOptions, type Telemetry } from 'bullmq';
import { Redis, type RedisOptions as IORedisOptions } from 'ioredis';
import type { Dispatch, NotificationJob, SlaStepJob, StageJob, WebhookJob } from '../engine/dispatch.ts';
import { slaStepJobId } from '../engine/sla-timers.ts';
import type { CarriedWork } from '../engine/reconciler.ts';
import { STAGES, stageNamed, type StageName } from '../engine/stages.ts';
import { VettedError } from '../errors.ts';
import type { ShadowJob } from '../shadow/shadow-rows.ts';
import { parseRedisUrl, type RedisTarget } from '../redis-url.ts';
import { createRedisClient, redisOptionsFromUrl, type RedisClient } from './redis-target.ts';

export { redisOptionsFromUrl };

/** A stage job (src/engine/dispatch.ts): which run, which stage, which visit. */
export type StageJobData = StageJob;

/**
 * Expire the pending reviews whose time is up: a delayed job per expiry *bucket* (all reviews due by
 * `dueBy`), not a poller and not a job per review, so a parked run costs Redis nothing of its own.
 */
export interface ExpiryBucketJobData {
  /** Epoch milliseconds: the job expires every pending review due by then. */
  dueBy: number;
}

/**
 * The expiry queue also carries each review's SLA steps (remind, escalate): a delayed job per review and step
 * (src/engine/sla-timers.ts), which few reviews have, so a parked run without an SLA still costs Redis nothing.
 */
export type ExpiryJobData = ExpiryBucketJobData | SlaStepJob;

/** POST one run event to the run's callback URL. */
export type WebhookJobData = WebhookJob;

/** Tell the tenant's channels about a review or task (src/notifications). */
export type NotificationJobData = NotificationJob;

/** Periodic housekeeping, produced by BullMQ job schedulers: the reconciler, and the retention purge. */
export interface MaintenanceJobData {
  task: 'reconcile' | 'purge';
}

/**
 * Shadow one build: the legacy V2 builder beside the run's V3 candidate. `attempt` is the run's build-stage
 * visit (runs.attempt) whose candidate is compared, so a retried or repeated job finds the same report.
 */
export type ShadowJobData = ShadowJob;

export const EXPIRY_QUEUE_NAME = 'vetted-expiry';
export const SHADOW_QUEUE_NAME = 'vetted-shadow';
export const MAINTENANCE_QUEUE_NAME = 'vetted-maintenance';
export const WEBHOOK_QUEUE_NAME = 'vetted-webhooks';
export const NOTIFICATION_QUEUE_NAME = 'vetted-notifications';

const EXPIRY_JOB_OPTIONS: JobsOptions = { attempts: 10, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: true, removeOnFail: { age: 7 * 24 * 3600, count: 1000 } };
// A receiver that is down for a while still gets the event: 10 tries over about 17 minutes.
const WEBHOOK_JOB_OPTIONS: JobsOptions = { attempts: 10, backoff: { type: 'exponential', delay: 2000 }, removeOnComplete: true, removeOnFail: { age: 7 * 24 * 3600, count: 1000 } };
// A channel that is down for a while still hears: 8 tries over about 4 minutes (the ledger keeps each channel to one send).
const NOTIFICATION_JOB_OPTIONS: JobsOptions = { attempts: 8, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: true, removeOnFail: { age: 7 * 24 * 3600, count: 1000 } };
// Shadow reports are evidence, not work anyone waits for: a few tries for a database blip, then let it go.
const SHADOW_JOB_OPTIONS: JobsOptions = { attempts: 3, backoff: { type: 'exponential', delay: 2000 }, removeOnComplete: true, removeOnFail: { age: 7 * 24 * 3600, count: 1000 } };

/**
 * Redis must not grow with history: PostgreSQL has the history. Completed jobs go at once (a parked run
 * leaves nothing behind); failed ones are kept a week, at most 1,000 per queue, for debugging.
 */
const RETENTION: JobsOptions = {
  removeOnComplete: true,
  removeOnFail: { age: 7 * 24 * 3600, count: 1000 },
};

/** A stage's job options: its attempts and backoff from the stage table, and the retention above. */
export function stageJobOptions(stage: StageName): JobsOptions {
  const { attempts, backoff } = stageNamed(stage).queue;
  return { ...RETENTION, attempts, backoff };
}

/** The stage's queue name, from the stage table, as BullMQ knows it on `target` (one server unless said). */
export function stageQueueName(stage: StageName, target?: RedisTarget): string {
  const name = stageNamed(stage).queue.name;
  return target ? bullQueueName(name, target) : name;
}

/** Deterministic job id: enqueueing the same visit twice is a no-op while the first job exists. */
export function stageJobId(data: StageJobData): string {
  return `${data.runId}.${data.stage}.${data.attempt}`;
}

/**
 * A connection to one Redis server from its URL (benchmarks and tests that look at keys; one server only).
 * The queues connect through createRedisClient, which also speaks Redis Cluster.
 */
export function createRedisConnection(redisUrl: string, options: IORedisOptions = {}): Redis {
  if (parseRedisUrl(redisUrl).mode === 'cluster') {
    throw new VettedError('CONFIG_INVALID', 'REDIS_URL names a Redis Cluster, and this tool looks at the keys of one Redis server: point it at one', { field: 'REDIS_URL' });
  }
  return new Redis({ ...(redisOptionsFromUrl(redisUrl) as IORedisOptions), ...options });
}

/**
 * The BullMQ name of a queue. BullMQ keys are `<prefix>:<name>:<suffix>` and one Lua script touches several
 * keys of a queue, which a Redis Cluster allows only when they hash to one slot. On a cluster the name is
 * therefore a hash tag (`{vetted-extract}`): every key of a queue hashes by its name alone, so a queue lives in
 * one slot and the queues spread over the nodes. On one server the name is as it always was (`vetted-extract`),
 * so an upgrade finds the jobs it left behind.
 */
export function bullQueueName(name: string, target: RedisTarget): string {
  return target.mode === 'cluster' ? `{${name}}` : name;
}

export interface QueueSet extends Dispatch, CarriedWork {
  readonly prefix: string;
  /** Where the queues are; workers connect to the same place. */
  readonly target: RedisTarget;
  /** One server's connection, or a Redis Cluster's (then every queue name is a hash tag: bullQueueName). */
  readonly connection: RedisClient;
  readonly stages: Readonly<Record<StageName, Queue<StageJobData>>>;
  readonly expiry: Queue<ExpiryJobData>;
  readonly webhooks: Queue<WebhookJobData>;
  readonly maintenance: Queue<MaintenanceJobData>;
  readonly shadow: Queue<ShadowJobData>;
  readonly notifications: Queue<NotificationJobData>;
  /** Adds the job for a run's current stage visit (idempotent by job id). */
  enqueueStage(data: StageJobData): Promise<void>;
  /**
   * Makes sure the bucket that covers `expiresAt` has its delayed job (idempotent: one job per bucket,
   * whatever the number of reviews in it).
   */
  scheduleExpiry(expiresAt: Date): Promise<void>;
  /** Adds the delayed job of one review's SLA step (idempotent: one job per review and step). */
  scheduleSlaStep(job: SlaStepJob): Promise<void>;
  enqueueWebhook(data: WebhookJobData): Promise<void>;
  /** Adds a notification job now, or at `at` (a delayed job: "nears expiry"); one job per subject and event. */
  enqueueNotification(data: NotificationJobData, at?: Date): Promise<void>;
  /** Removes the subject's job for that event unless a worker holds it right now. */
  withdrawNotification(data: NotificationJobData): Promise<void>;
  /** Asks for a shadow report of one build (idempotent per run and build visit while the job exists). */
  enqueueShadow(data: ShadowJobData): Promise<void>;
  close(): Promise<void>;
}

/** Job states that mean "the work is in Redis and will happen". */
const LIVE_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/** Reviews expire at the end of the bucket that holds their deadline: at most this late. */
export const EXPIRY_BUCKET_MS = 5000;

export function expiryBucket(expiresAt: Date, bucketMs = EXPIRY_BUCKET_MS): number {
  return Math.ceil(expiresAt.getTime() / bucketMs) * bucketMs;
}

/** One job per subject and event while it exists (BullMQ ids may not hold ':'). */
export function notificationJobId(data: NotificationJobData): string {
  return `notify.${data.subject}.${data.subjectId}.${data.event}`;
}

export function expiryJobId(dueBy: number): string {
  return `expire.${dueBy}`;
}

/**
 * Opens one producer per stage queue on a shared connection. `onError` hears the connection's errors (one per
 * reconnect attempt while Redis is away); without a listener, each queue would print every one. `telemetry`
 * (bullmq-otel, when tracing is on) puts the adding span's context into each job, so the worker that takes
 * it continues the same trace.
 */
export function createQueues(target: RedisTarget, prefix: string, onError: (error: unknown) => void = () => undefined, telemetry?: Telemetry): QueueSet {
  const connection = createRedisClient(target);
  const named = (name: string) => bullQueueName(name, target);
  const traced = telemetry ? { telemetry } : {};
  connection.on('error', onError);
  const stages = Object.fromEntries(
    STAGES.map((stage) => [stage.name, new Queue<StageJobData>(named(stage.queue.name), { connection, prefix, ...traced, defaultJobOptions: stageJobOptions(stage.name) })]),
  ) as Record<StageName, Queue<StageJobData>>;
  const expiry = new Queue<ExpiryJobData>(named(EXPIRY_QUEUE_NAME), { connection, prefix, defaultJobOptions: EXPIRY_JOB_OPTIONS });
  const webhooks = new Queue<WebhookJobData>(named(WEBHOOK_QUEUE_NAME), { connection, prefix, ...traced, defaultJobOptions: WEBHOOK_JOB_OPTIONS });
  const maintenance = new Queue<MaintenanceJobData>(named(MAINTENANCE_QUEUE_NAME), {
    connection,
    prefix,
    defaultJobOptions: { attempts: 1, removeOnComplete: true, removeOnFail: { count: 100 } },
  });
  const shadow = new Queue<ShadowJobData>(named(SHADOW_QUEUE_NAME), { connection, prefix, ...traced, defaultJobOptions: SHADOW_JOB_OPTIONS });
  const notifications = new Queue<NotificationJobData>(named(NOTIFICATION_QUEUE_NAME), { connection, prefix, ...traced, defaultJobOptions: NOTIFICATION_JOB_OPTIONS });
  const all = [...Object.values(stages), expiry, webhooks, maintenance, shadow, notifications];
  for (const queue of all) queue.on('error', onError);

  async function scheduleExpiry(expiresAt: Date): Promise<void> {
    const dueBy = expiryBucket(expiresAt);
    await expiry.add('expire', { dueBy }, { jobId: expiryJobId(dueBy), delay: Math.max(0, dueBy - Date.now()) });
  }

  async function scheduleSlaStep(job: SlaStepJob): Promise<void> {
    await expiry.add(job.step, job, { jobId: slaStepJobId(job), delay: Math.max(0, job.at - Date.now()) });
  }

  return {
    prefix,
    target,
    connection,
    stages,
    expiry,
    webhooks,
    maintenance,
    shadow,
    notifications,
    async enqueueStage(data) {
      await stages[data.stage].add(data.stage, data, { jobId: stageJobId(data) });
    },
    scheduleExpiry,
    scheduleSlaStep,
    async enqueueWebhook(data) {
      await webhooks.add('deliver', data, { jobId: `hook.${data.runId}.${data.eventId}` });
    },
    async enqueueNotification(data, at) {
      await notifications.add(data.event, data, { jobId: notificationJobId(data), ...(at ? { delay: Math.max(0, at.getTime() - Date.now()) } : {}) });
    },
    async withdrawNotification(data) {
      // A job a worker holds is not removed (BullMQ answers 0): it is being sent, or finds the review decided.
      await notifications.remove(notificationJobId(data));
    },
    async enqueueShadow(data) {
      await shadow.add('shadow', data, { jobId: `shadow.${data.runId}.${data.attempt}` });
    },
    async lostStageJob(job) {
      const state = await stages[job.stage].getJobState(stageJobId(job));
      return LIVE_STATES.has(state) ? undefined : state;
    },
    async restoreExpiry(expiresAt) {
      const dueBy = expiryBucket(expiresAt);
      if (LIVE_STATES.has(await expiry.getJobState(expiryJobId(dueBy)))) return false;
      // A failed job keeps its id: it goes first, so the bucket's job can be added again.
      await expiry.remove(expiryJobId(dueBy)).catch(() => undefined);
      await scheduleExpiry(expiresAt);
      return true;
    },
    async restoreSlaStep(job) {
      if (LIVE_STATES.has(await expiry.getJobState(slaStepJobId(job)))) return false;
      // A job that failed for good, or completed early and was removed, keeps or frees its id: clear it first.
      await expiry.remove(slaStepJobId(job)).catch(() => undefined);
      await scheduleSlaStep(job);
      return true;
    },
    async close() {
      await Promise.all(all.map((queue) => queue.close()));
      // QUIT waits in the offline queue for a connection that may never come back: only a ready one is asked.
      if (connection.status === 'ready') await connection.quit().catch(() => connection.disconnect());
      else connection.disconnect();
    },
  };
}
