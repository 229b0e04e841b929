/**
 * Settings read the way a person writes them, in nine languages, on real catalog schemas: what the reading core
 * finds (src/reading), what the heuristic builder places and cuts, what it reports as unplaced, and that the
 * validator accepts every converted value it cites.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CandidatePayload } from '../../src/generated/contracts.ts';
import { readSettings } from '../../src/reading/index.ts';
import { CATALOG_LOAD_MS, CatalogModels } from '../support/reading-builds.ts';

/** Each model's own example is quarantined as in production: a value read from the user must not be flagged as a leak. */
const models = new CatalogModels({
  video: 'haiper-ai/haiper-video-2',
  speech: 'bzikst/xtts-v2-fork',
  poster: 'ideogram-ai/ideogram-v2',
  merge: 'lucataco/video-merge',
  image: 'black-forest-labs/flux-schnell',
  sdxl: 'naishagarwal/vaporwave-model',
});
type Model = keyof typeof models.names;
beforeAll(() => models.load(), CATALOG_LOAD_MS);

/** Field → value, for readings that count where they stand or stand in a clause of their own. */
function read(model: Model, text: string): Record<string, unknown> {
  return Object.fromEntries(readSettings(text, models.fields(model)).map((reading) => [reading.field, reading.value]));
}

/** [language, request] for a video of six seconds in portrait. */
const SIX_SECONDS_VERTICAL: [string, string][] = [
  ['en', 'a fox running through snow, six seconds, vertical'],
  ['es', 'un zorro corriendo por la nieve, seis segundos, formato vertical'],
  ['fr', 'un renard qui court dans la neige, six secondes, format portrait'],
  ['de', 'ein Fuchs rennt durch den Schnee, sechs Sekunden, Hochformat'],
  ['pt', 'uma raposa correndo na neve, seis segundos, vertical'],
  ['he', 'שועל רץ בשלג, שש שניות, אנכי'],
  ['ru', 'лиса бежит по снегу, шесть секунд, вертикальное видео'],
  ['ar', 'ثعلب يركض في الثلج، ست ثوان، عمودي'],
  ['ja', '雪の中を走るキツネ、6秒、縦長の動画'],
];

/** [language, request] asking for speech in Spanish. */
const IN_SPANISH: [string, string][] = [
  ['en', 'say good morning in Spanish'],
  ['es', 'di buenos días en español'],
  ['fr', 'dis bonjour en espagnol'],
  ['de', 'sag guten Morgen auf Spanisch'],
  ['pt', 'diga bom dia em espanhol'],
  ['he', 'תגיד בוקר טוב בספרדית'],
  ['ru', 'скажи доброе утро на испанском'],
  ['ar', 'قل صباح الخير بالإسبانية'],
  ['ja', 'スペイン語でおはようと言って'],
];

/** [language, request] asking for a merge without sound. */
const WITHOUT_AUDIO: [string, string][] = [
  ['en', 'merge the clips, no audio'],
  ['es', 'une los clips, sin audio'],
  ['fr', 'fusionne les clips, sans son'],
  ['de', 'füge die Clips zusammen, ohne Ton'],
  ['pt', 'junte os clipes, sem áudio'],
  ['he', 'תחבר את הקטעים, בלי סאונד'],
  ['ru', 'склей клипы без звука'],
  ['ar', 'ادمج المقاطع بدون صوت'],
  ['ja', 'クリップを結合して、音声なしで'],
];

describe('the reading core, language by language', () => {
  it.each(SIX_SECONDS_VERTICAL)('%s: reads a duration in words and a portrait word (%s)', (_language, text) => {
    expect(read('video', text)).toMatchObject({ duration: 6, aspect_ratio: '9:16' });
  });

  it.each(IN_SPANISH)('%s: reads the output language as its code (%s)', (_language, text) => {
    expect(read('speech', text)).toEqual({ language: 'es' });
  });

  it.each(WITHOUT_AUDIO)('%s: reads a negated feature as the switch off (%s)', (_language, text) => {
    expect(read('merge', text)).toEqual({ keep_audio: false });
  });
});

describe('conversions', () => {
  it('reads minutes as seconds and picks the option equal by value', () => {
    expect(read('video', 'a wave, 0.1 minutes')).toMatchObject({ duration: 6 });
    expect(readSettings('a wave, 1 minute', models.fields('video')).find((reading) => reading.field === 'duration')).toMatchObject({ value: 60, fit: 'not_an_option' });
  });

  it('reads resolution words into a resolution option, or into width and height', () => {
    expect(read('video', 'a wave in 1080p')).toMatchObject({ resolution: 1080 });
    expect(read('sdxl', 'a cat, 4K')).toMatchObject({ width: 3840, height: 2160 });
  });

  it('reads aspect words to the ratio they stand for, or the closest option of the same shape', () => {
    expect(read('image', 'a cat, widescreen')).toMatchObject({ aspect_ratio: '16:9' });
    expect(read('image', 'a cat, square')).toMatchObject({ aspect_ratio: '1:1' });
    expect(read('image', 'a cat, landscape orientation')).toMatchObject({ aspect_ratio: '16:9' });
  });

  it('reads counts written as words and bare or dotted formats', () => {
    expect(read('image', 'a cat, cuatro imágenes, .png')).toMatchObject({ num_outputs: 4, output_format: 'png' });
    expect(read('image', 'a cat, vier Bilder, als JPEG')).toMatchObject({ num_outputs: 4, output_format: 'jpg' });
  });

  it('reads an option named by its field, the field named without its generic last word', () => {
    expect(read('poster', 'a poster, style: design, magic prompt off')).toEqual({ style_type: 'Design', magic_prompt_option: 'Off' });
  });
});

describe('the heuristic builder with the reading core', () => {
  it.each(SIX_SECONDS_VERTICAL)('%s: places the duration and the ratio, each citing the words and the conversion, and the validator accepts them', (_language, text) => {
    const { candidate, blocking } = models.checked('video', text);
    expect(candidate.payload).toMatchObject({ duration: 6, aspect_ratio: '9:16' });
    expect(candidate.provenance.duration).toMatchObject({ source: 'user_prompt', conversion: 'duration' });
    expect(candidate.provenance.aspect_ratio).toMatchObject({ source: 'user_prompt' });
    expect(blocking).toEqual([]);
  });

  it.each(IN_SPANISH)('%s: places the language code and cuts the phrase from the text', (_language, text) => {
    const { candidate, blocking } = models.checked('speech', text);
    expect(candidate.payload.language).toBe('es');
    expect(candidate.provenance.language).toMatchObject({ source: 'user_prompt', conversion: 'language_name' });
    expect(blocking).toEqual([]);
  });

  it('keeps an aspect word in the prompt, where it still describes the picture', () => {
    const { candidate } = models.checked('image', 'a vertical video still of a lighthouse');
    expect(candidate.payload).toMatchObject({ aspect_ratio: '9:16', prompt: 'a vertical video still of a lighthouse' });
  });

  it('reports a setting phrase no input takes, instead of dropping it', () => {
    const { candidate } = models.checked('image', 'a lighthouse at dusk, sin audio, in 4K');
    expect(candidate.unusedRequest?.map((unused) => unused.phrase)).toEqual(['sin audio', '4K']);
    expect(candidate.payload).not.toHaveProperty('width');
  });

  it('leaves content words alone: traps stay in the prompt and set nothing', () => {
    for (const text of ['a portrait of a woman in a red coat', 'two dogs playing in a square', 'a street sign in a quiet town', 'three cats on a mat']) {
      const { candidate } = models.checked('image', text);
      expect(candidate.payload, text).toEqual({ prompt: text, ...defaultsOf(candidate) });
      expect(candidate.unusedRequest ?? [], text).toEqual([]);
    }
  });
});

/** The payload's schema-default fields, which every build carries. */
function defaultsOf(candidate: CandidatePayload): Record<string, unknown> {
  return Object.fromEntries(Object.entries(candidate.payload).filter(([field]) => candidate.provenance[field]?.source === 'schema_default'));
}
