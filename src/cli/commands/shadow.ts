/**
 * `vetted shadow`: shadow mode for engineers. `report` reads what the shadow worker stored (table, JSON, CSV
 * or a self-contained HTML page), `enable` sets a sample rate per tenant or model, `settings` lists them, and
 * `replay` (shadow-replay.ts) runs a corpus through both builders with no queue or database.
 */
import { writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { assertNever, VettedError } from '../../errors.ts';
import { renderShadowHtml } from '../../shadow/html-report.ts';
import { formatSummaryCsv, formatSummaryTable, textTable } from '../../shadow/report-format.ts';
import { parseSince } from '../../shadow/since.ts';
import type { ShadowSummary } from '../../shadow/types.ts';
import { action, withSystem } from '../action.ts';
import { parseFormat } from '../option-parsers.ts';
import { printJson } from '../io.ts';
import { registerShadowReplayCommand } from './shadow-replay.ts';

const REPORT_FORMATS = ['table', 'json', 'csv'] as const;
type ReportFormat = (typeof REPORT_FORMATS)[number];

interface ReportOptions {
  tenant?: string;
  model?: string;
  since: string;
  format: string;
  html?: string;
}

export function registerShadowCommands(program: Command): void {
  const shadow = program
    .command('shadow')
    .description('Shadow mode: the legacy V2 builder beside V3, payload diffs and the example values V2 leaks');

  shadow
    .command('report')
    .description('Leak rate by model and the worst fields, from the stored shadow reports')
    .option('--tenant <id>', 'one tenant (default: every tenant)')
    .option('--model <owner/name>', 'one model (every version of it, or owner/name:version)')
    .option('--since <when>', 'look-back (1h, 24h, 7d) or a date (2026-01-31, 2026-01-31T12:00:00Z)', '7d')
    .option('--format <format>', `output: ${REPORT_FORMATS.join(' | ')}`, 'table')
    .option('--html <file>', 'also write a self-contained HTML page (chart and worst fields) to this file')
    .action(action(report));

  shadow
    .command('enable')
    .description('Set the share of runs shadowed for a tenant (every model) or for one of its models; --rate 0 turns it off')
    .requiredOption('--tenant <id>', 'tenant')
    .option('--model <owner/name>', 'only this model (owner/name or owner/name:version)')
    .requiredOption('--rate <0..1>', 'sample rate, e.g. 0.25 for a quarter of the runs, 1 for all')
    .action(
      action(async (options: { tenant: string; model?: string; rate: string }) => {
        const rate = parseRate(options.rate);
        await withSystem(async (system) => {
          const row = await system.shadowSettings.upsert({ tenantId: options.tenant, model: options.model, sampleRate: rate, updatedBy: `cli:${userInfo().username}` });
          console.log(`shadow rate for tenant ${row.tenantId}${row.model ? `, model ${row.model}` : ' (every model)'} is now ${row.sampleRate}`);
        });
      }),
    );

  shadow
    .command('settings')
    .description('List the shadow sample rates (VETTED_SHADOW_SAMPLE_RATE applies where none is set)')
    .option('--tenant <id>', 'one tenant (default: every tenant)')
    .action(
      action(async (options: { tenant?: string }) => {
        await withSystem(async (system, config) => {
          const rows = await system.shadowSettings.list(options.tenant);
          console.log(`default rate (VETTED_SHADOW_SAMPLE_RATE): ${config.shadow.sampleRate}`);
          if (rows.length === 0) return console.log('No shadow settings.');
          process.stdout.write(textTable(['tenant', 'model', 'rate', 'updated by', 'updated'], rows.map((r) => [r.tenantId, r.model ?? '(every model)', r.sampleRate, r.updatedBy, r.updatedAt.toISOString()])));
        });
      }),
    );

  registerShadowReplayCommand(shadow);
}

async function report(options: ReportOptions): Promise<void> {
  const format = parseFormat(options.format, REPORT_FORMATS);
  const now = new Date();
  const since = parseSince(options.since, now);
  await withSystem(async (system) => {
    const summary = await system.shadowReports.summarize({ tenantId: options.tenant ?? null, since, model: options.model });
    if (options.html) {
      await writeFile(options.html, renderShadowHtml(summary, { generatedAt: now, tenant: options.tenant ?? null, model: options.model })).catch((error: NodeJS.ErrnoException) => {
        throw new VettedError('INVALID_REQUEST', `--html ${options.html}: cannot write it (${error.code ?? error.message}); check the directory exists and is writable`, { field: 'html' });
      });
      process.stderr.write(`wrote ${options.html}\n`);
    }
    print(summary, format);
  });
}

function print(summary: ShadowSummary, format: ReportFormat): void {
  switch (format) {
    case 'json':
      return printJson(summary);
    case 'csv':
      return void process.stdout.write(formatSummaryCsv(summary));
    case 'table':
      return void process.stdout.write(formatSummaryTable(summary));
    default:
      return assertNever(format, 'report format');
  }
}

function parseRate(value: string): number {
  const rate = Number(value);
  if (value.trim() === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) {
    throw new VettedError('INVALID_REQUEST', `--rate ${value}: must be a number from 0 to 1 (0.25 shadows a quarter of the runs)`, { field: 'rate' });
  }
  return rate;
}
