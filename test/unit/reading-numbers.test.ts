/**
 * Numbers as people write them, on real catalog schemas: digits of other scripts (`٤٢`, `۱۶:۹`, `４枚`) read like
 * ASCII ones, with the conversion recorded so the validator re-derives the value from the digits as written; counts
 * with an adjective after what they count (`diez bocetos rápidos de`), the Arabic dual (`صورتان`), Hebrew number
 * forms, a length after what is made (`vídeo de quatro segundos`), and a resolution after a lead written onto it
 * (`ל-4k`) or before Japanese `に`. The same words as content set nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CandidatePayload } from '../../src/generated/contracts.ts';
import { deriveValue, foldDigits } from '../../src/reading/index.ts';
import { parseWrittenNumber } from '../../src/reading/numbers.ts';
import { traceProvenance } from '../../src/adapters/openai/provenance-trace.ts';
import { collectBundleEvidence } from '../../src/stages/bundle-evidence.ts';
import { bundleOf, CATALOG_LOAD_MS, CatalogModels, placed } from '../support/reading-builds.ts';

const models = new CatalogModels({
  schnell: 'black-forest-labs/flux-schnell',
  lcm: 'fofr/latent-consistency-model',
  sd: 'stability-ai/stable-diffusion',
  haiper: 'haiper-ai/haiper-video-2',
  esrgan: 'lucataco/real-esrgan-video',
  chat: 'meta/meta-llama-3-8b-instruct',
});
type Model = keyof typeof models.names;

beforeAll(() => models.load(), CATALOG_LOAD_MS);

describe('digits of other scripts', () => {
  it('are read as numbers, position for position', () => {
    expect(parseWrittenNumber('٤٢')).toBe(42);
    expect(parseWrittenNumber('۱۲۸')).toBe(128);
    expect(parseWrittenNumber('１０２４')).toBe(1024);
    expect(parseWrittenNumber('١٫٥')).toBe(1.5);
    expect(foldDigits('البذرة ٤٢، ١٦:٩')).toBe('البذرة 42، 16:9');
    expect(foldDigits('4枚').length).toBe(2);
  });

  it.each([
    ['schnell', 'قطة على سطح، نسبة العرض إلى الارتفاع ١٦:٩، البذرة ٤٢، ٣ صور', { aspect_ratio: '16:9', seed: 42, num_outputs: 3 }],
    ['schnell', 'گربه روی پشت بام، ۴ تصویر، seed ۷۷', { seed: 77 }],
    ['schnell', '富士山の夕焼け、アスペクト比１６:９、画像４枚', { aspect_ratio: '16:9', num_outputs: 4 }],
    ['sd', 'منارة على صخرة، ٧٦٨x٥١٢', { width: 768, height: 512 }],
    ['chat', 'اكتب قصيدة عن البحر، بحد أقصى ١٥٠ رمزاً', { max_tokens: 150 }],
  ] as [Model, string, Record<string, unknown>][])('%s: %s', (model, prompt, expected) => {
    const candidate = models.build(model, prompt);
    expect(placed(candidate)).toMatchObject(expected);
    expect(models.blocking(model, prompt, candidate)).toEqual([]);
  });

  it('records the conversion, cites the digits as written, and keeps them in the text', () => {
    const candidate = models.build('schnell', 'قطة على سطح ١٢، نسبة العرض إلى الارتفاع ١٦:٩، البذرة ٤٢');
    expect(candidate.provenance.seed).toMatchObject({ evidence: 'البذرة ٤٢', conversion: 'native_digits' });
    expect(candidate.provenance.aspect_ratio).toMatchObject({ conversion: 'native_digits' });
    expect(candidate.payload.prompt).toBe('قطة على سطح ١٢');
  });

  it('the validator refuses a value the digits do not give, and the LLM builder traces one they do', () => {
    const prompt = 'قطة، نسبة العرض إلى الارتفاع ١٦:٩';
    const wrong: CandidatePayload = {
      payload: { aspect_ratio: '9:16' },
      provenance: { aspect_ratio: { source: 'user_prompt', evidence: '١٦:٩', conversion: 'native_digits' } },
      confidence: 0.9,
      builder: 'test',
    };
    expect(models.blocking('schnell', prompt, wrong)).toEqual([expect.stringMatching(/aspect_ratio/)]);
    expect(deriveValue('native_digits', '١٦:٩', models.field('schnell', 'aspect_ratio'))?.value).toBe('16:9');
    expect(deriveValue('native_digits', '16:9', models.field('schnell', 'aspect_ratio'))).toBeUndefined();
    const bundle = bundleOf(prompt);
    expect(traceProvenance('16:9', models.field('schnell', 'aspect_ratio'), collectBundleEvidence(bundle), bundle)).toMatchObject({ evidence: '١٦:٩', conversion: 'native_digits' });
  });
});

describe('counts, lengths and resolutions written around what is made', () => {
  it.each([
    ['lcm', 'diez bocetos rápidos de un robot jardinero', { num_images: 10 }, 'robot jardinero'],
    ['lcm', 'tres ilustraciones sencillas de un faro', { num_images: 3 }, 'un faro'],
    ['lcm', 'cinq croquis rapides d’un phare', { num_images: 5 }, 'phare'],
    ['lcm', 'سبع رسومات سريعة لجمل يرتدي نظارة', { num_images: 7 }, 'لجمل'],
    ['schnell', 'صورتان لقارب في النيل', { num_outputs: 2 }, 'قارب'],
    ['schnell', 'شعار لمقهى، نسختين', { num_outputs: 2 }, 'شعار لمقهى'],
    ['schnell', 'ארבעת הגרסאות של לוגו לבית קפה', { num_outputs: 4 }, 'לוגו'],
    ['schnell', 'お寿司の盛り合わせ、3枚にして', { num_outputs: 3 }, 'お寿司'],
    ['haiper', 'vídeo de quatro segundos de um beija-flor', { duration: 4 }, 'vídeo de um beija-flor'],
  ] as [Model, string, Record<string, unknown>, string][])('%s: %s', (model, prompt, expected, kept) => {
    const candidate = models.build(model, prompt);
    expect(placed(candidate)).toMatchObject(expected);
    expect(String(candidate.payload.prompt)).toContain(kept);
    expect(models.blocking(model, prompt, candidate)).toEqual([]);
  });

  it.each([
    ['skaliere das Video auf 2k hoch', '2k'],
    ['תשדרג את הסרטון ל-4k', '4k'],
    ['この動画を4kにアップスケールして', '4k'],
  ])('a resolution after its lead: %s', (prompt, resolution) => {
    const candidate = models.build('esrgan', prompt);
    expect(placed(candidate)).toMatchObject({ resolution });
    expect(models.blocking('esrgan', prompt, candidate)).toEqual([]);
  });

  it.each([
    ['lcm', 'dos hermanos tristes de Sevilla mirando el mar', 'num_images'],
    ['lcm', 'an old man holding two photos of his son, collage style', 'num_images'],
    ['haiper', 'a video of a clock, four seconds before midnight', 'duration'],
    ['haiper', 'a retro TV ad for a 1080p television, 1990s style', 'resolution'],
  ] as [Model, string, string][])('content stays content: %s: %s', (model, prompt, name) => {
    expect(placed(models.build(model, prompt))).not.toHaveProperty(name);
  });
});
