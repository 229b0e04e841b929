/**
 * `npm run bench`: Vetted against a bare BullMQ chain on the same Redis and PostgreSQL, plus in-process
 * costs and Redis memory per parked run; on request, the SDK path (`--builder`, `--provider`), shadow mode
 * (`--shadow`) and human review round trips through the API (`--only review`). Reads flags, runs the chosen
 * phases in order on a database and prefix of its own, prints the report (stdout; progress goes to stderr)
 * and cleans up, also on Ctrl-C. Exit code 0 even when a target is missed (a benchmark reports); 1 on
 * errors; 2 on bad flags; 130 when interrupted.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import type { BuilderName, ProviderName } from '../src/config.ts';
import { redactUrlPassword } from '../src/db/client.ts';
import { baselinePhase } from './bare-chain.ts';
import { installCallCounter } from './call-counter.ts';
import { guardOutput } from '../src/util/output-guard.ts';
import { Cleanup } from './cleanup.ts';
import { createBenchEnvironment, type BenchEnvironment } from './environment.ts';
import { microPhase } from './micro.ts';
import { memoryPhase } from './parked-memory.ts';
import type { BenchContext, BenchOptions, Phase, PhaseResult } from './phase.ts';
import { cpuImpliedRatio, fixed, formatCostTable, formatLoadTable, formatWalTable, formatMicroTable, formatVerdicts, loadSummary, type LoadRow, type TargetVerdict } from './report.ts';
import { peersPhase } from './langgraph-peer.ts';
import { placementPhase } from './placement/phase.ts';
import { readingPhase } from './reading/phase.ts';
import { reviewPhase } from './review-round-trip.ts';
import { scalePhase } from './scale-out.ts';
import { sdkPhase } from './sdk-pipeline.ts';
import { shadowPhase } from './shadow-pipeline.ts';
import { vettedPhase } from './vetted-pipeline.ts';
import { releaseWal } from './wal-meter.ts';

/**
 * Every phase, in the order they run (a phase compared with another comes after it). A new bench adds
 * itself here. Opt-in phases run only when `--only` or their own flag names them.
 */
const PHASES: readonly Phase[] = [vettedPhase, sdkPhase, shadowPhase, baselinePhase, microPhase, memoryPhase, reviewPhase, peersPhase, scalePhase, placementPhase, readingPhase];
const DEFAULT_PHASES = PHASES.filter((phase) => !phase.optIn).map((phase) => phase.name);

const BUILDERS: readonly BuilderName[] = ['heuristic', 'openai'];
const PROVIDERS: readonly ProviderName[] = ['dry', 'replicate'];
const REPEAT_SIGNAL_MS = 2000;

const FLAGS = {
  requests: { type: 'string', default: '5000' },
  'latency-requests': { type: 'string', default: '300' },
  warmup: { type: 'string', default: '300' },
  'in-flight': { type: 'string', default: '100' },
  concurrency: { type: 'string' },
  'pool-size': { type: 'string', default: '10' },
  parked: { type: 'string', default: '1000' },
  'review-requests': { type: 'string', default: '2000' },
  'review-in-flight': { type: 'string', default: '50' },
  'review-seed': { type: 'string', default: '100000' },
  builder: { type: 'string' },
  provider: { type: 'string' },
  shadow: { type: 'string' },
  only: { type: 'string' },
  rounds: { type: 'string', default: '1' },
  'stall-seconds': { type: 'string', default: '30' },
  'cpu-prof-dir': { type: 'string' },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function helpText(): string {
  return `Usage: npm run bench -- [flags]

Measures Vetted end to end against a bare BullMQ chain (5 queues, one PostgreSQL row per request) on the
same Redis and PostgreSQL, then in-process costs and Redis memory per parked run. Uses a database
vetted_bench_<time> and a BullMQ prefix vetted-bench-<time> of its own, removed at the end (also on Ctrl-C).
The report goes to stdout, progress to stderr. Exit code 0 even when a target is missed.

Phases (--only; * = opt-in, run only when named by --only or by its flag):
${PHASES.map((phase) => `  ${phase.optIn ? '*' : ' '}${phase.name.padEnd(9)} ${phase.summary}`).join('\n')}

Flags:
  --requests N           requests per system at --in-flight (throughput)               default 5000
  --latency-requests N   requests per system at 1 in flight (latency p50/p99)          default 300
  --warmup N             unmeasured requests per system before the throughput run      default 300
  --in-flight K          requests kept outstanding in the throughput run               default 100
  --concurrency N        worker concurrency per stage, Vetted and baseline alike
                         default: VETTED_CONCURRENCY (and VETTED_CONCURRENCY_<STAGE>), else 16
  --pool-size N          PostgreSQL pool size per process, Vetted and baseline alike    default 10
  --parked N             runs to park for the memory phase                              default 1000
  --builder B            adds phase sdk with builder B (heuristic | openai)             default openai in sdk
  --provider P           adds phase sdk with provider P (dry | replicate)               default replicate in sdk
  --shadow RATE          adds phase shadow, sampling RATE (0..1) of runs                default 1 in shadow
  --review-requests N    round trips per system at --review-in-flight (phase review)    default 2000
  --review-in-flight K   round trips kept outstanding (phase review)                    default 50
  --review-seed N        parked runs in PostgreSQL before the round trips               default 100000
  --only a,b             phases to run, in the order above                    default ${DEFAULT_PHASES.join(',')}
                         (sdk and shadow bring vetted along: their figures are ratios to it)
  --rounds N             run the chosen phases N times in turn (vetted, baseline, vetted, ...) default 1
                         and judge each target by its median over the rounds (see below)
  --stall-seconds S      fail when no request finishes for S seconds                    default 30
  --cpu-prof-dir DIR     worker (and API) processes run with --cpu-prof and write profiles to DIR/<phase>
  --quiet                no progress lines
  -h, --help             this text

Environment: DATABASE_URL and REDIS_URL say where the servers are (only the host and credentials of
DATABASE_URL are used), LOG_LEVEL the workers' log level (default warn). Targets: see bench/README.md; each
is printed with its verdict at the end. With --rounds N, every round's rows are printed (marked #1 … #N),
and each target shows its median and every round's value; it passes when more than half of the rounds pass.
Alternating the systems this way lets a machine whose load drifts (a shared one) slow both sides alike.
`;
}

function parseOptions(argv: string[]): { options: BenchOptions; phases: Phase[]; rounds: number } | 'help' {
  const { values } = parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false });
  if (values.help) return 'help';
  const count = (flag: keyof typeof FLAGS, min: number): number => {
    const raw = values[flag] as string;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw new UsageError(`--${flag} must be an integer ≥ ${min}, got "${raw}"`);
    return n;
  };
  const names = new Set((values.only ?? DEFAULT_PHASES.join(',')).split(',').map((name) => name.trim()).filter(Boolean));
  const unknown = [...names].filter((name) => !PHASES.some((phase) => phase.name === name));
  if (unknown.length > 0 || names.size === 0) {
    throw new UsageError(`--only takes phases from: ${PHASES.map((p) => p.name).join(', ')}${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}`);
  }
  if (values.builder !== undefined || values.provider !== undefined) names.add(sdkPhase.name);
  if (values.shadow !== undefined) names.add(shadowPhase.name);
  const sdk = { builder: oneOf('builder', values.builder ?? 'openai', BUILDERS), provider: oneOf('provider', values.provider ?? 'replicate', PROVIDERS) };
  if (names.has(sdkPhase.name) && sdk.builder === 'heuristic' && sdk.provider === 'dry') {
    throw new UsageError('--builder heuristic --provider dry is the vetted phase itself; name openai and/or replicate');
  }
  // A phase compared with another brings it along, so its ratio is always from the same run.
  for (const phase of PHASES) if (names.has(phase.name)) for (const other of phase.comparedWith ?? []) names.add(other);
  return {
    options: {
      requests: count('requests', 1),
      latencyRequests: count('latency-requests', 1),
      warmup: count('warmup', 0),
      inFlight: count('in-flight', 1),
      concurrency: values.concurrency === undefined ? undefined : count('concurrency', 1),
      poolSize: count('pool-size', 1),
      parked: count('parked', 1),
      reviewRequests: count('review-requests', 1),
      reviewInFlight: count('review-in-flight', 1),
      reviewSeed: count('review-seed', 2),
      sdk,
      shadowRate: sampleRate(values.shadow ?? '1'),
      stallSeconds: count('stall-seconds', 1),
      cpuProfDir: values['cpu-prof-dir'],
      quiet: values.quiet ?? false,
    },
    phases: PHASES.filter((phase) => names.has(phase.name)),
    rounds: count('rounds', 1),
  };
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}

function sampleRate(raw: string): number {
  const rate = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) throw new UsageError(`--shadow must be a sample rate from 0 to 1, got "${raw}"`);
  return rate;
}

class UsageError extends Error {
  override name = 'UsageError';
}

async function main(): Promise<number> {
  installCallCounter();
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}\n\n${helpText()}`);
    return 2;
  }
  if (parsed === 'help') {
    console.log(helpText());
    return 0;
  }
  const { options, phases, rounds } = parsed;
  const cleanup = new Cleanup();
  const abort = new AbortController();
  // Nobody reads the output any more (a closed pipe): stop and clean up, as after Ctrl-C, writing nothing more.
  const output = guardOutput(() => abort.abort());
  const note = (line: string) => output.err(`${line}\n`);
  let interruptedAt = 0;
  const onSigint = () => {
    // One Ctrl-C can arrive more than once (the terminal signals the process group, and npm and tsx relay
    // it too), so only a second press a little later means "leave now, cleanup or not".
    if (abort.signal.aborted) {
      if (Date.now() - interruptedAt > REPEAT_SIGNAL_MS) process.exit(130);
      return;
    }
    interruptedAt = Date.now();
    note('interrupted: stopping and cleaning up (Ctrl-C again to leave at once)');
    abort.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  try {
    const environment = await createBenchEnvironment(options, cleanup, note);
    const loadAtStart = os.loadavg()[0] ?? 0;
    const results: Map<Phase, PhaseResult>[] = [];
    const seconds = new Map<string, number>();
    for (let round = 1; round <= rounds && !abort.signal.aborted; round++) {
      const mark = rounds > 1 ? ` #${round}` : '';
      // Each round on a database and prefix of its own: the phases label their requests the same way each time.
      const context: BenchContext = { options, environment: round === 1 ? environment : await createBenchEnvironment(options, cleanup, note), signal: abort.signal, note };
      const roundResults = new Map<Phase, PhaseResult>();
      results.push(roundResults);
      for (const phase of phases) {
        if (abort.signal.aborted) break;
        note(`── phase ${phase.name}${mark}`);
        const started = performance.now();
        roundResults.set(phase, await phase.run(context));
        seconds.set(`${phase.name}${mark}`, (performance.now() - started) / 1000);
      }
    }
    if (abort.signal.aborted) return 130;
    output.out(`${formatReport(environment, options, results, { loadAtStart, seconds })}\n`);
    return 0;
  } catch (error) {
    if (abort.signal.aborted) return 130;
    output.err(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  } finally {
    await cleanup.runAll(note);
    await releaseWal();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
}

function formatReport(
  environment: BenchEnvironment,
  options: BenchOptions,
  rounds: readonly Map<Phase, PhaseResult>[],
  run: { loadAtStart: number; seconds: Map<string, number> },
): string {
  const out: string[] = [];
  const concurrency = Object.entries(environment.concurrency).map(([stage, n]) => `${stage} ${n}`).join(', ');
  out.push(
    `Vetted bench, ${new Date().toISOString()}: node ${process.version}, ${os.cpus().length} CPUs, ${os.platform()}`,
    `  PostgreSQL ${redactUrlPassword(environment.databaseUrl)} (dropped at the end), Redis ${redactUrlPassword(environment.redisUrl)}`,
    `  worker concurrency per stage: ${concurrency}; PostgreSQL pool ${environment.poolSize} per process; workers in a child process`,
    `  completion: QueueEvents 'completed' on the last queue (see bench/completion.ts); latency = submit → that event`,
    // Other processes on the machine move wall-clock figures; the CPU-per-request columns move much less.
    `  1-minute load average: ${run.loadAtStart.toFixed(2)} at the start, ${(os.loadavg()[0] ?? 0).toFixed(2)} at the end (${os.cpus().length} CPUs)`,
    `  phases (wall time): ${[...run.seconds].map(([name, s]) => `${name} ${s.toFixed(0)} s`).join(', ')}`,
  );
  const all = rounds.flatMap((results, index) => [...results.values()].map((result) => markRound(result, rounds.length > 1 ? ` #${index + 1}` : '')));
  const loads = all.flatMap((result) => result.loads ?? []);
  if (loads.length > 0) {
    out.push('', `Load (${options.inFlight} in flight = throughput, ${options.reviewInFlight} for review round trips, 1 in flight = latency)`, formatLoadTable(loads));
    out.push(
      '',
      'Cost per request (driver + worker process, plus the API process for vetted review; PostgreSQL = its backends for the bench database)',
      formatCostTable(loads),
    );
    if (loads.some((row) => row.costs?.wal)) {
      out.push(
        '',
        'WAL per request (pg_walinspect: the bench database\'s own records and their commits; server-wide = the flush LSN difference, every database)',
        formatWalTable(loads),
      );
    }
  }
  const micro = all.flatMap((result) => result.micro ?? []);
  if (micro.length > 0) out.push('', 'In-process costs (µs per call)', formatMicroTable(micro));
  out.push(...formatSections(rounds));
  const verdicts = medianVerdicts(
    rounds.map((results) => {
      const roundLoads = [...results.values()].flatMap((result) => result.loads ?? []);
      return [...[...results.values()].flatMap((result) => result.verdicts ?? []), ...ratioVerdicts(results), ...pipelineCeiling(roundLoads)];
    }),
  );
  if (verdicts.length > 0) out.push('', 'Targets (ratios last)', formatVerdicts(verdicts));
  return out.join('\n');
}

/** Each phase's ratios to the phases it names, where both ran in this bench. */
function ratioVerdicts(results: Map<Phase, PhaseResult>): TargetVerdict[] {
  const byName = new Map([...results].map(([phase, result]) => [phase.name, result]));
  const find = (phase: string, load: LoadRow['load'], system?: string) =>
    byName.get(phase)?.loads?.find((row) => row.load === load && (system === undefined || row.system === system));
  const verdicts: TargetVerdict[] = [];
  for (const phase of results.keys()) {
    for (const ratio of phase.ratios ?? []) {
      const [mine, theirs] = [find(phase.name, ratio.load, ratio.system), find(ratio.against, ratio.load, ratio.againstSystem)];
      if (!mine || !theirs) continue;
      const value = loadSummary(mine)[ratio.metric] / loadSummary(theirs)[ratio.metric];
      const bound = ratio.atLeast !== undefined ? `≥ ${ratio.atLeast}` : ratio.atMost !== undefined ? `≤ ${ratio.atMost}` : 'none';
      const pass = ratio.atLeast !== undefined ? value >= ratio.atLeast : ratio.atMost !== undefined ? value <= ratio.atMost : undefined;
      verdicts.push({ name: ratio.name, value, shown: `${fixed(value, 2)} ×`, bound, pass });
      const implied = ratio.metric === 'rate' ? cpuImpliedRatio(mine, theirs) : undefined;
      if (implied !== undefined) verdicts.push({ name: `${ratio.name}, implied by CPU per request`, value: implied, shown: `${fixed(implied, 2)} ×`, bound: 'none', pass: undefined });
    }
  }
  return verdicts;
}

/**
 * Each phase's own section. One that reads the same in every round (a description) is printed once, without
 * a round mark; one that differs (figures) once per round, marked.
 */
function formatSections(rounds: readonly Map<Phase, PhaseResult>[]): string[] {
  const sections = rounds.flatMap((results, index) => [...results.values()].flatMap((result) => (result.section ? [{ ...result.section, round: index + 1 }] : [])));
  const key = (section: { title: string; lines: string[] }) => `${section.title}\n${section.lines.join('\n')}`;
  const seen = new Map<string, number>();
  for (const section of sections) seen.set(key(section), (seen.get(key(section)) ?? 0) + 1);
  const out: string[] = [];
  const printed = new Set<string>();
  for (const section of sections) {
    const everyRound = rounds.length > 1 && seen.get(key(section)) === rounds.length;
    if (everyRound && printed.has(key(section))) continue;
    printed.add(key(section));
    const title = rounds.length > 1 && !everyRound ? `${section.title} #${section.round}` : section.title;
    out.push('', title, ...section.lines.map((line) => `  ${line}`));
  }
  return out;
}

/** Marks a round's rows and section (` #2`) so a report of several rounds tells them apart; one round: as is. */
function markRound(result: PhaseResult, mark: string): PhaseResult {
  if (!mark) return result;
  return {
    ...result,
    loads: result.loads?.map((row) => ({ ...row, system: `${row.system}${mark}` })),
    micro: result.micro?.map((row) => ({ ...row, operation: `${row.operation}${mark}` })),
  };
}

/**
 * One verdict per target over the rounds: the median value, every round's value beside it, and a pass when
 * more than half of the rounds passed (for a one-sided bound, the same as the median passing, with an odd N).
 */
function medianVerdicts(rounds: readonly TargetVerdict[][]): TargetVerdict[] {
  if (rounds.length === 1) return rounds[0] ?? [];
  const byName = new Map<string, TargetVerdict[]>();
  for (const verdict of rounds.flat()) byName.set(verdict.name, [...(byName.get(verdict.name) ?? []), verdict]);
  return [...byName].map(([name, verdicts]) => {
    const values = verdicts.map((v) => v.value).sort((a, b) => a - b);
    const middle = values.length / 2;
    const median = values.length % 2 ? (values[Math.floor(middle)] ?? Number.NaN) : ((values[middle - 1] ?? 0) + (values[middle] ?? 0)) / 2;
    const judged = verdicts.filter((v) => v.pass !== undefined);
    const pass = judged.length === 0 ? undefined : judged.filter((v) => v.pass).length * 2 > judged.length;
    const shown = `median ${fixed(median, 2)} (${verdicts.map((v) => fixed(v.value, 2)).join(', ')})`;
    return { name, value: median, shown, bound: verdicts[0]?.bound ?? 'none', pass };
  });
}

/**
 * What the review round-trip ratio can reach at most, when `baseline` and `review` ran together: the bare
 * five-queue chain (no work, one row updated per hop) as a share of the bare review round trip. Vetted parks
 * only after four stage queues and executes on a fifth, so its round trip does at least the chain's
 * work, plus three HTTP calls and the audit trail; its ratio to the bare round trip cannot exceed this one.
 */
function pipelineCeiling(loads: readonly LoadRow[]): TargetVerdict[] {
  const chain = loads.find((row) => row.system === 'baseline' && row.load === 'throughput');
  const review = loads.find((row) => row.system === 'bare review' && row.load === 'throughput');
  if (!chain || !review) return [];
  const value = loadSummary(chain).rate / loadSummary(review).rate;
  const name = `ceiling for review round trips: bare 5-queue chain (${chain.inFlight} in flight) / bare review (${review.inFlight})`;
  return [{ name, value, shown: `${fixed(value, 2)} ×`, bound: 'none', pass: undefined }];
}

process.exitCode = await main();
