/**
 * commit(move): the only way a run changes state. The move is lowered to one store write (moves.ts) whose
 * rows (the run, its events, a decision, a ledger record) commit together; then, and only then, its effects
 * outside the store: the next stage's job, a review's expiry, a webhook, a notification (or withdrawing one), logs and metrics. A crash between the
 * two loses no work: the reconciler (reconciler.ts) finds a run whose job is missing and gives it one.
 *
 * create(): the one way a run comes into being (insert + run.created event, then the first stage's job).
 */
import { logContext, logEvent } from '../observability/logger.ts';
import { assertNever } from '../errors.ts';
import { assertTransition, isInFlight } from '../run-states.ts';
import type { NotificationJob } from './dispatch.ts';
import type { Engine } from './engine.ts';
import { lowerMove, type Move } from './moves.ts';
import { withRunContext } from '../observability/tracing.ts';
import { firstActionCount, observeFirstAction, observeMove } from './run-metrics.ts';
import { scheduleSlaSteps } from './sla-timers.ts';
import { STAGES } from './stages.ts';
import type { Committed, EventInput, InsertResult, NewRunRow, RunRow } from './store.ts';

/** Applies a move; returns the moved run, or undefined when the run was no longer where the move expected. */
export async function commit(engine: Engine, move: Move): Promise<RunRow | undefined> {
  const lowered = lowerMove(move, { now: engine.clock.now(), newId: engine.newId, reviewTtlSeconds: engine.config.defaults.reviewTtlSeconds });
  const countPrior = firstActionCount(move);
  const write = countPrior ? { ...lowered, countPrior } : lowered;
  for (const from of write.from) if (from !== write.to) assertTransition(from, write.to);
  const committed = await engine.store.commit(write);
  if (!committed) {
    if (move.kind === 'park') await refuseDuplicateReview(engine, move.run.id, move.park.why.reason);
    return undefined;
  }
  observeMove(engine, move, committed.run);
  observeFirstAction(engine, move, committed);
  await applyEffects(engine, move, committed);
  return committed.run;
}

/** Stores a new run (idempotent on its requestKey) and enqueues its first stage. */
export async function create(engine: Engine, row: NewRunRow, event: EventInput): Promise<InsertResult> {
  const inserted = await engine.store.insert(row, event);
  const { run, created } = inserted;
  // A repeated requestKey whose first enqueue was lost (a crash after the insert) gets its job back: job ids
  // are deterministic, so this never adds a second one.
  if (created || run.status === 'queued') {
    const first = { runId: run.id, stage: STAGES[0]!.name, attempt: run.attempt };
    await withRunContext(run, `enqueue ${first.stage}`, () => engine.dispatch.enqueueStage(first));
  }
  if (created) logEvent(engine.logger, 'RUN_CREATED', logContext(run), { tenantId: run.tenantId, model: run.model, builder: run.builder, provider: run.provider });
  return inserted;
}

async function applyEffects(engine: Engine, move: Move, committed: Committed): Promise<void> {
  const moved = committed.run;
  switch (move.kind) {
    case 'start':
      return;
    case 'advance':
      // A local next stage runs in the job that made this move (local-stages.ts): no job to add.
      if (!move.continues) await enqueueVisit(engine, moved);
      // Shadow mode compares V2 with the candidate this build stored; it cannot hold up or fail the run.
      if (move.run.stage === 'build') engine.onBuilt?.(moved, move.run.attempt);
      return;
    case 'park':
      return parked(engine, committed);
    case 'complete':
      logEvent(engine.logger, 'RUN_COMPLETED', logContext(moved), { provider: move.result.provider });
      return notify(engine, committed);
    case 'fail':
      return ended(engine, move.run, committed);
    case 'decide':
      return decided(engine, move, committed);
    case 'pause':
      logEvent(engine.logger, 'RUN_PAUSED', logContext(moved), { from: move.run.status, actor: move.actor });
      return;
    case 'resume':
      if (isInFlight(moved.status)) await enqueueVisit(engine, moved);
      else if (moved.reviewExpiresAt) {
        await engine.dispatch.scheduleExpiry(moved.reviewExpiresAt);
        // A step that came due while the run was paused found it paused and did nothing: it is due again now.
        await scheduleSlaSteps(engine.dispatch, moved);
      }
      logEvent(engine.logger, 'RUN_RESUMED', logContext(moved), { to: moved.status, actor: move.actor });
      return;
    case 'cancel':
      await ended(engine, move.run, committed);
      await withdrawNearExpiry(engine, move.run);
      return cancelStartedExecutions(engine, move.run);
    case 'expire':
      return ended(engine, move.run, committed);
    case 'requeue':
      await enqueueVisit(engine, moved);
      logEvent(engine.logger, 'RUN_REQUEUED', logContext(moved), { stage: moved.stage, lostJobState: move.lostJobState }, 'warn');
      return;
    case 'claim':
    case 'release':
      logEvent(engine.logger, move.kind === 'claim' ? 'HITL_CLAIMED' : 'HITL_RELEASED', logContext(moved), { hitlId: moved.pendingReviewId, actor: move.actor, until: moved.claimExpiresAt?.toISOString() ?? null });
      return;
    case 'remind':
    case 'escalate':
      return slaStepTaken(engine, move.kind, committed);
    case 'assign':
    case 'autoAssign':
      logEvent(engine.logger, 'HITL_ASSIGNED', logContext(moved), {
        hitlId: moved.pendingReviewId, assignee: moved.assignedTo, from: move.run.assignedTo,
        ...(move.kind === 'assign' ? { actor: move.actor, action: move.how } : { actor: 'system:assignment', action: 'assign', order: move.order, team: move.team }),
      });
      return;
    case 'snooze':
      logEvent(engine.logger, 'HITL_SNOOZED', logContext(moved), { hitlId: moved.pendingReviewId, actor: move.actor, until: move.until?.toISOString() ?? null });
      return;
    default:
      return assertNever(move, 'move');
  }
}

/** The next stage's job, added in the run's trace whatever caused the move (a worker, a reviewer's request). */
function enqueueVisit(engine: Engine, run: RunRow): Promise<void> {
  return withRunContext(run, `enqueue ${run.stage}`, () => engine.dispatch.enqueueStage({ runId: run.id, stage: run.stage, attempt: run.attempt }));
}

async function parked(engine: Engine, committed: Committed): Promise<void> {
  const review = committed.run.pendingReview;
  if (!review) throw new Error(`run ${committed.run.id} parked without a review`);
  await engine.dispatch.scheduleExpiry(new Date(review.expiresAt));
  await scheduleSlaSteps(engine.dispatch, committed.run);
  logEvent(engine.logger, 'HITL_CREATED', logContext(committed.run), {
    reviewId: review.reviewId, hitlId: review.reviewId, kind: review.kind, checkpoint: review.checkpoint, reason: review.reason,
    source: review.source, returnTo: review.returnTo, expectedInput: review.expectedInput, originStepId: review.originStepId, expiresAt: review.expiresAt,
  });
  await notify(engine, committed);
  await tellPeople(engine, { tenantId: committed.run.tenantId, subject: 'review', subjectId: review.reviewId, runId: committed.run.id, event: 'waiting' });
  await assignByPolicy(engine, committed.run);
}

/**
 * A review of a team whose policy assigns gets its person now (the pick is the store's, one team at a time).
 * Nobody available leaves it unassigned, in the team's queue, and says so; it never holds up the park.
 */
async function assignByPolicy(engine: Engine, run: RunRow): Promise<void> {
  const { assignment: order, team } = run.policy;
  if (!order || !team) return;
  const assigned = await commit(engine, { kind: 'autoAssign', run, team, order }).catch((error: unknown) => {
    engine.logger.warn({ err: error, runId: run.id, team }, 'auto-assignment failed; the review waits unassigned in the team queue');
    return null;
  });
  if (assigned === undefined) engine.logger.warn({ runId: run.id, reviewId: run.pendingReviewId, team }, 'nobody of the team is available; the review waits unassigned');
}

/** A reminder went out or the review escalated: say so in the log, and tell the people. */
async function slaStepTaken(engine: Engine, step: 'remind' | 'escalate', committed: Committed): Promise<void> {
  const run = committed.run;
  const review = run.pendingReview;
  if (!review?.sla) throw new Error(`run ${run.id} took an SLA step without an SLA`);
  const { sla } = review;
  if (step === 'remind') {
    logEvent(engine.logger, 'HITL_REMINDED', logContext(run), { reviewId: review.reviewId, hitlId: review.reviewId, checkpoint: review.checkpoint, team: review.team ?? null, who: sla.remindedWho, due: sla.remindAt });
  } else {
    logEvent(engine.logger, 'HITL_ESCALATED', logContext(run), {
      reviewId: review.reviewId, hitlId: review.reviewId, checkpoint: review.checkpoint, to: sla.escalatesTo, from: sla.escalatedFrom, due: sla.escalateAt,
    }, 'warn');
  }
  await notify(engine, committed);
  await tellPeople(engine, { tenantId: run.tenantId, subject: 'review', subjectId: review.reviewId, runId: run.id, event: step === 'remind' ? 'reminded' : 'escalated' });
}

const END_LOGS = { failed: 'RUN_FAILED', cancelled: 'HITL_CANCELLED', expired: 'HITL_EXPIRED' } as const;

/** A run that ended failed, cancelled or expired: say why, and tell its callback. */
async function ended(engine: Engine, before: RunRow, committed: Committed): Promise<void> {
  const run = committed.run;
  if (run.status !== 'failed' && run.status !== 'cancelled' && run.status !== 'expired') throw new Error(`run ${run.id} did not end (${run.status})`);
  const error = run.error;
  logEvent(engine.logger, END_LOGS[run.status], logContext(run), {
    code: error?.code, reason: error?.message, field: error?.field, reviewId: before.pendingReviewId,
    ...(before.pendingReview ? { hitlId: before.pendingReview.reviewId, originStepId: before.pendingReview.originStepId } : {}),
  }, run.status === 'failed' ? 'warn' : 'info');
  await notify(engine, committed);
  if (run.status === 'expired' && before.pendingReview) {
    await tellPeople(engine, { tenantId: run.tenantId, subject: 'review', subjectId: before.pendingReview.reviewId, runId: run.id, event: 'expired' });
  }
}

async function decided(engine: Engine, move: Extract<Move, { kind: 'decide' }>, committed: Committed): Promise<void> {
  const { run, decision } = move;
  const { plan } = decision;
  const moved = committed.run;
  // A reply that was not understood decides nothing: the review waits on (the reply service logs HITL_RE_ASK).
  if (plan.route === 're_ask') return;
  const review = run.pendingReview;
  logEvent(engine.logger, 'HITL_RESUME_VALID', logContext(run), {
    reviewId: decision.reviewId, hitlId: decision.reviewId, action: decision.action, route: plan.route, goto: moved.status,
    returnTo: review?.returnTo ?? null, parsedResult: decision.parsed ?? null, actor: decision.actor.id,
  });
  // Decided, unless it waits for more people: its warning before expiry has nothing left to warn about.
  if (plan.route !== 'await_quorum') await withdrawNearExpiry(engine, run);
  switch (plan.route) {
    case 'execute':
      if (plan.override) logEvent(engine.logger, 'HITL_OVERRIDE', logContext(run), { reviewId: decision.reviewId, actor: decision.actor.id }, 'warn');
      return enqueueVisit(engine, moved);
    case 'validate':
    case 'build':
    case 'extract':
      return enqueueVisit(engine, moved);
    case 'complete':
      logEvent(engine.logger, 'RUN_COMPLETED', logContext(moved), { provider: moved.result?.provider });
      return notify(engine, committed);
    case 'cancel':
      return ended(engine, run, committed);
    case 'await_quorum':
      return;
    default:
      return assertNever(plan, 'decision route');
  }
}

/**
 * A second park while a review is pending is refused, never stacked: say so in the log and the trail
 * (HITL_DUPLICATE_ATTEMPT), naming the review that stays.
 */
async function refuseDuplicateReview(engine: Engine, runId: string, newReason: string): Promise<void> {
  const current = await engine.store.get(runId);
  if (current?.status !== 'awaiting_human' || !current.pendingReview) return;
  const existingReviewId = current.pendingReview.reviewId;
  logEvent(engine.logger, 'HITL_DUPLICATE_ATTEMPT', logContext(current), { existingReviewId, newReason }, 'warn');
  await engine.store.appendEvent(current, { type: 'review.duplicate_refused', actor: 'system', data: { existingReviewId, newReason } });
}

/**
 * Queues a webhook for the run's callback URL. Delivery never blocks or fails the pipeline: if the queue
 * refuses the job, the event is still in the audit trail and the failure is logged.
 */
async function notify(engine: Engine, committed: Committed): Promise<void> {
  const { run, eventId } = committed;
  if (!run.request.callbackUrl || eventId === null) return;
  await engine.dispatch.enqueueWebhook({ runId: run.id, eventId: String(eventId) }).catch((error: unknown) => {
    engine.logger.warn({ err: error, runId: run.id }, 'could not queue the webhook; the event stays in the audit trail');
  });
}

/**
 * Queues a notification to the tenant's people (Slack-compatible webhook, email, signed webhook), who are told
 * by the notification worker. Like webhooks it never blocks or fails the pipeline: a refused enqueue is logged.
 */
async function tellPeople(engine: Engine, job: NotificationJob): Promise<void> {
  await engine.dispatch.enqueueNotification(job).catch((error: unknown) => {
    engine.logger.warn({ err: error, runId: job.runId, reviewId: job.subjectId, event: job.event }, 'could not queue the notification; the review is in PostgreSQL regardless');
  });
}

/**
 * A review that stopped waiting takes its delayed "nears expiry" notice along: the notice would find it decided
 * and do nothing, but its job would hold keys in Redis until the warning's time. Best effort, like every notice:
 * one left behind still does nothing.
 */
async function withdrawNearExpiry(engine: Engine, run: RunRow): Promise<void> {
  const reviewId = run.pendingReview?.reviewId ?? run.pendingReviewId;
  if (!reviewId) return;
  const job: NotificationJob = { tenantId: run.tenantId, subject: 'review', subjectId: reviewId, runId: run.id, event: 'expiring' };
  await engine.dispatch.withdrawNotification(job).catch((error: unknown) => {
    engine.logger.warn({ err: error, runId: run.id, reviewId }, 'could not withdraw the nears-expiry notice; when due it finds the review decided and sends nothing');
  });
}

/** Asks the provider to cancel an execution under way when its run is cancelled (best effort). */
async function cancelStartedExecutions(engine: Engine, run: RunRow): Promise<void> {
  const provider = engine.adapters.provider(run.provider);
  if (!provider.cancel) return;
  for (const execution of await engine.store.ledger.listForRun(run.id)) {
    if (execution.status !== 'started' || !execution.predictionId) continue;
    await provider.cancel({ predictionId: execution.predictionId }).catch((error: unknown) => {
      engine.logger.warn({ err: error, runId: run.id, predictionId: execution.predictionId }, 'provider cancel failed');
    });
  }
}
