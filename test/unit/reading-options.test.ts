/**
 * Options named in the user's language (src/reading/option-words.ts, words/options-<language>.json): read next
 * to the field's name, before what is made, or alone in a clause; placed with the conversion the validator
 * re-runs; and kept as content where they are the picture's words.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FieldSpec } from '../../src/generated/contracts.ts';
import { deriveValue, READING_LANGUAGES, readSettings } from '../../src/reading/index.ts';
import { conceptOption, optionFileProblem } from '../../src/reading/option-words.ts';
import { fromPackageRoot } from '../../src/util/package-root.ts';
import { bundleOf, CATALOG_LOAD_MS, CatalogModels } from '../support/reading-builds.ts';

const models = new CatalogModels({ poster: 'ideogram-ai/ideogram-v2', icon: 'recraft-ai/recraft-v3', anime: 'cjwbw/animagine-xl-3.1' });
type Model = keyof typeof models.names;

beforeAll(() => models.load(), CATALOG_LOAD_MS);

function read(model: Model, text: string): Record<string, unknown> {
  const fields = models.fields(model);
  return Object.fromEntries(readSettings(text, fields).filter((reading) => reading.conversion === 'enum_synonym').map((reading) => [reading.field, reading.value]));
}

/** [language, request] for an anime poster without the magic prompt. */
const ANIME_NO_MAGIC: [string, string][] = [
  ['en', 'a festival poster, anime style, magic prompt off'],
  ['es', 'un cartel de festival, estilo anime, sin magic prompt'],
  ['fr', 'une affiche de festival, style anime, magic prompt désactivé'],
  ['de', 'ein Festivalplakat, Stil Anime, Magic Prompt aus'],
  ['pt', 'um cartaz de festival, estilo anime, sem magic prompt'],
  ['he', 'פוסטר לפסטיבל, בסגנון אנימה, ובלי magic prompt'],
  ['ru', 'афиша фестиваля, стиль аниме, магический промпт выключить'],
  ['ar', 'ملصق لمهرجان، بأسلوب الأنمي، وبدون magic prompt'],
  ['ja', '祭りのポスター、スタイルはアニメ、マジックプロンプトはオフ'],
];

/** [language, request] for a realistic photo: the option word before or after what is made. */
const REALISTIC_PHOTO: [string, string][] = [
  ['en', 'a realistic photo of a bicycle'],
  ['es', 'una foto realista de una bicicleta'],
  ['fr', 'une photo réaliste d’un vélo'],
  ['de', 'ein realistisches Foto eines Fahrrads'],
  ['pt', 'uma foto realista de uma bicicleta'],
  ['ru', 'реалистичное фото велосипеда'],
];

describe('option words in nine languages', () => {
  it.each(ANIME_NO_MAGIC)('%s: reads the style next to its name and the switch option from a negation (%s)', (_language, text) => {
    expect(read('poster', text)).toEqual({ style_type: 'Anime', magic_prompt_option: 'Off' });
  });

  it.each(REALISTIC_PHOTO)('%s: reads an option describing what is made (%s)', (_language, text) => {
    expect(read('icon', text)).toEqual({ style: 'realistic_image' });
  });

  it('reads stems with their endings and Hebrew and Arabic words with their prefixes', () => {
    expect(read('poster', 'постер, реалистичная стилистика, стиль реалистичный')).toEqual({ style_type: 'Realistic' });
    expect(read('icon', 'אייקון של רימון בסגנון פיקסל ארט')).toEqual({ style: 'digital_illustration/pixel_art' });
    expect(read('anime', 'محارب في الصحراء، النمط السينمائي')).toEqual({ style_selector: 'Cinematic' });
  });

  it('gives the validator the phrase with its prefixes, and the conversion gives the same option again', () => {
    const fields = models.fields('icon');
    const [reading] = readSettings('أيقونة فانوس بأسلوب البكسل آرت', fields).filter((found) => found.conversion === 'enum_synonym');
    expect(reading).toMatchObject({ phrase: 'بأسلوب البكسل آرت', value: 'digital_illustration/pixel_art', firm: true });
    const style = fields.find((field) => field.name === 'style') as FieldSpec;
    expect(deriveValue('enum_synonym', reading?.phrase ?? '', style)?.value).toBe('digital_illustration/pixel_art');
  });

  it('places the option with its conversion, cuts its words from the prompt, and the validator accepts it', () => {
    for (const text of ['un logo de café, estilo realista', 'לוגו לבית קפה, סגנון ריאליסטי', 'شعار لمقهى، نمط واقعي', 'логотип кафе, стиль реалистичный']) {
      const bundle = bundleOf(text);
      const candidate = models.build('poster', text);
      expect(candidate.payload.style_type, text).toBe('Realistic');
      expect(candidate.provenance.style_type, text).toMatchObject({ source: 'user_prompt', conversion: 'enum_synonym' });
      expect(String(candidate.payload.prompt), text).not.toMatch(/realista|ריאליסטי|واقعي|реалистичный/);
      const issues = models.issues('poster', candidate, bundle);
      expect(issues.filter((issue) => issue.severity === 'blocking'), text).toEqual([]);
    }
  });

  it('keeps option words that are the picture’s own as content: inside a description, never alone', () => {
    for (const text of ['a comic about a designer who hates anime', 'плакат для курса дизайна интерьеров', 'ملصق لدورة تصميم الجرافيك', 'כרזה לסדנת עיצוב פנים']) {
      const candidate = models.build('poster', text);
      expect(candidate.provenance.style_type?.source ?? 'unset', text).not.toBe('user_prompt');
    }
  });

  it('reads a bare option alone in its clause, but not a word as common as on or auto', () => {
    expect(read('icon', 'a cat icon, pixel art')).toEqual({ style: 'digital_illustration/pixel_art' });
    expect(read('poster', 'a poster, auto')).toEqual({});
  });
});

describe('which option a concept names', () => {
  const field = (options: string[]): FieldSpec => ({ name: 'style', type: 'string', enum: options, role: 'other', required: false, order: 0 }) as FieldSpec;

  it('takes the option holding the concept with the fewest other words, and none on a tie', () => {
    expect(conceptOption(field(['realistic_image', 'realistic_image/hdr', 'digital_illustration']), 'realistic')).toBe('realistic_image');
    expect(conceptOption(field(['digital_illustration/pixel_art', 'vector']), 'pixel art')).toBe('digital_illustration/pixel_art');
    expect(conceptOption(field(['watercolor a', 'watercolor b']), 'watercolor')).toBeUndefined();
    expect(conceptOption(field(['Anime', 'Manga']), 'realistic')).toBeUndefined();
  });

  it.each(READING_LANGUAGES)('options-%s.json maps lower-case concepts to lists of words', (language) => {
    const raw = JSON.parse(readFileSync(fromPackageRoot('src', 'reading', 'words', `options-${language}.json`), 'utf8')) as unknown;
    expect(optionFileProblem(raw)).toBeUndefined();
  });

  it('names what is wrong in an option file', () => {
    expect(optionFileProblem({ Realistic: ['x'] })).toMatch(/lower-case/);
    expect(optionFileProblem({ realistic: 'x' })).toMatch(/list of words/);
    expect(optionFileProblem({ realistic: ['re*al'] })).toMatch(/ends a word/);
  });
});
