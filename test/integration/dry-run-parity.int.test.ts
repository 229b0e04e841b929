/**
 * `vetted dry-run` says what the workers do: the same requests go through dryRun (in process, execute held)
 * and through the real system (PostgreSQL, BullMQ workers), and each comes to the same decision with the same
 * review reason and the same issues, for every outcome a worker can reach: it executes; it parks for a
 * policy, a threshold, an invalid value, nothing to build from, an example leak, a request part the builder
 * could not place; the builder gives up, and the openai builder (against the local OpenAI-compatible server)
 * answers malformed JSON, times out or refuses. A dry run of any of them resolves (the CLI exits 0, shown once
 * as a process); only bad input or a crash make it fail.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/adapters/registry.ts';
import { registerModel } from '../../src/catalog/model-catalog.ts';
import type { RunRow } from '../../src/engine/store.ts';
import type { PayloadBuilder } from '../../src/ports.ts';
import { dryRun } from '../../src/preview/dry-run.ts';
import { startOpenAiSim, type OpenAiSim } from '../../src/sim/index.ts';
import { startWorkers, type RunningWorkers } from '../../workers/start-workers.ts';
import { GIVES_UP, scenarioBuilder } from '../engine/scenarios.ts';
import { settle, submit, TENANT } from '../support/pipeline.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';

const flux = JSON.parse(readFileSync('examples/models/flux-schnell.model.json', 'utf8')) as Record<string, unknown>;
/** The prompt that makes the parity builder copy a piece of flux-schnell's example prompt ("gateau"). */
const COPIES_EXAMPLE = 'COPIES-EXAMPLE';

/** The scenario builder (heuristic, gives up on GIVES_UP), which also copies an example piece on COPIES_EXAMPLE. */
function parityBuilder(): PayloadBuilder {
  const inner = scenarioBuilder();
  return {
    ...inner,
    async build(input, options) {
      const candidate = await inner.build(input, options);
      if (!input.bundle.prompt.includes(COPIES_EXAMPLE)) return candidate;
      const payload = { ...candidate.payload, prompt: `${String(candidate.payload.prompt)}, a gateau` };
      return { ...candidate, payload };
    },
  };
}

let sim: OpenAiSim;
let system: TestSystem;
let workers: RunningWorkers;

beforeAll(async () => {
  sim = await startOpenAiSim({ slowMs: 1500 });
  // One attempt, a short timeout: the openai builder gives up as soon as the server misbehaves, on both sides.
  system = await createTestSystem(
    { OPENAI_API_KEY: 'sk-parity', OPENAI_BASE_URL: sim.baseUrl, VETTED_OPENAI_TIMEOUT_MS: '400', VETTED_OPENAI_MAX_RETRIES: '0', VETTED_BUILDER: 'heuristic' },
    { adapters: { builders: { heuristic: parityBuilder() } } },
  );
  workers = startWorkers(system);
  await registerModel(system, { tenantId: TENANT, source: flux });
});
afterAll(async () => {
  await workers?.close();
  await system?.dispose();
  await sim?.close();
});

/** Each case, and where it must come to rest (the decision, or the review's reason): the same on both sides. */
const CASES: [string, Record<string, unknown>, string][] = [
  ['executes', { prompt: 'a lighthouse at dusk' }, 'execute'],
  ['a policy that asks a person', { prompt: 'a lighthouse', policy: 'require_human' }, 'policy_requires_human'],
  ['more changes than the threshold allows', { prompt: 'a lighthouse', policy: { mode: 'auto_with_thresholds', maxChangedFields: 0 } }, 'too_many_changes'],
  ['a value out of range (invalid)', { prompt: 'a lighthouse', edits: { num_outputs: 99 } }, 'validation_failed'],
  ['nothing to build from', { prompt: ' ' }, 'nothing_to_build_from'],
  ['an example piece in the payload (leak)', { prompt: `a lighthouse ${COPIES_EXAMPLE}` }, 'example_leak'],
  ['a request part the builder cannot place', { prompt: 'a lighthouse, 30 seconds', policy: 'auto_with_thresholds' }, 'request_partly_unused'],
  ['a builder that gives up', { prompt: `a lighthouse ${GIVES_UP}` }, 'builder_failed'],
  ['the LLM answers malformed JSON', { prompt: 'a lighthouse sim:bad-json', builder: 'openai' }, 'builder_failed'],
  ['the LLM times out', { prompt: 'a lighthouse sim:slow', builder: 'openai' }, 'builder_failed'],
  ['the LLM refuses', { prompt: 'a lighthouse sim:refuse', builder: 'openai' }, 'builder_failed'],
  ['the LLM answers', { prompt: 'a lighthouse', builder: 'openai' }, 'execute'],
];

/** What a decision comes down to, from a worker's run or a dry run. */
function verdict(decision: string, reason: string | undefined, issues: readonly { code: string; path: string; severity: string }[]) {
  return { decision, reason, issues: issues.map((i) => `${i.severity} ${i.code} ${i.path}`).sort() };
}

function workerVerdict(run: RunRow) {
  return verdict(run.status === 'completed' ? 'execute' : run.status, run.pendingReview?.reason, run.status === 'completed' ? run.issues : run.pendingReview?.issues ?? run.issues);
}

describe('dry-run parity with the workers', () => {
  it.each(CASES)('%s', async (_label, fields, outcome) => {
    const request = { model: 'black-forest-labs/flux-schnell', ...fields };
    const config = system.config;
    const dry = await dryRun({ modelSource: flux, request, config, adapters: createAdapterRegistry(config, { builders: { heuristic: parityBuilder() } }) });
    const run = await settle(system, (await submit(system, request)).id, ['completed', 'awaiting_human', 'failed']);
    expect(verdict(dry.decision, dry.review?.reason, dry.issues)).toEqual(workerVerdict(run));
    expect(dry.decision === 'execute' ? 'execute' : dry.review?.reason).toBe(outcome);
  });

  it('`vetted dry-run` exits 0 with the decision when the LLM answers malformed JSON', async () => {
    const requestFile = path.join(tmpdir(), `vetted-parity-${process.pid}.json`);
    writeFileSync(requestFile, JSON.stringify({ prompt: 'a lighthouse sim:bad-json' }));
    const env = { ...process.env, OPENAI_API_KEY: 'sk-parity', OPENAI_BASE_URL: sim.baseUrl, VETTED_OPENAI_MAX_RETRIES: '0', VETTED_BUILDER: 'openai', LOG_LEVEL: 'silent' };
    const { stdout } = await promisify(execFile)('node', [path.resolve('bin/vetted.mjs'), 'dry-run', '--model', 'examples/models/flux-schnell.model.json', '--request', requestFile], { env, timeout: 60_000 });
    const result = JSON.parse(stdout) as { decision: string; review: { reason: string }; issues: { code: string }[] };
    expect(result).toMatchObject({ decision: 'awaiting_human', review: { reason: 'builder_failed' } });
    expect(result.issues.map((issue) => issue.code)).toEqual(['builder_error']);
  });
});
