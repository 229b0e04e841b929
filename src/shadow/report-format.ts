/**
 * `vetted shadow report` and `vetted shadow replay` as text: aligned tables for a terminal, and CSV (RFC 4180)
 * with one row per model (field `*`) and one per leaking field of it. Pure string building.
 */
import type { ReplaySummary } from './corpus-replay.ts';
import type { ShadowSummary } from './types.ts';

/** Example values are somebody else's text: long ones are cut in tables, never in JSON or CSV. */
const EXAMPLE_MAX = 60;
/** How many fields the table lists under "worst fields". */
export const WORST_FIELDS = 20;

/** A summary as two aligned tables: per model, then the worst fields. */
export function formatSummaryTable(summary: ShadowSummary): string {
  if (summary.models.length === 0) return `No shadow reports since ${summary.since}.\n`;
  const models = textTable(
    ['model', 'runs', 'failed', 'leaking', 'leak rate', 'V2 leaks', 'V3 leaks', 'fields differing'],
    [
      ...summary.models.map((m) => [m.model, m.reports, m.failed, m.withLeaks, percent(m.leakRate), m.v2Leaks, m.v3Leaks, m.fieldsDiffering]),
      ['total', summary.totals.reports, summary.totals.failed, summary.totals.withLeaks, percent(summary.totals.leakRate), summary.totals.v2Leaks, summary.totals.v3Leaks, summary.totals.fieldsDiffering],
    ],
  );
  const worst = summary.fields.slice(0, WORST_FIELDS);
  const fields = worst.length === 0
    ? 'V2 leaked no example value.\n'
    : textTable(
        ['model', 'field', 'leaked', 'leak rate', 'matched', 'example value'],
        worst.map((f) => [f.model, f.field, `${f.leaked}/${f.reports}`, percent(f.leakRate), f.matches.join(','), clip(f.exampleValue)]),
      );
  const v3 = summary.totals.v3Leaks > 0 ? `\nWARNING: ${summary.totals.v3Leaks} example value(s) found in V3 payloads: zero trust is broken; do not cut over.\n` : '';
  return `Shadow reports since ${summary.since}\n\n${models}\nWorst fields (V2)\n\n${fields}${v3}`;
}

/** A summary as CSV: a `*` row per model, then a row per leaking field of that model. */
export function formatSummaryCsv(summary: ShadowSummary): string {
  const header = ['model', 'field', 'runs', 'failed', 'leaking_runs', 'leak_rate', 'v2_leaks', 'v3_leaks', 'fields_differing', 'matches', 'example_value'];
  const rows: unknown[][] = [];
  for (const m of summary.models) {
    rows.push([m.model, '*', m.reports, m.failed, m.withLeaks, m.leakRate, m.v2Leaks, m.v3Leaks, m.fieldsDiffering, '', '']);
    for (const f of summary.fields.filter((field) => field.model === m.model)) {
      rows.push([f.model, f.field, f.reports, '', f.leaked, f.leakRate, '', '', '', f.matches.join(' '), f.exampleValue ?? '']);
    }
  }
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** A replay summary as an aligned table with a total row. */
export function formatReplayTable(summary: ReplaySummary): string {
  const t = summary.totals;
  return textTable(
    ['model', 'requests', 'V2 leaks', 'V3 leaks', 'fields differing'],
    [...summary.models.map((m) => [m.model, m.requests, m.v2Leaks, m.v3Leaks, m.fieldsDiffering]), ['total', t.requests, t.v2Leaks, t.v3Leaks, t.fieldsDiffering]],
  );
}

/** Columns padded to their widest cell; numbers right-aligned. */
export function textTable(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const cells = [header, ...rows.map((row) => row.map((cell) => String(cell ?? '')))];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((row) => typeof row[i] === 'number'));
  const line = (row: readonly string[]) =>
    row.map((cell, i) => (numeric[i] ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n') + '\n';
}

export function percent(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}

function clip(value: string | number | null): string {
  const text = value === null ? '' : JSON.stringify(value);
  return text.length > EXAMPLE_MAX ? `${text.slice(0, EXAMPLE_MAX - 1)}…` : text;
}

function csvCell(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
