/**
 * A reviewer's decision on a parked run: check the body, plan it (plan-decision.ts, pure), and commit it as
 * one `decide` move (src/engine/moves.ts): a compare-and-set on (status = awaiting_human, pending reviewId)
 * that also writes the decision audit row and its events, so of two concurrent decisions exactly one wins and
 * the other gets DECISION_CONFLICT, and a decision is never recorded without its move. What the decision
 * leads to (validating an edited payload, building again, executing) is the engine's work, not the caller's.
 */
import { assertSecretsStorable } from '../secrets/storable.ts';
import { commit } from '../engine/commit.ts';
import type { DecisionInput } from '../engine/moves.ts';
import type { Engine } from '../engine/engine.ts';
import type { RunRow } from '../engine/store.ts';
import { VettedError } from '../errors.ts';
import type { Decision } from '../generated/contracts.ts';
import { isTerminal } from '../run-states.ts';
import { assertContract } from '../schema/contracts.ts';
import { assertClaimable } from './claims.ts';
import { planDecision, type DecisionActor, type DecisionPlan, type PlanDecisionInput, type SchemaRecheck } from '../review-model/plan-decision.ts';

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

/** @throws VettedError RUN_NOT_FOUND, RUN_STATE_CONFLICT, REVIEW_STALE, REVIEW_CLAIMED, PAYLOAD_HASH_MISMATCH, BLOCKING_ISSUES, EDIT_INVALID, DECISION_CONFLICT, MODEL_NOT_FOUND */
export async function decide(engine: Engine, input: DecideInput): Promise<DecideResult> {
  const decision = assertContract<Decision>('decision', input.body, 'decision');
  if (input.requirePayloadHash && (decision.action === 'approve' || decision.action === 'edit') && !decision.payloadHash) {
    throw new VettedError('INVALID_REQUEST', 'decision: payloadHash is required; echo the payloadHash of the review you were shown', { field: 'payloadHash' });
  }
  try {
    const run = await loadDecidable(engine, input.runId, input.tenantId, input.actor);
    return await applyDecision(engine, run, decision, input.actor, { raw: engine.redact(decision as unknown as Record<string, unknown>) });
  } catch (error) {
    throw await lostRace(engine, input.runId, decision.reviewId, error);
  }
}

/**
 * The loser of two decisions gets DECISION_CONFLICT whether it read the run before the winner committed (its
 * compare-and-set misses) or after (the run has moved on: RUN_STATE_CONFLICT). Looked up only on that error path,
 * so a decision that lands costs nothing more.
 */
async function lostRace(engine: Engine, runId: string, reviewId: string, error: unknown): Promise<unknown> {
  if (!(error instanceof VettedError) || error.code !== 'RUN_STATE_CONFLICT' || !['id', 'reviewId'].includes(error.field ?? '')) return error;
  const winner = (await engine.store.decisions(runId)).find((row) => row.reviewId === reviewId);
  if (!winner) return error;
  return new VettedError('DECISION_CONFLICT', `Review ${reviewId} was already decided (${winner.action} by ${winner.actor}); fetch the run again`, { field: 'reviewId', cause: error });
}

/** The run a decision or a reply is for, if it can take one now. */
export async function loadDecidable(engine: Engine, runId: string, tenantId: string | undefined, actor: DecisionActor): Promise<RunRow> {
  const run = await engine.store.get(runId, tenantId);
  if (!run) throw new VettedError('RUN_NOT_FOUND', `No run ${runId}`, { field: 'id' });
  if (isTerminal(run.status)) throw new VettedError('RUN_STATE_CONFLICT', `The run is ${run.status}; it takes no more decisions`, { field: 'id' });
  assertClaimable(run, actor.id, engine.clock.now());
  return run;
}

/** How a decision arrived, for its audit row: the body as received, and what a reply was read as. */
export interface DecisionOrigin {
  raw: Record<string, unknown>;
  /** Added to the decision row's `parsed` (a reply's layer, decision and interpretation). */
  parsed?: Record<string, unknown>;
}

/**
 * Plans a decision (plan-decision.ts) and commits it as one `decide` move. Shared by reviewers' decisions and
 * chat replies, so both meet the same rules: the pending review, its payload hash, blocking issues, valid edits,
 * a quorum of distinct people, a schema that changed while the run waited.
 */
export async function applyDecision(engine: Engine, run: RunRow, decision: Decision, actor: DecisionActor, origin: DecisionOrigin): Promise<DecideResult> {
  const schema = run.schemaKey ? await engine.models.getSchema(run.schemaKey) : undefined;
  assertSecretsStorable(engine.config, schema, decision.edits, 'edits');
  const modelChange = decision.action === 'change_model' ? await modelChangeOf(engine, run, decision.model, actor) : undefined;
  let plan = planDecision({ status: run.status, pendingReview: run.pendingReview, candidate: run.candidate, schema, decision, actor, now: engine.clock.now(), modelChange });
  if (plan.route === 'complete' && !run.result) throw new VettedError('RUN_STATE_CONFLICT', 'The run has no result to accept', { field: 'action' });
  if (plan.route === 'execute' || plan.route === 'validate') plan = await recheckIfSchemaChanged(engine, run, plan);
  const moved = await commitDecision(engine, run, { plan, reviewId: decision.reviewId, action: decision.action, actor, raw: origin.raw, edits: decision.edits ?? null, parsed: origin.parsed });
  return { run: moved, plan };
}

/**
 * What a change_model decision needs besides the run: the model it names, looked up in the catalog of the
 * run's tenant (so another tenant's model is as unknown as one never registered). Only for a caller that may
 * change models: the plan refuses the others before the model matters.
 * @throws VettedError MODEL_NOT_FOUND (field `model`)
 */
async function modelChangeOf(engine: Engine, run: RunRow, model: string | undefined, actor: DecisionActor): Promise<PlanDecisionInput['modelChange']> {
  const keeps = { request: run.request, reviewEdits: run.reviewEdits, currentModel: run.model };
  if (!model || !actor.canChangeModel) return { ...keeps, target: undefined };
  const entry = await engine.models.resolveRef(run.tenantId, model);
  const schema = entry ? await engine.models.getSchema(entry.schemaKey) : undefined;
  if (!schema) {
    throw new VettedError('MODEL_NOT_FOUND', `model: "${model}" is not in your tenant's catalog; name a model registered with \`vetted models add\``, { field: 'model' });
  }
  return { ...keeps, target: { ref: model, schema } };
}

/** Commits a planned decision. @throws VettedError REVIEW_CLAIMED or DECISION_CONFLICT when the move misses. */
export async function commitDecision(engine: Engine, run: RunRow, decision: DecisionInput): Promise<RunRow> {
  const moved = await commit(engine, { kind: 'decide', run, decision });
  if (moved) return moved;
  const now = await engine.store.get(run.id);
  if (now) assertClaimable(now, decision.actor.id, engine.clock.now());
  throw new VettedError('DECISION_CONFLICT', `Review ${decision.reviewId} was decided or changed by someone else; fetch the run again`, { field: 'reviewId' });
}

/**
 * A run parked against one version of a model's schema must not execute after the catalog moved on to
 * another: the decision then sends the payload back to validate against the new schema, which asks a person
 * again (the gate's schema_changed rule). This only looks the model up; the engine does the checking.
 */
async function recheckIfSchemaChanged(engine: Engine, run: RunRow, plan: Extract<DecisionPlan, { route: 'execute' | 'validate' }>): Promise<DecisionPlan> {
  const recheck = await schemaChange(engine, run);
  if (!recheck || !run.candidate) return plan;
  return plan.route === 'validate' ? { ...plan, recheck } : { route: 'validate', candidate: run.candidate, edits: {}, recheck };
}

async function schemaChange(engine: Engine, run: RunRow): Promise<SchemaRecheck | undefined> {
  const ref = run.request.model;
  if (!ref || ref.includes(':') || run.request.modelSource || !run.schemaKey || !run.bundle) return undefined;
  const current = await engine.models.resolveRef(run.tenantId, ref);
  if (!current || current.schemaKey === run.schemaKey) return undefined;
  const schema = await engine.models.getSchema(current.schemaKey);
  // A new key with the same JSON Schema is a re-registration or an extractor upgrade (model-catalog.ts), not a
  // change the reviewed payload could fall foul of: asking again would refuse every waiting decision.
  if (!schema || schema.schemaHash === run.schemaHash) return undefined;
  return { reason: 'schema_changed', schemaKey: current.schemaKey, schemaHash: schema.schemaHash };
}
