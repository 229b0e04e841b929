/**
 * The moves a run makes, each one a compare-and-set in PostgreSQL followed (never preceded) by its queue
 * side effects: the next stage job, a review's expiry job, a webhook delivery. The stage processor, the
 * decision service and run control all use these, so "park", "advance", "complete" and "end" mean the
 * same thing everywhere.
 */
import type { MoveGuard as RunGuard, RunPatch, RunsRepository, TransitionResult } from '../db/runs-repository.ts';
import type { RunRow } from '../db/schema/index.ts';
import type {
  CandidatePayload,
  ExecutionResult,
  RunError,
  RunEventType,
  RunStatus,
  StageName,
  ValidationIssue,
} from '../generated/contracts.ts';
import { logEvent, type LogContext, type LogEventName } from '../observability/logger.ts';
import { stageDefinition } from '../pipeline.ts';
import { createPendingReview } from '../review/pending-review.ts';
import type { ParkReason } from '../stages/gate.ts';
import type { System } from '../system.ts';

type TransitionInput = Parameters<RunsRepository['transition']>[0];
export type { RunPatch };

export interface MoveGuard {
  /** Statuses the run must be in. */
  from: readonly RunStatus[];
  /** Extra compare-and-set conditions (the stage visit, the pending review id). */
  guard?: RunGuard;
  actor: string;
  /** The reviewer's decision that causes the move, recorded with it in one statement. */
  decision?: TransitionInput['decision'];
  /** The execution outcome the move records in the ledger, in the same statement (MoveSpec.ledger). */
  ledger?: TransitionInput['ledger'];
}

/** Leaving a review behind: every move out of awaiting_human clears it. */
const CLEARED_REVIEW = { pendingReview: null, pendingReviewId: null, parkedAt: null, reviewExpiresAt: null } as const;

export function logContext(run: Pick<RunRow, 'id' | 'traceId' | 'threadId'>): LogContext {
  return { runId: run.id, traceId: run.traceId, threadId: run.threadId };
}

/**
 * The run as the move's base row (MoveSpec.base: the statement then returns only what the database
 * computes) when the guard pins the stage visit the run was read at; a row read any other way is returned
 * by the statement in full.
 */
function visitBase(run: RunRow, guard: MoveGuard): RunRow | undefined {
  const pinned = guard.guard?.stage === run.stage && guard.guard.attempt === run.attempt && guard.from.includes(run.status);
  return pinned ? run : undefined;
}

/** Moves the run to `stage` (a new visit: attempt + 1) and enqueues that stage's job. */
export async function advanceToStage(
  system: System,
  run: RunRow,
  stage: StageName,
  guard: MoveGuard,
  options: { set?: RunPatch; bumpExecutionSeq?: boolean; eventType?: 'stage.completed' | 'run.resumed' | 'run.requeued'; data?: Record<string, unknown> } = {},
): Promise<RunRow | undefined> {
  const target = stageDefinition(stage);
  const moved = await system.runs.transition({
    runId: run.id,
    from: guard.from,
    to: target.status,
    guard: guard.guard,
    decision: guard.decision,
    ledger: guard.ledger,
    base: visitBase(run, guard),
    bumpAttempt: true,
    bumpExecutionSeq: options.bumpExecutionSeq,
    set: { ...CLEARED_REVIEW, ...options.set, stage, stageStartedAt: system.clock.now() },
    event: { type: options.eventType ?? 'stage.completed', actor: guard.actor, data: { ...options.data, to: target.status, nextStage: stage } },
  });
  if (!moved) return undefined;
  await system.queues.enqueueStage({ runId: moved.run.id, stage, attempt: moved.run.attempt });
  return moved.run;
}

export interface ParkInput {
  park: ParkReason;
  issues: readonly ValidationIssue[];
  candidate: CandidatePayload | null;
  output?: unknown;
  set?: RunPatch;
  /** The new review's id, when the caller must name it in the same move (a decision refused for it). */
  reviewId?: string;
}

/**
 * Parks the run awaiting a human with one canonical PendingReview, and schedules its expiry. If the guard
 * fails because a review is already pending, the second trigger is refused and logged
 * (HITL_DUPLICATE_ATTEMPT), never stacked.
 */
export async function parkRun(system: System, run: RunRow, input: ParkInput, guard: MoveGuard): Promise<RunRow | undefined> {
  const now = system.clock.now();
  const review = createPendingReview({
    park: input.park,
    issues: input.issues,
    candidate: input.candidate,
    output: input.output,
    schemaHash: run.schemaHash ?? '',
    now,
    ttlSeconds: run.policy.reviewTtlSeconds ?? system.config.defaults.reviewTtlSeconds,
    reviewId: input.reviewId ?? system.newId(),
    quorum: run.policy.quorum,
  });
  const moved = await system.runs.transition({
    runId: run.id,
    from: guard.from,
    to: 'awaiting_human',
    guard: guard.guard,
    decision: guard.decision,
    ledger: guard.ledger,
    base: visitBase(run, guard),
    set: {
      ...input.set,
      issues: [...input.issues],
      pendingReview: review,
      pendingReviewId: review.reviewId,
      parkedAt: now,
      reviewExpiresAt: new Date(review.expiresAt),
    },
    event: {
      type: 'review.created',
      actor: guard.actor,
      data: { reviewId: review.reviewId, checkpoint: review.checkpoint, reason: review.reason, kind: review.kind, issues: input.issues.length },
    },
  });
  if (!moved) {
    await refuseDuplicateReview(system, run.id, input.park.reason);
    return undefined;
  }
  await system.queues.scheduleExpiry(new Date(review.expiresAt));
  logEvent(system.logger, 'HITL_CREATED', logContext(run), {
    reviewId: review.reviewId, kind: review.kind, checkpoint: review.checkpoint, reason: review.reason, expiresAt: review.expiresAt,
  });
  await notify(system, moved);
  return moved.run;
}

async function refuseDuplicateReview(system: System, runId: string, newReason: string): Promise<void> {
  const current = await system.runs.get(runId);
  if (current?.status !== 'awaiting_human' || !current.pendingReview) return;
  logEvent(system.logger, 'HITL_DUPLICATE_ATTEMPT', logContext(current), {
    existingReviewId: current.pendingReview.reviewId, newReason,
  }, 'warn');
  await system.runs.appendEvent(current, {
    type: 'review.duplicate_refused', actor: 'system', data: { existingReviewId: current.pendingReview.reviewId, newReason },
  });
}

export async function completeRun(system: System, run: RunRow, result: ExecutionResult, guard: MoveGuard): Promise<RunRow | undefined> {
  const moved = await system.runs.transition({
    runId: run.id,
    from: guard.from,
    to: 'completed',
    guard: guard.guard,
    decision: guard.decision,
    ledger: guard.ledger,
    base: visitBase(run, guard),
    set: { ...CLEARED_REVIEW, result, completedAt: system.clock.now() },
    event: { type: 'run.completed', actor: guard.actor, data: { provider: result.provider, predictionId: result.predictionId ?? null } },
  });
  if (!moved) return undefined;
  logEvent(system.logger, 'RUN_COMPLETED', logContext(run), { provider: result.provider });
  await notify(system, moved);
  return moved.run;
}

const END_EVENTS = {
  failed: { event: 'run.failed', log: 'RUN_FAILED' },
  cancelled: { event: 'run.cancelled', log: 'HITL_CANCELLED' },
  expired: { event: 'run.expired', log: 'HITL_EXPIRED' },
} as const satisfies Record<string, { event: RunEventType; log: LogEventName }>;

/** Ends the run failed, cancelled or expired, with a reason naming the field when there is one. */
export async function endRun(
  system: System,
  run: RunRow,
  to: keyof typeof END_EVENTS,
  error: RunError,
  guard: MoveGuard,
  set: RunPatch = {},
): Promise<RunRow | undefined> {
  const moved = await system.runs.transition({
    runId: run.id,
    from: guard.from,
    to,
    guard: guard.guard,
    decision: guard.decision,
    ledger: guard.ledger,
    base: visitBase(run, guard),
    set: { ...CLEARED_REVIEW, ...set, error, completedAt: system.clock.now() },
    event: { type: END_EVENTS[to].event, actor: guard.actor, data: { ...error, ...(run.pendingReviewId ? { reviewId: run.pendingReviewId } : {}) } },
  });
  if (!moved) return undefined;
  logEvent(system.logger, END_EVENTS[to].log, logContext(run), {
    code: error.code, reason: error.message, field: error.field, reviewId: run.pendingReviewId,
  }, to === 'failed' ? 'warn' : 'info');
  await notify(system, moved);
  return moved.run;
}

/**
 * Queues a webhook for the run's callback URL. Delivery never blocks or fails the pipeline: if Redis
 * refuses the job, the event is still in the audit table and the failure is logged.
 */
async function notify(system: System, moved: TransitionResult): Promise<void> {
  if (!moved.run.request.callbackUrl || moved.eventId === null) return;
  await system.queues.enqueueWebhook({ runId: moved.run.id, eventId: String(moved.eventId) }).catch((error: unknown) => {
    system.logger.warn({ err: error, runId: moved.run.id }, 'could not queue the webhook; the event stays in the audit table');
  });
}
