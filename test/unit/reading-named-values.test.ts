/**
 * Settings written with part of an input's name, or its words run together (`quality 90` for output_quality,
 * `512 size`, `fps 8`, `font size 9`), on real catalog schemas: placed when one input has those words and the
 * value fits, in a clause of their own; reported as unplaced when the words name several inputs, when the value
 * does not fit, or when they are a common setting name the model has no input for; content otherwise.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildHeuristicPayload } from '../../src/builders/heuristic-builder.ts';
import type { CandidatePayload, ModelSchema, RequestBundle } from '../../src/generated/contracts.ts';
import type { ExampleQuarantine } from '../../src/stages/example-quarantine.ts';
import { validatePayload } from '../../src/stages/validator/index.ts';
import { loadCatalogModels } from '../support/replicate-catalog.ts';

const MODELS = {
  flux8: 'bytedance/hyper-flux-8step',
  swinir: 'jingyunliang/swinir',
  talker: 'cjwbw/sadtalker',
  svd: 'sunfjun/stable-video-diffusion',
  portrait: 'fofr/live-portrait',
  captions: 'fictions-ai/autocaption',
  refiner: 'batouresearch/magic-image-refiner',
  whisperx: 'victor-upmeet/whisperx',
  schnell: 'black-forest-labs/flux-schnell',
} as const;
type Model = keyof typeof MODELS;
const schemas = new Map<Model, ModelSchema>();
const quarantines = new Map<Model, ExampleQuarantine>();

beforeAll(() => loadCatalogModels(MODELS, schemas, quarantines), 180_000);

function bundleOf(prompt: string): RequestBundle {
  return { prompt, conversation: [], attachments: [], userProfile: {}, humanEdits: {}, safetyFlags: [] };
}

function build(model: Model, prompt: string): CandidatePayload {
  return buildHeuristicPayload({ bundle: bundleOf(prompt), schema: schemas.get(model) as ModelSchema });
}

/** The fields set from the request (not the schema's defaults). */
function placed(candidate: CandidatePayload): Record<string, unknown> {
  return Object.fromEntries(Object.entries(candidate.payload).filter(([field]) => candidate.provenance[field]?.source !== 'schema_default'));
}

function unused(candidate: CandidatePayload): string[] {
  return (candidate.unusedRequest ?? []).map(({ phrase, reason }) => `${phrase}: ${reason}`);
}

describe('part of an input name with its value is placed', () => {
  it.each([
    ['flux8', 'a corgi astronaut planting a flag, output format jpg, quality 90', { output_quality: 90 }],
    ['swinir', 'denoise this, task Color Image Denoising, noise level 25', { noise: 25 }],
    ['talker', 'enhancer on, preprocess full, 512 size', { use_enhancer: true, size_of_image: 512 }],
    ['svd', 'motion bucket 180, fps 8, seed 11', { motion_bucket_id: 180, frames_per_second: 8 }],
    ['portrait', 'eye retargeting on, scale 2.5', { live_portrait_eye_retargeting: true, live_portrait_scale: 2.5 }],
    ['captions', 'captions at the top, font size 9', { fontsize: 9 }],
    ['refiner', 'refine this, creativity 0,5', { creativity: 0.5 }],
  ] as [Model, string, Record<string, unknown>][])('%s: %s', (model, text, expected) => {
    const candidate = build(model, text);
    expect(placed(candidate)).toMatchObject(expected);
    expect(unused(candidate)).toEqual([]);
  });

  it('the validator accepts each value with the phrase it came from', () => {
    for (const [model, text] of [
      ['flux8', 'a red barn, quality 90'],
      ['refiner', 'refine this, creativity 0,5'],
      ['svd', 'fps 8'],
    ] as [Model, string][]) {
      const bundle = bundleOf(text);
      const schema = schemas.get(model) as ModelSchema;
      const candidate = buildHeuristicPayload({ bundle, schema });
      const issues = validatePayload({ candidate, schema, bundle, quarantine: quarantines.get(model) as ExampleQuarantine });
      // A required file the request did not attach is not this test's business; a value the validator cannot trace is.
      expect(issues.filter((issue) => issue.severity === 'blocking' && issue.code !== 'missing_required'), text).toEqual([]);
    }
  });
});

describe('a setting name with its value that nothing places is reported', () => {
  it('names several inputs', () => {
    const candidate = build('whisperx', 'diarization on, speakers 3');
    expect(placed(candidate)).not.toHaveProperty('min_speakers');
    expect(unused(candidate)).toEqual(['speakers 3: it could name min_speakers or max_speakers']);
  });

  it('has a value the input does not take', () => {
    expect(unused(build('talker', 'enhancer on, 300 size'))).toEqual(['300 size: it is not one of the size_of_image options']);
    const candidate = build('flux8', 'a red barn, quality 190');
    expect(placed(candidate)).not.toHaveProperty('output_quality');
    expect(unused(candidate)).toEqual(['quality 190: it is outside the output_quality range']);
  });

  it('is a common setting the model has no input for, said once', () => {
    expect(unused(build('schnell', 'a koi pond, 100 epochs'))).toEqual(['100 epochs: it names no input of this model']);
  });
});

describe('setting words inside the description are content', () => {
  it.each([
    ['flux8', 'a stadium with 90 quality seats'],
    ['flux8', 'a poster for the 90s, top 10 hits'],
    ['schnell', 'a temple with 100 steps'],
    ['talker', 'a 512 size shoe box on a shelf'],
  ] as [Model, string][])('%s: %s', (model, text) => {
    const candidate = build(model, text);
    expect(placed(candidate)).toEqual(model === 'talker' ? {} : { prompt: text });
    expect(unused(candidate)).toEqual([]);
  });
});
