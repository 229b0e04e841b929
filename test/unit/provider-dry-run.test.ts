/** `vetted dry-run` on the provider example files: a clean payload with no published example in it, and parking. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/adapters/registry.ts';
import { loadConfig } from '../../src/config.ts';
import { dryRun } from '../../src/preview/dry-run.ts';
import { extractModelSchema } from '../../src/stages/schema-extractor/index.ts';
import { FAL_IMAGE_EXAMPLE, falImageToImage } from '../support/provider-documents.ts';

function read(path: string): unknown {
  return JSON.parse(readFileSync(new URL(`../../examples/${path}`, import.meta.url), 'utf8'));
}

async function dry(model: string, request: unknown) {
  const config = loadConfig({});
  return dryRun({ modelSource: read(`providers/${model}`), request, config, adapters: createAdapterRegistry(config) });
}

/** The published example values of a model file (what the quarantine holds), as strings. */
function publishedExamples(model: string): string[] {
  return extractModelSchema(read(`providers/${model}`)).quarantine.entries().map((entry) => String(entry.value));
}

const CASES = [
  ['fal-flux-dev.provider.json', 'requests/fal-flux.json', 'prompt'],
  ['openai-create-image.provider.json', 'requests/openai-image.json', 'prompt'],
  ['openai-create-speech.provider.json', 'requests/openai-speech.json', 'input'],
] as const;

describe('dry-run on provider model files', () => {
  it.each(CASES)('%s gives a clean payload with no published example value', async (model, request, promptField) => {
    const result = await dry(model, read(request));
    expect(result.decision).toBe('execute');
    expect(result.issues.filter((issue) => issue.severity === 'blocking')).toEqual([]);
    const payload = result.candidate?.payload as Record<string, unknown>;
    expect(typeof payload[promptField]).toBe('string');
    const examples = publishedExamples(model);
    expect(examples.length).toBeGreaterThan(0);
    const sent = JSON.stringify(payload);
    for (const example of examples.filter((value) => value.length > 3)) expect(sent).not.toContain(example);
  });

  it('parks a request that leaves a required input without a value', async () => {
    const result = await dry('openai-create-speech.provider.json', read('requests/openai-speech-missing-voice.json'));
    expect(result.decision).toBe('awaiting_human');
    expect(result.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/voice', code: 'missing_required' })]));
  });

  it('parks a fal request whose required input is edited away', async () => {
    const result = await dry('fal-flux-dev.provider.json', { prompt: 'a lighthouse', edits: { prompt: null } });
    expect(result.decision).toBe('awaiting_human');
  });

  it('refuses at submit a model whose provider is not configured, naming the provider', async () => {
    await expect(dry('fal-flux-dev.provider.json', { prompt: 'a lighthouse', provider: 'fal' })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      field: 'provider',
      message: expect.stringContaining('provider "fal" is not configured (set FAL_KEY)'),
    });
  });

  it('refuses at submit a provider that does not serve the model', async () => {
    await expect(dry('openai-create-image.provider.json', { prompt: 'a lighthouse', provider: 'replicate' })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      field: 'provider',
      message: expect.stringContaining('served by openai'),
    });
  });
});

describe('fal file inputs, named …_url', () => {
  const config = loadConfig({});
  const request = {
    prompt: 'turn this photo into a watercolor painting',
    attachments: [{ url: 'https://files.example.com/mine/harbour.png', mimeType: 'image/png', name: 'harbour.png' }],
  };

  it('take the attachment the user gave, not the published example image', async () => {
    const result = await dryRun({ modelSource: falImageToImage, request, config, adapters: createAdapterRegistry(config) });
    expect(result.decision).toBe('execute');
    const payload = result.candidate?.payload as Record<string, unknown>;
    expect(payload.image_url).toBe('https://files.example.com/mine/harbour.png');
    expect(JSON.stringify(payload)).not.toContain(FAL_IMAGE_EXAMPLE);
  });

  it('read as file URLs by the extractor; an address called back is left a plain string', () => {
    const withWebhook = structuredClone(falImageToImage);
    const input = withWebhook.openapi.components.schemas.FluxImageToImageInput as { properties: Record<string, unknown> };
    input.properties.webhook_url = { title: 'Webhook URL', type: 'string' };
    input.properties.reference_image_urls = { title: 'Reference images', type: 'array', items: { type: 'string' } };
    const fields = extractModelSchema(withWebhook).modelSchema.fields;
    const field = (name: string) => fields.find((candidate) => candidate.name === name);
    expect(field('image_url')?.role).toBe('image_input');
    expect(field('reference_image_urls')?.role).toBe('image_input');
    expect(field('webhook_url')?.role).not.toMatch(/_input$/);
  });

  it('without an attachment, the required image parks the run', async () => {
    const result = await dryRun({ modelSource: falImageToImage, request: { prompt: request.prompt }, config, adapters: createAdapterRegistry(config) });
    expect(result.decision).not.toBe('execute');
  });
});
