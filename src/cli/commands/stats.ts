/** `vetted stats`: the review queue's figures per tenant, checkpoint and task type. */
import type { Command } from 'commander';
import type { ReviewStats } from '../../stats/review-stats.ts';
import { action, withSystem } from '../action.ts';
import { printJson } from '../io.ts';
import { parseChoice, parseInteger, parseTenant } from '../option-parsers.ts';

const FORMATS = ['table', 'json'] as const;

export function registerStatsCommand(program: Command): void {
  program
    .command('stats')
    .description('Review queue figures per tenant and checkpoint (runs) and per tenant and task type (tasks): pending, oldest wait, decisions per minute, time to decision (p50, p90), auto-approved share')
    .option('--tenant <id>', 'one tenant (default: every tenant)')
    .option('--window <minutes>', 'the window for decisions per minute, time to decision and the auto-approved share', '60')
    .option('--format <format>', `${FORMATS.join(' | ')}`, 'table')
    .action(
      action(async (options: { tenant?: string; window: string; format: string }) => {
        const tenantId = options.tenant === undefined ? undefined : parseTenant(options.tenant);
        const windowMinutes = parseInteger('--window', options.window, { min: 1, max: 60 * 24 * 90 });
        const format = parseChoice('--format', options.format, FORMATS);
        await withSystem(async (system) => {
          const { reviewStats } = await import('../../stats/review-stats.ts');
          const stats = await reviewStats(system.reviewStatsQueries, { tenantId, windowMinutes }, system.clock.now());
          if (format === 'json') return printJson(stats);
          printTables(stats);
        });
      }),
    );
}

function printTables(stats: ReviewStats): void {
  const seconds = (value: number | null) => (value === null ? '' : value < 120 ? `${Math.round(value)}s` : value < 7200 ? `${Math.round(value / 60)}m` : `${(value / 3600).toFixed(1)}h`);
  const common = (row: ReviewStats['reviews'][number] | ReviewStats['tasks'][number]) => ({
    pending: row.pending,
    oldest: row.pending > 0 ? seconds(row.oldestAgeSeconds) : '',
    'decisions/min': row.decisionsPerMinute.toFixed(2),
    'p50 to decide': seconds(row.timeToDecisionP50Seconds),
    'p90 to decide': seconds(row.timeToDecisionP90Seconds),
  });
  console.log(`Reviews of runs (decisions over the last ${stats.windowMinutes} minutes):`);
  if (stats.reviews.length === 0) console.log('  none waiting or decided');
  else console.table(stats.reviews.map((row) => ({ tenant: row.tenant, checkpoint: row.checkpoint, ...common(row) })));
  console.log(`Review tasks (submissions and reviews over the last ${stats.windowMinutes} minutes):`);
  if (stats.tasks.length === 0) console.log('  none waiting, reviewed or submitted');
  else console.table(stats.tasks.map((row) => ({ tenant: row.tenant, 'task type': row.taskType, ...common(row), submitted: row.submitted, 'auto-approved': row.autoApprovedShare === null ? '' : `${Math.round(row.autoApprovedShare * 100)}%` })));
}
