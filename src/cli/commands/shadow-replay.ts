/**
 * `vetted shadow replay --models <dir> --requests <file.jsonl>`: a corpus through both builders in process
 * (no Redis, no database) and the summary per model. Bad files and lines stop it before anything runs, with
 * the file, line number and field (exit 2).
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { VettedError } from '../../errors.ts';
import { formatReplayTable } from '../../shadow/report-format.ts';
import type { ReplayOutcome } from '../../shadow/corpus-replay.ts';
import { action } from '../action.ts';
import { loadAdapters } from '../local-root.ts';
import { printJson } from '../io.ts';
import { parseFormat } from '../option-parsers.ts';

const REPLAY_FORMATS = ['table', 'json'] as const;

interface ReplayOptions {
  models: string;
  requests: string;
  builder?: string;
  format: string;
}

export function registerShadowReplayCommand(shadow: Command): void {
  shadow
    .command('replay')
    .description('Run a corpus through V2 and V3 in process (no Redis, no database) and print leaks per model')
    .requiredOption('--models <dir>', 'folder of model files (Replicate model or version objects, or { model, example_input })')
    .requiredOption('--requests <file>', 'JSON Lines: one GenerationRequest per line, optionally with "model" naming the model it is for')
    .option('--builder <name>', 'builder both sides use: heuristic | openai (default from the configuration)')
    .option('--format <format>', `output: ${REPLAY_FORMATS.join(' | ')}`, 'table')
    .action(action(replay));
}

async function replay(options: ReplayOptions): Promise<void> {
  const format = parseFormat(options.format, REPLAY_FORMATS);
  const [{ loadConfig }, { loadReplayModels, parseReplayRequests }, { replayCorpus, summarizeReplay }] = await Promise.all([
    import('../../config.ts'),
    import('../../shadow/replay-corpus.ts'),
    import('../../shadow/corpus-replay.ts'),
  ]);
  const config = loadConfig();
  const adapters = await loadAdapters(config);
  const builder = adapters.builder(options.builder ?? config.defaults.builder);
  const models = await loadReplayModels(options.models);
  const requests = parseReplayRequests(await readRequests(options.requests), options.requests, models, config.limits);
  const outcomes = await replayCorpus({ models, requests, builder, adapters, config });
  reportFailures(outcomes);
  const summary = summarizeReplay(outcomes, models);
  if (format === 'json') printJson(summary);
  else process.stdout.write(formatReplayTable(summary));
}

async function readRequests(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new VettedError('INVALID_REQUEST', `requests file ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { field: 'requests' });
  }
}

/** A comparison that failed is not a bad line: say which on stderr, and keep the summary on stdout. */
function reportFailures(outcomes: readonly ReplayOutcome[]): void {
  for (const outcome of outcomes) {
    if (outcome.comparison.status === 'failed') {
      process.stderr.write(`line ${outcome.line} (${outcome.model}): comparison failed: ${outcome.comparison.failureReason ?? 'no reason'}\n`);
    }
  }
}
