/**
 * Turning measurements into text: percentiles, the load table, the micro-cost table and the target
 * verdicts. Pure functions only; main.ts decides what to print and when.
 */
import type { RequestCosts } from './cost-meter.ts';

/** One closed-loop measurement: a system at one load. */
export interface LoadRow {
  /** Which system was driven ("vetted", "baseline", "vetted shadow 1", "vetted review", ...). */
  system: string;
  /** "throughput" (many in flight) or "latency" (one in flight); the targets look rows up by this. */
  load: 'throughput' | 'latency';
  /** What the row measured when it is not "submit → completion" (e.g. "decision → execution started"). */
  label?: string;
  inFlight: number;
  requests: number;
  seconds: number;
  /** Per-request latency in milliseconds: submit to completion unless the row's label says otherwise. */
  latenciesMs: number[];
  /** What each request cost, measured around the same run (cost-meter.ts). */
  costs?: RequestCosts;
}

/** One micro-cost: the mean time of an operation repeated in a tight loop. */
export interface MicroRow {
  operation: string;
  iterations: number;
  /** Median over rounds of each round's mean, in microseconds. */
  medianUs: number;
  /** The fastest round's mean, in microseconds: what the code costs with the least noise from other processes. */
  bestUs: number;
}

/**
 * Nearest-rank percentile of an ascending array (q in 0..1). Nearest rank, not interpolation, so the
 * figure is always a latency some request really had.
 */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}

export function ascending(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

export function requestsPerSecond(row: Pick<LoadRow, 'requests' | 'seconds'>): number {
  return row.seconds > 0 ? row.requests / row.seconds : Number.NaN;
}

export function loadSummary(row: LoadRow): { p50: number; p99: number; rate: number } {
  const sorted = ascending(row.latenciesMs);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), rate: requestsPerSecond(row) };
}

/** Right-aligned columns after a left-aligned first column, with a rule under the header. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function formatLoadTable(rows: readonly LoadRow[]): string {
  return formatTable(
    ['phase', 'requests', 'seconds', 'req/s', 'p50 ms', 'p99 ms'],
    rows.map((row) => {
      const { p50, p99, rate } = loadSummary(row);
      return [phaseLabel(row), String(row.requests), fixed(row.seconds, 2), fixed(rate, 1), fixed(p50, 2), fixed(p99, 2)];
    }),
  );
}

export function formatCostTable(rows: readonly LoadRow[]): string {
  return formatTable(
    ['phase', 'CPU ms: workers', 'driver', 'PostgreSQL', 'PG queries', 'Redis commands'],
    rows.map((row) => {
      const c = row.costs;
      return [
        phaseLabel(row),
        fixed(c?.workerCpuMs ?? Number.NaN, 2),
        fixed(c?.driverCpuMs ?? Number.NaN, 2),
        fixed(c?.pgCpuMs ?? Number.NaN, 2),
        fixed(c?.pgQueries ?? Number.NaN, 1),
        fixed(c?.redisCommands ?? Number.NaN, 1),
      ];
    }),
  );
}

/**
 * WAL per request (wal-meter.ts): the bench database's own records (total, of which full-page images, the
 * rest), its records and commits, and the server-wide LSN difference (every database: an upper bound).
 */
export function formatWalTable(rows: readonly LoadRow[]): string {
  return formatTable(
    ['phase', 'WAL bytes', 'of which FPI', 'without FPI', 'records', 'commits', 'server-wide bytes'],
    rows.map((row) => {
      const wal = row.costs?.wal;
      const own = wal?.own;
      return [
        phaseLabel(row),
        fixed(own?.bytes ?? Number.NaN, 0),
        fixed(own?.fpiBytes ?? Number.NaN, 0),
        fixed(own ? own.bytes - own.fpiBytes : Number.NaN, 0),
        fixed(own?.records ?? Number.NaN, 1),
        fixed(own?.commits ?? Number.NaN, 2),
        fixed(wal?.serverBytes ?? Number.NaN, 0),
      ];
    }),
  );
}

/** A ratio of two figures, NaN when the divisor is zero or either is not a finite number. */
export function ratio(mine: number, theirs: number): number {
  return Number.isFinite(mine) && Number.isFinite(theirs) && theirs !== 0 ? mine / theirs : Number.NaN;
}

function phaseLabel(row: LoadRow): string {
  return `${row.system} ${row.label ?? row.load} (${row.inFlight} in flight)`;
}

export function formatMicroTable(rows: readonly MicroRow[]): string {
  return formatTable(
    ['operation', 'iterations', 'median µs', 'best µs'],
    rows.map((row) => [row.operation, String(row.iterations), fixed(row.medianUs, 2), fixed(row.bestUs, 2)]),
  );
}

/** A target checked at the end: a measured value, the bound it must meet, and the verdict. */
export interface TargetVerdict {
  name: string;
  value: number;
  /** How the value is shown, e.g. "0.42 × baseline". */
  shown: string;
  /** The bound, as text: "≥ 0.5"; "none" for a figure shown beside the targets without one of its own. */
  bound: string;
  /** undefined: no target, the figure is informational. */
  pass: boolean | undefined;
}

export function formatVerdicts(verdicts: readonly TargetVerdict[]): string {
  return formatTable(
    ['target', 'measured', 'bound', 'verdict'],
    verdicts.map((v) => [v.name, v.shown, v.bound, v.pass === undefined ? 'info' : v.pass ? 'PASS' : 'MISS']),
  );
}

export function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '-';
}

/**
 * The throughput ratio the CPU per request predicts on a CPU-bound machine: their CPU over mine (workers,
 * driver and, where both have it, PostgreSQL; Redis is not measured). It barely moves with other load on the
 * machine, which the wall-clock ratio does when the two were measured minutes apart.
 */
export function cpuImpliedRatio(mine: LoadRow, theirs: LoadRow): number | undefined {
  const [a, b] = [mine.costs, theirs.costs];
  if (!a || !b) return undefined;
  const withPg = a.pgCpuMs !== undefined && b.pgCpuMs !== undefined;
  const total = (c: RequestCosts) => c.workerCpuMs + c.driverCpuMs + (withPg ? (c.pgCpuMs ?? 0) : 0);
  return total(b) / total(a);
}
