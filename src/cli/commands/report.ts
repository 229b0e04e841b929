/** `vetted report corrections`: what reviewers change in the builder's payloads, per model and field, per week. */
import type { Command } from 'commander';
import { VettedError } from '../../errors.ts';
import type { CorrectionsReport, FieldCorrections } from '../../generated/contracts.ts';
import { DEFAULT_REPORT_WEEKS, MAX_REPORT_WEEKS, reportWindow } from '../../reports/report-window.ts';
import { action, withSystem } from '../action.ts';
import { printJson } from '../io.ts';
import { parseChoice, parseInteger, parseTenant } from '../option-parsers.ts';
import { apiClientFor, withApiOptions, type ThroughApiOptions } from '../through-api.ts';

const FORMATS = ['table', 'json'] as const;
const MODEL = /^[A-Za-z0-9][\w.-]*(\/[\w.-]+)+(:[\w.-]+)?$/;

interface CorrectionsOptions extends ThroughApiOptions {
  model?: string;
  tenant: string;
  since?: string;
  until?: string;
  weeks: string;
  format: string;
}

export function registerReportCommands(program: Command): void {
  const report = program.command('report').description('Reports over what people did with the runs');
  withApiOptions(
    report
      .command('corrections')
      .description("What reviewers correct: per model and field, how often a person's edit replaced the builder's value, from what to what, the issue codes behind it, and edits per week (free text grouped, secret inputs never shown)")
      .option('--model <ref>', 'one model: owner/name (every version) or owner/name:version')
      .option('--tenant <id>', 'the tenant (through --api: the key\'s tenant)', 'default')
      .option('--since <instant>', 'decisions at or after this RFC 3339 instant (default: --weeks before --until)')
      .option('--until <instant>', 'decisions before this instant (default: now)')
      .option('--weeks <n>', `the look-back in weeks when --since is not given (1 to ${MAX_REPORT_WEEKS})`, String(DEFAULT_REPORT_WEEKS))
      .option('--format <format>', FORMATS.join(' | '), 'table'),
  ).action(
    action(async (options: CorrectionsOptions) => {
      const format = parseChoice('--format', options.format, FORMATS);
      const model = options.model === undefined ? undefined : parseModel(options.model);
      const since = options.since === undefined ? undefined : parseInstant('--since', options.since);
      const until = options.until === undefined ? undefined : parseInstant('--until', options.until);
      const weeks = parseInteger('--weeks', options.weeks, { min: 1, max: MAX_REPORT_WEEKS });
      const print = (found: CorrectionsReport) => (format === 'json' ? printJson(found) : printReport(found));
      const api = await apiClientFor(options);
      if (api) {
        const query = new URLSearchParams({ weeks: String(weeks), ...(model ? { model } : {}), ...(options.since ? { since: options.since } : {}), ...(options.until ? { until: options.until } : {}) });
        return print(await api.get<CorrectionsReport>(`/api/reports/corrections?${query}`));
      }
      const tenantId = parseTenant(options.tenant);
      await withSystem(async (system) => {
        const { buildCorrectionsReport } = await import('../../reports/corrections-queries.ts');
        const now = system.clock.now();
        const window = reportWindow({ since, until, weeks }, now, { since: '--since' });
        print(await buildCorrectionsReport({ corrections: system.corrections, models: system.models, now }, { tenantId, model, ...window }));
      });
    }),
  );
}

function parseModel(value: string): string {
  if (value.length > 300 || !MODEL.test(value)) throw new VettedError('INVALID_REQUEST', `--model: "${value}" is not a model reference; give owner/name or owner/name:version`, { field: 'model' });
  return value;
}

function parseInstant(option: string, value: string): Date {
  const at = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(at.getTime())) throw new VettedError('INVALID_REQUEST', `${option}: "${value}" is not an instant; give an RFC 3339 date-time such as 2026-01-31T00:00:00Z`, { field: option.slice(2) });
  return at;
}

function printReport(found: CorrectionsReport): void {
  console.log(`Corrections ${found.since.slice(0, 10)} to ${found.until.slice(0, 10)}${found.model ? ` for ${found.model}` : ''}: ${found.corrected} of ${found.decisions} decisions changed the payload`);
  if (found.models.length === 0) console.log('  no decisions in the window');
  for (const model of found.models) {
    console.log(`\n${model.model}: ${model.corrected} of ${model.decisions} decisions corrected`);
    if (model.fields.length > 0) console.table(model.fields.map((field) => ({ field: field.field, edits: field.edits, share: `${Math.round(field.share * 100)}%`, 'most common change': topChange(field), 'issue codes': field.issueCodes.map((i) => `${i.code} ×${i.count}`).join(', ') })));
  }
}

function topChange(field: FieldCorrections): string {
  const first = field.changes[0];
  if (!first) return '';
  if (first.change) return `${first.change} ×${first.count}${field.kind === 'secret' ? ' (secret)' : ''}`;
  const show = (value: unknown) => (value === undefined ? '(unset)' : JSON.stringify(value));
  return `${show(first.from)} → ${show(first.to)} ×${first.count}`;
}
