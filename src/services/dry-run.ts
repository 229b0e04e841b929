/**
 * The whole V3 pipeline in one process, with no queue and no database: extract → assemble → (information
 * review) → build → validate → gate, with the same checks and checkpoints as the workers. `vetted dry-run` prints its result; shadow replay and the benchmarks reuse it.
 */
import type { Config } from '../config.ts';
import type {
  CandidatePayload,
  GenerationRequest,
  ModelSchema,
  RequestBundle,
  ValidationIssue,
} from '../generated/contracts.ts';
import type { PayloadBuilder } from '../ports.ts';
import { assertContract } from '../schema/contracts.ts';
import { assembleContext } from '../stages/context-assembler.ts';
import { assertEditsNameInputs } from '../stages/edit-targets.ts';
import { decideGate, informationReview, type GateDecision } from '../stages/gate.ts';
import { extractModelSchema } from '../stages/schema-extractor/index.ts';
import { validatePayload } from '../stages/validator/index.ts';
import { VettedError } from '../errors.ts';
import { normalizePolicy } from './intake.ts';
import { assertSameModel } from './request-preflight.ts';

export interface DryRunResult {
  modelSchema: ModelSchema;
  bundle: RequestBundle;
  /**
   * Null when the run would park for an information review before building (nothing to build from, or
   * personal data the policy holds back from the model), as the worker does: nothing is built then.
   */
  candidate: CandidatePayload | null;
  issues: ValidationIssue[];
  decision: 'execute' | 'awaiting_human';
  gate: GateDecision;
}

export async function dryRun(input: { modelSource: unknown; request: unknown; builder: PayloadBuilder; config: Config }): Promise<DryRunResult> {
  const request = assertContract<GenerationRequest>('generation-request', input.request, 'request');
  if (request.modelSource !== undefined) {
    throw new VettedError('INVALID_REQUEST', 'request: modelSource is set, and --model gives the model too; dry-run uses --model, so remove one', { field: 'modelSource' });
  }
  const { modelSchema, quarantine } = extractModelSchema(input.modelSource);
  // A request naming another model would be checked against this one and run on that one: refuse, as intake does.
  if (request.model) assertSameModel(request.model, modelSchema, 'the model file');
  const bundle = assembleContext(request, { maxAttachmentBytes: input.config.limits.maxAttachmentBytes });
  const policy = normalizePolicy(request.policy, input.config.defaults.policy);
  const review = informationReview(bundle, policy);
  if (review) return { modelSchema, bundle, candidate: null, issues: [], decision: 'awaiting_human', gate: { action: 'park', ...review } };
  assertEditsNameInputs(bundle, modelSchema);
  const candidate = await input.builder.build({ bundle, schema: modelSchema });
  const issues = validatePayload({ candidate, schema: modelSchema, bundle, quarantine });
  const gate = decideGate({ issues, policy, candidate, schema: modelSchema, bundle, approvedPayloadHash: null });
  return { modelSchema, bundle, candidate, issues, decision: gate.action === 'execute' ? 'execute' : 'awaiting_human', gate };
}
