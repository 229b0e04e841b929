/**
 * Each stage of the table (stages.ts) as two halves: `load` reads what the stage needs besides the run (a
 * schema, a quarantine, an adapter), and `step` turns that input into an outcome. The steps call the pure
 * stage logic in src/stages and the builder and provider ports; none of them writes the run.
 */
import type { ModelProvider, PayloadBuilder } from '../ports.ts';
import { resolveRunModel } from '../catalog/model-catalog.ts';
import { VettedError } from '../errors.ts';
import type { CandidatePayload, ModelSchema, PolicySpec, RequestBundle, ValidationIssue } from '../generated/contracts.ts';
import { assembleContext } from '../stages/context-assembler.ts';
import { assertEditsNameInputs } from '../stages/edit-targets.ts';
import type { ExampleQuarantine } from '../stages/example-quarantine.ts';
import { executeOnce, type ExecutionLedger } from '../stages/executor.ts';
import { decideGate, informationReview, payloadHash, type ParkReason } from '../stages/gate.ts';
import { publishedSchemaIssues, validatePayload } from '../stages/validator/index.ts';
import { assertSecretsStorable } from '../secrets/storable.ts';
import type { Engine } from './engine.ts';
import type { StageOutcome } from './outcomes.ts';
import type { RunRow } from './store.ts';

/** What a step may use besides its input: the visit's ledger (visit-ledger.ts). */
export interface StepPorts {
  ledger: ExecutionLedger;
}

/** One stage's halves; `Input` is what load returns and step takes. */
export interface StageSteps<Input> {
  load(run: RunRow, engine: Engine): Promise<Input>;
  step(input: Input, ports: StepPorts): Promise<StageOutcome>;
}

async function loadSchema(engine: Engine, run: RunRow): Promise<ModelSchema> {
  const schema = run.schemaKey ? await engine.models.getSchema(run.schemaKey) : undefined;
  if (!schema) throw new VettedError('INTERNAL', `run ${run.id} reached ${run.stage} without a model schema`);
  return schema;
}

function required<T>(value: T | null | undefined, what: string, run: RunRow): T {
  if (value === null || value === undefined) throw new VettedError('INTERNAL', `run ${run.id} reached ${run.stage} without ${what}`);
  return value;
}

export const extractSteps: StageSteps<{ run: RunRow; schemaKey: string; modelSchema: ModelSchema; config: Engine['config'] }> = {
  async load(run, engine) {
    return { run, config: engine.config, ...(await resolveRunModel(engine, run.tenantId, run.request)) };
  },
  async step({ run, schemaKey, modelSchema, config }) {
    // Now the model's secret-role inputs are known: in production, none may be stored without a data key.
    assertSecretsStorable(config, modelSchema, run.request.edits, 'edits');
    return {
      kind: 'advance',
      set: { schemaKey, schemaHash: modelSchema.schemaHash, model: run.model ?? modelSchema.model },
      data: { schemaKey, fields: modelSchema.fields.length, warnings: modelSchema.warnings.length },
    };
  },
};

export const assembleSteps: StageSteps<{ run: RunRow; maxAttachmentBytes: number; schema: ModelSchema }> = {
  async load(run, engine) {
    // The schema is in the process's cache already (extract resolved it); a question about the request needs it.
    return { run, maxAttachmentBytes: engine.config.limits.maxAttachmentBytes, schema: await loadSchema(engine, run) };
  },
  async step({ run, maxAttachmentBytes, schema }) {
    const bundle = assembleContext(run.request, { maxAttachmentBytes, reviewEdits: run.reviewEdits });
    const review = informationReview(bundle, run.policy);
    if (review) return { kind: 'park', park: { why: review, issues: [], candidate: null, set: { bundle }, schema } };
    return { kind: 'advance', set: { bundle }, data: { attachments: bundle.attachments.length, safetyFlags: bundle.safetyFlags.length } };
  },
};

export const buildSteps: StageSteps<{ bundle: RequestBundle; schema: ModelSchema; builder: PayloadBuilder }> = {
  async load(run, engine) {
    return { bundle: required(run.bundle, 'a bundle', run), schema: await loadSchema(engine, run), builder: engine.adapters.builder(run.builder) };
  },
  async step({ bundle, schema, builder }) {
    assertEditsNameInputs(bundle, schema);
    const candidate = await builder.build({ bundle, schema });
    return {
      kind: 'advance',
      set: { candidate },
      data: { builder: candidate.builder, confidence: candidate.confidence, fields: Object.keys(candidate.payload).length, ...(candidate.usage ? { usage: candidate.usage } : {}) },
    };
  },
};

interface ValidateInput {
  run: RunRow;
  bundle: RequestBundle;
  candidate: CandidatePayload;
  schema: ModelSchema;
  quarantine: ExampleQuarantine;
  policy: PolicySpec;
}

export const validateSteps: StageSteps<ValidateInput> = {
  async load(run, engine) {
    return {
      run,
      bundle: required(run.bundle, 'a bundle', run),
      candidate: required(run.candidate, 'a candidate payload', run),
      schema: await loadSchema(engine, run),
      quarantine: await engine.models.getQuarantine(required(run.schemaKey, 'a schema key', run)),
      policy: run.policy,
    };
  },
  async step({ run, bundle, candidate, schema, quarantine, policy }) {
    const issues = validatePayload({ candidate, schema, bundle, quarantine });
    const gate = decideGate({ issues, policy, candidate, schema, bundle, approvedPayloadHash: run.approvedPayloadHash, recheck: run.recheck });
    // Either way the recheck a decision asked for is done (runs.recheck).
    const cleared = run.recheck ? { recheck: null } : {};
    if (gate.action === 'park') return { kind: 'park', park: { why: gate, issues, candidate, set: cleared, schema } };
    return { kind: 'advance', set: { issues, ...cleared }, data: { issues: issues.length } };
  },
};

interface ExecuteInput {
  run: RunRow;
  candidate: CandidatePayload;
  schema: ModelSchema;
  provider: ModelProvider;
  model: string | null;
  version: string | null;
}

export const executeSteps: StageSteps<ExecuteInput> = {
  async load(run, engine) {
    const [model, version] = splitModelRef(run.model);
    const schema = await loadSchema(engine, run);
    return {
      run,
      candidate: required(run.candidate, 'a candidate payload', run),
      schema,
      provider: engine.adapters.provider(run.provider),
      model,
      version: version ?? schema.version,
    };
  },
  async step({ run, candidate, schema, provider, model, version }, { ledger }) {
    // The final guard, whoever approved what: a payload the model's published schema rejects never runs.
    const rejected = publishedSchemaIssues(schema, candidate.payload);
    if (rejected.length > 0) return { kind: 'park', park: { why: publishedGuardPark(rejected), issues: rejected, candidate, schema } };
    const step = `execute:${run.executionSeq}`;
    const outcome = await executeOnce({
      request: { runId: run.id, step, model, version, payload: candidate.payload as Record<string, unknown> },
      payloadHash: payloadHash(candidate),
      provider,
      ledger,
      // The row may come from the previous stage's move rather than a read: the ledger then makes sure the run
      // is still at this visit before anything is started or recorded.
      runAttempt: run.attempt,
    });
    switch (outcome.kind) {
      case 'superseded':
        return outcome;
      case 'uncertain':
        return {
          kind: 'park',
          park: {
            why: {
              reason: 'execution_uncertain', kind: 'error_recovery', checkpoint: 'error_recovery',
              question: `An earlier attempt of ${step} on ${provider.name} left no outcome. Check the provider, then retry (runs it again) or reject.`,
            },
            issues: [],
            candidate,
          },
        };
      case 'executed':
      case 'reused':
      case 'resumed':
      case 'repeated': {
        const result = outcome.result;
        if (result.status !== 'succeeded') {
          return { kind: 'fail', error: { code: 'PROVIDER_FAILED', message: `${provider.name} ${result.status}: ${result.error ?? 'no reason given'}`, stage: 'execute' } };
        }
        if (!run.policy.responseReview) return { kind: 'complete', result };
        return {
          kind: 'park',
          park: {
            why: { reason: 'response_review', kind: 'approval', checkpoint: 'response_review', question: 'The model answered. Accept the output, retry, or reject.' },
            issues: [],
            candidate,
            output: result.output,
            set: { result },
          },
        };
      }
    }
  },
};

function publishedGuardPark(issues: readonly ValidationIssue[]): ParkReason {
  const fields = [...new Set(issues.map((issue) => issue.path.slice(1)))].join(', ');
  return {
    reason: 'validation_failed', kind: 'clarification', checkpoint: 'payload_review',
    question: `The model's published input schema rejects this payload (${fields}), so it cannot run. Edit those fields or reject the run.`,
  };
}

function splitModelRef(ref: string | null): [string | null, string | null] {
  if (!ref) return [null, null];
  const [name, version] = ref.split(':');
  return [name ?? null, version ?? null];
}
