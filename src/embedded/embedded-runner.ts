/**
 * The embedded runner: the work BullMQ carries between processes, done in this one. It is the system's
 * Dispatch: a stage job runs the visit exactly as the BullMQ processor does (engine/visit.ts, retried with the
 * stage's attempts and backoff); review expiry is a timer per expiry bucket, a review's SLA step (remind,
 * escalate) a timer per review and step, a "nears expiry" notification a timer at its time; webhooks, notifications and shadow builds are background tasks with their queues'
 * attempts. The maintenance worker's schedule runs here too: the reconciler (engine/reconciler.ts, asking this
 * runner which jobs it still holds) and the retention purge, each every configured interval.
 *
 * Nothing survives the process but PostgreSQL's rows, so starting looks at them once, as the reconciler would:
 * runs caught mid-stage get a new visit, parked runs get their expiry and SLA timers and their warnings back.
 */
import { commit } from '../engine/commit.ts';
import type { Dispatch, NotificationJob, SlaStepJob, StageJob, WebhookJob } from '../engine/dispatch.ts';
import type { Engine } from '../engine/engine.ts';
import { expireDueReviews } from '../engine/expiry.ts';
import { reconcile, type CarriedWork } from '../engine/reconciler.ts';
import { takeSlaStep } from '../engine/sla-steps.ts';
import { slaStepJobId, stepJobsOf } from '../engine/sla-timers.ts';
import { STAGES, stageNamed } from '../engine/stages.ts';
import type { RunRow } from '../engine/store.ts';
import { recoverHandoff, runChain } from '../engine/local-stages.ts';
import { openVisit } from '../engine/visit.ts';
import { deliverWebhook } from '../delivery/webhook-delivery.ts';
import type { Logger } from '../observability/logger.ts';
import type { CountedQueue, CountedQueues } from '../observability/scrape-queries.ts';
import { expiryBucket, notificationJobId, stageJobId, type ShadowJobData } from '../queue/queues.ts';
import { createTaskPool } from './tasks.ts';
import { createKeyedTimers } from './timers.ts';

/** Jobs run at once: steps mostly wait on a builder or a provider, so more than the database's one session. */
export const EMBEDDED_CONCURRENCY = 8;
/** Runs read per pass when recovering at start. */
const RECOVERY_BATCH = 500;

/** What the runner needs besides the engine, handed over once the system exists (it is the system's Dispatch). */
export interface RunnerHandlers {
  engine: Engine;
  /** Sends one notification (notifications/notify.ts), throwing to be tried again. */
  notify(job: NotificationJob): Promise<unknown>;
  /** Runs one shadow build (shadow/shadow-run.ts). */
  shadow(job: ShadowJobData): Promise<unknown>;
  /** One pass of the retention purge (retention/purge.ts). */
  purge(): Promise<unknown>;
  /** Queues again the "expired" notices whose job was lost (notifications/notify.ts); how many. */
  restoreExpiredNotices(graceMs: number): Promise<number>;
  /** Schedules again the "nears expiry" warning of a parked run found at start (notifications/notify.ts). */
  restoreWarning(run: RunRow): Promise<void>;
}

export interface EmbeddedRunner extends Dispatch, CarriedWork {
  /** The stage queues as the scrape gauges count them (vetted_queue_*): this runner's tasks per stage. */
  readonly stageQueues: CountedQueues;
  enqueueShadow(job: ShadowJobData): Promise<void>;
  /** Starts the work: requeues what the last process left mid-stage, restores timers, runs what waits. */
  start(handlers: RunnerHandlers): Promise<void>;
  /** Stops: running jobs finish, waiting ones and timers are dropped (a new start recovers them from the store). */
  close(): Promise<void>;
}

export function createEmbeddedRunner(logger: Logger): EmbeddedRunner {
  const pool = createTaskPool(logger, EMBEDDED_CONCURRENCY);
  /** Stage jobs known to the runner, by BullMQ's job id: a visit is enqueued once. */
  const stageJobs = new Set<string>();
  /** Expiry buckets with a timer or a pass under way. */
  const expiries = new Set<number>();
  /** SLA steps (by job id) with a timer or a step under way. */
  const slaSteps = new Set<string>();
  const intervals: NodeJS.Timeout[] = [];
  /** Jobs dispatched before start(): a commit can dispatch while the system is still being built. */
  const early: (() => void)[] = [];
  let handlers: RunnerHandlers | undefined;
  let closed = false;
  const timers = createKeyedTimers(() => handlers?.engine.clock.now().getTime() ?? Date.now());

  const whenStarted = (fn: (h: RunnerHandlers) => void) => {
    if (closed) return;
    if (handlers) fn(handlers);
    else early.push(() => fn(handlers as RunnerHandlers));
  };

  function runStage(engine: Engine, job: StageJob): void {
    const id = stageJobId(job);
    if (stageJobs.has(id)) return;
    stageJobs.add(id);
    const stage = stageNamed(job.stage);
    const work = async (made: number) => {
      const run = await openVisit(engine, stage, job);
      if (!run) {
        await recoverHandoff(engine, job);
        return;
      }
      // Local stages after this one run in this job, as the BullMQ processor runs them (local-stages.ts).
      const result = await runChain(engine, { stage, run, attempt: { made, first: made === 0 } });
      if (result.kind === 'retry') throw result.error;
    };
    // The id stays taken through the retries' backoffs, as a BullMQ job id does until the job is removed.
    pool.add({ name: stage.queue.name, attempts: stage.queue.attempts, backoffMs: stage.queue.backoff.delay }, work, () => stageJobs.delete(id));
  }

  function armExpiry(engine: Engine, dueBy: number): void {
    if (closed || expiries.has(dueBy)) return;
    expiries.add(dueBy);
    timers.at(`expire.${dueBy}`, dueBy, () =>
      pool.add({ name: 'vetted-expiry', attempts: 10, backoffMs: 1000 }, () => expireDueReviews(engine, new Date(dueBy)), () => expiries.delete(dueBy)),
    );
  }

  /** A review's SLA step: a timer per review and step, like a BullMQ job id; taken (or found moot) once. */
  function armSlaStep(engine: Engine, job: SlaStepJob): void {
    const key = slaStepJobId(job);
    if (closed || slaSteps.has(key)) return;
    slaSteps.add(key);
    timers.at(key, job.at, () =>
      pool.add({ name: 'vetted-expiry', attempts: 10, backoffMs: 1000 }, async () => {
        // Fired early (the clock said otherwise): armed again for the rest, as the BullMQ job is delayed again.
        if ((await takeSlaStep(engine, job)) === 'not_due') setImmediate(() => armSlaStep(engine, { ...job, at: Math.max(job.at, engine.clock.now().getTime() + 1000) }));
      }, () => slaSteps.delete(key)),
    );
  }

  function notifyLater(h: RunnerHandlers, job: NotificationJob, at: Date | undefined): void {
    const send = () => pool.add({ name: 'vetted-notifications', attempts: 8, backoffMs: 1000 }, () => h.notify(job));
    if (at && at.getTime() > h.engine.clock.now().getTime()) timers.at(notificationJobId(job), at.getTime(), send);
    else send();
  }

  async function recover(h: RunnerHandlers): Promise<void> {
    const { engine } = h;
    const idleSince = engine.clock.now();
    for (;;) {
      const stale = await engine.store.list({ kind: 'in_flight_idle', idleSince, limit: RECOVERY_BATCH });
      // Each requeue moves the run to a new visit (and enqueues it), so the next pass reads the rest.
      let requeued = 0;
      for (const run of stale) if (await commit(engine, { kind: 'requeue', run, lostJobState: 'process restarted' })) requeued++;
      if (requeued > 0) logger.warn({ runs: requeued }, 'embedded runner requeued runs the last process left mid-stage');
      if (stale.length < RECOVERY_BATCH || requeued === 0) break;
    }
    for (let offset = 0; ; offset += RECOVERY_BATCH) {
      const parked = await engine.store.list({ kind: 'parked_idle', idleSince, limit: RECOVERY_BATCH + offset });
      for (const run of parked.slice(offset)) {
        if (!run.reviewExpiresAt) continue;
        armExpiry(engine, expiryBucket(run.reviewExpiresAt));
        for (const job of stepJobsOf(run)) armSlaStep(engine, job);
        await h.restoreWarning(run).catch((error: unknown) => logger.warn({ err: error, runId: run.id }, 'could not schedule the review\'s "nears expiry" warning again'));
      }
      if (parked.length < RECOVERY_BATCH + offset) return;
    }
  }

  /** The maintenance worker's schedule, in process: one pass at a time per task, every `ms`. */
  function every(ms: number, name: string, work: () => Promise<unknown>): void {
    let running = false;
    const timer = setInterval(() => {
      if (running || closed) return;
      running = true;
      pool.add({ name: `vetted-maintenance.${name}`, attempts: 1, backoffMs: 0 }, work, () => (running = false));
    }, ms);
    timer.unref();
    intervals.push(timer);
  }

  function schedule(h: RunnerHandlers): void {
    const { reconciler, purgeIntervalMs } = h.engine.config;
    every(reconciler.intervalMs, 'reconcile', async () => {
      const reconciled = await reconcile(h.engine, carried, { graceMs: reconciler.graceMs });
      const result = { ...reconciled, expiredNoticesRestored: await h.restoreExpiredNotices(reconciler.graceMs) };
      if (result.requeued > 0 || result.expiriesRestored > 0 || result.slaStepsRestored > 0 || result.expiredNoticesRestored > 0) logger.warn({ ...result }, 'reconciler restored lost work');
      return result;
    });
    every(purgeIntervalMs, 'purge', () => h.purge());
  }

  const carried: CarriedWork = {
    async lostStageJob(job) {
      return stageJobs.has(stageJobId(job)) ? undefined : 'unknown';
    },
    async restoreExpiry(expiresAt) {
      const dueBy = expiryBucket(expiresAt);
      if (expiries.has(dueBy) || !handlers) return false;
      armExpiry(handlers.engine, dueBy);
      return true;
    },
    async restoreSlaStep(job) {
      if (slaSteps.has(slaStepJobId(job)) || !handlers) return false;
      armSlaStep(handlers.engine, job);
      return true;
    },
  };

  /** A stage's tasks as BullMQ's queue answers the gauges; the one worker is this runner while it runs. */
  const countedQueue = (queueName: string): CountedQueue => ({
    async getJobCounts() {
      const { waiting, active, delayed } = pool.counts(queueName);
      return { waiting, active, delayed, prioritized: 0 };
    },
    async getJobs() {
      const since = pool.counts(queueName).oldestWaitingSince;
      return since === undefined ? [] : [{ timestamp: since }];
    },
    async getWorkersCount() {
      return handlers && !closed ? 1 : 0;
    },
  });

  return {
    ...carried,
    stageQueues: { stages: Object.fromEntries(STAGES.map((stage) => [stage.name, countedQueue(stage.queue.name)])) },
    async enqueueStage(job) {
      whenStarted((h) => runStage(h.engine, job));
    },
    async scheduleExpiry(expiresAt) {
      whenStarted((h) => armExpiry(h.engine, expiryBucket(expiresAt)));
    },
    async scheduleSlaStep(job) {
      whenStarted((h) => armSlaStep(h.engine, job));
    },
    async enqueueWebhook(job: WebhookJob) {
      whenStarted((h) => pool.add({ name: 'vetted-webhooks', attempts: 10, backoffMs: 2000 }, () => deliverWebhook(h.engine, job)));
    },
    async enqueueNotification(job, at) {
      whenStarted((h) => notifyLater(h, job, at));
    },
    async withdrawNotification(job) {
      timers.cancel(notificationJobId(job));
    },
    async enqueueShadow(job) {
      whenStarted((h) => pool.add({ name: 'vetted-shadow', attempts: 3, backoffMs: 2000 }, () => h.shadow(job)));
    },
    async start(given) {
      await recover(given);
      handlers = given;
      schedule(given);
      for (const run of early.splice(0)) run();
    },
    async close() {
      closed = true;
      timers.clear();
      for (const timer of intervals) clearInterval(timer);
      expiries.clear();
      slaSteps.clear();
      await pool.close();
    },
  };
}

