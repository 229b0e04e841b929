/**
 * Settings written with part of an input's name, or its words run together (`quality 90` for output_quality,
 * `512 size`, `fps 8`, `font size 9`), on real catalog schemas: placed when one input has those words and the
 * value fits, in a clause of their own; reported as unplaced when the words name several inputs, when the value
 * does not fit, or when they are a common setting name the model has no input for; content otherwise.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CandidatePayload } from '../../src/generated/contracts.ts';
import { bundleOf, CATALOG_LOAD_MS, CatalogModels, placed } from '../support/reading-builds.ts';

const models = new CatalogModels({
  flux8: 'bytedance/hyper-flux-8step',
  swinir: 'jingyunliang/swinir',
  talker: 'cjwbw/sadtalker',
  svd: 'sunfjun/stable-video-diffusion',
  portrait: 'fofr/live-portrait',
  captions: 'fictions-ai/autocaption',
  refiner: 'batouresearch/magic-image-refiner',
  whisperx: 'victor-upmeet/whisperx',
  schnell: 'black-forest-labs/flux-schnell',
});
type Model = keyof typeof models.names;

beforeAll(() => models.load(), CATALOG_LOAD_MS);

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
    const candidate = models.build(model, text);
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
      const candidate = models.build(model, text);
      const issues = models.issues(model, candidate, bundle);
      // A required file the request did not attach is not this test's business; a value the validator cannot trace is.
      expect(issues.filter((issue) => issue.severity === 'blocking' && issue.code !== 'missing_required'), text).toEqual([]);
    }
  });
});

describe('a setting name with its value that nothing places is reported', () => {
  it('names several inputs', () => {
    const candidate = models.build('whisperx', 'diarization on, speakers 3');
    expect(placed(candidate)).not.toHaveProperty('min_speakers');
    expect(unused(candidate)).toEqual(['speakers 3: it could name min_speakers or max_speakers']);
  });

  it('has a value the input does not take', () => {
    expect(unused(models.build('talker', 'enhancer on, 300 size'))).toEqual(['300 size: it is not one of the size_of_image options']);
    const candidate = models.build('flux8', 'a red barn, quality 190');
    expect(placed(candidate)).not.toHaveProperty('output_quality');
    expect(unused(candidate)).toEqual(['quality 190: it is outside the output_quality range']);
  });

  it('is a common setting the model has no input for, said once', () => {
    expect(unused(models.build('schnell', 'a koi pond, 100 epochs'))).toEqual(['100 epochs: it names no input of this model']);
  });
});

describe('setting words inside the description are content', () => {
  it.each([
    ['flux8', 'a stadium with 90 quality seats'],
    ['flux8', 'a poster for the 90s, top 10 hits'],
    ['schnell', 'a temple with 100 steps'],
    ['talker', 'a 512 size shoe box on a shelf'],
  ] as [Model, string][])('%s: %s', (model, text) => {
    const candidate = models.build(model, text);
    expect(placed(candidate)).toEqual(model === 'talker' ? {} : { prompt: text });
    expect(unused(candidate)).toEqual([]);
  });
});
