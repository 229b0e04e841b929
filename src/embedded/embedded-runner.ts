/**
 * The embedded runner: the work BullMQ carries between processes, done in this one. It is the system's
 * Dispatch: a stage job runs the visit exactly as the BullMQ processor does (engine/visit.ts, retried with the
 * stage's attempts and backoff); review expiry is a timer per expiry bucket; webhooks, notifications and
 * shadow builds are background tasks with their queues' attempts. Nothing survives the process but
 * PostgreSQL's rows, so starting looks at them once, as the reconciler would: runs caught mid-stage get a new
 * visit, parked runs get their expiry timers back.
 */
import { commit } from '../engine/commit.ts';
import type { Dispatch, NotificationJob, StageJob, WebhookJob } from '../engine/dispatch.ts';
import type { Engine } from '../engine/engine.ts';
import { expireDueReviews } from '../engine/expiry.ts';
import { stageNamed } from '../engine/stages.ts';
import { openVisit, performVisit } from '../engine/visit.ts';
import { deliverWebhook } from '../delivery/webhook-delivery.ts';
import type { Logger } from '../observability/logger.ts';
import { expiryBucket, stageJobId, type ShadowJobData } from '../queue/queues.ts';
import { createTaskPool } from './tasks.ts';

/** Jobs run at once: steps mostly wait on a builder or a provider, so more than the database's one session. */
export const EMBEDDED_CONCURRENCY = 8;
/** setTimeout's limit (about 24.8 days): a later expiry waits in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Runs read per pass when recovering at start. */
const RECOVERY_BATCH = 500;

/** What the runner needs besides the engine, handed over once the system exists (it is the system's Dispatch). */
export interface RunnerHandlers {
  engine: Engine;
  /** Sends one notification (notifications/notify.ts), throwing to be tried again. */
  notify(job: NotificationJob): Promise<unknown>;
  /** Runs one shadow build (shadow/shadow-run.ts). */
  shadow(job: ShadowJobData): Promise<unknown>;
}

export interface EmbeddedRunner extends Dispatch {
  enqueueShadow(job: ShadowJobData): Promise<void>;
  /** Starts the work: requeues what the last process left mid-stage, restores expiry timers, runs what waits. */
  start(handlers: RunnerHandlers): Promise<void>;
  /** Stops: running jobs finish, waiting ones are dropped (a new start requeues their runs). */
  close(): Promise<void>;
}

export function createEmbeddedRunner(logger: Logger): EmbeddedRunner {
  const pool = createTaskPool(logger, EMBEDDED_CONCURRENCY);
  /** Stage jobs known to the runner, by BullMQ's job id: a visit is enqueued once. */
  const stageJobs = new Set<string>();
  const expiryTimers = new Map<number, NodeJS.Timeout>();
  /** Jobs dispatched before start(): a commit can dispatch while the system is still being built. */
  const early: (() => void)[] = [];
  let handlers: RunnerHandlers | undefined;
  let closed = false;

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
      if (!run) return;
      const result = await performVisit(engine, stage, run, { made, first: made === 0 });
      if (result.kind === 'retry') throw result.error;
    };
    // The id stays taken through the retries' backoffs, as a BullMQ job id does until the job is removed.
    pool.add({ name: stage.queue.name, attempts: stage.queue.attempts, backoffMs: stage.queue.backoff.delay }, work, () => stageJobs.delete(id));
  }

  function armExpiry(engine: Engine, dueBy: number): void {
    if (closed || expiryTimers.has(dueBy)) return;
    const wait = dueBy - engine.clock.now().getTime();
    const timer = setTimeout(() => {
      expiryTimers.delete(dueBy);
      if (wait > MAX_TIMER_MS) return armExpiry(engine, dueBy);
      pool.add({ name: 'vetted-expiry', attempts: 10, backoffMs: 1000 }, () => expireDueReviews(engine, new Date(dueBy)));
    }, Math.max(0, Math.min(wait, MAX_TIMER_MS)));
    // A timer alone does not keep the process alive: `vetted demo` ends when its story does.
    timer.unref();
    expiryTimers.set(dueBy, timer);
  }

  async function recover(engine: Engine): Promise<void> {
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
      for (const run of parked.slice(offset)) if (run.reviewExpiresAt) armExpiry(engine, expiryBucket(run.reviewExpiresAt));
      if (parked.length < RECOVERY_BATCH + offset) return;
    }
  }

  return {
    async enqueueStage(job) {
      whenStarted((h) => runStage(h.engine, job));
    },
    async scheduleExpiry(expiresAt) {
      whenStarted((h) => armExpiry(h.engine, expiryBucket(expiresAt)));
    },
    async enqueueWebhook(job: WebhookJob) {
      whenStarted((h) => pool.add({ name: 'vetted-webhooks', attempts: 10, backoffMs: 2000 }, () => deliverWebhook(h.engine, job)));
    },
    async enqueueNotification(job) {
      whenStarted((h) => pool.add({ name: 'vetted-notifications', attempts: 8, backoffMs: 1000 }, () => h.notify(job)));
    },
    async enqueueShadow(job) {
      whenStarted((h) => pool.add({ name: 'vetted-shadow', attempts: 3, backoffMs: 2000 }, () => h.shadow(job)));
    },
    async start(given) {
      await recover(given.engine);
      handlers = given;
      for (const run of early.splice(0)) run();
    },
    async close() {
      closed = true;
      for (const timer of expiryTimers.values()) clearTimeout(timer);
      expiryTimers.clear();
      await pool.close();
    },
  };
}
