/**
 * Timings the review phase collects beside its load rows, per run tag (`throughput`, `latency`, ...): where a
 * round trip's time went, and the figures around "decision → execution started". Pure helpers.
 */
import { ascending, fixed, percentile } from './report.ts';

/** Appends to the list under `key`, creating it. */
export function pushTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** "p50 3.10  p99 12.00 ms (n 300)", nearest-rank, or "-" without values. */
export function spread(valuesMs: readonly number[]): string {
  if (valuesMs.length === 0) return '-';
  const sorted = ascending(valuesMs);
  return `p50 ${fixed(percentile(sorted, 0.5), 2)}  p99 ${fixed(percentile(sorted, 0.99), 2)} ms  (n ${valuesMs.length})`;
}

/** One line per labelled series, labels padded to line up. */
export function spreadLines(series: readonly { label: string; valuesMs: readonly number[] }[]): string[] {
  const width = Math.max(...series.map((s) => s.label.length));
  return series.map((s) => `${s.label.padEnd(width)}  ${spread(s.valuesMs)}`);
}
