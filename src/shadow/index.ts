/**
 * Shadow mode: the legacy V2 builder beside V3, payload diffs and leak reports. Here: the pure core (legacy
 * builder, comparison, sampling, summaries, replay, rendering) and two thin edges that take a System (the
 * build-stage trigger, and the shadow job, shadow-run.ts). Elsewhere: the tables (src/db/schema/shadow.ts) and
 * repositories (src/db/shadow-*.ts), the routes (api/routes/shadow.ts), the commands
 * (src/cli/commands/shadow*.ts) and the benchmark helpers (bench/shadow-support.ts).
 */
export { createLegacyV2Builder, mergeLikeV2, type LegacyBuildResult, type LegacyV2Builder } from './legacy-v2-builder.ts';
export { comparePayloads, failedComparison, fieldOfPath, payloadDiff, shadowBuild, type ShadowBuildInput } from './compare.ts';
export { decideShadow, isSampled, sampleFraction, sampleRateFor, type ShadowDecision, type ShadowSetting } from './sampling.ts';
export { triggerShadow, type BuiltRun } from './trigger.ts';
export { shadowRun, type ShadowJobResult } from './shadow-run.ts';
export { buildSummary, summarizeComparisons, INLINE_MODEL } from './summary.ts';
export { loadReplayModels, parseReplayRequests, type ReplayModel, type ReplayRequest } from './replay-corpus.ts';
export { replayCorpus, summarizeReplay, type ReplayOutcome, type ReplaySummary } from './corpus-replay.ts';
export { renderShadowHtml } from './html-report.ts';
export { formatReplayTable, formatSummaryCsv, formatSummaryTable } from './report-format.ts';
export { parseSince, parseWindows } from './since.ts';
export type * from './types.ts';
