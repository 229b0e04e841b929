/**
 * fal's `image_size` (a `{width, height}` object or a preset name) filled from the user's words through the
 * aspect-ratio and size readings: a ratio or a shape word gives the preset of that shape, recorded as the
 * `size_preset` conversion the validator runs again; written sizes give the object. The traps of those readings
 * hold here too.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createAdapterRegistry } from '../../src/adapters/registry.ts';
import { loadConfig } from '../../src/config.ts';
import type { CandidatePayload, FieldSpec } from '../../src/generated/contracts.ts';
import { dryRun } from '../../src/preview/dry-run.ts';
import { deriveValue } from '../../src/reading/index.ts';
import { collectBundleEvidence } from '../../src/stages/bundle-evidence.ts';
import { extractModelSchema } from '../../src/stages/schema-extractor/index.ts';
import { provenanceIssues } from '../../src/stages/validator/provenance-issues.ts';

const falFluxDev = JSON.parse(readFileSync(new URL('../../examples/providers/fal-flux-dev.provider.json', import.meta.url), 'utf8')) as unknown;
const config = loadConfig({});
const imageSize = extractModelSchema(falFluxDev).modelSchema.fields.find((field) => field.name === 'image_size') as FieldSpec;

async function dry(prompt: string) {
  return dryRun({ modelSource: falFluxDev, request: { prompt }, config, adapters: createAdapterRegistry(config) });
}

/** The image_size the run would send when the user asked for one (not the schema's default), and its provenance. */
async function sizeOf(prompt: string) {
  const result = await dry(prompt);
  const provenance = result.candidate?.provenance.image_size;
  const value = provenance?.source === 'user_prompt' ? result.candidate?.payload.image_size : undefined;
  return { result, value, provenance, prompt: result.candidate?.payload.prompt };
}

describe('the extractor keeps the presets beside the size object', () => {
  it('reads image_size as an object field listing its preset names', () => {
    expect(imageSize).toMatchObject({
      type: 'object',
      presets: ['square_hd', 'square', 'portrait_4_3', 'portrait_16_9', 'landscape_4_3', 'landscape_16_9'],
      default: 'landscape_4_3',
    });
    expect(imageSize.enum).toBeUndefined();
  });
});

describe('a shape asked for gives the preset of that shape', () => {
  it.each([
    ['a lighthouse on a cliff at dusk, 16:9', 'landscape_16_9', '16:9'],
    ['a lighthouse on a cliff at dusk, aspect ratio 4:3', 'landscape_4_3', 'aspect ratio 4:3'],
    ['a lighthouse on a cliff at dusk, 3:4', 'portrait_4_3', '3:4'],
    ['a desert highway at noon, widescreen', 'landscape_16_9', 'widescreen'],
    ['a fox in the snow, portrait', 'portrait_16_9', 'portrait'],
    ['a fox in the snow, vertical', 'portrait_16_9', 'vertical'],
    ['a red fox curled up in fresh snow, square image, 2 images', 'square_hd', 'square image'],
    ['a fox in the snow, 1:1', 'square_hd', '1:1'],
    ['un zorro en la nieve, formato vertical', 'portrait_16_9', 'formato vertical'],
    ['a fox in the snow, ١٦:٩', 'landscape_16_9', '١٦:٩'],
  ])('%s → %s', async (prompt, preset, phrase) => {
    const { result, value, provenance } = await sizeOf(prompt);
    expect(value).toBe(preset);
    expect(provenance).toMatchObject({ source: 'user_prompt', evidence: phrase, conversion: 'size_preset' });
    // The validator ran the conversion again on the cited words and agreed: nothing blocks, nothing parks.
    expect(result.issues.filter((issue) => issue.severity === 'blocking')).toEqual([]);
    expect(result.decision).toBe('execute');
  });

  it('a preset named as the model names it is taken as written', async () => {
    const { value, provenance } = await sizeOf('a fox in the snow, image size: portrait_4_3');
    expect(value).toBe('portrait_4_3');
    expect(provenance?.conversion).toBeUndefined();
  });

  it('a ratio leaves the prompt; a shape word stays in it, where it still describes the picture', async () => {
    expect((await sizeOf('a lighthouse on a cliff at dusk, 16:9')).prompt).toBe('a lighthouse on a cliff at dusk');
    expect((await sizeOf('a desert highway at noon, widescreen')).prompt).toContain('widescreen');
  });
});

describe('sizes written out give the object', () => {
  it.each([
    ['a lighthouse on a cliff, 1024x768', { width: 1024, height: 768 }],
    ['a lighthouse on a cliff, 768 wide by 512 tall', { width: 768, height: 512 }],
  ])('%s', async (prompt, object) => {
    const { result, value, provenance } = await sizeOf(prompt);
    expect(value).toEqual(object);
    expect(provenance?.conversion).toBeUndefined();
    expect(result.decision).toBe('execute');
  });

  it('one side alone is no size: it stays in the prompt and image_size keeps its default', async () => {
    const { value, prompt } = await sizeOf('a lighthouse on a cliff, 768 wide');
    expect(value).toBeUndefined();
    expect(prompt).toContain('768 wide');
  });
});

describe('the traps of the ratio and shape readings hold', () => {
  it.each([
    'a poster of a 16:9 TV hanging in a loft',
    'a portrait of a woman by the sea',
    'a 1:1 scale model of a ship',
    'the 1920 by 1080 monitor on a desk',
  ])('%s: image_size is not set from it', async (prompt) => {
    const { value, result } = await sizeOf(prompt);
    expect(value).toBeUndefined();
    expect(result.candidate?.payload.prompt).toBe(prompt);
  });
});

describe('what no preset has', () => {
  it('a ratio named with no preset of its shape is kept as written and parks for a person', async () => {
    const { result } = await sizeOf('a lighthouse on a cliff, aspect ratio 3:2');
    expect(result.candidate?.payload.image_size).toBe('3:2');
    expect(result.decision).toBe('awaiting_human');
  });
});

describe('the size_preset conversion, as the validator runs it', () => {
  it.each([
    ['16:9', 'landscape_16_9'],
    ['in 9:16', 'portrait_16_9'],
    ['square', 'square_hd'],
    ['landscape', 'landscape_16_9'],
    ['ultra wide', 'landscape_16_9'],
    ['１６：９', 'landscape_16_9'],
  ])('%s → %s', (words, preset) => {
    expect(deriveValue('size_preset', words, imageSize)).toEqual({ value: preset, fit: 'ok' });
  });

  it('gives nothing for a shape no preset has, for other words, or for a field without presets', () => {
    expect(deriveValue('size_preset', '3:2', imageSize)).toBeUndefined();
    expect(deriveValue('size_preset', 'a red fox', imageSize)).toBeUndefined();
    const { presets: _presets, ...plain } = imageSize;
    expect(deriveValue('size_preset', '16:9', plain)).toBeUndefined();
  });
});

describe('a preset claimed from words that do not give it', () => {
  const claim = (prompt: string, value: string, evidence: string) => {
    const candidate: CandidatePayload = { payload: { image_size: value }, provenance: { image_size: { source: 'user_prompt', evidence, conversion: 'size_preset' } }, confidence: 0.9, builder: 'test' };
    const bundle = { prompt, conversation: [], attachments: [], userProfile: {}, humanEdits: {}, safetyFlags: [] };
    return provenanceIssues(candidate, new Map([['image_size', imageSize]]), collectBundleEvidence(bundle));
  };

  it('is refused: square is no 16:9, and words the user never wrote prove nothing', () => {
    expect(claim('a fox, square', 'square_hd', 'square')).toEqual([]);
    expect(claim('a fox, square', 'landscape_16_9', 'square')).toEqual([expect.objectContaining({ path: '/image_size', severity: 'blocking' })]);
    expect(claim('a fox', 'landscape_16_9', '16:9')).toEqual([expect.objectContaining({ path: '/image_size', severity: 'blocking' })]);
  });
});
