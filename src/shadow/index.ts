/**
 * Shadow mode: the legacy V2 builder beside V3, payload diffs and leak reports. Here: the pure core (legacy
 * builder, comparison, sampling, summaries, replay, rendering) and two thin edges that take a System (the
 * build-stage trigger, and the benchmark helpers). Elsewhere: the shadow worker (workers/shadow-processor.ts),
 * the tables (src/db/schema/shadow.ts) and queries (src/db/shadow-*.ts), the routes (api/routes/shadow.ts) and
 * the commands (src/cli/commands/shadow*.ts).
 */
export { createLegacyV2Builder, mergeLikeV2, type LegacyBuildResult, type LegacyV2Builder } from './legacy-v2-builder.ts';
export { comparePayloads, failedComparison, fieldOfPath, payloadDiff, shadowBuild, type ShadowBuildInput } from './compare.ts';
export { decideShadow, isSampled, sampleFraction, sampleRateFor, type ShadowDecision, type ShadowSetting } from './sampling.ts';
export { shadowSettingsOf, triggerShadow, type BuiltRun } from './trigger.ts';
export { buildSummary, summarizeComparisons, INLINE_MODEL } from './summary.ts';
export { loadReplayModels, parseReplayRequests, type ReplayModel, type ReplayRequest } from './replay-corpus.ts';
export { replayCorpus, summarizeReplay, type ReplayOutcome, type ReplaySummary } from './replay.ts';
export { renderShadowHtml } from './html-report.ts';
export { formatReplayTable, formatSummaryCsv, formatSummaryTable } from './report-format.ts';
export { parseSince, parseWindows } from './since.ts';
export { enableShadowing, SHADOW_WORK_KIND, shadowBenchEnv, shadowProgress, waitForShadowDrain, type ShadowProgress } from './bench-support.ts';
export type * from './types.ts';
