/**
 * What a reviewer's decision means for a parked run, decided without I/O. The caller (src/review/decide-on-run.ts)
 * commits it as one `decide` move (src/engine/moves.ts): a compare-and-set on the pending review, so of two
 * concurrent decisions exactly one lands.
 */
import { VettedError } from '../errors.ts';
import type {
  CandidatePayload,
  Decision,
  FieldProvenance,
  GenerationRequest,
  ModelSchema,
  PendingReview,
  RunStatus,
} from '../generated/contracts.ts';
import { planModelChange, type ModelChangePlan, type ModelTarget } from './change-model.ts';
import { planOutputEdit, type OutputEdit } from './edit-output.ts';
import { assertValidEdits } from './edit-validation.ts';
import { resumeRoute, RESUME_ROUTES, type ResumeRoute } from './resume-routing.ts';

export interface DecisionActor {
  /** Who decided: a key id or a CLI user, recorded forever. */
  id: string;
  /** Holds the override permission: may approve a payload that still has blocking issues. */
  canOverride: boolean;
  /** Holds reviews:change_model: may send the run to another catalog model. */
  canChangeModel?: boolean;
}

export interface PlanDecisionInput {
  status: RunStatus;
  pendingReview: PendingReview | null;
  candidate: CandidatePayload | null;
  schema: ModelSchema | undefined;
  decision: Decision;
  actor: DecisionActor;
  now: Date;
  /** response_review: the provider's output (what an edit_text decision edits). */
  output?: unknown;
  /** What a change_model decision keeps (the request and reviewers' edits) and the model it names, resolved. */
  modelChange?: { request: GenerationRequest; reviewEdits: Record<string, unknown>; currentModel: string | null; target: ModelTarget | undefined };
}

/**
 * The model's schema changed while the run waited: the payload goes back to validate against the new schema
 * (`schemaKey`, `schemaHash`), and a person is asked again whatever the gate's other rules say.
 */
export interface SchemaRecheck {
  reason: 'schema_changed';
  schemaKey: string;
  schemaHash: string;
}

export type DecisionPlan =
  | { route: 'execute'; override: boolean; newExecutionStep: boolean }
  /** `newExecutionStep`: a response review's retry with changes runs the edited payload as a new ledger step. */
  | { route: 'validate'; candidate: CandidatePayload; edits: Record<string, unknown>; recheck?: SchemaRecheck; newExecutionStep?: boolean }
  | { route: 'build'; edits: Record<string, unknown> }
  /** Another model (change_model): extract, assemble and build again from what people gave (change-model.ts). */
  | ModelChangePlan
  /** `outputEdit`: a reviewer's edit of a text output, which the upstream app gets instead (edit-output.ts). */
  | { route: 'complete'; outputEdit?: OutputEdit }
  | { route: 'cancel'; reason: string }
  /** An approval counted towards a quorum that is not reached yet: the review stays pending. */
  | { route: 'await_quorum'; review: PendingReview }
  /** A chat reply that was not understood: the review stays pending, asked again (src/review/reply-service.ts). */
  | { route: 're_ask'; review: PendingReview };

/** @throws VettedError with a code the API maps to 409/422/400/403 (see src/errors.ts). */
export function planDecision(input: PlanDecisionInput): DecisionPlan {
  const review = assertDecidable(input);
  const { decision } = input;
  const route = resumeRoute(review.checkpoint, decision.action, review.reason);
  if (!route) {
    throw new VettedError(
      'INVALID_REQUEST',
      `action "${decision.action}" is not possible at a ${review.checkpoint}; choose one of ${Object.keys(RESUME_ROUTES[review.checkpoint]).join(', ')}`,
      { field: 'action' },
    );
  }
  const retryWithChanges = decision.action === 'retry' && review.checkpoint === 'response_review' && decision.edits !== undefined;
  if (decision.action !== 'edit' && decision.edits !== undefined && !retryWithChanges) {
    throw new VettedError('INVALID_REQUEST', 'edits are only accepted with action "edit", or "retry" at a response review', { field: 'edits' });
  }
  if (decision.action !== 'edit_text' && (decision.text !== undefined || decision.outputHash !== undefined)) {
    throw new VettedError('INVALID_REQUEST', 'text and outputHash are only accepted with action "edit_text"', { field: decision.text !== undefined ? 'text' : 'outputHash' });
  }
  // Retry with changes: the edited payload is validated again, then run as a new ledger step.
  if (retryWithChanges) return { ...planEdit(input), newExecutionStep: true };
  if (decision.action !== 'change_model' && decision.model !== undefined) {
    throw new VettedError('INVALID_REQUEST', 'model is only accepted with action "change_model"', { field: 'model' });
  }
  // With no candidate (the builder failed), an edit feeds the builder instead of patching a payload.
  if (route === 'validate' && !input.candidate) return planRoute('build', review, input);
  if (route === 'execute' && !input.candidate && review.checkpoint !== 'response_review') {
    throw new VettedError('RUN_STATE_CONFLICT', 'There is no payload to approve; retry, edit or reject', { field: 'action' });
  }
  return planRoute(route, review, input);
}

function assertDecidable(input: PlanDecisionInput): PendingReview {
  const review = input.pendingReview;
  if (input.status !== 'awaiting_human' || !review) {
    throw new VettedError('RUN_STATE_CONFLICT', `The run is ${input.status}, not awaiting a decision`, { field: 'reviewId' });
  }
  if (input.decision.reviewId !== review.reviewId) {
    throw new VettedError('REVIEW_STALE', `Review ${input.decision.reviewId} is not the pending one (${review.reviewId})`, {
      field: 'reviewId',
      details: { currentReviewId: review.reviewId },
    });
  }
  if (Date.parse(review.expiresAt) <= input.now.getTime()) {
    throw new VettedError('REVIEW_STALE', `Review ${review.reviewId} expired at ${review.expiresAt}`, { field: 'reviewId' });
  }
  if (input.decision.payloadHash !== undefined && input.decision.payloadHash !== review.payloadHash) {
    throw new VettedError('PAYLOAD_HASH_MISMATCH', 'The payload changed since it was shown; fetch the review again', {
      field: 'payloadHash',
      details: { currentPayloadHash: review.payloadHash },
    });
  }
  return review;
}

function planRoute(route: ResumeRoute, review: PendingReview, input: PlanDecisionInput): DecisionPlan {
  const { decision } = input;
  switch (route) {
    case 'execute':
      return planApproval(review, input);
    case 'validate':
      return planEdit(input);
    case 'build':
      return { route: 'build', edits: decision.edits ? assertValidEdits(requireSchema(input), decision.edits) : {} };
    case 'extract':
      return planChangeOfModel(input);
    case 'complete':
      return decision.action === 'edit_text' ? { route: 'complete', outputEdit: planOutputEdit(input.output, decision.text, decision.outputHash) } : { route: 'complete' };
    case 'cancel':
      return { route: 'cancel', reason: decision.reason?.trim() || `Rejected by ${input.actor.id}` };
  }
}

function planApproval(review: PendingReview, input: PlanDecisionInput): DecisionPlan {
  const { decision, actor } = input;
  // Running the same payload again is a new ledger step: after a response review's retry, and when a person
  // decides to run an execution whose earlier attempt left no outcome or was refused as too many requests.
  if (review.checkpoint === 'response_review' || review.reason === 'execution_uncertain' || review.reason === 'provider_throttled') {
    return { route: 'execute', override: false, newExecutionStep: true };
  }
  const blocking = review.issues.filter((issue) => issue.severity === 'blocking');
  const override = decision.override === true;
  if (override && !actor.canOverride) {
    const why = blocking.length > 0 ? '' : ' (this review has no blocking issues: approve without it)';
    throw new VettedError('FORBIDDEN', `"override" needs the override permission (role admin)${why}`, { field: 'override' });
  }
  if (blocking.length > 0 && !override) {
    throw new VettedError(
      'BLOCKING_ISSUES',
      `The payload still has ${blocking.length} blocking issue(s) (${blocking.map((i) => i.path).join(', ')}); edit it, reject it, or approve with override`,
      { field: 'action', details: { issues: blocking } },
    );
  }
  const quorum = review.quorum ?? 1;
  if (quorum > 1) {
    const approvals = review.approvals ?? [];
    if (approvals.includes(actor.id)) {
      throw new VettedError('DECISION_CONFLICT', `${actor.id} already approved this review; ${quorum} distinct reviewers are needed`, {
        field: 'reviewId',
      });
    }
    if (approvals.length + 1 < quorum) return { route: 'await_quorum', review: { ...review, approvals: [...approvals, actor.id] } };
  }
  return { route: 'execute', override: override && blocking.length > 0, newExecutionStep: false };
}

function planEdit(input: PlanDecisionInput): Extract<DecisionPlan, { route: 'validate' }> {
  const edits = assertValidEdits(requireSchema(input), input.decision.edits ?? {});
  const candidate = input.candidate;
  if (!candidate) throw new VettedError('RUN_STATE_CONFLICT', 'The run has no candidate payload to edit', { field: 'edits' });
  // Maps, then Object.fromEntries: a field named like an Object.prototype member (`__proto__`) becomes an
  // own property, where `payload[name] = value` would hit the prototype setter and drop the edit.
  const payload = new Map(Object.entries(candidate.payload as Record<string, unknown>));
  const provenance = new Map(Object.entries(candidate.provenance));
  for (const [name, value] of Object.entries(edits)) {
    if (value === null) {
      payload.delete(name);
      provenance.delete(name);
    } else {
      payload.set(name, value);
      provenance.set(name, { source: 'human_edit', evidence: `edited by ${input.actor.id}`, confidence: 1 });
    }
  }
  const notes = [...(candidate.notes ?? []), `${Object.keys(edits).join(', ')} edited by ${input.actor.id}`];
  return {
    route: 'validate',
    edits,
    candidate: { ...candidate, payload: Object.fromEntries(payload), provenance: Object.fromEntries(provenance) as Record<string, FieldProvenance>, notes },
  };
}

function planChangeOfModel(input: PlanDecisionInput): ModelChangePlan {
  const change = input.modelChange;
  if (!change) throw new VettedError('INVALID_REQUEST', 'decision: "model" is required with action "change_model"', { field: 'model' });
  return planModelChange({ ...change, canChangeModel: input.actor.canChangeModel === true });
}

function requireSchema(input: PlanDecisionInput): ModelSchema {
  if (!input.schema) throw new VettedError('RUN_STATE_CONFLICT', 'The run has no model schema yet; edits cannot be checked', { field: 'edits' });
  return input.schema;
}
