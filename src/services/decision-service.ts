/**
 * Applying a reviewer's decision to a parked run. The plan comes from the pure planDecision; this module
 * lands it with one statement: a compare-and-set on (status = awaiting_human, pending reviewId) that also
 * writes the decision audit row and its events (run-moves.ts), so of two concurrent decisions exactly one
 * wins and the other gets DECISION_CONFLICT, and a decision is never recorded without its move.
 */
import type { RunRow } from '../db/schema/index.ts';
import { VettedError } from '../errors.ts';
import type { Decision } from '../generated/contracts.ts';
import { logEvent } from '../observability/logger.ts';
import { stageDefinition } from '../pipeline.ts';
import { planDecision, type DecisionActor, type DecisionPlan } from '../review/plan-decision.ts';
import { isTerminal } from '../run-states.ts';
import { assertContract } from '../schema/contracts.ts';
import { payloadHash } from '../stages/gate.ts';
import type { System } from '../system.ts';
import { validatePayload } from '../stages/validator/index.ts';
import { advanceToStage, completeRun, endRun, logContext, parkRun, type MoveGuard } from './run-transitions.ts';

export interface DecideInput {
  runId: string;
  /** Scope: a run of another tenant is "not found". Omit for operator tools (the CLI). */
  tenantId?: string;
  body: unknown;
  actor: DecisionActor;
  /** The HTTP API binds every approval and edit to the payload the reviewer saw. */
  requirePayloadHash?: boolean;
}

export interface DecideResult {
  run: RunRow;
  plan: DecisionPlan;
}

/** @throws VettedError RUN_NOT_FOUND, RUN_STATE_CONFLICT, REVIEW_STALE, PAYLOAD_HASH_MISMATCH, BLOCKING_ISSUES, EDIT_INVALID, DECISION_CONFLICT */
export async function decide(system: System, input: DecideInput): Promise<DecideResult> {
  const decision = assertContract<Decision>('decision', input.body, 'decision');
  if (input.requirePayloadHash && (decision.action === 'approve' || decision.action === 'edit') && !decision.payloadHash) {
    throw new VettedError('INVALID_REQUEST', 'decision: payloadHash is required; echo the payloadHash of the review you were shown', { field: 'payloadHash' });
  }
  const run = await system.runs.get(input.runId, input.tenantId);
  if (!run) throw new VettedError('RUN_NOT_FOUND', `No run ${input.runId}`, { field: 'id' });
  if (isTerminal(run.status)) throw new VettedError('RUN_STATE_CONFLICT', `The run is ${run.status}; it takes no more decisions`, { field: 'id' });
  const schema = run.schemaKey ? await system.models.getSchema(run.schemaKey) : undefined;
  const plan = planDecision({
    status: run.status, pendingReview: run.pendingReview, candidate: run.candidate, schema, decision, actor: input.actor, now: system.clock.now(),
  });
  if (plan.route === 'execute' || plan.route === 'validate') await refuseIfSchemaChanged(system, run, decision, input.actor);
  const updated = await applyPlan(system, run, plan, decision, input.actor);
  if (!updated) {
    throw new VettedError('DECISION_CONFLICT', `Review ${decision.reviewId} was decided or changed by someone else; fetch the run again`, { field: 'reviewId' });
  }
  const review = run.pendingReview;
  if (review) {
    const waitedSeconds = (system.clock.now().getTime() - Date.parse(review.createdAt)) / 1000;
    system.metrics.humanLatency.observe({ checkpoint: review.checkpoint, action: decision.action }, Math.max(0, waitedSeconds));
  }
  logEvent(system.logger, 'HITL_RESUME_VALID', logContext(run), { reviewId: decision.reviewId, action: decision.action, route: plan.route, actor: input.actor.id });
  if (plan.route === 'execute' && plan.override) {
    logEvent(system.logger, 'HITL_OVERRIDE', logContext(run), { reviewId: decision.reviewId, actor: input.actor.id }, 'warn');
  }
  return { run: updated, plan };
}

function applyPlan(system: System, run: RunRow, plan: DecisionPlan, decision: Decision, actor: DecisionActor): Promise<RunRow | undefined> {
  const guard: MoveGuard = {
    from: ['awaiting_human'],
    guard: { pendingReviewId: decision.reviewId },
    actor: actor.id,
    decision: {
      ...decisionRecord(system, decision, actor),
      parsed: { route: plan.route, status: STATUS_AFTER[plan.route], checkpoint: run.pendingReview?.checkpoint ?? null },
      override: plan.route === 'execute' && plan.override,
      event: { type: 'review.decided', actor: actor.id, data: { reviewId: decision.reviewId, action: decision.action, route: plan.route } },
    },
  };
  const resumed = { eventType: 'run.resumed' as const, data: { route: plan.route, reviewId: decision.reviewId } };
  switch (plan.route) {
    case 'execute':
      return advanceToStage(system, run, 'execute', guard, {
        ...resumed,
        ...(plan.newExecutionStep ? { bumpExecutionSeq: true } : { set: { approvedPayloadHash: payloadHash(run.candidate) } }),
      });
    case 'validate': {
      const edits = { ...run.reviewEdits, ...plan.edits };
      return advanceToStage(system, run, 'validate', guard, {
        ...resumed,
        set: {
          candidate: plan.candidate,
          reviewEdits: edits,
          bundle: run.bundle ? { ...run.bundle, humanEdits: withoutNulls({ ...run.bundle.humanEdits, ...plan.edits }) } : null,
          // The editor wrote this payload: require_human need not ask again, unless a quorum must approve.
          approvedPayloadHash: (run.policy.quorum ?? 1) > 1 ? null : payloadHash(plan.candidate),
        },
      });
    }
    case 'build': {
      const edits = { ...run.reviewEdits, ...plan.edits };
      return advanceToStage(system, run, 'build', guard, {
        ...resumed,
        set: { reviewEdits: edits, bundle: run.bundle ? { ...run.bundle, humanEdits: withoutNulls({ ...run.bundle.humanEdits, ...plan.edits }) } : null },
      });
    }
    case 'complete':
      if (!run.result) throw new VettedError('RUN_STATE_CONFLICT', 'The run has no result to accept', { field: 'action' });
      return completeRun(system, run, run.result, guard);
    case 'cancel':
      return endRun(system, run, 'cancelled', { code: 'REJECTED', message: plan.reason }, guard);
    case 'await_quorum':
      return system.runs
        .transition({ runId: run.id, from: guard.from, to: 'awaiting_human', guard: guard.guard, decision: guard.decision, set: { pendingReview: plan.review } })
        .then((moved) => moved?.run);
  }
}

/**
 * A run parked against one version of a model's schema must not execute after the catalog moved on to
 * another: validate the payload against the new schema and raise a new review instead.
 */
async function refuseIfSchemaChanged(system: System, run: RunRow, decision: Decision, actor: DecisionActor): Promise<void> {
  const ref = run.request.model;
  if (!ref || ref.includes(':') || run.request.modelSource || !run.schemaKey || !run.candidate || !run.bundle) return;
  const current = await system.models.resolveRef(run.tenantId, ref);
  if (!current || current.schemaKey === run.schemaKey) return;
  const [schema, quarantine] = await Promise.all([system.models.getSchema(current.schemaKey), system.models.getQuarantine(current.schemaKey)]);
  // A new key with the same JSON Schema is a re-registration or an extractor upgrade (model-catalog.ts), not a
  // change the reviewed payload could fall foul of: asking again would refuse every waiting decision.
  if (!schema || schema.schemaHash === run.schemaHash) return;
  const issues = validatePayload({ candidate: run.candidate, schema, bundle: run.bundle, quarantine });
  const newReviewId = system.newId();
  const parked = await parkRun(
    system,
    { ...run, schemaHash: schema.schemaHash },
    {
      park: { reason: 'schema_changed', kind: 'approval', checkpoint: 'payload_review', question: `The model's schema changed while this run waited (now ${current.schemaKey}). Review the payload against it.` },
      issues,
      candidate: run.candidate,
      set: { schemaKey: current.schemaKey, schemaHash: schema.schemaHash, approvedPayloadHash: null },
      reviewId: newReviewId,
    },
    {
      from: ['awaiting_human'],
      guard: { pendingReviewId: decision.reviewId },
      actor: actor.id,
      decision: { ...decisionRecord(system, decision, actor), parsed: { route: 'refused', reason: 'schema_changed', newReviewId }, override: false },
    },
  );
  if (!parked) throw new VettedError('DECISION_CONFLICT', `Review ${decision.reviewId} was decided or changed by someone else`, { field: 'reviewId' });
  throw new VettedError('SCHEMA_CHANGED', `The model's schema changed while the run was parked; review ${parked.pendingReviewId} replaces ${decision.reviewId}`, {
    field: 'reviewId',
    details: { currentReviewId: parked.pendingReviewId },
  });
}

/** What every decision row records, whatever it led to: who, which review, the body as sent (redacted). */
function decisionRecord(system: System, decision: Decision, actor: DecisionActor) {
  return {
    reviewId: decision.reviewId,
    actor: actor.id,
    action: decision.action,
    raw: system.redact(decision as unknown as Record<string, unknown>),
    edits: decision.edits ?? null,
  };
}

/** The status each route leaves the run in (recorded in the decision row's `parsed`). */
const STATUS_AFTER: Record<DecisionPlan['route'], RunRow['status']> = {
  execute: stageDefinition('execute').status,
  validate: stageDefinition('validate').status,
  build: stageDefinition('build').status,
  complete: 'completed',
  cancel: 'cancelled',
  await_quorum: 'awaiting_human',
};

function withoutNulls(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null));
}
