/** `vetted policy preview`: replay a proposed policy over a tenant's stored runs (src/policy/preview.ts). */
import type { Command } from 'commander';
import { formatPolicyPreview } from '../../policy/preview-format.ts';
import { parseSince } from '../../shadow/since.ts';
import { action, withSystem } from '../action.ts';
import { inFile, printJson, readJsonFile } from '../io.ts';
import { parseFormat, parseModelRef, parseTenant } from '../option-parsers.ts';

const FORMATS = ['table', 'json'] as const;

interface PreviewOptions {
  file: string;
  tenant: string;
  since: string;
  model?: string;
  format: string;
}

export function registerPolicyCommands(program: Command): void {
  const policy = program.command('policy').description('Policies: see what a change would do before making it');
  policy
    .command('preview')
    .description("Replay a proposed policy over a tenant's stored runs: how many would wait for a person, per checkpoint and model, against what happened. Changes nothing.")
    .requiredOption('--file <policy.json>', 'the proposed policy: a mode ("require_human") or {mode, minConfidence, maxChangedFields, blockOnSafetyFlags, responseReview}')
    .requiredOption('--tenant <id>', "whose runs to replay")
    .option('--since <when>', 'runs created since: a look-back (24h, 7d, 2w) or a date (2026-01-31)', '7d')
    .option('--model <owner/name>', 'only this model (every version of it, or owner/name:version)')
    .option('--format <format>', `output: ${FORMATS.join(' | ')}`, 'table')
    .action(action(preview));
}

async function preview(options: PreviewOptions): Promise<void> {
  const format = parseFormat(options.format, FORMATS);
  const tenantId = parseTenant(options.tenant);
  const model = options.model === undefined ? undefined : await parseModelRef('--model', options.model);
  const proposed = await readJsonFile(options.file, 'policy file');
  await withSystem(async (system) => {
    const now = system.clock.now();
    const since = parseSince(options.since, now, '--since');
    const { previewPolicy } = await import('../../policy/preview.ts');
    const answer = await previewPolicy({ previewRuns: system.previewRuns, models: system.models, defaults: system.config.defaults }, { tenantId, policy: proposed, since, until: now, model }).catch((error: unknown) => {
      throw inFile(options.file, 'policy file', error);
    });
    if (format === 'json') printJson(answer);
    else process.stdout.write(formatPolicyPreview(answer));
  });
}
