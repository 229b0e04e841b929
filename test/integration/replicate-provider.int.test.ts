/**
 * The replicate provider on real PostgreSQL and Redis, through the real `replicate` SDK against the local
 * Replicate-compatible server, whose own log of created predictions proves that nothing ran twice.
 */
import { createServer } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReplicateProvider, type ReplicateProvider } from '../../src/adapters/replicate/replicate-provider.ts';
import { handleReplicateWebhook, type WebhookDelivery } from '../../src/provider-webhooks.ts';
import type { ExecutionHandle, ExecutionRequest } from '../../src/ports.ts';
import { decide } from '../../src/review/decide-on-run.ts';
import { startReplicateSim, type ReplicateSim } from '../../src/sim/index.ts';
import { executeOnce, isNotStartedError } from '../../src/stages/executor.ts';
import { startStageWorkers, type RunningWorkers } from '../../workers/start-workers.ts';
import { jobsInRedis, registerExamples, settle, submit, TENANT } from '../support/pipeline.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';

const TOKEN = 'r8_int_replicate_token_0042';
const FLUX_VERSION = '53d5d1586a229bd033e060941789bfb0c177cefd5ef638f34b3099658343a897';
let replicate: ReplicateSim;
let system: TestSystem;
let workers: RunningWorkers;

beforeAll(async () => {
  replicate = await startReplicateSim({ stepMs: 30, apiToken: TOKEN });
  system = await createTestSystem({ REPLICATE_API_TOKEN: TOKEN, REPLICATE_BASE_URL: replicate.baseUrl, VETTED_REPLICATE_POLL_MS: '10', VETTED_REPLICATE_RATE_LIMIT: '50' });
  workers = startStageWorkers(system);
  await registerExamples(system);
});

afterAll(async () => {
  await workers?.close();
  await system?.dispose();
  await replicate?.close();
});

const reviewer = { id: 'reviewer:carol', canOverride: false };
const createdWith = (text: string) => replicate.created().filter((p) => JSON.stringify(p.input).includes(text));
const providerConfig = (overrides: Partial<Parameters<typeof createReplicateProvider>[0]> = {}) => ({
  apiToken: TOKEN, baseUrl: replicate.baseUrl, pollIntervalMs: 10, timeoutMs: 5000, ...overrides,
});

describe('executing on Replicate', () => {
  it('is the default provider with a token: creates one prediction by version, records outputs, metrics and the handle', async () => {
    const run = await settle(system, (await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a copper kettle' })).id);
    expect(run).toMatchObject({ status: 'completed', provider: 'replicate', result: { provider: 'replicate', status: 'succeeded' } });
    expect(run.result?.output).toEqual([expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/files\/\w+\/output-0\.png$/)]);
    expect(run.result?.metrics).toMatchObject({ status: 'succeeded', predictTimeMs: 30 });
    const created = createdWith('a copper kettle');
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ version: FLUX_VERSION, input: run.candidate?.payload });
    expect(await system.store.ledger.listForRun(run.id)).toEqual([expect.objectContaining({ status: 'succeeded', provider: 'replicate', predictionId: created[0]?.id })]);
    expect(replicate.requests.every((request) => request.token === TOKEN)).toBe(true);
  });

  it('fetches a model the catalog lacks from Replicate once, then finds it in the catalog', async () => {
    const before = replicate.requests.filter((r) => r.path === '/v1/models/stability-ai/sdxl').length;
    for (const prompt of ['an ice castle', 'a sand castle']) {
      const run = await settle(system, (await submit(system, { model: 'stability-ai/sdxl', prompt })).id);
      expect(run).toMatchObject({ status: 'completed', result: { provider: 'replicate' } });
    }
    expect(replicate.requests.filter((r) => r.path === '/v1/models/stability-ai/sdxl').length - before).toBe(1);
    expect((await system.models.listCatalog(TENANT)).map((entry) => entry.ref)).toContain('stability-ai/sdxl');
  });

  it('fetches an owner/name:version the catalog lacks and runs that version', async () => {
    replicate.catalog.addVersion('acme/versioned', { id: '5eed0acme1', openapi_schema: inputSchema() });
    const run = await settle(system, (await submit(system, { model: 'acme/versioned:5eed0acme1', prompt: 'a versioned walrus' })).id);
    expect(run.status).toBe('completed');
    expect(createdWith('a versioned walrus')).toEqual([expect.objectContaining({ version: '5eed0acme1' })]);
  });

  it('treats a 429 as retryable: the step is released, BullMQ backs off, and one prediction is created', async () => {
    replicate.failNextCreates(6); // the SDK's own five retries, and then some
    const run = await settle(system, (await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a throttled owl' })).id);
    expect(run.status).toBe('completed');
    expect(createdWith('a throttled owl')).toHaveLength(1);
    expect(await system.store.ledger.listForRun(run.id)).toHaveLength(1);
    expect(system.logs.some((line) => line.event === 'STAGE_RETRY' && line.runId === run.id && String(line.reason).includes('429'))).toBe(true);
  });

  it('limits execute jobs with VETTED_REPLICATE_RATE_LIMIT', () => {
    const execute = workers.workers.find((worker) => worker.name === 'vetted-execute');
    expect(execute?.opts.limiter).toEqual({ max: 50, duration: 1000 });
  });
});

describe('bad input and bad endings', () => {
  it.each([
    ['nobody/nothing', 'MODEL_NOT_FOUND', /neither in the catalog nor on Replicate/],
    ['black-forest-labs/flux-schnell:deadbeef', 'MODEL_NOT_FOUND', /flux-schnell:deadbeef/],
    ['acme/schemaless:5eed0none', 'MODEL_SOURCE_INVALID', /has no openapi_schema/],
  ])('%s fails the run with %s naming the model', async (model, code, message) => {
    replicate.catalog.addVersion('acme/schemaless', { id: '5eed0none', openapi_schema: null });
    const run = await settle(system, (await submit(system, { model, prompt: `bad input ${model}` })).id, ['failed']);
    expect(run.error).toMatchObject({ code, field: 'model', message: expect.stringMatching(message) });
    expect(createdWith(`bad input ${model}`)).toHaveLength(0);
    await expect.poll(() => jobsInRedis(system, run.id), { timeout: 15_000 }).toBe(0);
  });

  it.each([
    ['sim:fail', /replicate failed: sim: the model failed/],
    ['sim:cancel', /replicate canceled: the prediction was canceled/],
  ])('a prediction ending with %s fails the run with the reason, run once', async (marker, message) => {
    const prompt = `a doomed ${marker} teapot`;
    const run = await settle(system, (await submit(system, { model: 'black-forest-labs/flux-schnell', prompt })).id, ['failed']);
    expect(run.error).toMatchObject({ code: 'PROVIDER_FAILED', stage: 'execute', message: expect.stringMatching(message) });
    expect(createdWith(prompt)).toHaveLength(1);
  });
});

describe('response review with real prediction output', () => {
  const policy = { mode: 'auto', responseReview: true };

  it('parks at response_review with the output; accept completes', async () => {
    const run = await settle(system, (await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a reviewed lantern', policy })).id);
    expect(run.pendingReview).toMatchObject({ checkpoint: 'response_review', reason: 'response_review', output: run.result?.output });
    expect(run.result?.output).toEqual([expect.stringContaining('/files/')]);
    await decide(system, { runId: run.id, tenantId: TENANT, actor: reviewer, body: { reviewId: run.pendingReview!.reviewId, action: 'approve' } });
    const done = await system.store.get(run.id);
    expect(done).toMatchObject({ status: 'completed', result: { provider: 'replicate', output: run.result?.output } });
    expect(createdWith('a reviewed lantern')).toHaveLength(1);
  });

  it('retry executes again as a new ledger step: Replicate sees exactly two predictions', async () => {
    const run = await settle(system, (await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a twice-run lantern', policy })).id);
    await decide(system, { runId: run.id, tenantId: TENANT, actor: reviewer, body: { reviewId: run.pendingReview!.reviewId, action: 'retry' } });
    const again = await settle(system, run.id, ['awaiting_human', 'failed'], 20_000).then(async (r) =>
      r.pendingReview?.reviewId === run.pendingReview?.reviewId ? settleNewReview(run.id, run.pendingReview!.reviewId) : r,
    );
    expect(again.pendingReview?.checkpoint).toBe('response_review');
    expect(again.result?.output).not.toEqual(run.result?.output);
    await decide(system, { runId: run.id, tenantId: TENANT, actor: reviewer, body: { reviewId: again.pendingReview!.reviewId, action: 'approve' } });
    expect((await system.store.get(run.id))?.status).toBe('completed');
    expect(createdWith('a twice-run lantern')).toHaveLength(2);
    expect((await system.store.ledger.listForRun(run.id)).map((row) => row.step)).toEqual(['execute:1', 'execute:2']);
  });
});

describe('the ledger and the provider together (exactly once)', () => {
  it('connection refused before anything was created releases the step; the next attempt starts afresh', async () => {
    const { run, request } = await parkedRun('a refused crane');
    const dead = createReplicateProvider(providerConfig({ baseUrl: `http://127.0.0.1:${await closedPort()}/v1` }));
    const failure = await executeOnce({ request, payloadHash: 'h', provider: dead, ledger: system.store.ledger }).catch((error: unknown) => error);
    expect(isNotStartedError(failure)).toBe(true);
    expect(failure).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', retryable: true, message: expect.stringMatching(/ECONNREFUSED/) });
    expect(await system.store.ledger.get(run.id, request.step)).toBeUndefined();
    const live = createReplicateProvider(providerConfig());
    expect(await executeOnce({ request, payloadHash: 'h', provider: live, ledger: system.store.ledger })).toMatchObject({ kind: 'executed', result: { status: 'succeeded' } });
    expect(createdWith('a refused crane')).toHaveLength(1);
  });

  it('a 5xx on create may have created it: the step stays started and the retry is uncertain (a person decides)', async () => {
    const { run, request } = await parkedRun('a maybe-created crane');
    const provider = createReplicateProvider(providerConfig());
    replicate.failNextCreates(1, 500);
    await expect(executeOnce({ request, payloadHash: 'h', provider, ledger: system.store.ledger })).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    expect(await system.store.ledger.get(run.id, request.step)).toMatchObject({ status: 'started', predictionId: null });
    expect(await executeOnce({ request, payloadHash: 'h', provider, ledger: system.store.ledger })).toEqual({ kind: 'uncertain', predictionId: null });
    expect(createdWith('a maybe-created crane')).toHaveLength(0);
  });

  it('a worker that dies after the prediction was created resumes it instead of creating a second one', async () => {
    const { request } = await parkedRun('a resumed crane');
    const provider = createReplicateProvider(providerConfig());
    const dying: ReplicateProvider = { ...provider, execute: (req, onStarted) => provider.execute(req, async (handle) => { await onStarted(handle); throw new Error('worker died'); }) };
    await expect(executeOnce({ request, payloadHash: 'h', provider: dying, ledger: system.store.ledger })).rejects.toThrow('worker died');
    const resumed = await executeOnce({ request, payloadHash: 'h', provider, ledger: system.store.ledger });
    expect(resumed).toMatchObject({ kind: 'resumed', result: { status: 'succeeded', predictionId: createdWith('a resumed crane')[0]?.id } });
    expect(createdWith('a resumed crane')).toHaveLength(1);
  });
});

describe('the provider on its own', () => {
  const request = (prompt: string): ExecutionRequest => ({ runId: 'r', step: 'execute:1', model: 'black-forest-labs/flux-schnell', version: null, payload: { prompt } });

  it('gives up after timeoutMs, cancels the prediction and says so', async () => {
    const provider = createReplicateProvider(providerConfig({ timeoutMs: 300 }));
    const result = await provider.execute(request('a stuck sim:hang mill'), async () => undefined);
    expect(result).toMatchObject({ status: 'failed', error: expect.stringMatching(/timed out after 300 ms .*last status processing.*it was canceled/) });
  });

  it('cancel(handle) cancels a running prediction; the waiting execution ends canceled', async () => {
    const provider = createReplicateProvider(providerConfig());
    let handle: ExecutionHandle | undefined;
    const waiting = provider.execute(request('a cancelled sim:hang barge'), async (h) => { handle = h; });
    while (!handle) await new Promise((resolve) => setTimeout(resolve, 10));
    await provider.cancel(handle);
    expect(await waiting).toMatchObject({ status: 'canceled', predictionId: handle.predictionId });
  });

  it('a webhook wakes the waiting execution long before the next poll', async () => {
    const deliveries: WebhookDelivery[] = [];
    const receiver = Fastify();
    let provider: ReplicateProvider | undefined;
    receiver.post('/hooks/replicate', async (req) => {
      deliveries.push(handleReplicateWebhook(provider!, req.body));
      return { ok: true };
    });
    const origin = await receiver.listen({ host: '127.0.0.1', port: 0 });
    try {
      // The poll interval is longer than the test may run: only the webhook can end the wait in time.
      provider = createReplicateProvider(providerConfig({ pollIntervalMs: 3_600_000, timeoutMs: 7_200_000, webhookUrl: `${origin}/hooks/replicate` }));
      const result = await provider.execute(request('a hooked trout'), async () => undefined);
      expect(result.status).toBe('succeeded');
      // Woken in its sleep, or (under load) landed between a poll and the sleep, which then ended at once.
      expect(deliveries).toContainEqual(expect.objectContaining({ status: expect.stringMatching(/^(woken|not_waiting)$/), predictionId: result.predictionId }));
      expect(createdWith('a hooked trout')[0]?.webhook).toBe(`${origin}/hooks/replicate`);
    } finally {
      await receiver.close();
    }
  });

  it('webhooks nobody here waits for are harmless', () => {
    const provider = createReplicateProvider(providerConfig());
    expect(handleReplicateWebhook(provider, { id: 'unknown-prediction', status: 'succeeded' })).toEqual({ status: 'not_waiting', predictionId: 'unknown-prediction' });
    expect(handleReplicateWebhook(provider, { status: 'succeeded' })).toMatchObject({ status: 'ignored' });
    expect(handleReplicateWebhook(system.adapters.provider('dry'), { id: 'x' })).toMatchObject({ status: 'ignored' });
  });
});

/** A run parked for approval (so it has a row the ledger can reference) and an execution request for it. */
async function parkedRun(prompt: string) {
  const run = await settle(system, (await submit(system, { model: 'black-forest-labs/flux-schnell', prompt, policy: 'require_human' })).id);
  const request: ExecutionRequest = { runId: run.id, step: 'execute:manual', model: 'black-forest-labs/flux-schnell', version: FLUX_VERSION, payload: run.candidate!.payload };
  return { run, request };
}

async function settleNewReview(runId: string, oldReviewId: string) {
  for (let i = 0; i < 400; i += 1) {
    const run = await system.store.get(runId);
    if (run && run.status === 'awaiting_human' && run.pendingReview?.reviewId !== oldReviewId) return run;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`run ${runId} did not park again`);
}

function inputSchema() {
  return {
    openapi: '3.0.2',
    components: { schemas: { Input: { type: 'object', required: ['prompt'], properties: { prompt: { type: 'string', description: 'Prompt' } } } } },
  };
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 1;
}
