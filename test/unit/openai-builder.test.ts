/**
 * The openai builder through the real `openai` SDK against the local OpenAI-compatible server (src/sim), which
 * records the exact request bodies it receives.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiBuilder, LOCAL_SERVER_API_KEY } from '../../src/adapters/openai/openai-builder.ts';
import { traceProvenance } from '../../src/adapters/openai/provenance-trace.ts';
import type { FieldSpec, GenerationRequest, RequestBundle } from '../../src/generated/contracts.ts';
import type { PayloadBuilder } from '../../src/ports.ts';
import { startOpenAiSim, type OpenAiSim, type OpenAiSimBehavior } from '../../src/sim/index.ts';
import { collectBundleEvidence } from '../../src/stages/bundle-evidence.ts';
import { assembleContext } from '../../src/stages/context-assembler.ts';
import { extractModelSchema } from '../../src/stages/schema-extractor/index.ts';
import { validatePayload } from '../../src/stages/validator/index.ts';
import { exampleModel } from '../support/pipeline.ts';

const KEY = 'sk-unit-test-key-0001';
let sim: OpenAiSim;

beforeAll(async () => {
  sim = await startOpenAiSim({ slowMs: 1500 });
});
afterAll(async () => {
  await sim?.close();
});
beforeEach(() => {
  sim.requests.length = 0;
  sim.setBehavior('answer');
});

function builder(overrides: { timeoutMs?: number; maxRetries?: number; apiKey?: string | undefined; baseUrl?: string } = {}): PayloadBuilder {
  return createOpenAiBuilder({ apiKey: KEY, baseUrl: sim.baseUrl, model: 'gpt-sim', timeoutMs: 5000, maxRetries: 0, ...overrides });
}

function bundleOf(request: GenerationRequest, humanEdits: Record<string, unknown> = {}): RequestBundle {
  return { ...assembleContext(request, { maxAttachmentBytes: 10 ** 9 }), humanEdits };
}

const flux = extractModelSchema(exampleModel('flux-schnell.model.json'));
const esrgan = extractModelSchema(exampleModel('real-esrgan.model.json'));

describe('a build', () => {
  it("maps the user's request, records usage, and every provenance claim survives the validator", async () => {
    const bundle = bundleOf({ prompt: 'a lighthouse at dawn' });
    const candidate = await builder().build({ bundle, schema: flux.modelSchema });
    expect(candidate.builder).toBe('openai');
    expect(candidate.payload).toMatchObject({ prompt: 'a lighthouse at dawn', aspect_ratio: '1:1', num_outputs: 1 });
    expect(candidate.payload).not.toHaveProperty('seed');
    expect(candidate.provenance.prompt).toMatchObject({ source: 'user_prompt', evidence: 'a lighthouse at dawn' });
    expect(candidate.provenance.aspect_ratio?.source).toBe('schema_default');
    expect(candidate.usage).toMatchObject({ model: 'gpt-sim', promptTokens: expect.any(Number), completionTokens: expect.any(Number), latencyMs: expect.any(Number) });
    expect(validatePayload({ candidate, schema: flux.modelSchema, bundle, quarantine: flux.quarantine }).filter((i) => i.severity === 'blocking')).toEqual([]);
  });

  it('sends a strict json_schema, the seed instruction, and the bundle: prompt, user turns, attachments, edits', async () => {
    const bundle = bundleOf({
      prompt: 'upscale this',
      conversation: [{ role: 'user', content: 'hello there' }, { role: 'assistant', content: 'ASSISTANT-SAID-THIS' }],
      attachments: [{ url: 'https://cdn.test/cat.jpg', mimeType: 'image/jpeg', name: 'cat.jpg' }],
    }, { scale: 4 });
    const candidate = await builder().build({ bundle, schema: esrgan.modelSchema });
    const [request] = sim.requests;
    expect(request?.apiKey).toBe(KEY);
    const body = request!.body as { model: string; temperature: number; messages: { role: string; content: string }[]; response_format: Record<string, unknown> };
    expect(body.model).toBe('gpt-sim');
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'nightmareai_real-esrgan', strict: true, schema: { additionalProperties: false } } });
    expect(body.messages[0]?.content).toContain(
      'You are a translator. Convert this User Request into a JSON object matching this Schema. The Schema provided defines KEYS and TYPES. It does NOT contain content. If the user did not specify a value, use null.',
    );
    const user = body.messages[1]?.content ?? '';
    for (const part of ['upscale this', 'hello there', 'https://cdn.test/cat.jpg', 'image/jpeg', 'cat.jpg', '"scale": 4']) expect(user).toContain(part);
    expect(JSON.stringify(body)).not.toContain('ASSISTANT-SAID-THIS');
    expect(candidate.payload.image).toBe('https://cdn.test/cat.jpg');
    expect(candidate.provenance.image).toMatchObject({ source: 'attachment', evidence: 'cat.jpg' });
    expect(candidate.provenance.scale?.source).toBe('human_edit');
  });

  it('an LLM that switches the safety checker off by itself is held for a person, not executed', async () => {
    expect(flux.modelSchema.fields.find((f) => f.name === 'disable_safety_checker')).toMatchObject({ role: 'safety', default: false });
    const bundle = bundleOf({ prompt: 'a lighthouse at dawn sim:loosen' });
    const candidate = await builder().build({ bundle, schema: flux.modelSchema });
    expect(candidate.payload.disable_safety_checker).toBe(true);
    expect(candidate.provenance.disable_safety_checker?.source).toBe('inferred');
    const issues = validatePayload({ candidate, schema: flux.modelSchema, bundle, quarantine: flux.quarantine });
    expect(issues.filter((i) => i.severity === 'blocking')).toEqual([
      expect.objectContaining({ path: '/disable_safety_checker', code: 'provenance', message: expect.stringContaining('safety setting') }),
    ]);
  });

  it("a human edit wins over the LLM's answer", async () => {
    const bundle = bundleOf({ prompt: 'a fox' }, { prompt: 'a fox, edited by a person' });
    const candidate = await builder().build({ bundle, schema: flux.modelSchema });
    expect(candidate.payload.prompt).toBe('a fox, edited by a person');
    expect(candidate.provenance.prompt?.source).toBe('human_edit');
    expect(candidate.notes).toContain("prompt: the human edit overrides the LLM's answer");
  });

  it('with a base URL and no key (a local server), sends a placeholder key', async () => {
    await builder({ apiKey: undefined }).build({ bundle: bundleOf({ prompt: 'a fox' }), schema: flux.modelSchema });
    expect(sim.requests[0]?.apiKey).toBe(LOCAL_SERVER_API_KEY);
  });
});

describe('zero trust: no example value is ever sent to the LLM', () => {
  const canaries = [
    'zqcanary-prompt-71c3', 'zqcanary-negative-58ab', 'https://canary.invalid/zqcanary-img-90df.png', 'zqcanary-style-2b7a',
    'zqcanary-example-kw-3f9e', 'zqcanary-examples-kw-6d21', 'zqcanary-tool-prompt-8a8a', 'zqcanary-tool-mode-1c1c', '8123457', '73311',
  ];
  const replicateModel = {
    owner: 'canary', name: 'leaky',
    default_example: { input: { prompt: canaries[0], negative_prompt: canaries[1], image: canaries[2], style: canaries[3], seed: 8123457 } },
    latest_version: {
      id: 'canary-v1',
      openapi_schema: { components: { schemas: { Input: {
        type: 'object', required: ['prompt'],
        properties: {
          prompt: { type: 'string', description: 'Prompt', example: canaries[4] },
          negative_prompt: { type: 'string', examples: [canaries[5]] },
          image: { type: 'string', format: 'uri', description: `Input image, for example ${canaries[2]}` },
          style: { type: 'string', description: `Style, e.g. ${canaries[3]}` },
          seed: { type: 'integer' },
        },
      } } } },
    },
  };
  const toolConfig = { model: 'canary/tool', example_input: { prompt: canaries[6], mode: canaries[7], width: 73311 } };

  it.each([['a Replicate model', replicateModel], ['a tool config', toolConfig]])('%s: the exact request bodies hold none of its example values', async (_label, source) => {
    const { modelSchema, quarantine } = extractModelSchema(source);
    // Control: the examples were there, and went to the quarantine the builder never sees.
    expect(quarantine.entries().length).toBeGreaterThanOrEqual(3);
    const bundle = bundleOf({ prompt: 'a red fox in fresh snow', attachments: [{ url: 'https://cdn.test/fox.png', mimeType: 'image/png' }] });
    const candidate = await builder().build({ bundle, schema: modelSchema });
    const sent = JSON.stringify(sim.requests.map((request) => request.body)).toLowerCase();
    expect(sent).toContain('a red fox in fresh snow');
    expect(sent).toContain('json_schema');
    for (const canary of canaries) expect(sent, canary).not.toContain(canary.toLowerCase());
    expect(JSON.stringify(candidate)).not.toMatch(/zqcanary|8123457|73311/);
  });
});

describe('every failure is BUILDER_FAILED with a clear reason', () => {
  it.each<[OpenAiSimBehavior, RegExp]>([
    ['slow', /did not answer within 200 ms \(after 0 retries\)/],
    ['rate_limited', /kept answering 429 Too Many Requests \(after 1 retry\)/],
    ['server_error', /failed with HTTP 500 \(after 1 retry\)/],
    ['refuse', /refused to map the request: I'm sorry/],
    ['bad_json', /not valid JSON/],
    ['violate', /does not fit the strict schema: prompt is required/],
    ['cut_off', /cut off at the token limit/],
  ])('%s', async (behavior, reason) => {
    sim.setBehavior(behavior);
    const retrying = behavior === 'rate_limited' || behavior === 'server_error';
    const build = builder({ timeoutMs: 200, maxRetries: retrying ? 1 : 0 }).build({ bundle: bundleOf({ prompt: 'a fox' }), schema: flux.modelSchema });
    await expect(build).rejects.toMatchObject({ name: 'VettedError', code: 'BUILDER_FAILED', message: expect.stringMatching(reason) });
    // The SDK's own retries happened before giving up.
    expect(sim.requests).toHaveLength(retrying ? 2 : 1);
  });

  it('a marker in one request misbehaves for that request only', async () => {
    await expect(builder().build({ bundle: bundleOf({ prompt: 'a fox sim:refuse' }), schema: flux.modelSchema })).rejects.toMatchObject({ code: 'BUILDER_FAILED' });
    await expect(builder().build({ bundle: bundleOf({ prompt: 'a fox' }), schema: flux.modelSchema })).resolves.toMatchObject({ builder: 'openai' });
  });

  it('a server that is not there', async () => {
    const port = await closedPort();
    const build = builder({ baseUrl: `http://127.0.0.1:${port}/v1` }).build({ bundle: bundleOf({ prompt: 'a fox' }), schema: flux.modelSchema });
    await expect(build).rejects.toMatchObject({ code: 'BUILDER_FAILED', message: expect.stringMatching(/could not be reached.*ECONNREFUSED/) });
  });
});

describe('traceProvenance', () => {
  const bundle = bundleOf({ prompt: 'a castle, seed 42, make it 16:9', attachments: [{ url: 'https://cdn.test/ref.png', mimeType: 'image/png', name: 'ref.png' }] });
  const evidence = collectBundleEvidence(bundle);
  const field = (spec: Partial<FieldSpec>): FieldSpec => ({ name: 'f', role: 'other', type: 'string', required: false, nullable: false, order: 0, hasDefault: false, ...spec });

  it.each<[string, unknown, Partial<FieldSpec>, string]>([
    ["the user's words", 'a castle', {}, 'user_prompt'],
    ['a number the user wrote', 42, { type: 'integer' }, 'user_prompt'],
    ['digits written as such', '16:9', {}, 'user_prompt'],
    ['an attachment URL', 'https://cdn.test/ref.png', {}, 'attachment'],
    ['the default', 'webp', { hasDefault: true, default: 'webp' }, 'schema_default'],
    ['a word the user never wrote', 'a castle at night', {}, 'inferred'],
    ['a number the user never wrote', 7, { type: 'integer' }, 'inferred'],
    ['a boolean (no content, never "found")', true, { type: 'boolean' }, 'inferred'],
    ['a boolean equal to the default', false, { type: 'boolean', hasDefault: true, default: false }, 'schema_default'],
  ])('%s → %s', (_label, value, spec, source) => {
    expect(traceProvenance(value, field(spec), evidence, bundle).source).toBe(source);
  });

  it("never copies a secret into the evidence", () => {
    const secretBundle = bundleOf({ prompt: 'use token hf_abcdefgh123' });
    const traced = traceProvenance('hf_abcdefgh123', field({ role: 'secret' }), collectBundleEvidence(secretBundle), secretBundle);
    expect(traced).toEqual({ source: 'user_prompt', confidence: 0.9 });
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 1;
}
