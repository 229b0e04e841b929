/**
 * Leak statistics from counts: the SQL summary (src/db/shadow-reports-repository.ts) and the in-memory one
 * (replay) both end here, so a rate means the same in the API, the CLI, the HTML page and a replay.
 * Models are grouped by `owner/name`: every version of a model counts together.
 */
import type { LeakMatch } from '../stages/leak-firewall.ts';
import { fieldOfPath } from './compare.ts';
import { leakRate, type FieldLeakStats, type LeakTotals, type ModelLeakStats, type ShadowComparison, type ShadowSummary } from './types.ts';

/** The name runs without a model name (sent inline) are grouped under. */
export const INLINE_MODEL = '(inline)';

export type ModelCounts = Omit<ModelLeakStats, 'leakRate'>;

export interface FieldCounts {
  model: string;
  field: string;
  /** Comparisons in which this field leaked. */
  leaked: number;
  matches: LeakMatch[];
  exampleValue: string | number | null;
}

/** `owner/name:version` → `owner/name`; no name → INLINE_MODEL. */
export function modelGroup(model: string | null | undefined): string {
  return model ? (model.split(':')[0] ?? model) : INLINE_MODEL;
}

/** Rates, totals and the worst-first field order, from per-model and per-field counts. */
export function buildSummary(since: Date, models: readonly ModelCounts[], fields: readonly FieldCounts[]): ShadowSummary {
  const modelStats = [...models].sort((a, b) => a.model.localeCompare(b.model)).map(withRate);
  const succeeded = new Map(modelStats.map((m) => [m.model, m.reports - m.failed]));
  const fieldStats: FieldLeakStats[] = fields.map((f) => {
    const reports = succeeded.get(f.model) ?? 0;
    return { ...f, reports, leakRate: leakRate(f.leaked, reports), matches: [...f.matches].sort() };
  });
  fieldStats.sort((a, b) => b.leakRate - a.leakRate || b.leaked - a.leaked || a.model.localeCompare(b.model) || a.field.localeCompare(b.field));
  return { since: since.toISOString(), totals: totalsOf(modelStats), models: modelStats, fields: fieldStats };
}

/** The same summary from comparisons held in memory (replay). */
export function summarizeComparisons(entries: readonly { model: string; comparison: ShadowComparison }[], since: Date): ShadowSummary {
  const models = new Map<string, ModelCounts>();
  const fields = new Map<string, FieldCounts>();
  for (const { model, comparison } of entries) {
    const group = modelGroup(model);
    const counts = models.get(group) ?? emptyCounts(group);
    models.set(group, counts);
    counts.reports += 1;
    if (comparison.status === 'failed') {
      counts.failed += 1;
      continue;
    }
    if (comparison.leaks.length > 0) counts.withLeaks += 1;
    counts.v2Leaks += comparison.leaks.length;
    counts.v3Leaks += comparison.v3Leaks.length;
    counts.fieldsDiffering += comparison.fieldsDiffering;
    countFields(group, comparison, fields);
  }
  return buildSummary(since, [...models.values()], [...fields.values()]);
}

function countFields(model: string, comparison: ShadowComparison, fields: Map<string, FieldCounts>): void {
  for (const field of comparison.leakedFields) {
    const key = `${model}\u0000${field}`;
    const entry = fields.get(key) ?? { model, field, leaked: 0, matches: [], exampleValue: null };
    fields.set(key, entry);
    entry.leaked += 1;
    for (const leak of comparison.leaks.filter((l) => fieldOfPath(l.path) === field)) {
      if (!entry.matches.includes(leak.match)) entry.matches.push(leak.match);
      entry.exampleValue ??= leak.exampleValue;
    }
  }
}

function emptyCounts(model: string): ModelCounts {
  return { model, reports: 0, failed: 0, withLeaks: 0, v2Leaks: 0, v3Leaks: 0, fieldsDiffering: 0 };
}

function withRate(counts: ModelCounts): ModelLeakStats {
  return { ...counts, leakRate: leakRate(counts.withLeaks, counts.reports - counts.failed) };
}

function totalsOf(models: readonly ModelLeakStats[]): LeakTotals {
  const sum = (pick: (m: ModelLeakStats) => number) => models.reduce((total, m) => total + pick(m), 0);
  const reports = sum((m) => m.reports);
  const failed = sum((m) => m.failed);
  const withLeaks = sum((m) => m.withLeaks);
  return {
    reports,
    failed,
    withLeaks,
    leakRate: leakRate(withLeaks, reports - failed),
    v2Leaks: sum((m) => m.v2Leaks),
    v3Leaks: sum((m) => m.v3Leaks),
    fieldsDiffering: sum((m) => m.fieldsDiffering),
  };
}
