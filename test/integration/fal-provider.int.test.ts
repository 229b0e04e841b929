/**
 * The fal provider on real PostgreSQL and Redis, through the real `@fal-ai/client` against the local server
 * speaking fal's queue API, whose own log of submissions proves that nothing ran twice.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFalProvider } from '../../src/adapters/fal/fal-provider.ts';
import type { ExecutionRequest, ModelProvider } from '../../src/ports.ts';
import { startFalSim, type FalSim } from '../../src/sim/fal-sim.ts';
import { executeOnce } from '../../src/stages/executor.ts';
import { startStageWorkers, type RunningWorkers } from '../../workers/start-workers.ts';
import { settle, submit } from '../support/pipeline.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';

const KEY = 'fal_int_key_0042';
const ENDPOINT = 'fal-ai/flux/dev';
const flux = JSON.parse(readFileSync(new URL('../../examples/providers/fal-flux-dev.provider.json', import.meta.url), 'utf8')) as unknown;
let fal: FalSim;
let system: TestSystem;
let workers: RunningWorkers;

beforeAll(async () => {
  fal = await startFalSim({ apiKey: KEY, pollsToComplete: 2 });
  system = await createTestSystem({ FAL_KEY: KEY, FAL_BASE_URL: fal.baseUrl, VETTED_FAL_POLL_MS: '10' });
  workers = startStageWorkers(system);
});

afterAll(async () => {
  await workers?.close();
  await system?.dispose();
  await fal?.close();
});

const submittedWith = (text: string) => fal.submitted().filter((entry) => JSON.stringify(entry.input).includes(text));
const provider = (overrides: Partial<Parameters<typeof createFalProvider>[0]> = {}) =>
  createFalProvider({ apiKey: KEY, baseUrl: fal.baseUrl, pollIntervalMs: 10, timeoutMs: 5000, ...overrides });
const request = (prompt: string, runId = `run-${prompt.replace(/\W+/g, '-')}`): ExecutionRequest => ({
  runId, step: 'execute:1', model: ENDPOINT, version: null, payload: { prompt },
});

describe('executing on fal', () => {
  it('runs a fal endpoint model on fal: one submission of the vetted payload, the result and the handle recorded', async () => {
    const run = await settle(system, (await submit(system, { modelSource: flux, prompt: 'a copper kettle on a stove' })).id);
    expect(run).toMatchObject({ status: 'completed', provider: 'fal', result: { provider: 'fal', status: 'succeeded' } });
    expect(run.result?.output).toMatchObject({ images: [{ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/files\//) }] });
    const submitted = submittedWith('a copper kettle');
    expect(submitted).toHaveLength(1);
    expect(submitted[0]).toMatchObject({ endpoint: ENDPOINT, input: run.candidate?.payload });
    expect(await system.store.ledger.listForRun(run.id)).toEqual([
      expect.objectContaining({ status: 'succeeded', provider: 'fal', predictionId: `${ENDPOINT}/requests/${submitted[0]?.requestId}` }),
    ]);
  });

  it('a worker that dies after submitting resumes the same request instead of submitting again', async () => {
    const live = provider();
    const dying: ModelProvider = { ...live, execute: (req, onStarted) => live.execute(req, async (handle) => { await onStarted(handle); throw new Error('worker died'); }) };
    const run = await settle(system, (await submit(system, { modelSource: flux, prompt: 'a parked heron', policy: 'require_human' })).id);
    const req = { ...request('a resumed heron', run.id), step: 'execute:manual' };
    await expect(executeOnce({ request: req, payloadHash: 'h', provider: dying, ledger: system.store.ledger })).rejects.toThrow('worker died');
    const resumed = await executeOnce({ request: req, payloadHash: 'h', provider: live, ledger: system.store.ledger });
    expect(resumed).toMatchObject({ kind: 'resumed', result: { status: 'succeeded' } });
    expect(submittedWith('a resumed heron')).toHaveLength(1);
    expect(await executeOnce({ request: req, payloadHash: 'h', provider: live, ledger: system.store.ledger })).toMatchObject({ kind: 'reused' });
    expect(submittedWith('a resumed heron')).toHaveLength(1);
  });

  it('a 502 on submit may have queued it: not retried by the client, the step stays started and the retry is uncertain', async () => {
    const run = await settle(system, (await submit(system, { modelSource: flux, prompt: 'a parked crane', policy: 'require_human' })).id);
    const req = { ...request('a maybe-queued crane', run.id), step: 'execute:manual' };
    fal.failNextSubmits(1, 502);
    await expect(executeOnce({ request: req, payloadHash: 'h', provider: provider(), ledger: system.store.ledger })).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    expect(await system.store.ledger.get(run.id, req.step)).toMatchObject({ status: 'started', predictionId: null });
    expect(await executeOnce({ request: req, payloadHash: 'h', provider: provider(), ledger: system.store.ledger })).toEqual({ kind: 'uncertain', predictionId: null });
    expect(submittedWith('a maybe-queued crane')).toHaveLength(0);
  });
});

describe('the fal provider on its own', () => {
  it('reports a request fal rejected as a failed result naming the reason', async () => {
    const result = await provider().execute(request('a sim:fail owl'), async () => undefined);
    expect(result).toMatchObject({ provider: 'fal', status: 'failed', error: expect.stringContaining('refused the prompt') });
  });

  it('a 4xx on submit queued nothing: the step is released', async () => {
    fal.failNextSubmits(1, 400);
    await expect(provider().execute(request('a refused lark'), async () => undefined)).rejects.toMatchObject({ code: 'PROVIDER_FAILED', retryable: false });
    expect(submittedWith('a refused lark')).toHaveLength(0);
  });

  it('cancels a queued request, and gives up after timeoutMs with a cancel', async () => {
    const slow = await startFalSim({ apiKey: KEY, pollsToComplete: 1000 });
    try {
      const stuck = createFalProvider({ apiKey: KEY, baseUrl: slow.baseUrl, pollIntervalMs: 10, timeoutMs: 1000 });
      const result = await stuck.execute(request('a stuck mill'), async () => undefined);
      expect(result).toMatchObject({ status: 'failed', error: expect.stringMatching(/timed out after 1000 ms .*it was canceled/) });
      expect(slow.submitted()).toEqual([expect.objectContaining({ status: 'CANCELLED' })]);
    } finally {
      await slow.close();
    }
  });

  it('sends the key as fal expects it; a wrong key is refused and nothing is queued', async () => {
    const wrong = createFalProvider({ apiKey: 'not-the-key', baseUrl: fal.baseUrl, pollIntervalMs: 10, timeoutMs: 1000 });
    await expect(wrong.execute(request('a wrong-key wren'), async () => undefined)).rejects.toMatchObject({ code: 'PROVIDER_FAILED' });
    expect(submittedWith('a wrong-key wren')).toHaveLength(0);
  });
});
