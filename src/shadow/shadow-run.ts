/**
 * One `vetted-shadow` job (workers/start-workers.ts runs it): load the run's bundle, schema, quarantine and V3 candidate (from the row the
 * build's move returned, when this process made it: src/shadow/built-rows.ts), build the V2 payload with the
 * same builder backend, compare, and store one shadow report. It only reads the run and never writes it: a
 * shadow job cannot change, delay or fail the V3 run, and it never executes anything.
 *
 * A repeated job (a retry after the insert committed) compares again and finds the row already there: the
 * insert is ON CONFLICT DO NOTHING on (run, build visit), which costs less than a lookup before every report.
 *
 * A V2 failure (the builder throws, the diff cannot be computed, the run has nothing to compare) is a
 * `failed` report with its reason, not a job failure. Only storage errors are rethrown, so BullMQ retries.
 */
import type { CatalogStore } from '../catalog/catalog-store.ts';
import type { RunRow, RunStore } from '../engine/store.ts';
import { logContext, logEvent, type Logger } from '../observability/logger.ts';
import type { AdapterRegistry } from '../ports.ts';
import { takeBuiltRow } from './built-rows.ts';
import { failedComparison, shadowBuild } from './compare.ts';
import { createLegacyV2Builder, type LegacyV2Builder } from './legacy-v2-builder.ts';
import type { ShadowJob, ShadowReportWriter } from './shadow-rows.ts';
import type { ShadowComparison } from './types.ts';

/** What a shadow job reads and writes: the run, its schema and quarantine, the builder, and the reports. */
export interface ShadowRunDeps {
  readonly store: Pick<RunStore, 'get'>;
  readonly models: Pick<CatalogStore, 'getSchema' | 'getQuarantine'>;
  readonly adapters: Pick<AdapterRegistry, 'builder'>;
  readonly shadowReports: ShadowReportWriter;
  readonly newId: () => string;
  readonly logger: Logger;
}

export type ShadowJobResult = 'reported' | 'duplicate' | 'gone';

export interface ShadowProcessorOptions {
  /** The V2 builder for a run's builder name; default: the legacy wrapper around the adapter registry's builder. */
  legacyFor?: (builderName: string) => LegacyV2Builder;
}

/**
 * Writes the shadow report of one build visit (once: a repeated job's insert finds the row and does nothing).
 * It starts from the row that build's move returned when this process made it, else reads the run.
 */
export async function shadowRun(system: ShadowRunDeps, data: ShadowJob, options: ShadowProcessorOptions = {}): Promise<ShadowJobResult> {
  const run = takeBuiltRow(system, data.runId, data.attempt) ?? (await system.store.get(data.runId));
  if (!run) return 'gone';
  const comparison = await compareRun(system, run, options);
  const inserted = await system.shadowReports.insert({
    id: system.newId(),
    runId: run.id,
    runAttempt: data.attempt,
    tenantId: run.tenantId,
    model: run.model,
    builder: run.builder,
    comparison,
  });
  if (!inserted) return 'duplicate';
  logReport(system, run, comparison);
  return 'reported';
}

async function compareRun(system: ShadowRunDeps, run: RunRow, options: ShadowProcessorOptions): Promise<ShadowComparison> {
  const v3Payload = (run.candidate?.payload as Record<string, unknown> | undefined) ?? null;
  if (!run.candidate || !run.bundle || !run.schemaKey) {
    return failedComparison(`the run has no ${!run.candidate ? 'candidate payload' : !run.bundle ? 'bundle' : 'schema'} to compare`, null, v3Payload);
  }
  const schema = await system.models.getSchema(run.schemaKey);
  if (!schema) return failedComparison(`the run's schema ${run.schemaKey} is missing`, null, v3Payload);
  const quarantine = await system.models.getQuarantine(run.schemaKey);
  let legacy: LegacyV2Builder;
  try {
    legacy = options.legacyFor?.(run.builder) ?? createLegacyV2Builder(system.adapters.builder(run.builder));
  } catch (error) {
    return failedComparison(`no V2 builder for "${run.builder}": ${error instanceof Error ? error.message : String(error)}`, null, v3Payload);
  }
  // Without review edits, the candidate was written only by the build stage from this bundle and schema; an
  // edit patches the candidate (and the bundle) in a review, so then V2 builds from scratch.
  const v3IsBuilderOutput = Object.keys(run.reviewEdits ?? {}).length === 0;
  return shadowBuild({ bundle: run.bundle, schema, quarantine, v3: run.candidate, v3IsBuilderOutput, legacy });
}

function logReport(system: Pick<ShadowRunDeps, 'logger'>, run: RunRow, comparison: ShadowComparison): void {
  if (comparison.status === 'failed') {
    logEvent(system.logger, 'SHADOW_FAILED', logContext(run), { model: run.model, reason: comparison.failureReason }, 'warn');
    return;
  }
  // Leaks in V3 would break the zero-trust promise: say so loudly, at warn.
  const level = comparison.v3Leaks.length > 0 ? 'warn' : 'info';
  logEvent(system.logger, 'SHADOW_REPORTED', logContext(run), {
    model: run.model,
    v2Leaks: comparison.leaks.length,
    v3Leaks: comparison.v3Leaks.length,
    fieldsDiffering: comparison.fieldsDiffering,
  }, level);
}
