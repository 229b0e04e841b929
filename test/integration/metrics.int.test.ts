/**
 * /metrics after known runs: every number is asserted, per tenant and model. Tenant t1 on flux-schnell:
 * two runs pass on their own, two wait for a person (one approved, one rejected), one fails at the provider,
 * one leaks the model's example prompt (rejected), one holds an invalid value and stays pending. Tenant t2:
 * one run that passes. Then a paused execute queue holds a job, and its age shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerModel } from '../../src/catalog/model-catalog.ts';
import { createHeuristicBuilder } from '../../src/builders/heuristic-builder.ts';
import type { PendingReview } from '../../src/generated/contracts.ts';
import { startMetricsServer } from '../../src/observability/metrics-server.ts';
import type { ModelProvider, PayloadBuilder } from '../../src/ports.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { exampleModel, settle } from '../support/pipeline.ts';
import { parseSamples, sampleValue, type Sample } from '../support/prometheus-text.ts';
import { eventually } from '../support/test-system.ts';

const FLUX = 'black-forest-labs/flux-schnell';
const EXAMPLE_PROMPT = 'black forest gateau cake spelling out the words "FLUX SCHNELL", tasty, food photography, dynamic shot';

/** A builder that copies the model's example prompt into the payload, as a V2 builder would (named openai: the contract's builders are an enum). */
const heuristic = createHeuristicBuilder();
const leaky: PayloadBuilder = {
  name: 'openai',
  async build(input) {
    const candidate = await heuristic.build(input);
    return { ...candidate, builder: 'openai', payload: { ...candidate.payload, prompt: EXAMPLE_PROMPT }, provenance: { ...candidate.provenance, prompt: { source: 'inferred' } } };
  },
};
/** A provider whose every prediction fails (named replicate, likewise). */
const broken: ModelProvider = {
  name: 'replicate',
  sideEffectFree: true,
  async execute() {
    return { provider: 'replicate', status: 'failed', output: null, error: 'the model crashed' };
  },
};

let api: ApiHarness;

beforeAll(async () => {
  api = await createApiHarness({}, { adapters: { builders: { openai: leaky }, providers: { replicate: broken } } });
  await registerModel(api.system, { tenantId: 't2', source: exampleModel('flux-schnell.model.json') });
});

afterAll(async () => {
  await api?.close();
});

async function submitted(body: Record<string, unknown>, key = api.keys.submitter): Promise<string> {
  const response = await api.call('POST', '/api/runs', { key, body: { model: FLUX, ...body } });
  expect(response.statusCode, response.body).toBe(202);
  return json<{ id: string }>(response).id;
}

async function parkedReview(body: Record<string, unknown>): Promise<{ runId: string; review: PendingReview }> {
  const runId = await submitted(body);
  return { runId, review: (await settle(api.system, runId, ['awaiting_human'])).pendingReview! };
}

async function decide(runId: string, review: PendingReview, action: 'approve' | 'reject'): Promise<void> {
  const response = await api.call('POST', `/api/runs/${runId}/decision`, { key: api.keys.reviewer, body: { reviewId: review.reviewId, payloadHash: review.payloadHash, action } });
  expect(response.statusCode, response.body).toBe(200);
}

async function scrape(): Promise<Sample[]> {
  const response = await api.call('GET', '/metrics', { key: null });
  expect(response.statusCode).toBe(200);
  // The media type the OpenAPI document promises, to the letter.
  expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parseSamples(response.body);
}

describe('/metrics after known runs', () => {
  it('exports runs by outcome, HITL and auto-pass rates, reviews, leaks, invalid payloads, provider errors and durations per tenant and model', async () => {
    await settle(api.system, await submitted({ prompt: 'a heron in the fog' }), ['completed']);
    await settle(api.system, await submitted({ prompt: 'a fox in the snow' }), ['completed']);
    const approved = await parkedReview({ prompt: 'a paper crane', policy: 'require_human' });
    await decide(approved.runId, approved.review, 'approve');
    await settle(api.system, approved.runId, ['completed']);
    const rejected = await parkedReview({ prompt: 'a paper boat', policy: 'require_human' });
    await decide(rejected.runId, rejected.review, 'reject');
    expect((await settle(api.system, await submitted({ prompt: 'a kite', provider: 'replicate' }), ['failed'])).error?.code).toBe('PROVIDER_FAILED');
    const leak = await parkedReview({ prompt: 'a cake', builder: 'openai' });
    expect(leak.review.reason).toBe('example_leak');
    await decide(leak.runId, leak.review, 'reject');
    const invalid = await parkedReview({ prompt: 'a lighthouse, 5 images' });
    expect(invalid.review.reason).toBe('validation_failed');
    await settle(api.system, await submitted({ prompt: 'a tram at night' }, api.keys.other), ['completed']);

    const samples = await scrape();
    const t1 = { tenant: 't1', model: FLUX };
    const t2 = { tenant: 't2', model: FLUX };
    const value = (name: string, labels: Record<string, string>) => sampleValue(samples, name, labels);

    expect(value('vetted_run_outcomes_total', { ...t1, outcome: 'completed' })).toBe(3);
    expect(value('vetted_run_outcomes_total', { ...t1, outcome: 'cancelled' })).toBe(2);
    expect(value('vetted_run_outcomes_total', { ...t1, outcome: 'failed' })).toBe(1);
    expect(value('vetted_run_outcomes_total', { ...t2, outcome: 'completed' })).toBe(1);
    expect(value('vetted_runs', { ...t1, status: 'completed' })).toBe(3);
    expect(value('vetted_runs', { ...t1, status: 'awaiting_human' })).toBe(1);
    // Six t1 runs ended; three of them had waited for a person. Three completed; one of those had.
    expect(value('vetted_hitl_rate', t1)).toBeCloseTo(3 / 6);
    expect(value('vetted_auto_pass_rate', t1)).toBeCloseTo(2 / 3);
    expect(value('vetted_hitl_rate', t2)).toBe(0);
    expect(value('vetted_auto_pass_rate', t2)).toBe(1);

    const review = (reason: string) => value('vetted_reviews_raised_total', { ...t1, checkpoint: 'payload_review', reason });
    expect([review('policy_requires_human'), review('example_leak'), review('validation_failed')]).toEqual([2, 1, 1]);
    expect(value('vetted_example_leaks_total', t1)).toBe(1);
    expect(value('vetted_invalid_payloads_total', t1)).toBe(2);
    expect(value('vetted_provider_errors_total', { ...t1, provider: 'replicate', code: 'PROVIDER_FAILED' })).toBe(1);
    expect(value('vetted_pending_reviews', { ...t1, checkpoint: 'payload_review' })).toBe(1);
    expect(value('vetted_pending_review_oldest_seconds', { ...t1, checkpoint: 'payload_review' })).toBeGreaterThanOrEqual(0);

    const decisions = (action: string) => value('vetted_human_latency_seconds_count', { ...t1, checkpoint: 'payload_review', action });
    expect([decisions('approve'), decisions('reject')]).toEqual([1, 2]);
    const visits = (stage: string, outcome: string) => value('vetted_stage_duration_seconds_count', { ...t1, stage, outcome });
    expect(visits('extract', 'advance')).toBe(7);
    expect([visits('validate', 'advance'), visits('validate', 'park')]).toEqual([3, 4]);
    expect([visits('execute', 'complete'), visits('execute', 'fail')]).toEqual([3, 1]);
    expect(visits('extract', 'advance')).toBe(7);
    expect(value('vetted_stage_duration_seconds_count', { ...t2, stage: 'execute', outcome: 'complete' })).toBe(1);
  });

  it('exports the depth of each stage queue, the age of its oldest waiting job and the workers listening', async () => {
    const execute = api.system.queues.stages.execute;
    await execute.pause();
    try {
      const runId = await submitted({ prompt: 'a held bell' });
      await eventually(async () => (((await execute.getJobCounts('wait')).wait ?? 0) > 0 ? true : undefined), 10_000, 'a job waiting at execute');
      await new Promise((resolve) => setTimeout(resolve, 20));
      const samples = await scrape();
      expect(sampleValue(samples, 'vetted_queue_depth', { queue: 'execute' })).toBe(1);
      expect(sampleValue(samples, 'vetted_queue_oldest_waiting_seconds', { queue: 'execute' })).toBeGreaterThan(0);
      expect(sampleValue(samples, 'vetted_queue_oldest_waiting_seconds', { queue: 'extract' })).toBe(0);
      expect(sampleValue(samples, 'vetted_queue_workers', { queue: 'execute' })).toBeGreaterThanOrEqual(1);
      await execute.resume();
      await settle(api.system, runId, ['completed']);
    } finally {
      await execute.resume();
    }
  });

  it("serves a worker process's own registry (vetted worker --metrics-port)", async () => {
    const server = await startMetricsServer(api.system.metrics.registry, '127.0.0.1', 0, { token: undefined, production: false });
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(response.status).toBe(200);
      const samples = parseSamples(await response.text());
      expect(sampleValue(samples, 'vetted_run_outcomes_total', { tenant: 't1', model: FLUX, outcome: 'completed' })).toBeGreaterThanOrEqual(3);
      expect((await fetch(`http://127.0.0.1:${server.port}/other`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
