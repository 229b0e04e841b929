/**
 * What a benchmark phase is. main.ts holds the list of phases; `--only a,b` picks some. A new bench is one
 * file exporting a Phase plus one line in that list.
 */
import type { BenchEnvironment } from './environment.ts';
import type { LoadRow, MicroRow, TargetVerdict } from './report.ts';
import type { BenchAdapters } from './workload.ts';

export interface BenchOptions {
  requests: number;
  latencyRequests: number;
  warmup: number;
  inFlight: number;
  concurrency: number | undefined;
  poolSize: number;
  parked: number;
  /** Phase `review`: round trips at reviewInFlight (and the bare version's), parked runs seeded first. */
  reviewRequests: number;
  reviewInFlight: number;
  reviewSeed: number;
  /** Phase `sdk`: the builder and provider it uses, against the local sims. */
  sdk: Readonly<BenchAdapters>;
  /** Phase `shadow`: the sample rate (0..1). */
  shadowRate: number;
  stallSeconds: number;
  /** When set, worker processes write V8 CPU profiles here. */
  cpuProfDir: string | undefined;
  quiet: boolean;
}

export interface BenchContext {
  options: Readonly<BenchOptions>;
  environment: BenchEnvironment;
  /** Aborted on Ctrl-C: phases stop submitting and unwind so the cleanup can run. */
  signal: AbortSignal;
  /** Progress and notes (stderr), so stdout carries only the report. */
  note(line: string): void;
}

export interface PhaseResult {
  /** Rows for the load table (phase, requests, seconds, req/s, p50, p99). */
  loads?: LoadRow[];
  /** Rows for the micro-cost table. */
  micro?: MicroRow[];
  /** A section of its own: a heading and lines under it. */
  section?: { title: string; lines: string[] };
  /** Targets this phase checks by itself (the cross-phase ratios are computed in main.ts). */
  verdicts?: TargetVerdict[];
}

export interface Phase {
  /** The name `--only` takes. */
  name: string;
  /** One line for `--help`. */
  summary: string;
  /** Left out of the default run (too long, or asked for by a flag); `--only` or its flag selects it. */
  optIn?: boolean;
  /** Phases whose figures this one is compared with; they run too (before it) whenever it runs. */
  comparedWith?: readonly string[];
  /** Ratios of this phase's load figures to another phase's, checked at the end when both ran. */
  ratios?: readonly RatioTarget[];
  run(context: BenchContext): Promise<PhaseResult>;
}

/** A load figure of this phase over the same figure of another phase measured in the same run. */
export interface RatioTarget {
  name: string;
  /** The other phase (its name). */
  against: string;
  /** The row's system, when the phase has several rows at this load (default: its first). */
  system?: string;
  /** The other phase's row's system, likewise. */
  againstSystem?: string;
  load: LoadRow['load'];
  /** Requests per second, or p99 latency. */
  metric: 'rate' | 'p99';
  /** The target; with neither bound the ratio is shown for information. */
  atLeast?: number;
  atMost?: number;
}
