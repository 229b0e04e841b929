/** A policy preview as a terminal table (`vetted policy preview`): one row per model and checkpoint, then totals. */
import { textTable } from '../shadow/report-format.ts';
import type { PolicyPreview } from './preview.ts';

export function formatPolicyPreview(preview: PolicyPreview): string {
  const { runs, total } = preview;
  const header = ['model', 'checkpoint', 'runs', 'parked then', 'would park', 'newly parked', 'no longer parked'];
  const rows: (string | number)[][] = [];
  for (const model of preview.byModel) {
    for (const c of model.checkpoints) rows.push([model.model, c.checkpoint, c.runs, c.before, c.after, c.newlyParked, c.noLongerParked]);
  }
  for (const c of preview.byCheckpoint) rows.push(['(all models)', c.checkpoint, c.runs, c.before, c.after, c.newlyParked, c.noLongerParked]);
  rows.push(['(all models)', '(any)', total.runs, total.before, total.after, total.newlyParked, total.noLongerParked]);
  const skipped = Object.entries(runs.notReplayable).map(([why, n]) => `${n} ${why.replace('_', ' ')}`).join(', ');
  const reasons = Object.entries(total.reasonsAfter).map(([reason, n]) => `${reason} ${n}`).join(', ');
  return [
    `policy ${JSON.stringify(preview.policy)} over runs created ${preview.window.since} .. ${preview.window.until}${preview.window.model ? ` (${preview.window.model})` : ''}`,
    `${runs.considered} runs, ${runs.replayed} replayed${skipped ? `; not replayable: ${skipped}` : ''}${runs.truncated ? '; TRUNCATED (narrow --since or --model)' : ''}`,
    '',
    textTable(header, rows).trimEnd(),
    '',
    `would park by reason: ${reasons || 'none'}`,
    'no run was changed',
    '',
  ].join('\n');
}
