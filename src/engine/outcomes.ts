/**
 * What a stage step says should happen to its run. A step never writes the run: the engine turns its outcome
 * into a move (moves.ts) and commits it (commit.ts).
 */
import type { CandidatePayload, ExecutionResult, ModelSchema, RunError, ValidationIssue } from '../generated/contracts.ts';
import type { ParkReason } from '../stages/gate.ts';
import type { RunPatch } from './store.ts';

/** Why and with what a run parks awaiting a person: the facts its one pending review is built from. */
export interface ParkRequest {
  why: ParkReason;
  issues: readonly ValidationIssue[];
  candidate: CandidatePayload | null;
  /** The model's answer, for a response review. */
  output?: unknown;
  /** Other columns the park writes (the assembled bundle, the result awaiting review). */
  set?: RunPatch;
  /** The model's schema, when the stage had it: the question offers a field's allowed values from it. */
  schema?: ModelSchema;
}

export type StageOutcome =
  /** Go on to the next stage in the table, writing `set`; `data` goes into the stage.completed event. */
  | { kind: 'advance'; set?: RunPatch; data?: Record<string, unknown> }
  | { kind: 'park'; park: ParkRequest }
  | { kind: 'complete'; result: ExecutionResult }
  | { kind: 'fail'; error: RunError }
  /** The run left this visit while the step ran (cancelled, say): nothing to commit. */
  | { kind: 'superseded' };
