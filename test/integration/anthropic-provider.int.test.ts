/**
 * The anthropic provider on real PostgreSQL and Redis, through the real `@anthropic-ai/sdk` against the local
 * server speaking the Messages API, whose own log of executions (a replayed Idempotency-Key is not one) proves
 * that nothing ran twice.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/adapters/anthropic/anthropic-provider.ts';
import type { ExecutionRequest, ModelProvider } from '../../src/ports.ts';
import { startAnthropicSim, type AnthropicSim } from '../../src/sim/anthropic-sim.ts';
import { executeOnce } from '../../src/stages/executor.ts';
import { startStageWorkers, type RunningWorkers } from '../../workers/start-workers.ts';
import { settle, submit } from '../support/pipeline.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';

const KEY = 'sk-ant-int-key-0042';
const messages = JSON.parse(readFileSync(new URL('../../examples/providers/anthropic-messages.provider.json', import.meta.url), 'utf8')) as unknown;
let sim: AnthropicSim;
let system: TestSystem;
let workers: RunningWorkers;

beforeAll(async () => {
  sim = await startAnthropicSim({ apiKey: KEY });
  system = await createTestSystem({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: sim.baseUrl });
  workers = startStageWorkers(system);
});

afterAll(async () => {
  await workers?.close();
  await system?.dispose();
  await sim?.close();
});

const ran = (text: string) => sim.executions.filter((entry) => JSON.stringify(entry.body).includes(text));
const provider = (apiKey = KEY) => createAnthropicProvider({ apiKey, baseUrl: sim.baseUrl, timeoutMs: 5000, maxRetries: 2 });
const body = (text: string) => ({ model: 'claude-haiku-4-5', max_tokens: 200, messages: [{ role: 'user', content: text }] });
const request = (text: string, runId = `run-${Math.random().toString(36).slice(2)}`): ExecutionRequest => ({
  runId, step: 'execute:1', model: 'anthropic/messages_post', version: null, payload: body(text),
});
const ignore = async () => undefined;

describe('executing on anthropic', () => {
  it('runs the Messages operation on anthropic: one call of the vetted payload, keyed by the run, the message recorded', async () => {
    const text = 'Write a haiku about the tide going out';
    const run = await settle(system, (await submit(system, { modelSource: messages, prompt: text, edits: body(text) })).id);
    expect(run).toMatchObject({ status: 'completed', provider: 'anthropic', result: { provider: 'anthropic', status: 'succeeded' } });
    expect(run.result?.output).toMatchObject({ type: 'message', role: 'assistant', content: [{ type: 'text', text }] });
    const executed = ran('the tide going out');
    expect(executed).toEqual([expect.objectContaining({ route: 'messages', key: `vetted-${run.id}-execute:1`, body: expect.objectContaining(run.candidate?.payload) })]);
    expect(await system.store.ledger.listForRun(run.id)).toEqual([
      expect.objectContaining({ status: 'succeeded', provider: 'anthropic', predictionId: `anthropic:vetted-${run.id}-execute:1` }),
    ]);
  });

  it('a worker that dies after the call resumes with the same key: the sim replays the message, the model ran once', async () => {
    const live = provider();
    const dying: ModelProvider = { ...live, execute: async (req, onStarted) => { await live.execute(req, onStarted); throw new Error('worker died'); } };
    const text = 'a parked heron';
    const run = await settle(system, (await submit(system, { modelSource: messages, prompt: text, edits: body(text), policy: 'require_human' })).id);
    const req = { ...request('a resumed heron', run.id), step: 'execute:manual' };
    await expect(executeOnce({ request: req, payloadHash: 'h', provider: dying, ledger: system.store.ledger })).rejects.toThrow('worker died');
    expect(await executeOnce({ request: req, payloadHash: 'h', provider: live, ledger: system.store.ledger })).toMatchObject({ kind: 'resumed', result: { status: 'succeeded' } });
    expect(ran('a resumed heron')).toHaveLength(1);
    expect(sim.replays.filter((entry) => entry.key === `vetted-${run.id}-execute:manual`)).toHaveLength(1);
  });

  it('a response lost after the work was done: the SDK retries with the same key and gets the stored message', async () => {
    expect(await provider().execute(request('a sim:lost-once plover'), ignore)).toMatchObject({ status: 'succeeded', output: { content: [{ text: 'a sim:lost-once plover' }] } });
    expect(ran('a sim:lost-once plover')).toHaveLength(1);
  });
});

describe('the anthropic provider on its own', () => {
  it('overloaded (529) and rate limits are retryable; a refusal is a failed result naming the reason', async () => {
    await expect(provider().execute(request('a sim:529 gull'), ignore)).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE', retryable: true });
    expect(ran('a sim:529 gull')).toHaveLength(0);
    expect(await provider().execute(request('a sim:refuse wolf'), ignore)).toMatchObject({ status: 'failed', error: expect.stringMatching(/anthropic refused the call \(400\): .*refused/) });
  });

  it('sends the key as Anthropic expects it; a wrong key is a failed result and nothing runs', async () => {
    expect(await provider('not-the-key').execute(request('a wrong-key wren'), ignore)).toMatchObject({ status: 'failed', error: expect.stringContaining('401') });
    expect(ran('a wrong-key wren')).toHaveLength(0);
  });

  it('refuses a model that is no operation it runs, before sending anything', async () => {
    await expect(provider().execute({ ...request('x'), model: 'anthropic/models_list' }, ignore)).rejects.toMatchObject({ code: 'PROVIDER_FAILED', notStarted: true, field: 'model' });
  });
});
