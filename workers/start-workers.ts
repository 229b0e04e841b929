/**
 * The BullMQ workers: one per stage of the stage table (src/engine/stages.ts), plus the review-expiry,
 * webhook, notification, maintenance and shadow workers, each on its own Redis connection (workers block on it). Used by
 * `vetted worker`, `vetted demo`, the benchmarks and the tests.
 */
import { Worker, type Processor, type RateLimiterOptions, type WorkerOptions } from 'bullmq';
import { deliverWebhook } from '../src/delivery/webhook-delivery.ts';
import { processStageJob } from '../src/engine/processor.ts';
import { isStageName, STAGE_NAMES, stageNamed, type StageDefinition, type StageName } from '../src/engine/stages.ts';
import { assertNever } from '../src/errors.ts';
import { createNotifier } from '../src/notifications/notify.ts';
import type { NotificationJobData } from '../src/queue/queues.ts';
import { createRedisClient, redisOptionsFromUrl, type RedisClient } from '../src/queue/redis-target.ts';
import { shadowRun } from '../src/shadow/shadow-run.ts';
import type { QueuedSystem as System } from '../src/system.ts';
import { processExpiryJob } from './expiry-processor.ts';
import { processMaintenanceJob, scheduleReconciler } from './maintenance-processor.ts';
import { WORK_KINDS, type WorkKind } from './work-kinds.ts';

/** What a worker process can be asked to run: the stages, and the auxiliary queues. */
export { WORK_KINDS, type WorkKind };

export interface RunningWorkers {
  kinds: readonly WorkKind[];
  workers: readonly Worker[];
  /** Stops taking jobs, waits for the active ones to finish, closes the connections. */
  close(): Promise<void>;
}

export interface StartWorkersOptions {
  kinds?: readonly WorkKind[];
  /** Overrides the configured per-stage concurrency. */
  concurrency?: Partial<Record<StageName, number>>;
  /**
   * How long a job's lock lasts without renewal, and how often workers look for jobs whose lock ran out (a
   * worker killed mid-job): BullMQ's defaults, 30 s each, unless a test needs to see a stall sooner.
   */
  stall?: { lockDurationMs: number; stalledIntervalMs: number };
}

export function startWorkers(system: System, options: StartWorkersOptions = {}): RunningWorkers {
  const kinds = options.kinds ?? WORK_KINDS;
  const connection = workerConnection(system);
  const workers = kinds.map((kind) => {
    const worker = createWorker(system, kind, connection.of(), options);
    worker.on('error', (error) => system.reportConnectionError('Redis (workers)', error));
    worker.on('failed', (job, error) => {
      const final = !job || job.attemptsMade >= (job.opts.attempts ?? 1);
      const fields = { err: error, queue: kind, runId: (job?.data as { runId?: string } | undefined)?.runId, attempt: job?.attemptsMade };
      if (final) system.logger.error(fields, 'job failed for good; the reconciler will pick the run up');
      else system.logger.warn(fields, 'job failed; BullMQ retries it with backoff');
    });
    return worker;
  });
  return {
    kinds,
    workers,
    async close() {
      await Promise.all(workers.map((worker) => worker.close()));
      connection.close();
    },
  };
}

/**
 * What each worker connects with. On one server: options, so BullMQ opens (and closes) each worker's
 * connections. On a Redis Cluster BullMQ needs a Cluster client to copy: each worker duplicates this one for its
 * commands and for its blocking wait, and owns those copies. This one is only their template: it never connects
 * (lazyConnect; BullMQ connects each copy), and it is let go after the workers.
 */
function workerConnection(system: System): { of(): WorkerOptions['connection']; close(): void } {
  const target = system.queues.target;
  if (target.mode === 'standalone') return { of: () => redisOptionsFromUrl(target.url), close: () => undefined };
  let template: RedisClient | undefined;
  return {
    of: () => (template ??= createRedisClient(target, { lazyConnect: true })),
    close: () => template?.disconnect(),
  };
}

function createWorker(system: System, kind: WorkKind, connection: WorkerOptions['connection'], options: StartWorkersOptions): Worker {
  const { queues } = system;
  const common = {
    connection,
    prefix: system.config.queuePrefix,
    // A worker killed mid-job leaves it stalled; it goes back to the queue up to this many times.
    maxStalledCount: 3,
    ...(system.telemetry ? { telemetry: system.telemetry } : {}),
    ...(options.stall ? { lockDuration: options.stall.lockDurationMs, stalledInterval: options.stall.stalledIntervalMs } : {}),
  } satisfies WorkerOptions;
  if (isStageName(kind)) return stageWorker(system, stageNamed(kind), common, options);
  switch (kind) {
    case 'expiry':
      return new Worker(queues.expiry.name, ((job, token) => processExpiryJob(system, job, token)) as Processor, { ...common, concurrency: 4 });
    case 'maintenance':
      return maintenanceWorker(system, common);
    case 'shadow':
      // V2 beside V3 (shadow mode): the same work as a build, so the build stage's concurrency.
      return new Worker(queues.shadow.name, ((job) => shadowRun(system, job.data)) as Processor, { ...common, concurrency: options.concurrency?.build ?? system.config.concurrency.build });
    case 'webhooks':
      return new Worker(queues.webhooks.name, ((job) => deliverWebhook(system, job.data)) as Processor, { ...common, concurrency: 8 });
    case 'notifications':
      return notificationWorker(system, common);
    default:
      return assertNever(kind, 'work kind');
  }
}

function stageWorker(system: System, stage: StageDefinition, common: WorkerOptions, options: StartWorkersOptions): Worker {
  const processor: Processor = (job) => processStageJob(system, job);
  // The queue's BullMQ name (hash-tagged on a cluster), as the producers named it.
  return new Worker(system.queues.stages[stage.name].name, processor, {
    ...common,
    concurrency: options.concurrency?.[stage.name] ?? system.config.concurrency[stage.name],
    ...(stage.queue.rateLimited ? rateLimiter(system) : {}),
  });
}

function maintenanceWorker(system: System, common: WorkerOptions): Worker {
  // The reconciler's schedule lives in Redis, so a Redis that lost its data loses it too: upsert it now
  // and again every interval (idempotent), so it comes back without a restart.
  const upsert = () => scheduleReconciler(system).catch((error: unknown) => system.logger.error({ err: error }, 'could not schedule the reconciler'));
  void upsert();
  const timer = setInterval(upsert, system.config.reconciler.intervalMs);
  timer.unref();
  const worker = new Worker(system.queues.maintenance.name, ((job) => processMaintenanceJob(system, job)) as Processor, { ...common, concurrency: 1 });
  worker.on('closing', () => clearInterval(timer));
  return worker;
}

function notificationWorker(system: System, common: WorkerOptions): Worker {
  const notifier = createNotifier(system);
  const worker = new Worker(system.queues.notifications.name, ((job) => notifier.process(job.data as NotificationJobData)) as Processor, { ...common, concurrency: 4 });
  worker.on('closed', () => notifier.close());
  return worker;
}

/** Only the pipeline's stages (benchmarks measure the pipeline without the auxiliary queues). */
export function startStageWorkers(system: System, options: Omit<StartWorkersOptions, 'kinds'> = {}): RunningWorkers {
  return startWorkers(system, { ...options, kinds: STAGE_NAMES });
}

/**
 * VETTED_REPLICATE_RATE_LIMIT as a BullMQ limiter on a rate-limited stage's queue: at most that many jobs
 * start per second (BullMQ applies the limit per queue across its workers). It caps every provider's
 * executions, which is what matters for Replicate; a 429 that still happens is retried with backoff.
 */
function rateLimiter(system: System): { limiter?: RateLimiterOptions } {
  const perSecond = system.config.replicate.rateLimitPerSecond;
  if (perSecond === undefined) return {};
  // BullMQ counts whole jobs per window: 0.5/s becomes 1 job per 2 seconds.
  return perSecond >= 1 ? { limiter: { max: Math.floor(perSecond), duration: 1000 } } : { limiter: { max: 1, duration: Math.round(1000 / perSecond) } };
}
