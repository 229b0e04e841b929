/**
 * Every way a run changes state, as a typed Move, and how each one is written: a compare-and-set on the
 * statuses it may leave from (and the visit or review it is bound to), the columns it sets, and the audit
 * event it records. commit.ts applies the write and then the move's effects; nothing else changes a run.
 *
 *   move      from                         to                            event                  caused by
 *   start     queued (the first visit)     extracting                    —                      the extract job
 *   advance   a stage status (its visit)   the next stage's status       stage.completed        a stage outcome
 *   park      a stage status (its visit)   awaiting_human                review.created         a stage outcome
 *   complete  executing (its visit)        completed                     run.completed          a stage outcome
 *   fail      a stage status (its visit)   failed                        run.failed             a stage outcome
 *   decide    awaiting_human (its review)  a stage | completed |         review.decided, then   a reviewer
 *                                          cancelled | awaiting_human    run.resumed | …
 *                                          (extracting: another model)
 *   pause     any live status              paused                        run.paused             an operator
 *   resume    paused                       where it was paused           run.resumed            an operator
 *   cancel    any live status              cancelled                     run.cancelled          an operator
 *   expire    awaiting_human (its review)  expired                       run.expired            the expiry sweep
 *   requeue   a stage status (its visit)   the same stage, a new visit   run.requeued           the reconciler
 *   claim     awaiting_human (unclaimed)   awaiting_human (a lease)      review.claimed         a reviewer
 *   release   awaiting_human (their claim) awaiting_human                review.released        a reviewer
 *   remind    awaiting_human (its review,  awaiting_human                review.reminded        its SLA timer
 *             unchanged since read)
 *   escalate  awaiting_human (its review,  awaiting_human (another team   review.escalated       its SLA timer
 *             unchanged since read)        or people; the claim ends)
 *   assign    awaiting_human (its assignee) awaiting_human (a person)    review.assigned |      a holder of reviews:assign
 *                                                                        review.reassigned
 *   autoAssign awaiting_human (unassigned) awaiting_human (the team's    review.assigned        the team's policy, at park
 *                                          next person, picked in SQL)
 *   snooze    awaiting_human (its snoozes) awaiting_human                review.snoozed |       a reviewer (their own queue)
 *                                                                        review.unsnoozed
 *
 * Lowering is pure (a function of the move, the clock and an id source), so every rule here is unit-tested
 * without a database; the statuses each write may connect are checked against run-states.ts at commit.
 */
import type {
  Decision,
  ExecutionResult,
  PendingReview,
  RunError,
  RunEventType,
  RunStatus,
  StageName,
} from '../generated/contracts.ts';
import { assertNever } from '../errors.ts';
import { editedResult } from '../review-model/edit-output.ts';
import { createPendingReview } from '../review-model/pending-review.ts';
import { describeTarget, escalated, reminded, remindWho, scheduleSla, slaAt } from '../review-model/sla.ts';
import { questionLocale } from '../review-model/question/locale.ts';
import type { DecisionActor, DecisionPlan } from '../review-model/plan-decision.ts';
import { isInFlight } from '../run-states.ts';
import type { LedgerRecord } from '../stages/executor.ts';
import { payloadHash } from '../stages/gate.ts';
import type { ParkRequest } from './outcomes.ts';
import { STAGES, stageNamed } from './stages.ts';
import type { AssignmentOrder, DecisionRecord, RunPatch, RunRow, StageVisit, StoreWrite, WriteGuard } from './store.ts';

/** A stage's outcome as a move: `run` is the row as claimed at its visit, so the move is bound to that visit. */
interface AtVisit {
  run: RunRow;
  actor: string;
  /** A deferred execution record that commits with this move (visit-ledger.ts). */
  ledger?: LedgerRecord;
}

/** What a reviewer's decision records, beside the plan it was turned into (src/review-model/plan-decision.ts). */
export interface DecisionInput {
  plan: DecisionPlan;
  reviewId: string;
  /** A reviewer's action, or `reply` for a chat reply that was not understood (re_ask). */
  action: Decision['action'] | 'reply';
  actor: DecisionActor;
  /** The body as received, secrets redacted. */
  raw: Record<string, unknown>;
  edits: Record<string, unknown> | null;
  /** More for the decision row's `parsed` (a reply's layer, decision and interpretation). */
  parsed?: Record<string, unknown>;
}

export type Move =
  | { kind: 'start'; visit: StageVisit }
  /** `continues`: the job that made the visit runs the next stage itself (local-stages.ts), so no job is added. */
  | (AtVisit & { kind: 'advance'; set?: RunPatch; data: Record<string, unknown>; continues?: boolean })
  | (AtVisit & { kind: 'park'; park: ParkRequest })
  | (AtVisit & { kind: 'complete'; result: ExecutionResult })
  | (AtVisit & { kind: 'fail'; error: RunError })
  | { kind: 'decide'; run: RunRow; decision: DecisionInput }
  | { kind: 'pause'; run: RunRow; actor: string; reason?: string }
  | { kind: 'resume'; run: RunRow; actor: string; reason?: string }
  | { kind: 'cancel'; run: RunRow; actor: string; reason?: string }
  | { kind: 'expire'; run: RunRow }
  | { kind: 'requeue'; run: RunRow; lostJobState: string }
  | { kind: 'claim'; run: RunRow; actor: string; until: Date }
  | { kind: 'release'; run: RunRow; actor: string }
  /** An SLA step of the run's pending review (src/engine/sla-steps.ts), bound to the review as it was read. */
  | { kind: 'remind'; run: RunRow }
  | { kind: 'escalate'; run: RunRow }
  /** `to` null takes the assignment away; `how` says what the trail records (a delegation is the assignee's own). */
  | { kind: 'assign'; run: RunRow; actor: string; to: string | null; how: AssignAction; reason?: string }
  /** The team's next person by the policy's order, picked and recorded by the store in one statement. */
  | { kind: 'autoAssign'; run: RunRow; team: string; order: AssignmentOrder }
  /** `until` null brings the review back into the actor's queue at once. */
  | { kind: 'snooze'; run: RunRow; actor: string; until: Date | null };

/** What an assignment move records as its action in the audit trail. */
export type AssignAction = 'assign' | 'reassign' | 'delegate' | 'unassign';

export type MoveKind = Move['kind'];

/** What lowering may read besides the move: the time, fresh ids, and the default review time-to-live. */
export interface MoveContext {
  now: Date;
  newId: () => string;
  reviewTtlSeconds: number;
}

/** Leaving a review behind: every move out of awaiting_human clears it, and its claim. */
const CLEARED_REVIEW = { pendingReview: null, pendingReviewId: null, parkedAt: null, reviewExpiresAt: null, claimedBy: null, claimExpiresAt: null } as const;
/** A review that stays pending after a decision (a quorum approval, a re-ask) is free for the next person. */
const CLEARED_CLAIM = { claimedBy: null, claimExpiresAt: null } as const;
/**
 * A review's assignment and snoozes end with it. Only moves that leave a review carry them, so a stage move of
 * a run that never waited sends no more columns than before.
 */
function clearedAssignment(run: RunRow): RunPatch {
  return run.pendingReviewId === null && run.assignedTo === null ? {} : { assignedTo: null, snoozes: {} };
}

/** The first stage's status is entered from `queued`; the rest by the move that enqueued their job. */
const FIRST_STAGE = STAGES[0];

/** The status each decision route leaves the run in (recorded in the decision row's `parsed`). */
export const STATUS_AFTER_ROUTE: Readonly<Record<DecisionPlan['route'], RunStatus>> = {
  execute: stageNamed('execute').status,
  validate: stageNamed('validate').status,
  build: stageNamed('build').status,
  extract: stageNamed('extract').status,
  complete: 'completed',
  cancel: 'cancelled',
  await_quorum: 'awaiting_human',
  re_ask: 'awaiting_human',
};

const END_EVENTS = { failed: 'run.failed', cancelled: 'run.cancelled', expired: 'run.expired' } as const satisfies Record<string, RunEventType>;
type EndStatus = keyof typeof END_EVENTS;

/** The store write a move is made of. */
export function lowerMove(move: Move, ctx: MoveContext): StoreWrite {
  switch (move.kind) {
    case 'start':
      return startWrite(move.visit, ctx);
    case 'advance':
      return enterStage(move.run, nextStage(move.run.stage), ctx, {
        ...visitGuard(move), eventType: 'stage.completed', set: move.set, data: move.data,
      });
    case 'park':
      return parkWrite(move, ctx);
    case 'complete':
      return completeWrite(move.run, move.result, ctx, visitGuard(move));
    case 'fail':
      return endWrite(move.run, 'failed', move.error, ctx, visitGuard(move));
    case 'decide':
      return decideWrite(move.run, move.decision, ctx);
    case 'pause':
      return {
        runId: move.run.id, from: [move.run.status], to: 'paused', seen: move.run, set: { pausedFrom: move.run.status },
        event: { type: 'run.paused', actor: move.actor, data: { from: move.run.status, reason: move.reason ?? null } },
      };
    case 'resume':
      return resumeWrite(move.run, move.actor, move.reason, ctx);
    case 'cancel':
      return endWrite(move.run, 'cancelled', { code: 'CANCELLED', message: move.reason ?? `Cancelled by ${move.actor}` }, ctx, {
        from: [move.run.status], guard: { attempt: move.run.attempt }, actor: move.actor, decision: closingRecord(move.run, move.actor, 'cancel', 'cancelled'),
      });
    case 'expire': {
      const { run } = move;
      const message = `Review ${run.pendingReviewId} got no decision before ${run.reviewExpiresAt?.toISOString()}`;
      return endWrite(run, 'expired', { code: 'REVIEW_EXPIRED', message }, ctx, {
        from: ['awaiting_human'], guard: { pendingReviewId: run.pendingReviewId ?? '' }, actor: 'system:expiry', decision: closingRecord(run, 'system:expiry', 'expire', 'expired'),
      });
    }
    case 'requeue':
      return enterStage(move.run, move.run.stage, ctx, {
        from: [move.run.status], guard: { attempt: move.run.attempt }, actor: 'system:reconciler',
        eventType: 'run.requeued', data: { lostJobState: move.lostJobState, attempt: move.run.attempt },
      });
    case 'claim':
      return claimWrite(move.run, move.actor, { claimedBy: move.actor, claimExpiresAt: move.until }, 'review.claimed', ctx, { until: move.until.toISOString() });
    case 'release':
      return claimWrite(move.run, move.actor, CLEARED_CLAIM, 'review.released', ctx, {});
    case 'remind':
      return remindWrite(move.run, ctx);
    case 'escalate':
      return escalateWrite(move.run, ctx);
    case 'assign':
      return assignWrite(move);
    case 'autoAssign': {
      const { run } = move;
      return {
        runId: run.id, from: ['awaiting_human'], to: 'awaiting_human', seen: run,
        guard: { pendingReviewId: run.pendingReviewId ?? '', assignedTo: { is: null } },
        pickAssignee: { tenantId: run.tenantId, team: move.team, order: move.order },
        event: { type: 'review.assigned', actor: 'system:assignment', data: { reviewId: run.pendingReviewId, ...reviewedPayload(run), action: 'assign', team: move.team, order: move.order } },
      };
    }
    case 'snooze':
      return snoozeWrite(move, ctx);
    default:
      return assertNever(move, 'move');
  }
}

interface Binding {
  from: readonly RunStatus[];
  guard?: WriteGuard;
  actor: string;
  decision?: DecisionRecord;
  ledger?: LedgerRecord;
}

/** A stage outcome's binding: the run must still be at the visit it was claimed at. */
function visitGuard(move: AtVisit): Binding {
  return { from: [move.run.status], guard: { stage: move.run.stage, attempt: move.run.attempt }, actor: move.actor, ledger: move.ledger };
}

function nextStage(stage: StageName): StageName {
  const next = stageNamed(stage).next;
  if (!next) throw new Error(`stage ${stage} has no next stage to advance to`);
  return next;
}

function startWrite(visit: StageVisit, ctx: MoveContext): StoreWrite {
  if (visit.stage !== FIRST_STAGE?.name) throw new Error(`only the first stage opens with a start move, not ${visit.stage}`);
  // `visit.status` too: a job whose worker died mid-stage opens the same visit again.
  return { runId: visit.runId, from: ['queued', visit.status], to: visit.status, guard: { stage: visit.stage, attempt: visit.attempt }, set: { stageStartedAt: ctx.now } };
}

/** A new visit of `stage` (attempt + 1), whose job the commit enqueues. */
function enterStage(
  run: RunRow,
  stage: StageName,
  ctx: MoveContext,
  how: Binding & { eventType: RunEventType; data?: Record<string, unknown>; set?: RunPatch; bumpExecutionSeq?: boolean },
): StoreWrite {
  const target = stageNamed(stage);
  return {
    runId: run.id,
    from: how.from,
    to: target.status,
    guard: how.guard,
    decision: how.decision,
    ledger: how.ledger,
    seen: run,
    bumpAttempt: true,
    bumpExecutionSeq: how.bumpExecutionSeq,
    set: { ...CLEARED_REVIEW, ...clearedAssignment(run), ...how.set, stage, stageStartedAt: ctx.now },
    event: { type: how.eventType, actor: how.actor, data: { ...how.data, to: target.status, nextStage: stage } },
  };
}

/** Parks the run with one canonical pending review; the commit schedules its expiry. */
function parkWrite(move: AtVisit & { park: ParkRequest }, ctx: MoveContext): StoreWrite {
  const { run, park } = move;
  const bundle = park.set?.bundle ?? run.bundle;
  const review = createPendingReview({
    park: park.why,
    issues: park.issues,
    candidate: park.candidate,
    output: park.output,
    schemaHash: run.schemaHash ?? '',
    schema: park.schema,
    now: ctx.now,
    ttlSeconds: run.policy.reviewTtlSeconds ?? ctx.reviewTtlSeconds,
    reviewId: ctx.newId(),
    originStepId: `${run.stage}:${run.attempt}`,
    locale: questionLocale(run.request.locale, bundle?.prompt ?? run.request.prompt),
    safetyFlags: bundle?.safetyFlags.map((flag) => flag.code),
    quorum: run.policy.quorum,
    team: run.policy.team,
    sla: scheduleSla(slaAt(run.policy, park.why.checkpoint), ctx.now),
  });
  const binding = visitGuard(move);
  return {
    runId: run.id,
    from: binding.from,
    to: 'awaiting_human',
    guard: binding.guard,
    ledger: binding.ledger,
    seen: run,
    set: {
      ...park.set,
      issues: [...park.issues],
      pendingReview: review,
      pendingReviewId: review.reviewId,
      parkedAt: ctx.now,
      reviewExpiresAt: new Date(review.expiresAt),
    },
    event: {
      type: 'review.created',
      actor: move.actor,
      data: { reviewId: review.reviewId, checkpoint: review.checkpoint, reason: review.reason, kind: review.kind, issues: park.issues.length, question: review.question, payloadHash: review.payloadHash },
    },
  };
}

function completeWrite(run: RunRow, executed: ExecutionResult, ctx: MoveContext, binding: Binding): StoreWrite {
  // The result says which output the upstream app gets: the provider's, unless a reviewer edited the text.
  const result: ExecutionResult = { ...executed, outputSource: executed.outputSource ?? 'provider' };
  // The step recorded with this move says what the run says: the provider's output, named as such.
  const ledger = binding.ledger && { ...binding.ledger, result: { ...binding.ledger.result, outputSource: binding.ledger.result.outputSource ?? 'provider' } };
  return {
    runId: run.id, from: binding.from, to: 'completed', guard: binding.guard, decision: binding.decision, ledger, seen: run,
    set: { ...CLEARED_REVIEW, ...clearedAssignment(run), result, completedAt: ctx.now },
    event: { type: 'run.completed', actor: binding.actor, data: { provider: result.provider, predictionId: result.predictionId ?? null, outputSource: result.outputSource ?? 'provider' } },
  };
}

/** Ends the run failed, cancelled or expired, with a reason naming the field when there is one. */
function endWrite(run: RunRow, to: EndStatus, error: RunError, ctx: MoveContext, binding: Binding): StoreWrite {
  return {
    runId: run.id, from: binding.from, to, guard: binding.guard, decision: binding.decision, ledger: binding.ledger, seen: run,
    set: { ...CLEARED_REVIEW, ...clearedAssignment(run), error, completedAt: ctx.now },
    event: { type: END_EVENTS[to], actor: binding.actor, data: { ...error, ...(run.pendingReviewId ? { reviewId: run.pendingReviewId, ...reviewedPayload(run) } : {}) } },
  };
}

/** A claim or its release: only while nobody else holds a live claim on the same pending review. */
function claimWrite(run: RunRow, actor: string, set: RunPatch, type: RunEventType, ctx: MoveContext, data: Record<string, unknown>): StoreWrite {
  return {
    runId: run.id, from: ['awaiting_human'], to: 'awaiting_human', seen: run, set,
    guard: { pendingReviewId: run.pendingReviewId ?? '', claimableBy: { actor, now: ctx.now } },
    event: { type, actor, data: { reviewId: run.pendingReviewId, ...reviewedPayload(run), ...data } },
  };
}

/** A person's assignment, compare-and-set on the assignee the mover saw, so two reassignments cannot cross. */
function assignWrite(move: Extract<Move, { kind: 'assign' }>): StoreWrite {
  const { run } = move;
  return {
    runId: run.id, from: ['awaiting_human'], to: 'awaiting_human', seen: run, set: { assignedTo: move.to },
    guard: { pendingReviewId: run.pendingReviewId ?? '', assignedTo: { is: run.assignedTo } },
    event: {
      type: run.assignedTo === null ? 'review.assigned' : 'review.reassigned',
      actor: move.actor,
      data: { reviewId: run.pendingReviewId, ...reviewedPayload(run), action: move.how, assignee: move.to, from: run.assignedTo, ...(move.reason ? { reason: move.reason } : {}) },
    },
  };
}

/**
 * A snooze is the actor's alone: their entry in the review's snoozes is set (or removed), lapsed entries are
 * dropped, and the write is bound to the snoozes as read, so two people snoozing at once do not lose one.
 */
function snoozeWrite(move: Extract<Move, { kind: 'snooze' }>, ctx: MoveContext): StoreWrite {
  const { run, actor, until } = move;
  const snoozes = Object.fromEntries(Object.entries(run.snoozes).filter(([who, at]) => who !== actor && Date.parse(at) > ctx.now.getTime()));
  if (until) snoozes[actor] = until.toISOString();
  return {
    runId: run.id, from: ['awaiting_human'], to: 'awaiting_human', seen: run, set: { snoozes },
    guard: { pendingReviewId: run.pendingReviewId ?? '', snoozes: run.snoozes },
    event: { type: until ? 'review.snoozed' : 'review.unsnoozed', actor, data: { reviewId: run.pendingReviewId, until: until?.toISOString() ?? null } },
  };
}

/**
 * An SLA step writes the review back changed, so it is bound to the review exactly as read: a decision, a
 * quorum approval, a re-ask or the other step in between makes it miss, and the timer that fired does nothing.
 */
function slaGuard(run: RunRow): WriteGuard {
  if (!run.pendingReview) throw new Error(`run ${run.id} has no pending review`);
  return { pendingReviewId: run.pendingReview.reviewId, pendingReviewIs: run.pendingReview };
}

/** The reminder: recorded on the review and in the trail; the commit tells the people. */
function remindWrite(run: RunRow, ctx: MoveContext): StoreWrite {
  const guard = slaGuard(run);
  const review = run.pendingReview as PendingReview;
  const who = remindWho(review, liveClaimant(run, ctx.now));
  return {
    runId: run.id, from: ['awaiting_human'], to: 'awaiting_human', seen: run, guard, set: { pendingReview: reminded(review, ctx.now, who) },
    event: { type: 'review.reminded', actor: 'system:sla', data: { reviewId: review.reviewId, ...reviewedPayload(run), who, due: review.sla?.remindAt ?? null } },
  };
}

/** The escalation: the review moves to its target (sla.ts `escalated`), and whoever held it lets go. */
function escalateWrite(run: RunRow, ctx: MoveContext): StoreWrite {
  const guard = slaGuard(run);
  const review = run.pendingReview as PendingReview;
  const moved = escalated(review, ctx.now, liveClaimant(run, ctx.now));
  const target = review.sla?.escalatesTo;
  return {
    // The escalation target takes the review: whoever it was assigned to is no longer the one to decide it.
    runId: run.id, from: ['awaiting_human'], to: 'awaiting_human', seen: run, guard, set: { pendingReview: moved, ...CLEARED_CLAIM, assignedTo: null },
    event: {
      type: 'review.escalated', actor: 'system:sla',
      data: { reviewId: review.reviewId, ...reviewedPayload(run), to: target ?? null, toText: target ? describeTarget(target) : null, from: moved.sla?.escalatedFrom ?? null, due: review.sla?.escalateAt ?? null },
    },
  };
}

function liveClaimant(run: RunRow, now: Date): string | null {
  return run.claimedBy && run.claimExpiresAt && run.claimExpiresAt >= now ? run.claimedBy : null;
}

function resumeWrite(run: RunRow, actor: string, reason: string | undefined, ctx: MoveContext): StoreWrite {
  const pausedFrom = run.pausedFrom;
  if (!pausedFrom) throw new Error(`run ${run.id} is not paused`);
  if (isInFlight(pausedFrom)) {
    // Back to its stage as a new visit: the job it had was handed back when it paused.
    return enterStage(run, run.stage, ctx, { from: ['paused'], actor, eventType: 'run.resumed', set: { pausedFrom: null }, data: { reason: reason ?? null } });
  }
  return {
    runId: run.id, from: ['paused'], to: pausedFrom, seen: run, set: { pausedFrom: null },
    event: { type: 'run.resumed', actor, data: { to: pausedFrom } },
  };
}

/** A decision: the decision row and its review.decided event ride on the move it causes. */
function decideWrite(run: RunRow, decision: DecisionInput, ctx: MoveContext): StoreWrite {
  const { plan, actor } = decision;
  const binding: Binding = {
    from: ['awaiting_human'], actor: actor.id, decision: decisionRecord(run, decision),
    // A review someone else holds a live claim on is theirs to decide.
    guard: { pendingReviewId: decision.reviewId, claimableBy: { actor: actor.id, now: ctx.now } },
  };
  const resumed = { ...binding, eventType: 'run.resumed' as const, data: { route: plan.route, reviewId: decision.reviewId } };
  switch (plan.route) {
    case 'execute':
      return enterStage(run, 'execute', ctx, plan.newExecutionStep ? { ...resumed, bumpExecutionSeq: true } : { ...resumed, set: { approvedPayloadHash: payloadHash(run.candidate) } });
    case 'validate':
      return enterStage(run, 'validate', ctx, { ...resumed, set: editedColumns(run, plan), bumpExecutionSeq: plan.newExecutionStep });
    case 'build':
      return enterStage(run, 'build', ctx, { ...resumed, set: withEdits(run, plan.edits) });
    case 'extract':
      return enterStage(run, 'extract', ctx, { ...resumed, set: otherModelColumns(plan), data: { ...resumed.data, ...modelChangeFacts(plan) } });
    case 'complete':
      if (!run.result) throw new Error(`run ${run.id} has no result to accept`);
      return completeWrite(run, plan.outputEdit ? editedResult(run.result, plan.outputEdit, actor.id, ctx.now) : run.result, ctx, binding);
    case 'cancel':
      return endWrite(run, 'cancelled', { code: 'REJECTED', message: plan.reason }, ctx, binding);
    case 'await_quorum':
    case 're_ask':
      // The approval, or the reply, is recorded (the decision row and its event); the review stays pending.
      return { runId: run.id, from: binding.from, to: 'awaiting_human', guard: binding.guard, decision: binding.decision, seen: run, set: { pendingReview: plan.review, ...CLEARED_CLAIM } };
    default:
      return assertNever(plan, 'decision route');
  }
}

function decisionRecord(run: RunRow, decision: DecisionInput): DecisionRecord {
  const { plan, actor } = decision;
  const recheck = plan.route === 'validate' && plan.recheck ? { recheck: plan.recheck.reason, schemaKey: plan.recheck.schemaKey } : {};
  const modelChange = plan.route === 'extract' ? modelChangeFacts(plan) : {};
  const outputEdit = plan.route === 'complete' && plan.outputEdit ? { outputSource: 'human_edit', outputHash: plan.outputEdit.outputHash } : {};
  const retried = plan.route === 'validate' && plan.newExecutionStep ? { newExecutionStep: true } : {};
  return {
    reviewId: decision.reviewId,
    actor: actor.id,
    action: decision.action,
    raw: decision.raw,
    edits: decision.edits,
    parsed: { ...decision.parsed, route: plan.route, status: STATUS_AFTER_ROUTE[plan.route], checkpoint: run.pendingReview?.checkpoint ?? null, ...recheck, ...modelChange, ...outputEdit, ...retried },
    override: plan.route === 'execute' && plan.override,
    review: run.pendingReview,
    // A reply that was not understood leaves the review pending: the trail says it asked again.
    event: {
      type: plan.route === 're_ask' ? 'review.re_asked' : 'review.decided',
      actor: actor.id,
      data: { reviewId: decision.reviewId, action: decision.action, route: plan.route, ...modelChange, ...reviewedPayload(run), ...(plan.route === 'execute' && plan.override ? { override: true } : {}) },
    },
  };
}

/** The hash of the payload the pending review showed, for the audit chain (src/db/schema/audit.ts). */
function reviewedPayload(run: RunRow): { payloadHash?: string } {
  const hash = run.pendingReview?.payloadHash;
  return hash ? { payloadHash: hash } : {};
}

/** Old and new model, and the edits the new one had no place for: in the decision row and both its events. */
function modelChangeFacts(plan: Extract<DecisionPlan, { route: 'extract' }>): Record<string, unknown> {
  return { fromModel: plan.fromModel, toModel: plan.toModel, droppedEdits: plan.droppedEdits };
}

/**
 * Another model: the request names it, and everything the old model's stages produced is cleared, so extract,
 * assemble and build start from what people gave (the request and the edits that fit, src/review-model/change-model.ts).
 */
function otherModelColumns(plan: Extract<DecisionPlan, { route: 'extract' }>): RunPatch {
  return {
    request: plan.request, reviewEdits: plan.reviewEdits, model: null, schemaKey: null, schemaHash: null,
    bundle: null, candidate: null, issues: [], result: null, approvedPayloadHash: null, recheck: null,
  };
}

/**
 * A pending review closed by something other than a person's decision (it expired, the run was cancelled):
 * recorded like a decision, so the review stays readable and its end is in the audit trail.
 */
function closingRecord(run: RunRow, actor: string, action: string, status: RunStatus): DecisionRecord | undefined {
  const review = run.pendingReview;
  if (!review) return undefined;
  return { reviewId: review.reviewId, actor, action, raw: {}, parsed: { route: status, status, checkpoint: review.checkpoint }, edits: null, override: false, review };
}

/** An edit's columns: the patched candidate, the edits kept for later builds, and who approved what. */
function editedColumns(run: RunRow, plan: Extract<DecisionPlan, { route: 'validate' }>): RunPatch {
  // The editor wrote this payload: require_human need not ask again, unless a quorum must approve.
  const approved = (run.policy.quorum ?? 1) > 1 ? null : payloadHash(plan.candidate);
  const columns: RunPatch = { candidate: plan.candidate, ...withEdits(run, plan.edits), approvedPayloadHash: approved };
  if (!plan.recheck) return columns;
  // The model's schema changed under the decision: check against the new one, and ask a person again.
  return { ...columns, schemaKey: plan.recheck.schemaKey, schemaHash: plan.recheck.schemaHash, approvedPayloadHash: null, recheck: plan.recheck.reason };
}

function withEdits(run: RunRow, edits: Record<string, unknown>): RunPatch {
  return {
    reviewEdits: { ...run.reviewEdits, ...edits },
    bundle: run.bundle ? { ...run.bundle, humanEdits: withoutNulls({ ...run.bundle.humanEdits, ...edits }) } : null,
  };
}

function withoutNulls(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null));
}

