/**
 * The openai provider on real PostgreSQL and Redis, through the real `openai` SDK against the local server
 * speaking OpenAI's API, whose own log of executions (a replayed Idempotency-Key is not one) proves that
 * nothing ran twice.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiProvider } from '../../src/adapters/openai/openai-provider.ts';
import type { ExecutionRequest, ModelProvider } from '../../src/ports.ts';
import { SIM_OPENAI_API_KEY, startOpenAiSim, type OpenAiSim } from '../../src/sim/index.ts';
import { executeOnce } from '../../src/stages/executor.ts';
import { startStageWorkers, type RunningWorkers } from '../../workers/start-workers.ts';
import { settle, submit } from '../support/pipeline.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';

const model = (file: string) => JSON.parse(readFileSync(new URL(`../../examples/providers/${file}`, import.meta.url), 'utf8')) as unknown;
const createImage = model('openai-create-image.provider.json');
const createSpeech = model('openai-create-speech.provider.json');
let sim: OpenAiSim;
let system: TestSystem;
let workers: RunningWorkers;

beforeAll(async () => {
  sim = await startOpenAiSim();
  system = await createTestSystem({ OPENAI_API_KEY: SIM_OPENAI_API_KEY, OPENAI_BASE_URL: sim.baseUrl, VETTED_BUILDER: 'heuristic' });
  workers = startStageWorkers(system);
});

afterAll(async () => {
  await workers?.close();
  await system?.dispose();
  await sim?.close();
});

const ran = (text: string) => sim.executions.filter((entry) => JSON.stringify(entry.body).includes(text));
const provider = (allowPrivate = true) =>
  createOpenAiProvider({ apiKey: SIM_OPENAI_API_KEY, baseUrl: sim.baseUrl, timeoutMs: 5000, maxRetries: 2, uploads: { allowPrivate, maxBytes: 1_000_000 } });
const request = (operation: string, payload: Record<string, unknown>, runId = `run-${Math.random().toString(36).slice(2)}`): ExecutionRequest => ({
  runId, step: 'execute:1', model: `openai/${operation}`, version: null, payload,
});
const ignore = async () => undefined;

describe('executing on openai through the pipeline', () => {
  it('runs an OpenAI operation on openai: one call of the vetted payload, keyed by the run, the result recorded', async () => {
    const run = await settle(system, (await submit(system, { modelSource: createImage, prompt: 'a copper kettle on a stove' })).id);
    expect(run).toMatchObject({ status: 'completed', provider: 'openai', result: { provider: 'openai', status: 'succeeded' } });
    expect(run.result?.output).toMatchObject({ data: [{ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/files\//) }] });
    const executed = ran('a copper kettle');
    expect(executed).toHaveLength(1);
    expect(executed[0]).toMatchObject({ route: 'images.generations', key: `vetted-${run.id}-execute:1`, body: run.candidate?.payload });
    expect(await system.store.ledger.listForRun(run.id)).toEqual([
      expect.objectContaining({ status: 'succeeded', provider: 'openai', predictionId: `openai:vetted-${run.id}-execute:1` }),
    ]);
  });

  it('speech: the audio comes back as a data URL with its type and size', async () => {
    const run = await settle(system, (await submit(system, { modelSource: createSpeech, prompt: 'Say "the tide is out" in a calm voice', edits: { model: 'gpt-4o-mini-tts', voice: 'coral' } })).id);
    expect(run).toMatchObject({ status: 'completed', provider: 'openai' });
    expect(run.result?.output).toMatchObject({ audio: expect.stringMatching(/^data:audio\/mpeg;base64,/), contentType: 'audio/mpeg', bytes: expect.any(Number) });
    expect(sim.executions.filter((entry) => entry.route === 'audio.speech' && entry.key === `vetted-${run.id}-execute:1`)).toHaveLength(1);
  });

  it('a model of a provider this server has not configured is refused at submit, naming the field and the setting', async () => {
    const bare = await createTestSystem({});
    try {
      await expect(submit(bare, { modelSource: createImage, prompt: 'a refused kettle' })).rejects.toMatchObject({
        code: 'INVALID_REQUEST', field: 'provider', message: expect.stringContaining('set OPENAI_API_KEY'),
      });
    } finally {
      await bare.dispose();
    }
  });
});

describe('never executed twice', () => {
  it('a worker that dies after the call resumes with the same key: the sim replays the answer, the model ran once', async () => {
    const live = provider();
    const dying: ModelProvider = { ...live, execute: async (req, onStarted) => { await live.execute(req, onStarted); throw new Error('worker died'); } };
    const run = await settle(system, (await submit(system, { modelSource: createImage, prompt: 'a parked heron', policy: 'require_human' })).id);
    const req = { ...request('createImage', { prompt: 'a resumed heron' }, run.id), step: 'execute:manual' };
    await expect(executeOnce({ request: req, payloadHash: 'h', provider: dying, ledger: system.store.ledger })).rejects.toThrow('worker died');
    const resumed = await executeOnce({ request: req, payloadHash: 'h', provider: live, ledger: system.store.ledger });
    expect(resumed).toMatchObject({ kind: 'resumed', result: { status: 'succeeded', output: { data: [expect.objectContaining({ url: expect.any(String) })] } } });
    expect(ran('a resumed heron')).toHaveLength(1);
    expect(sim.replays.filter((entry) => entry.key === `vetted-${run.id}-execute:manual`)).toHaveLength(1);
    expect(await executeOnce({ request: req, payloadHash: 'h', provider: live, ledger: system.store.ledger })).toMatchObject({ kind: 'reused' });
    expect(ran('a resumed heron')).toHaveLength(1);
  });

  it('a response lost after the work was done: the SDK retries with the same key and gets the stored answer', async () => {
    const result = await provider().execute(request('createImage', { prompt: 'a sim:lost-once plover' }), ignore);
    expect(result).toMatchObject({ provider: 'openai', status: 'succeeded' });
    expect(ran('a sim:lost-once plover')).toHaveLength(1);
  });

  it('a server error leaves nothing run and is retryable; the retry resumes with the key', async () => {
    await expect(provider().execute(request('createImage', { prompt: 'a sim:500 gull' }), ignore)).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE', retryable: true });
    expect(ran('a sim:500 gull')).toHaveLength(0);
  });
});

describe('the openai provider on its own', () => {
  it('image edits: the image URL is downloaded and sent as a file part', async () => {
    const result = await provider().execute(request('createImageEdit', { prompt: 'paint the fence red', image: `${sim.origin}/files/fence.png` }), ignore);
    expect(result).toMatchObject({ status: 'succeeded', output: { edited: [{ name: 'fence.png', type: 'image/png', bytes: expect.any(Number) }] } });
  });

  it('transcriptions: the audio URL is uploaded; a text answer becomes { text }', async () => {
    const json = await provider().execute(request('createTranscription', { model: 'whisper-1', file: `${sim.origin}/files/memo.mp3` }), ignore);
    expect(json).toMatchObject({ status: 'succeeded', output: { text: expect.stringContaining('memo.mp3') } });
    const text = await provider().execute(request('createTranscription', { model: 'whisper-1', file: `${sim.origin}/files/memo2.mp3`, response_format: 'text' }), ignore);
    expect(text).toMatchObject({ status: 'succeeded', output: { text: expect.stringContaining('memo2.mp3') } });
  });

  it('chat completions run with the payload as the body, never streamed', async () => {
    const result = await provider().execute(request('createChatCompletion', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello from a provider run' }], stream: true }), ignore);
    expect(result).toMatchObject({ status: 'succeeded', output: { object: 'chat.completion', choices: [{ message: { content: 'hello from a provider run' } }] }, metrics: { usage: expect.any(Object) } });
  });

  it('a refusal (4xx) is a failed result naming the status and the reason', async () => {
    const result = await provider().execute(request('createImage', { prompt: 'a sim:refuse wolf' }), ignore);
    expect(result).toMatchObject({ status: 'failed', output: null, error: expect.stringMatching(/openai refused the call \(400\): .*safety system/) });
  });

  it('refuses before sending: an operation it does not run, a file on a private address unless allowed', async () => {
    const before = sim.executions.length;
    let started = false;
    const onStarted = async () => { started = true; };
    await expect(provider().execute(request('createEmbedding', { input: 'x' }), onStarted)).rejects.toMatchObject({ code: 'PROVIDER_FAILED', notStarted: true, field: 'model' });
    await expect(provider(false).execute(request('createImageEdit', { prompt: 'p', image: `${sim.origin}/files/a.png` }), onStarted)).rejects.toMatchObject({
      code: 'PROVIDER_FAILED', notStarted: true, field: 'payload.image', message: expect.stringContaining('loopback'),
    });
    await expect(provider().execute(request('createImageEdit', { prompt: 'p', image: 'file:///etc/passwd' }), onStarted)).rejects.toMatchObject({ field: 'payload.image' });
    expect(started).toBe(false);
    expect(sim.executions.length).toBe(before);
  });
});
