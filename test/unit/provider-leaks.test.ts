/**
 * Shadow mode and the leak firewall on provider models, a fal endpoint and an OpenAI operation, as on
 * Replicate's: the published example values never reach the V3 payload; V2 (the example request the published
 * inputs' examples make, merged with the builder's output, as an integration copying the playground sent)
 * carries them, and the comparison names each; a builder that copies an example value, or a distinctive piece
 * of one, into a payload is blocked.
 */
import { describe, expect, it } from 'vitest';
import { createHeuristicBuilder } from '../../src/builders/heuristic-builder.ts';
import type { CandidatePayload, RequestBundle } from '../../src/generated/contracts.ts';
import { shadowBuild } from '../../src/shadow/compare.ts';
import { createLegacyV2Builder } from '../../src/shadow/legacy-v2-builder.ts';
import { decideGate } from '../../src/stages/gate.ts';
import { extractModelSchema } from '../../src/stages/schema-extractor/index.ts';
import { validatePayload } from '../../src/stages/validator/index.ts';
import { FAL_IMAGE_EXAMPLE, FAL_PROMPT_EXAMPLE, falImageToImage, providerModelFile as read } from '../support/provider-documents.ts';

const bundle = (prompt: string, extra: Partial<RequestBundle> = {}): RequestBundle => ({
  prompt, conversation: [], attachments: [], userProfile: {}, humanEdits: {}, safetyFlags: [], ...extra,
});

/** An LLM builder's answer: what it wrote into each field by itself. */
function answer(payload: Record<string, unknown>): CandidatePayload {
  const provenance = Object.fromEntries(Object.keys(payload).map((name) => [name, { source: 'inferred' as const, confidence: 0.6 }]));
  return { payload, provenance, confidence: 0.6, builder: 'openai' };
}

const heuristic = createHeuristicBuilder();

async function shadowOf(source: unknown, b: RequestBundle) {
  const { modelSchema: schema, quarantine } = extractModelSchema(source);
  const v3 = await heuristic.build({ bundle: b, schema });
  return shadowBuild({ bundle: b, schema, quarantine, v3, v3IsBuilderOutput: true, legacy: createLegacyV2Builder(heuristic) });
}

describe('the example request a provider document publishes', () => {
  it('is assembled from its inputs\' examples and sample defaults, kept in the quarantine only', () => {
    const fal = extractModelSchema(falImageToImage);
    expect(fal.quarantine.exampleInput()).toEqual({ prompt: FAL_PROMPT_EXAMPLE, image_url: FAL_IMAGE_EXAMPLE });
    expect(JSON.stringify(fal.modelSchema)).not.toContain('Chls9L2ZnvuipUTEwlnJC');
    const openai = extractModelSchema(read('openai-create-image.provider.json'));
    expect(openai.quarantine.exampleInput()).toMatchObject({ prompt: "A lighthouse keeper's tabby cat asleep on a coil of blue rope", model: 'gpt-image-1', user: 'user-7f3a9c21' });
    expect(JSON.stringify(openai.modelSchema)).not.toContain('user-7f3a9c21');
  });
});

describe('shadow mode on provider models', () => {
  it('fal: V2 sends the published example image when the user gave none; V3 parks instead, with no example in it', async () => {
    const report = await shadowOf(falImageToImage, bundle('turn my photo into a watercolor'));
    expect(report.status).toBe('ok');
    expect(report.v2Payload?.image_url).toBe(FAL_IMAGE_EXAMPLE);
    expect(report.leaks).toContainEqual(expect.objectContaining({ path: '/image_url', exampleValue: FAL_IMAGE_EXAMPLE, match: 'exact' }));
    expect(report.leakedFields).toContain('image_url');
    expect(report.v3Payload).not.toHaveProperty('image_url');
    expect(report.v3Leaks).toEqual([]);
  });

  it('fal: with the user\'s own image, V2 and V3 agree and neither leaks', async () => {
    const photo = 'https://files.acme.test/my-photo.png';
    const report = await shadowOf(falImageToImage, bundle('turn my photo into a watercolor', { humanEdits: { image_url: photo } }));
    expect(report.v3Payload?.image_url).toBe(photo);
    expect(report.v2Payload?.image_url).toBe(photo);
    expect(report.leaks).toEqual([]);
    expect(report.v3Leaks).toEqual([]);
  });

  it('OpenAI: V2 carries the published end-user id and model; V3 carries neither', async () => {
    const report = await shadowOf(read('openai-create-image.provider.json'), bundle('a paper boat on a rainy street'));
    expect(report.v2Payload).toMatchObject({ user: 'user-7f3a9c21', model: 'gpt-image-1' });
    expect(report.leakedFields).toEqual(expect.arrayContaining(['model', 'user']));
    expect(report.v3Payload).not.toHaveProperty('user');
    expect(report.v3Payload?.model).not.toBe('gpt-image-1');
    expect(report.v3Leaks).toEqual([]);
  });
});

describe('the leak firewall on provider models', () => {
  const fal = extractModelSchema(read('fal-flux-dev.provider.json'));
  const openai = extractModelSchema(read('openai-create-image.provider.json'));
  const leaksIn = (extracted: typeof fal, payload: Record<string, unknown>, prompt: string) =>
    validatePayload({ candidate: answer(payload), schema: extracted.modelSchema, bundle: bundle(prompt), quarantine: extracted.quarantine }).filter((issue) => issue.code === 'example_leak');

  it('blocks a payload carrying a published example value, and the gate parks it', () => {
    const found = leaksIn(openai, { prompt: 'a paper boat', user: 'user-7f3a9c21' }, 'a paper boat');
    expect(found).toEqual([expect.objectContaining({ path: '/user', severity: 'blocking' })]);
    const { modelSchema: schema, quarantine } = openai;
    const candidate = answer({ prompt: 'a paper boat', user: 'user-7f3a9c21' });
    const issues = validatePayload({ candidate, schema, bundle: bundle('a paper boat'), quarantine });
    expect(decideGate({ issues, policy: { mode: 'auto' }, candidate, schema, bundle: bundle('a paper boat'), approvedPayloadHash: null })).toMatchObject({ action: 'park', reason: 'example_leak' });
  });

  it('catches a distinctive piece of the fal example prompt in a field the user did not write it in', () => {
    expect(fal.quarantine.fragments()?.length).toBeGreaterThan(0);
    const found = leaksIn(fal, { prompt: 'a cat on a windowsill, a dew-covered spider web' }, 'a cat on a windowsill');
    expect(found).toEqual([expect.objectContaining({ path: '/prompt', severity: 'blocking' })]);
  });

  it('leaves what the user wrote, even when the example says it too', () => {
    expect(leaksIn(fal, { prompt: 'a dew-covered spider web at dawn' }, 'a dew-covered spider web at dawn')).toEqual([]);
    expect(leaksIn(openai, { prompt: 'a boat', user: 'user-7f3a9c21' }, 'a boat for user-7f3a9c21')).toEqual([]);
  });
});
