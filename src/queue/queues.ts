/**
 * Every BullMQ queue Vetted uses, in one module: names, job data, default options and the key prefix.
 * No other file calls `new Queue(`. Job data holds ids only; all run state lives in PostgreSQL.
 */
import { Queue, type JobsOptions, type RedisOptions, type Telemetry } from 'bullmq';
import { Redis, type RedisOptions as IORedisOptions } from 'ioredis';
import type { Dispatch, NotificationJob, StageJob, WebhookJob } from '../engine/dispatch.ts';
import { STAGES, stageNamed, type StageName } from '../engine/stages.ts';

/** A stage job (src/engine/dispatch.ts): which run, which stage, which visit. */
export type StageJobData = StageJob;

/**
 * Expire the pending reviews whose time is up: a delayed job per expiry *bucket* (all reviews due by
 * `dueBy`), not a poller and not a job per review, so a parked run costs Redis nothing of its own.
 */
export interface ExpiryJobData {
  /** Epoch milliseconds: the job expires every pending review due by then. */
  dueBy: number;
}

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
export interface ShadowJobData {
  runId: string;
  attempt: number;
}

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

/** The stage's queue name, from the stage table. */
export function stageQueueName(stage: StageName): string {
  return stageNamed(stage).queue.name;
}

/** Deterministic job id: enqueueing the same visit twice is a no-op while the first job exists. */
export function stageJobId(data: StageJobData): string {
  return `${data.runId}.${data.stage}.${data.attempt}`;
}

/**
 * ioredis options from a redis:// or rediss:// URL, with what BullMQ needs: workers block on Redis, so
 * requests must not fail after a fixed number of retries. Passing options (not a client) lets BullMQ own,
 * and close, the connections it makes.
 */
export function redisOptionsFromUrl(redisUrl: string): RedisOptions {
  const url = new URL(redisUrl);
  const db = url.pathname.replace('/', '');
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : 6379,
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(db ? { db: Number(db) } : {}),
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
  };
}

export function createRedisConnection(redisUrl: string, options: IORedisOptions = {}): Redis {
  return new Redis({ ...(redisOptionsFromUrl(redisUrl) as IORedisOptions), ...options });
}

export interface QueueSet extends Dispatch {
  readonly prefix: string;
  readonly connection: Redis;
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
  enqueueWebhook(data: WebhookJobData): Promise<void>;
  /** Adds a notification job now, or at `at` (a delayed job: "nears expiry"); one job per subject and event. */
  enqueueNotification(data: NotificationJobData, at?: Date): Promise<void>;
  /** Asks for a shadow report of one build (idempotent per run and build visit while the job exists). */
  enqueueShadow(data: ShadowJobData): Promise<void>;
  close(): Promise<void>;
}

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
export function createQueues(redisUrl: string, prefix: string, onError: (error: unknown) => void = () => undefined, telemetry?: Telemetry): QueueSet {
  const connection = createRedisConnection(redisUrl);
  const traced = telemetry ? { telemetry } : {};
  connection.on('error', onError);
  const stages = Object.fromEntries(
    STAGES.map((stage) => [stage.name, new Queue<StageJobData>(stage.queue.name, { connection, prefix, ...traced, defaultJobOptions: stageJobOptions(stage.name) })]),
  ) as Record<StageName, Queue<StageJobData>>;
  const expiry = new Queue<ExpiryJobData>(EXPIRY_QUEUE_NAME, { connection, prefix, defaultJobOptions: EXPIRY_JOB_OPTIONS });
  const webhooks = new Queue<WebhookJobData>(WEBHOOK_QUEUE_NAME, { connection, prefix, ...traced, defaultJobOptions: WEBHOOK_JOB_OPTIONS });
  const maintenance = new Queue<MaintenanceJobData>(MAINTENANCE_QUEUE_NAME, {
    connection,
    prefix,
    defaultJobOptions: { attempts: 1, removeOnComplete: true, removeOnFail: { count: 100 } },
  });
  const shadow = new Queue<ShadowJobData>(SHADOW_QUEUE_NAME, { connection, prefix, ...traced, defaultJobOptions: SHADOW_JOB_OPTIONS });
  const notifications = new Queue<NotificationJobData>(NOTIFICATION_QUEUE_NAME, { connection, prefix, ...traced, defaultJobOptions: NOTIFICATION_JOB_OPTIONS });
  const all = [...Object.values(stages), expiry, webhooks, maintenance, shadow, notifications];
  for (const queue of all) queue.on('error', onError);

  return {
    prefix,
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
    async scheduleExpiry(expiresAt) {
      const dueBy = expiryBucket(expiresAt);
      await expiry.add('expire', { dueBy }, { jobId: expiryJobId(dueBy), delay: Math.max(0, dueBy - Date.now()) });
    },
    async enqueueWebhook(data) {
      await webhooks.add('deliver', data, { jobId: `hook.${data.runId}.${data.eventId}` });
    },
    async enqueueNotification(data, at) {
      await notifications.add(data.event, data, { jobId: notificationJobId(data), ...(at ? { delay: Math.max(0, at.getTime() - Date.now()) } : {}) });
    },
    async enqueueShadow(data) {
      await shadow.add('shadow', data, { jobId: `shadow.${data.runId}.${data.attempt}` });
    },
    async close() {
      await Promise.all(all.map((queue) => queue.close()));
      // QUIT waits in the offline queue for a connection that may never come back: only a ready one is asked.
      if (connection.status === 'ready') await connection.quit().catch(() => connection.disconnect());
      else connection.disconnect();
    },
  };
}
