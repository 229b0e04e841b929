/**
 * Settings said in plain words, in nine languages, on real catalog schemas: lengths (`half a minute`, `une
 * minute et demie`, `полминуты`), counts (`a couple of versions`, `three different takes`, `ロゴを2パターン`),
 * each placed with the words it came from and accepted by the validator.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_LOAD_MS, CatalogModels, type CheckedBuild } from '../support/reading-builds.ts';

const models = new CatalogModels({
  music: 'meta/musicgen',
  image: 'black-forest-labs/flux-schnell',
  upscaler: 'nightmareai/real-esrgan',
  ultra: 'black-forest-labs/flux-1.1-pro-ultra',
});
type Model = keyof typeof models.names;
beforeAll(() => models.load(), CATALOG_LOAD_MS);

/** Every request comes with a photo, as one asking to enlarge it would. */
const WITH_PHOTO = { attachments: [{ url: 'https://files.example.com/photo.jpg', mimeType: 'image/jpeg' }] };

function build(model: Model, prompt: string): CheckedBuild {
  return models.checked(model, prompt, WITH_PHOTO);
}

const LENGTHS: [string, string, number, string][] = [
  ['en', 'half a minute of calm acoustic guitar', 30, 'calm acoustic guitar'],
  ['en', 'a one minute orchestral piece for a trailer', 60, 'orchestral piece for a trailer'],
  ['en', 'five seconds of a dog barking', 5, 'a dog barking'],
  ['es', 'medio minuto de guitarra española', 30, 'guitarra española'],
  ['fr', "une minute et demie d'accordéon parisien", 90, 'accordéon parisien'],
  ['de', 'eine halbe Minute Blasmusik für ein Video', 30, 'Blasmusik'],
  ['pt', 'um minuto de bossa nova tranquila', 60, 'bossa nova tranquila'],
  ['he', 'חצי דקה של מוזיקת כליזמר', 30, 'מוזיקת כליזמר'],
  ['ru', 'полминуты спокойной фортепианной музыки', 30, 'спокойной фортепианной музыки'],
  ['ar', 'نصف دقيقة من موسيقى القانون', 30, 'موسيقى القانون'],
  ['ar', 'دقيقتان من موسيقى العود', 120, 'موسيقى العود'],
  ['ja', '1分半のピアノ曲', 90, 'ピアノ曲'],
];

const COUNTS: [string, string, number][] = [
  ['en', 'three different takes on a retro robot toy', 3],
  ['en', 'a comic book hero, four of them', 4],
  ['es', 'un par de versiones de un logo con una llama', 2],
  ['de', 'ein paar Varianten eines Logos mit einem Hirsch', 2],
  ['pt', 'umas duas opções de logo para uma padaria', 2],
  ['ru', 'пара вариантов логотипа с совой', 2],
  ['ja', 'ラーメン屋のロゴを2パターン', 2],
];

describe('lengths said in words', () => {
  it.each(LENGTHS)('%s: %s → %d seconds, the words cut from the description', (_language, text, seconds, rest) => {
    const { candidate, blocking } = build('music', text);
    expect(candidate.payload.duration).toBe(seconds);
    expect(candidate.provenance.duration).toMatchObject({ source: 'user_prompt', conversion: 'duration' });
    expect(String(candidate.payload.prompt)).toContain(rest);
    expect(blocking).toEqual([]);
  });

  it('leaves a length that is the song’s subject alone', () => {
    const { candidate } = build('music', 'a song about the last five seconds of a rocket launch');
    expect(candidate.provenance.duration?.source).toBe('schema_default');
  });
});

describe('counts said in words', () => {
  it.each(COUNTS)('%s: %s → %d outputs', (_language, text, count) => {
    const { candidate, blocking } = build('image', text);
    expect(candidate.payload.num_outputs).toBe(count);
    expect(blocking).toEqual([]);
  });

  it('leaves counted things of the picture alone', () => {
    for (const text of ['a cat next to two old photos', 'two cats, one dog', 'a wall with three framed pictures on it']) {
      expect(build('image', text).candidate.provenance.num_outputs?.source, text).toBe('schema_default');
    }
  });
});

const MULTIPLES: [string, string, number, boolean][] = [
  ['en', 'upscale it 4 times', 4, false],
  ['en', '4x bigger please, and fix the faces', 4, true],
  ['es', 'amplía esta foto al doble y mejora las caras', 2, true],
  ['fr', 'agrandis cette image quatre fois', 4, false],
  ['de', 'vergrößere das Bild zweifach, mit Gesichtsverbesserung', 2, true],
  ['pt', 'aumente esta imagem 3 vezes', 3, false],
  ['he', 'תגדיל את התמונה פי 4 ותשפר פנים', 4, true],
  ['ru', 'увеличь изображение в 2 раза, улучши лица', 2, true],
  ['ar', 'كبّر الصورة 4 مرات مع تحسين الوجوه', 4, true],
  ['ja', '画像を2倍に拡大して、顔も補正して', 2, true],
];

describe('multiples and switches asked for by their meaning', () => {
  it.each(MULTIPLES)('%s: %s → scale %d, faces %s, and the validator re-derives the scale (no example leak)', (_language, text, scale, faces) => {
    const { candidate, blocking } = build('upscaler', text);
    expect(candidate.payload.scale).toBe(scale);
    expect(candidate.provenance.scale).toMatchObject({ source: 'user_prompt' });
    if (faces) expect(candidate.payload.face_enhance).toBe(true);
    expect(blocking).toEqual([]);
  });

  it('reads a multiple as a scale only beside a word asking for a bigger picture, unless it stands alone', () => {
    expect(build('upscaler', 'this is a photo of my 4 kids, make it sharper').candidate.provenance.scale?.source).toBe('schema_default');
    expect(build('upscaler', 'a photo of my twins, twice as sharp as before').candidate.provenance.scale?.source).toBe('schema_default');
  });

  it('reads a switch named with a generic word before its state (`raw mode on`)', () => {
    const { candidate, blocking } = build('ultra', 'aerial view of terraced rice fields, raw mode on');
    expect(candidate.payload.raw).toBe(true);
    expect(blocking).toEqual([]);
    expect(build('ultra', 'a raw steak on a cutting board').candidate.provenance.raw?.source).toBe('schema_default');
  });
});
