/**
 * `vetted dry-run` says what the workers do: the same requests go through dryRun (in process, execute held)
 * and through the real system (PostgreSQL, BullMQ workers), and each comes to the same decision with the same
 * review reason and the same issues, whether it executes, parks for a policy, a threshold, an invalid value,
 * nothing to build from, or a builder that gives up.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/adapters/registry.ts';
import { registerModel } from '../../src/catalog/model-catalog.ts';
import { dryRun } from '../../src/preview/dry-run.ts';
import type { RunRow } from '../../src/engine/store.ts';
import { startWorkers, type RunningWorkers } from '../../workers/start-workers.ts';
import { GIVES_UP, scenarioBuilder } from '../engine/scenarios.ts';
import { settle, submit, TENANT } from '../support/pipeline.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';

const flux = JSON.parse(readFileSync('examples/models/flux-schnell.model.json', 'utf8')) as Record<string, unknown>;
let system: TestSystem;
let workers: RunningWorkers;

beforeAll(async () => {
  system = await createTestSystem({}, { adapters: { builders: { heuristic: scenarioBuilder() } } });
  workers = startWorkers(system);
  await registerModel(system, { tenantId: TENANT, source: flux });
});
afterAll(async () => {
  await workers?.close();
  await system?.dispose();
});

const CASES: [string, Record<string, unknown>][] = [
  ['executes', { prompt: 'a lighthouse at dusk' }],
  ['a policy that asks a person', { prompt: 'a lighthouse', policy: 'require_human' }],
  ['more changes than the threshold allows', { prompt: 'a lighthouse', policy: { mode: 'auto_with_thresholds', maxChangedFields: 0 } }],
  ['a value out of range', { prompt: 'a lighthouse', edits: { num_outputs: 99 } }],
  ['nothing to build from', { prompt: ' ' }],
  ['a builder that gives up', { prompt: `a lighthouse ${GIVES_UP}` }],
];

/** What a decision comes down to, from a worker's run or a dry run. */
function verdict(decision: string, reason: string | undefined, issues: readonly { code: string; path: string; severity: string }[]) {
  return { decision, reason, issues: issues.map((i) => `${i.severity} ${i.code} ${i.path}`).sort() };
}

function workerVerdict(run: RunRow) {
  return verdict(run.status === 'completed' ? 'execute' : run.status, run.pendingReview?.reason, run.status === 'completed' ? run.issues : run.pendingReview?.issues ?? run.issues);
}

describe('dry-run parity with the workers', () => {
  it.each(CASES)('%s', async (_label, fields) => {
    const request = { model: 'black-forest-labs/flux-schnell', ...fields };
    const config = system.config;
    const dry = await dryRun({ modelSource: flux, request, config, adapters: createAdapterRegistry(config, { builders: { heuristic: scenarioBuilder() } }) });
    const run = await settle(system, (await submit(system, request)).id, ['completed', 'awaiting_human', 'failed']);
    expect(verdict(dry.decision, dry.review?.reason, dry.issues)).toEqual(workerVerdict(run));
  });
});
