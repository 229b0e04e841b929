/**
 * The openai builder in the pipeline, on real PostgreSQL and Redis, through the real `openai` SDK against the
 * local OpenAI-compatible server: it is the default builder once a key is configured, its usage lands on the
 * run, and every way the LLM can fail parks the run for a person instead of losing or crashing it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decide } from '../../src/review/decide-on-run.ts';
import { startOpenAiSim, type OpenAiSim } from '../../src/sim/index.ts';
import { startStageWorkers, type RunningWorkers } from '../../workers/start-workers.ts';
import { jobsInRedis, registerExamples, settle, submit, TENANT } from '../support/pipeline.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';

const KEY = 'sk-int-openai-builder-0042';
let sim: OpenAiSim;
let system: TestSystem;
let workers: RunningWorkers;

beforeAll(async () => {
  sim = await startOpenAiSim({ slowMs: 1500 });
  system = await createTestSystem({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: sim.baseUrl, VETTED_OPENAI_TIMEOUT_MS: '400', VETTED_OPENAI_MAX_RETRIES: '0' });
  workers = startStageWorkers(system);
  await registerExamples(system);
});

afterAll(async () => {
  await workers?.close();
  await system?.dispose();
  await sim?.close();
});

beforeEach(() => sim.setBehavior('answer'));

const reviewer = { id: 'reviewer:bob', canOverride: false };

describe('with a key configured', () => {
  it('is the default builder: the run completes and records token usage and latency', async () => {
    const run = await settle(system, (await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a lighthouse at dawn' })).id);
    expect(run).toMatchObject({ status: 'completed', builder: 'openai' });
    expect(run.candidate).toMatchObject({ builder: 'openai', payload: { prompt: 'a lighthouse at dawn' }, provenance: { prompt: { source: 'user_prompt' } } });
    expect(run.candidate?.usage).toMatchObject({ model: expect.any(String), promptTokens: expect.any(Number), completionTokens: expect.any(Number), latencyMs: expect.any(Number) });
    expect(sim.requests.some((request) => request.apiKey === KEY && JSON.stringify(request.body).includes('a lighthouse at dawn'))).toBe(true);
  });

  it('the heuristic builder stays selectable per request', async () => {
    const run = await settle(system, (await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a fox, seed=7', builder: 'heuristic' })).id);
    expect(run).toMatchObject({ status: 'completed', builder: 'heuristic', candidate: { builder: 'heuristic', payload: { seed: 7 } } });
  });
});

describe('an LLM that fails parks the run for a person, with the reason', () => {
  it.each([
    ['sim:refuse', /refused to map the request/],
    ['sim:bad-json', /not valid JSON/],
    ['sim:violate', /does not fit the strict schema/],
    ['sim:slow', /did not answer within 400 ms/],
    ['sim:500', /failed with HTTP 500/],
    ['sim:429', /429 Too Many Requests/],
  ])('%s', async (marker, reason) => {
    const run = await settle(system, (await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: `a fox ${marker}` })).id);
    expect(run.status).toBe('awaiting_human');
    expect(run.pendingReview).toMatchObject({ kind: 'error_recovery', checkpoint: 'error_recovery', reason: 'builder_failed' });
    expect(run.pendingReview?.summary).toMatch(reason);
    expect(run.pendingReview?.issues).toContainEqual(expect.objectContaining({ code: 'builder_error', message: expect.stringMatching(reason) }));
    await expect.poll(() => jobsInRedis(system, run.id), { timeout: 15_000 }).toBe(0);
    expect(await system.store.ledger.listForRun(run.id)).toHaveLength(0);
  });

  it('a retry once the LLM is healthy builds again and executes exactly once', async () => {
    sim.setBehavior('refuse');
    const run = await settle(system, (await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a heron' })).id);
    expect(run.pendingReview?.reason).toBe('builder_failed');
    sim.setBehavior('answer');
    await decide(system, { runId: run.id, tenantId: TENANT, actor: reviewer, body: { reviewId: run.pendingReview!.reviewId, action: 'retry' } });
    const done = await settle(system, run.id, ['completed', 'failed', 'cancelled']);
    expect(done).toMatchObject({ status: 'completed', candidate: { builder: 'openai', payload: { prompt: 'a heron' } } });
    expect(await system.store.ledger.listForRun(run.id)).toHaveLength(1);
  });
});

describe('the CLI', () => {
  const run = promisify(execFile);
  const env = { ...process.env, OPENAI_API_KEY: KEY, OPENAI_BASE_URL: '', LOG_LEVEL: 'silent' };

  it('`vetted dry-run --builder openai` goes through the registry to the configured server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vetted-cli-'));
    writeFileSync(join(dir, 'request.json'), JSON.stringify({ prompt: 'a paper boat on a pond' }));
    const { stdout } = await run('node', ['bin/vetted.mjs', 'dry-run', '--model', 'examples/models/flux-schnell.model.json', '--request', join(dir, 'request.json'), '--builder', 'openai'], {
      env: { ...env, OPENAI_BASE_URL: sim.baseUrl },
    });
    const printed = JSON.parse(stdout) as { candidate: { builder: string; payload: Record<string, unknown> }; decision: string };
    expect(printed.candidate.builder).toBe('openai');
    expect(printed.candidate.payload.prompt).toBe('a paper boat on a pond');
    expect(printed.decision).toBe('execute');
  });

  it('`vetted extract --strict-report` prints the strict schema and the residual rules', async () => {
    const { stdout } = await run('node', ['bin/vetted.mjs', 'extract', '--model', 'examples/models/flux-schnell.model.json', '--strict-report'], { env });
    const report = JSON.parse(stdout) as { responseFormat: { json_schema: { strict: boolean } }; residualRules: { path: string; keyword: string }[] };
    expect(report.responseFormat.json_schema.strict).toBe(true);
    expect(report.residualRules).toContainEqual(expect.objectContaining({ path: '/num_outputs', keyword: 'maximum' }));
  });
});
