/**
 * `npx tsx bench/reading-cpu.ts [--rounds N] [--against REF] [--mix bench|corpus]`: the heuristic builder's CPU per build, as the bench's
 * `reading` phase measures it (bench/reading/measure.ts), and with `--against` beside the builder of another
 * commit (a branch, a tag, `main`, `HEAD`), alternated round by round in this one process, with every candidate
 * compared: a change that only makes reading cheaper shows a ratio under 1 and the same digest for both.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildHeuristicPayload } from '../src/builders/heuristic-builder.ts';
import { formatReading, loadWorkload, measureReading, type BuildFunction, type MeasuredBuilder } from './reading/measure.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The builder of a commit: its src/ and package.json unpacked once into a directory of their own (beside this
 * checkout's node_modules, linked), so its word lists and patterns are that commit's, in modules of their own.
 */
async function builderAt(ref: string): Promise<BuildFunction> {
  const commit = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  const dir = path.join(os.tmpdir(), `vetted-reading-${commit.slice(0, 12)}`);
  if (!existsSync(path.join(dir, 'package.json'))) {
    mkdirSync(dir, { recursive: true });
    const archive = execFileSync('git', ['archive', commit, 'src', 'package.json'], { cwd: REPO_ROOT, maxBuffer: 1 << 28 });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
    symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  }
  const module = (await import(pathToFileURL(path.join(dir, 'src', 'builders', 'heuristic-builder.ts')).href)) as { buildHeuristicPayload: BuildFunction };
  return module.buildHeuristicPayload;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '7' }, against: { type: 'string' }, mix: { type: 'string' } } });
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a whole number of at least 1, got "${values.rounds}"`);
  const builders: MeasuredBuilder[] = [{ name: 'this checkout', build: buildHeuristicPayload }];
  if (values.against !== undefined) builders.push({ name: values.against, build: await builderAt(values.against) });
  else builders.push({ name: 'this checkout, no words to read', build: buildHeuristicPayload, unread: true });
  if (values.mix !== undefined && values.mix !== 'bench' && values.mix !== 'corpus') throw new Error(`--mix must be bench or corpus, got "${values.mix}"`);
  const loaded = await loadWorkload();
  // One mix alone (for a profile of it): the other is left empty.
  const workload = values.mix === undefined ? loaded : { bench: values.mix === 'bench' ? loaded.bench : [], corpus: values.mix === 'corpus' ? loaded.corpus : [] };
  console.error(`${workload.bench.length} bench builds and ${workload.corpus.length} corpus builds per round, ${rounds} rounds, load ${os.loadavg()[0]?.toFixed(1) ?? '?'}`);
  console.log(formatReading(measureReading(workload, builders, rounds)).join('\n'));
}

await main();
