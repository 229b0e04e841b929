/**
 * Replay: a corpus through both builders in process, with no queue and no database. For each request and
 * each model it is for: assemble the bundle, build V3 with the builder, build V2 with the same builder
 * wrapped in the legacy V2 builder, and compare (the same shadowBuild the shadow worker runs).
 */
import { VettedError, isVettedError } from '../errors.ts';
import type { PayloadBuilder } from '../ports.ts';
import { assembleContext } from '../stages/context-assembler.ts';
import { failedComparison, shadowBuild } from './compare.ts';
import { createLegacyV2Builder } from './legacy-v2-builder.ts';
import type { ReplayModel, ReplayRequest } from './replay-corpus.ts';
import type { ShadowComparison } from './types.ts';

export interface ReplayInput {
  models: readonly ReplayModel[];
  requests: readonly ReplayRequest[];
  /** The V3 builder; V2 wraps the same one. */
  builder: PayloadBuilder;
  maxAttachmentBytes: number;
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

/** Runs every request against its model (or every model), in corpus order. */
export async function replayCorpus(input: ReplayInput): Promise<ReplayOutcome[]> {
  const legacy = createLegacyV2Builder(input.builder);
  const outcomes: ReplayOutcome[] = [];
  for (const entry of input.requests) {
    const targets = entry.model === null ? input.models : input.models.filter((m) => m.name === entry.model);
    const bundle = assembleContext(entry.request, { maxAttachmentBytes: input.maxAttachmentBytes });
    for (const model of targets) {
      let comparison: ShadowComparison;
      try {
        const v3 = await input.builder.build({ bundle, schema: model.schema });
        comparison = await shadowBuild({ bundle, schema: model.schema, quarantine: model.quarantine, v3, v3IsBuilderOutput: true, legacy });
      } catch (error) {
        comparison = failedComparison(`V3 builder (${input.builder.name}) failed: ${describe(error)}`, null, null);
      }
      outcomes.push({ model: model.name, line: entry.line, comparison });
    }
  }
  return outcomes;
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
