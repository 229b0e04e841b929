/**
 * One handler per stage in src/pipeline.ts: load what the pure stage needs, call it, and say what should
 * happen to the run. Handlers never write the run themselves; the stage processor persists the outcome.
 */
import type { RunRow } from '../src/db/schema/index.ts';
import { VettedError } from '../src/errors.ts';
import type { ExecutionResult, ModelSchema, RunError, StageName } from '../src/generated/contracts.ts';
import type { RunsRepository } from '../src/db/runs-repository.ts';
import { resolveRunModel } from '../src/services/model-catalog.ts';
import type { ParkInput } from '../src/services/run-transitions.ts';
import { assembleContext } from '../src/stages/context-assembler.ts';
import { assertEditsNameInputs } from '../src/stages/edit-targets.ts';
import { executeOnce, type LedgerRecord } from '../src/stages/executor.ts';
import { decideGate, informationReview, payloadHash } from '../src/stages/gate.ts';
import { validatePayload } from '../src/stages/validator/index.ts';
import type { System } from '../src/system.ts';

type RunPatch = NonNullable<Parameters<RunsRepository['transition']>[0]['set']>;

/** An execution the outcome's move must record in the ledger, in the same statement (executeOnce's recordWithMove). */
interface RecordsExecution {
  ledger?: LedgerRecord;
}

export type StageOutcome =
  | { kind: 'advance'; set?: RunPatch; data?: Record<string, unknown> }
  | ({ kind: 'park'; park: ParkInput } & RecordsExecution)
  | ({ kind: 'complete'; result: ExecutionResult } & RecordsExecution)
  | ({ kind: 'fail'; error: RunError } & RecordsExecution)
  /** The run left this visit while the stage ran (cancelled, say): nothing to persist. */
  | { kind: 'superseded' };

export interface StageOptions {
  /**
   * Execute: record a side-effect-free execution with the run's move (one statement) rather than on its own.
   * The stage processor turns it off to run the stage again when that move missed.
   */
  recordWithMove: boolean;
}

export type StageHandler = (system: System, run: RunRow, options: StageOptions) => Promise<StageOutcome>;

async function loadSchema(system: System, run: RunRow): Promise<ModelSchema> {
  const schema = run.schemaKey ? await system.models.getSchema(run.schemaKey) : undefined;
  if (!schema) throw new VettedError('INTERNAL', `run ${run.id} reached ${run.stage} without a model schema`);
  return schema;
}

function requireField<T>(value: T | null | undefined, what: string, run: RunRow): T {
  if (value === null || value === undefined) throw new VettedError('INTERNAL', `run ${run.id} reached ${run.stage} without ${what}`);
  return value;
}

const extract: StageHandler = async (system, run) => {
  const { schemaKey, modelSchema } = await resolveRunModel(system, run.tenantId, run.request);
  return {
    kind: 'advance',
    set: { schemaKey, schemaHash: modelSchema.schemaHash, model: run.model ?? modelSchema.model },
    data: { schemaKey, fields: modelSchema.fields.length, warnings: modelSchema.warnings.length },
  };
};

const assemble: StageHandler = async (system, run) => {
  const bundle = assembleContext(run.request, {
    maxAttachmentBytes: system.config.limits.maxAttachmentBytes,
    reviewEdits: run.reviewEdits,
  });
  const review = informationReview(bundle, run.policy);
  if (review) return { kind: 'park', park: { park: review, issues: [], candidate: null, set: { bundle } } };
  return { kind: 'advance', set: { bundle }, data: { attachments: bundle.attachments.length, safetyFlags: bundle.safetyFlags.length } };
};

const build: StageHandler = async (system, run) => {
  const schema = await loadSchema(system, run);
  const bundle = requireField(run.bundle, 'a bundle', run);
  assertEditsNameInputs(bundle, schema);
  const candidate = await system.adapters.builder(run.builder).build({ bundle, schema });
  return {
    kind: 'advance',
    set: { candidate },
    data: { builder: candidate.builder, confidence: candidate.confidence, fields: Object.keys(candidate.payload).length, ...(candidate.usage ? { usage: candidate.usage } : {}) },
  };
};

const validate: StageHandler = async (system, run) => {
  const schema = await loadSchema(system, run);
  const bundle = requireField(run.bundle, 'a bundle', run);
  const candidate = requireField(run.candidate, 'a candidate payload', run);
  const quarantine = await system.models.getQuarantine(requireField(run.schemaKey, 'a schema key', run));
  const issues = validatePayload({ candidate, schema, bundle, quarantine });
  const gate = decideGate({ issues, policy: run.policy, candidate, schema, bundle, approvedPayloadHash: run.approvedPayloadHash });
  if (gate.action === 'park') return { kind: 'park', park: { park: gate, issues, candidate } };
  return { kind: 'advance', set: { issues }, data: { issues: issues.length } };
};

const execute: StageHandler = async (system, run, options) => {
  const candidate = requireField(run.candidate, 'a candidate payload', run);
  const provider = system.adapters.provider(run.provider);
  const [model, version] = splitModelRef(run.model);
  const step = `execute:${run.executionSeq}`;
  const outcome = await executeOnce({
    request: { runId: run.id, step, model, version: version ?? (await schemaVersion(system, run)), payload: candidate.payload as Record<string, unknown> },
    payloadHash: payloadHash(candidate),
    provider,
    ledger: system.executions,
    // The row may come from the previous stage's move rather than a read (visit-handoff.ts): the ledger
    // then makes sure the run is still here before anything is started or recorded.
    runAttempt: run.attempt,
    recordWithMove: options.recordWithMove,
  });
  if (outcome.kind === 'superseded') return outcome;
  const ledger = outcome.kind === 'executed_unrecorded' ? outcome.record : undefined;
  if (outcome.kind === 'uncertain') {
    return {
      kind: 'park',
      park: {
        park: {
          reason: 'execution_uncertain', kind: 'error_recovery', checkpoint: 'error_recovery',
          question: `An earlier attempt of ${step} on ${provider.name} left no outcome. Check the provider, then retry (runs it again) or reject.`,
        },
        issues: [],
        candidate,
      },
    };
  }
  const result = outcome.result;
  if (result.status !== 'succeeded') {
    return { kind: 'fail', ledger, error: { code: 'PROVIDER_FAILED', message: `${provider.name} ${result.status}: ${result.error ?? 'no reason given'}`, stage: 'execute' } };
  }
  if (run.policy.responseReview) {
    return {
      kind: 'park',
      ledger,
      park: {
        park: { reason: 'response_review', kind: 'approval', checkpoint: 'response_review', question: 'The model answered. Accept the output, retry, or reject.' },
        issues: [],
        candidate,
        output: result.output,
        set: { result },
      },
    };
  }
  return { kind: 'complete', result, ledger };
};

function splitModelRef(ref: string | null): [string | null, string | null] {
  if (!ref) return [null, null];
  const [name, version] = ref.split(':');
  return [name ?? null, version ?? null];
}

async function schemaVersion(system: System, run: RunRow): Promise<string | null> {
  return (await loadSchema(system, run)).version;
}

export const STAGE_HANDLERS: Readonly<Record<StageName, StageHandler>> = { extract, assemble, build, validate, execute };
