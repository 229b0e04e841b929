/** The demo's closing table: what each run became and what it would have sent to the provider. */
import type { Run } from '../../generated/contracts.ts';
import type { DemoRun } from './scenario.ts';

/** Prints the outcome of each run; returns the runs that did not end as their scenario says. */
export function printSummary(runs: readonly DemoRun[], rows: Map<string, Run>): DemoRun[] {
  console.log('\nSummary:');
  for (const demoRun of runs) {
    const row = rows.get(demoRun.runId);
    if (!row) continue;
    const ms = row.completedAt ? Date.parse(row.completedAt) - Date.parse(row.createdAt) : NaN;
    console.log(`  [${demoRun.index}] ${row.status.padEnd(10)} ${String(Math.round(ms)).padStart(5)} ms  ${row.model} on ${row.provider}  run ${row.id}`);
    const payload = row.candidate?.payload as Record<string, unknown> | undefined;
    if (payload && row.status === 'completed') {
      const fromUser = Object.entries(row.candidate?.provenance ?? {})
        .filter(([, p]) => p && p.source !== 'schema_default')
        .map(([field, p]) => `${field}=${JSON.stringify(payload[field])} (${p?.source})`);
      console.log(`      from the user: ${fromUser.join(', ') || '(none)'}`);
    }
  }
  const counts = new Map<string, number>();
  for (const row of rows.values()) counts.set(row.status, (counts.get(row.status) ?? 0) + 1);
  console.log(`\n  ${[...counts].map(([status, n]) => `${n} ${status}`).join(', ')}. Inspect one with \`vetted run <id> --events\`.`);
  const unexpected = runs.filter((demoRun) => rows.get(demoRun.runId)?.status !== demoRun.scenario.ends);
  for (const demoRun of unexpected) {
    console.log(`  [${demoRun.index}] should have ended ${demoRun.scenario.ends}, but is ${rows.get(demoRun.runId)?.status ?? 'unknown'}`);
  }
  return unexpected;
}
