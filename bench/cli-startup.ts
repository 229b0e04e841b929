/**
 * Part of phase `micro`: how long the `vetted` command takes to start, compiled (dist/, what bin/vetted.mjs runs)
 * against the TypeScript sources through tsx (`node --import tsx src/cli/main.ts`, what ran before the build
 * existed). Two commands: `vetted --help`, and `vetted runs` against a PostgreSQL that refuses (a failing command:
 * configuration, one connection attempt, the error). Each is a fresh process, timed from spawn to exit, run
 * RUNS times interleaved with the others so load from other processes spreads evenly; `node -e 0` is the floor.
 * The targets (help under 0.3 s, the failing command under 0.5 s) are checked on the best run: the code's cost
 * with the least noise from a busy machine. Each process also reports the CPU time it used (user + system, read
 * at exit through an --import hook), which a loaded machine moves far less than the wall clock.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { PhaseResult } from './phase.ts';
import { formatTable, type TargetVerdict } from './report.ts';

const RUNS = 7;
const ROOT = path.resolve(import.meta.dirname, '..');
const REFUSING_DATABASE = 'postgres://postgres@127.0.0.1:1/vetted';

interface Variant {
  label: string;
  args: string[];
  env?: Record<string, string>;
  /** The exit code the command should end with (a failing command must really fail). */
  exitCode: number;
}

const COMPILED = [path.join(ROOT, 'bin', 'vetted.mjs')];
const TSX = ['--import', 'tsx', path.join(ROOT, 'src', 'cli', 'main.ts')];
const FAILING = { DATABASE_URL: REFUSING_DATABASE };

const VARIANTS: Variant[] = [
  { label: 'node -e 0 (the floor)', args: ['-e', '0'], exitCode: 0 },
  { label: 'vetted --help, compiled', args: [...COMPILED, '--help'], exitCode: 0 },
  { label: 'vetted --help, tsx', args: [...TSX, '--help'], exitCode: 0 },
  { label: 'vetted runs (PostgreSQL refusing), compiled', args: [...COMPILED, 'runs'], env: FAILING, exitCode: 1 },
  { label: 'vetted runs (PostgreSQL refusing), tsx', args: [...TSX, 'runs'], env: FAILING, exitCode: 1 },
];

const CPU_MARK = 'VETTED_BENCH_CPU_MS ';

/** An --import module that prints the process's CPU time as it exits. */
function cpuReporter(): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'vetted-startup-')), 'cpu.mjs');
  writeFileSync(file, `process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write('${CPU_MARK}' + (u.user + u.system) / 1000 + '\\n'); });\n`);
  return file;
}

function timeOnce(variant: Variant, reporter: string): { wall: number; cpu: number } {
  const started = performance.now();
  const result = spawnSync(process.execPath, ['--import', reporter, ...variant.args], { cwd: ROOT, env: { ...process.env, ...variant.env }, encoding: 'utf8' });
  const wall = performance.now() - started;
  if (result.status !== variant.exitCode) throw new Error(`${variant.label}: exit ${result.status}, expected ${variant.exitCode}: ${result.stderr.slice(0, 300)}`);
  const cpu = Number(result.stderr.split('\n').find((line) => line.startsWith(CPU_MARK))?.slice(CPU_MARK.length));
  return { wall, cpu };
}

export function measureCliStartup(note: (line: string) => void): PhaseResult {
  if (!existsSync(path.join(ROOT, 'dist', 'src', 'cli', 'main.js'))) {
    note('micro: dist/ is not built (npm run build); CLI start-up times skipped');
    return {};
  }
  const reporter = cpuReporter();
  const times = new Map<Variant, { wall: number; cpu: number }[]>(VARIANTS.map((variant) => [variant, []]));
  for (const variant of VARIANTS) timeOnce(variant, reporter); // warm the file cache
  for (let run = 0; run < RUNS; run += 1) for (const variant of VARIANTS) times.get(variant)!.push(timeOnce(variant, reporter));
  const stats = (variant: Variant) => {
    const sorted = times.get(variant)!.map((t) => t.wall).sort((a, b) => a - b);
    const cpu = times.get(variant)!.map((t) => t.cpu).sort((a, b) => a - b);
    return { best: sorted[0]!, median: sorted[Math.floor(sorted.length / 2)]!, cpu: cpu[Math.floor(cpu.length / 2)]! };
  };
  const [floor, helpCompiled, helpTsx, failCompiled, failTsx] = VARIANTS.map(stats) as [ReturnType<typeof stats>, ...ReturnType<typeof stats>[]];
  const rows = VARIANTS.map((variant) => {
    const { best, median, cpu } = stats(variant);
    return [variant.label, ms(median), ms(best), ms(best - floor.best), ms(cpu)];
  });
  const lines = [
    ...formatTable(['process (spawn to exit)', 'median ms', 'best ms', 'best − floor ms', 'CPU ms (median)'], rows).split('\n'),
    `tsx / compiled, median wall: --help ${ratio(helpTsx!.median, helpCompiled!.median)}, failing command ${ratio(failTsx!.median, failCompiled!.median)}; ` +
      `CPU: --help ${ratio(helpTsx!.cpu, helpCompiled!.cpu)}, failing command ${ratio(failTsx!.cpu, failCompiled!.cpu)}`,
    `1-minute load average at the end: ${(loadavg()[0] ?? 0).toFixed(2)}; the floor is what node alone takes to start on this machine now`,
  ];
  const verdicts: TargetVerdict[] = [
    { name: 'vetted --help start, compiled (best of 7)', value: helpCompiled!.best, shown: `${ms(helpCompiled!.best)} ms`, bound: '< 300 ms', pass: helpCompiled!.best < 300 },
    { name: 'failing command start, compiled (best of 7)', value: failCompiled!.best, shown: `${ms(failCompiled!.best)} ms`, bound: '< 500 ms', pass: failCompiled!.best < 500 },
    { name: 'vetted --help CPU, compiled (median)', value: helpCompiled!.cpu, shown: `${ms(helpCompiled!.cpu)} ms`, bound: 'none', pass: undefined },
    { name: 'failing command CPU, compiled (median)', value: failCompiled!.cpu, shown: `${ms(failCompiled!.cpu)} ms`, bound: 'none', pass: undefined },
    { name: 'vetted --help start, tsx / compiled (median)', value: helpTsx!.median / helpCompiled!.median, shown: ratio(helpTsx!.median, helpCompiled!.median), bound: 'none', pass: undefined },
    { name: 'failing command start, tsx / compiled (median)', value: failTsx!.median / failCompiled!.median, shown: ratio(failTsx!.median, failCompiled!.median), bound: 'none', pass: undefined },
  ];
  return { section: { title: `CLI start-up (${RUNS} runs each, interleaved)`, lines }, verdicts };
}

const ms = (value: number) => value.toFixed(0);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)} ×`;
