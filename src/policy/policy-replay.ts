/**
 * Replaying a policy over one stored run: the gate's own rules (src/stages/gate.ts), fed what the run
 * stored (its bundle, its last candidate and issues, its model's schema), under the proposed policy. Pure:
 * the same run and policy always give the same answer, and nothing is written.
 */
import type { CandidatePayload, ModelSchema, PolicySpec, RequestBundle, ValidationIssue } from '../generated/contracts.ts';
import { decideGate, informationReview, type Checkpoint } from '../stages/gate.ts';

/** The checkpoints a policy decides before anything executes, and after (responseReview). */
export type PolicyCheckpoint = Extract<Checkpoint, 'information_review' | 'payload_review' | 'response_review'>;

export interface ReplayInput {
  bundle: RequestBundle | null;
  candidate: CandidatePayload | null;
  issues: readonly ValidationIssue[];
  schema: ModelSchema | undefined;
  /** The provider ran it, so a response review could have been asked. */
  executed: boolean;
}

export type ReplayResult =
  /** Where the run would wait for a person (at most one pre-execution checkpoint, then a response review). */
  | { kind: 'replayed'; parks: { checkpoint: PolicyCheckpoint; reason: string }[] }
  /** The run never got far enough to be judged (no bundle, or no candidate and nothing to ask about). */
  | { kind: 'not_replayable'; why: 'not_assembled' | 'not_built' | 'schema_missing' };

export function replayPolicy(input: ReplayInput, policy: PolicySpec): ReplayResult {
  if (!input.bundle) return { kind: 'not_replayable', why: 'not_assembled' };
  const information = informationReview(input.bundle, policy);
  if (information) return { kind: 'replayed', parks: [{ checkpoint: 'information_review', reason: information.reason }] };
  if (!input.candidate) return { kind: 'not_replayable', why: 'not_built' };
  if (!input.schema) return { kind: 'not_replayable', why: 'schema_missing' };
  // A person's earlier approval is not carried over: the question is what the proposed policy asks of the run.
  const gate = decideGate({ issues: input.issues, policy, candidate: input.candidate, schema: input.schema, bundle: input.bundle, approvedPayloadHash: null, recheck: null });
  const parks: { checkpoint: PolicyCheckpoint; reason: string }[] = [];
  if (gate.action === 'park') parks.push({ checkpoint: 'payload_review', reason: gate.reason });
  if (policy.responseReview && input.executed) parks.push({ checkpoint: 'response_review', reason: 'response_review' });
  return { kind: 'replayed', parks };
}
