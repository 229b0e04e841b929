/** Helpers for integration tests that drive whole runs through the real queues and workers. */
import { readFileSync } from 'node:fs';
import type { RunRow } from '../../src/db/schema/index.ts';
import type { RunStatus } from '../../src/generated/contracts.ts';
import { registerModel } from '../../src/catalog/model-catalog.ts';
import { submitRun } from '../../src/intake/submit-run.ts';
import type { QueuedSystem, System } from '../../src/system.ts';
import { eventually } from './test-system.ts';

export const TENANT = 't1';

export function exampleModel(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../../examples/models/${file}`, import.meta.url), 'utf8')) as Record<string, unknown>;
}

export async function registerExamples(system: System): Promise<void> {
  await registerModel(system, { tenantId: TENANT, source: exampleModel('flux-schnell.model.json') });
  await registerModel(system, { tenantId: TENANT, source: exampleModel('real-esrgan.model.json') });
  await registerModel(system, { tenantId: TENANT, source: exampleModel('whisper.version.json'), ref: 'openai/whisper' });
}

export async function submit(system: System, request: Record<string, unknown>, tenantId = TENANT): Promise<RunRow> {
  return (await submitRun(system, { tenantId, request, actor: 'test' })).run;
}

/** Waits until the run reaches one of `statuses` (default: any resting state). */
export async function settle(
  system: System,
  runId: string,
  statuses: readonly RunStatus[] = ['completed', 'failed', 'cancelled', 'expired', 'awaiting_human'],
  timeoutMs = 20_000,
): Promise<RunRow> {
  return eventually(async () => {
    const run = await system.store.get(runId);
    return run && statuses.includes(run.status) ? run : undefined;
  }, timeoutMs, `run ${runId} to reach ${statuses.join('|')}`);
}

/** Number of jobs of any state still in Redis for this run, across every stage queue. */
// The stage that parks a run commits to PostgreSQL before BullMQ marks its job done and removes it, so callers poll
// (expect.poll) for the count to reach zero rather than reading it once.
export async function jobsInRedis(system: QueuedSystem, runId: string): Promise<number> {
  let count = 0;
  for (const queue of Object.values(system.queues.stages)) {
    const jobs = await queue.getJobs(['waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized', 'waiting-children']);
    count += jobs.filter((job) => job?.data.runId === runId).length;
  }
  return count;
}
