/**
 * Replay: a corpus through both builders in process, with no queue and no database. For each request and
 * each model it is for, V3 is the pipeline itself: the request goes through intake and the stage table on an
 * in-process engine (src/engine/in-process-runner.ts) until its candidate is stored (the validate stage is held). V2 is
 * the same builder wrapped in the legacy V2 builder, and the two are compared (the same shadowBuild the
 * shadow worker runs).
 */
import type { Config } from '../config.ts';
import { createInProcessEngine, type InProcessEngine } from '../engine/in-process.ts';
import { runToRest } from '../engine/in-process-runner.ts';
import type { RunRow } from '../engine/store.ts';
import { VettedError, isVettedError } from '../errors.ts';
import { submitRun } from '../intake/submit-run.ts';
import type { AdapterRegistry, PayloadBuilder } from '../ports.ts';
import { failedComparison, shadowBuild } from './compare.ts';
import { createLegacyV2Builder, type LegacyV2Builder } from './legacy-v2-builder.ts';
import type { ReplayModel, ReplayRequest } from './replay-corpus.ts';
import type { ShadowComparison } from './types.ts';

export interface ReplayInput {
  models: readonly ReplayModel[];
  requests: readonly ReplayRequest[];
  /** The V3 builder; V2 wraps the same one. */
  builder: PayloadBuilder;
  /** The process's adapters (its providers and helpers); every builder name the requests give answers with `builder`. */
  adapters: AdapterRegistry;
  config: Readonly<Config>;
}

/** One request against one model. */
export interface ReplayOutcome {
  model: string;
  line: number;
  comparison: ShadowComparison;
}

/** The replay summary, per model and in total (`vetted shadow replay --format json` prints exactly this). */
export interface ReplaySummary {
  models: ReplayModelSummary[];
  totals: Omit<ReplayModelSummary, 'model'>;
}

export interface ReplayModelSummary {
  model: string;
  /** Requests replayed against the model. */
  requests: number;
  /** Example values found in V2 payloads, summed over the requests. */
  v2Leaks: number;
  /** The same in V3 payloads: 0, or zero trust is broken. */
  v3Leaks: number;
  /** Top-level fields that differ between V2 and V3, summed over the requests. */
  fieldsDiffering: number;
}

const REPLAY_TENANT = 'replay';

/** Runs every request against its model (or every model), in corpus order. */
export async function replayCorpus(input: ReplayInput): Promise<ReplayOutcome[]> {
  const engine = createInProcessEngine({ config: input.config, adapters: everyBuilderIs(input.builder, input.adapters) });
  const legacy = createLegacyV2Builder(input.builder);
  const outcomes: ReplayOutcome[] = [];
  for (const entry of input.requests) {
    const targets = entry.model === null ? input.models : input.models.filter((m) => m.name === entry.model);
    for (const model of targets) {
      outcomes.push({ model: model.name, line: entry.line, comparison: await replayOne(engine, entry, model, input.builder.name, legacy) });
    }
  }
  return outcomes;
}

async function replayOne(engine: InProcessEngine, entry: ReplayRequest, model: ReplayModel, builderName: string, legacy: LegacyV2Builder): Promise<ShadowComparison> {
  try {
    const { run } = await submitRun(engine, { tenantId: REPLAY_TENANT, request: { ...entry.request, modelSource: model.source }, actor: 'cli:replay' });
    const built = await runToRest(engine, run.id, { hold: ['validate'] });
    if (built.status !== 'validating' || !built.candidate || !built.bundle) return failedComparison(whyNoCandidate(built, builderName), null, null);
    return await shadowBuild({ bundle: built.bundle, schema: model.schema, quarantine: model.quarantine, v3: built.candidate, v3IsBuilderOutput: true, legacy });
  } catch (error) {
    return failedComparison(`V3 was refused: ${describe(error)}`, null, null);
  }
}

/** Why the V3 run has no candidate to compare: its builder gave up, it parked before building, or it failed. */
function whyNoCandidate(run: RunRow, builderName: string): string {
  const review = run.pendingReview;
  if (review?.reason === 'builder_failed') return `V3 builder (${builderName}) failed: ${review.issues[0]?.message ?? 'no reason given'}`;
  if (review) return `V3 parked for a person before a candidate was stored (${review.reason})`;
  return `V3 ${run.status}${run.error ? `: [${run.error.code}] ${run.error.message}` : ''}`;
}

/** The replay's builder answers for every builder name a request may give. */
function everyBuilderIs(builder: PayloadBuilder, adapters: AdapterRegistry): AdapterRegistry {
  return { ...adapters, builder: () => builder };
}

/** Per model (every model of the folder, in its order) and in total. Failed comparisons count as requests only. */
export function summarizeReplay(outcomes: readonly ReplayOutcome[], models: readonly ReplayModel[]): ReplaySummary {
  const rows = new Map<string, ReplayModelSummary>(models.map((m) => [m.name, { model: m.name, requests: 0, v2Leaks: 0, v3Leaks: 0, fieldsDiffering: 0 }]));
  for (const { model, comparison } of outcomes) {
    const row = rows.get(model);
    if (!row) throw new VettedError('INTERNAL', `replay outcome for unknown model ${model}`);
    row.requests += 1;
    row.v2Leaks += comparison.leaks.length;
    row.v3Leaks += comparison.v3Leaks.length;
    row.fieldsDiffering += comparison.fieldsDiffering;
  }
  const list = [...rows.values()];
  const sum = (pick: (row: ReplayModelSummary) => number) => list.reduce((total, row) => total + pick(row), 0);
  return {
    models: list,
    totals: { requests: sum((r) => r.requests), v2Leaks: sum((r) => r.v2Leaks), v3Leaks: sum((r) => r.v3Leaks), fieldsDiffering: sum((r) => r.fieldsDiffering) },
  };
}

function describe(error: unknown): string {
  if (isVettedError(error)) return `[${error.code}] ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
