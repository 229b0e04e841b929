/**
 * `vetted dry-run`: what the pipeline would do with one request, without Redis or a database. The request
 * goes in through the same intake and the same stage table as on the workers, on an in-process engine
 * (src/engine/in-process.ts), and the runner holds the execute stage: a run that would execute rests in
 * `executing` with nothing executed; one that would park rests `awaiting_human` with its review. So every
 * outcome a worker can reach (a builder that gives up, a leak, a policy) is the outcome dry-run reports.
 */
import type { AdapterRegistry } from '../ports.ts';
import { extractAndStore } from '../catalog/model-catalog.ts';
import type { Config } from '../config.ts';
import { createInProcessEngine } from '../engine/in-process.ts';
import { runToRest } from '../engine/in-process-runner.ts';
import type { RunRow } from '../engine/store.ts';
import { errorCodeOf, VettedError } from '../errors.ts';
import type { CandidatePayload, GenerationRequest, ModelSchema, RequestBundle, ValidationIssue } from '../generated/contracts.ts';
import { assertSameModel } from '../intake/request-checks.ts';
import { submitRun } from '../intake/submit-run.ts';
import { assertContract } from '../schema/contracts.ts';

export interface DryRunInput {
  /** The model file's content: a Replicate model or version object, or { model, example_input }. */
  modelSource: unknown;
  request: unknown;
  config: Readonly<Config>;
  adapters: AdapterRegistry;
  /** The builder to use; default: the request's own, else the configured default (as the worker does). */
  builder?: string;
}

export interface DryRunResult {
  modelSchema: ModelSchema;
  bundle: RequestBundle | null;
  /** Null when the run would park before building (an information review), or the builder gave up. */
  candidate: CandidatePayload | null;
  issues: ValidationIssue[];
  decision: 'execute' | 'awaiting_human';
  /** Why it would park: the reason and question a reviewer would be given. */
  review?: { reason: string; checkpoint: string; question: string };
}

const DRY_RUN_TENANT = 'dry-run';

/**
 * @throws VettedError for bad input, as intake or a stage would refuse it: the model file (MODEL_SOURCE_INVALID,
 *   SCHEMA_UNSUPPORTED), the request (INVALID_REQUEST, ATTACHMENT_REJECTED, ... naming the field).
 */
export async function dryRun(input: DryRunInput): Promise<DryRunResult> {
  const request = assertContract<GenerationRequest>('generation-request', input.request, 'request');
  if (request.modelSource !== undefined) {
    throw new VettedError('INVALID_REQUEST', 'request: modelSource is set, and --model gives the model too; dry-run uses --model, so remove one', { field: 'modelSource' });
  }
  const engine = createInProcessEngine({ config: input.config, adapters: input.adapters });
  const { modelSchema } = await extractAndStore(engine, input.modelSource);
  // A request naming another model would be checked against this one and run on that one: refuse, as intake does.
  if (request.model) assertSameModel(request.model, modelSchema, 'the model file');
  const builder = input.builder ?? request.builder ?? input.config.defaults.builder;
  const { run } = await submitRun(engine, {
    tenantId: DRY_RUN_TENANT,
    // Held before execute, so no provider is ever called; `dry` lets a model of an unconfigured provider be previewed.
    request: { ...request, builder, provider: request.provider ?? 'dry', modelSource: input.modelSource },
    actor: 'cli:dry-run',
  });
  return resultOf(await runToRest(engine, run.id, { hold: ['execute'] }), modelSchema);
}

/** Where the run came to rest says what the pipeline would do: execute, ask a person, or refuse the input. */
function resultOf(run: RunRow, modelSchema: ModelSchema): DryRunResult {
  const common = { modelSchema, bundle: run.bundle, candidate: run.candidate, issues: run.issues };
  if (run.status === 'executing') return { ...common, decision: 'execute' };
  if (run.status === 'awaiting_human') {
    const review = run.pendingReview;
    return { ...common, decision: 'awaiting_human', ...(review ? { review: { reason: review.reason, checkpoint: review.checkpoint, question: review.question } } : {}) };
  }
  if (run.status === 'failed') {
    const error = run.error;
    throw new VettedError(errorCodeOf(error?.code), error?.message ?? 'the run failed without a reason', { field: error?.field });
  }
  // Nothing else can be left when the runner stops with only the execute stage held.
  throw new VettedError('INTERNAL', `dry-run ended with the run ${run.status} at ${run.stage}`);
}
