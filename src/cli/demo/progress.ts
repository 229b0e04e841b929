/** Live progress for the demo: one line per status change of each run, read through the API. */
import type { Run } from '../../generated/contracts.ts';
import type { ApiClient } from './api-client.ts';
import type { DemoRun } from './scenario.ts';

const POLL_MS = 50;

export interface ProgressTracker {
  /** Polls and prints until `done` holds for every run, or fails after `timeoutMs`. */
  until(done: (rows: Run[]) => boolean, timeoutMs: number): Promise<void>;
  latest(): Map<string, Run>;
}

export function createProgressTracker(client: ApiClient, runs: readonly DemoRun[]): ProgressTracker {
  const latest = new Map<string, Run>();
  const trail = new Map<string, string[]>();
  const started = Date.now();

  async function poll(): Promise<Run[]> {
    const rows: Run[] = [];
    for (const demoRun of runs) {
      const row = await client.run(demoRun.runId);
      rows.push(row);
      const seen = trail.get(row.id) ?? [];
      if (seen.at(-1) !== row.status) {
        seen.push(row.status);
        trail.set(row.id, seen);
        const elapsed = String(Date.now() - started).padStart(5);
        console.log(`  ${elapsed} ms  [${demoRun.index}] ${row.status}${detail(row)}`);
      }
      latest.set(row.id, row);
    }
    return rows;
  }

  return {
    latest: () => latest,
    async until(done, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const rows = await poll();
        if (rows.length === runs.length && done(rows)) return;
        if (Date.now() > deadline) {
          throw new Error(`the demo runs did not finish within ${timeoutMs / 1000} s; are the stage workers stuck? Check \`vetted runs\``);
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },
  };
}

function detail(row: Run): string {
  if (row.status === 'awaiting_human' && row.pendingReview) return `: ${row.pendingReview.reason}`;
  if (row.status === 'failed' && row.error) return `: ${row.error.code} ${row.error.message}`;
  if (row.status === 'cancelled' && row.error) return `: ${row.error.message}`;
  return '';
}
