/**
 * A free-string input named with its value after a space, no `:` or `=` (`language en`, `token string MYSTYLE`,
 * `bars color #ff8800`), on real catalog schemas: placed when the name opens its clause and the value is quoted
 * or one token ending the clause, in every reading language whose word lists name the input; the picture's
 * words otherwise (`a child with language skills`, `the language of flowers`, a quoted sign).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleOf, CATALOG_LOAD_MS, CatalogModels, placed } from '../support/reading-builds.ts';

const models = new CatalogModels({
  diarization: 'thomasmol/whisper-diarization',
  lora: 'zylim0702/sdxl-lora-customize-training',
  waveform: 'fofr/audio-to-waveform',
});
type Model = keyof typeof models.names;

beforeAll(() => models.load(), CATALOG_LOAD_MS);

describe('a free-string input named with its value after a space', () => {
  it.each([
    ['diarization', '3 speakers, output format both, language en', { language: 'en', num_speakers: 3 }],
    ['diarization', 'language de.', { language: 'de' }],
    ['diarization', '3 hablantes, idioma es', { language: 'es' }],
    ['diarization', 'trois locuteurs, langue fr.', { language: 'fr' }],
    ['diarization', 'drei Sprecher, Sprache de', { language: 'de' }],
    ['diarization', '3 говорящих, язык ru', { language: 'ru' }],
    ['diarization', 'שלושה דוברים, שפה he', { language: 'he' }],
    ['lora', 'train with lora rank 16, token string MYSTYLE', { token_string: 'MYSTYLE', lora_rank: 16 }],
    ['waveform', 'a waveform video, bars color #ff8800', { bars_color: '#ff8800' }],
    ['waveform', "bars color '#ff8800', caption text 'Episode 12: Deep Sea'", { bars_color: '#ff8800', caption_text: 'Episode 12: Deep Sea' }],
  ] as [Model, string, Record<string, unknown>][])('%s: %s', (model, text, expected) => {
    const candidate = models.build(model, text);
    expect(placed(candidate)).toMatchObject(expected);
    // The value is the user's own token, so the validator traces it to the request and raises nothing about it.
    const issues = models.issues(model, candidate, bundleOf(text));
    expect(issues.filter((issue) => Object.keys(expected).some((field) => issue.path === `/${field}`))).toEqual([]);
    // What was read as a setting leaves the text sent as the model's prompt.
    for (const value of Object.values(expected)) {
      if (typeof value === 'string') expect(String(candidate.payload.prompt ?? '')).not.toContain(value);
    }
  });
});

describe('the same words as the picture stay content', () => {
  it.each([
    ['diarization', 'a child with language skills, 2 speakers', 'language'],
    ['diarization', 'the language of flowers, 2 speakers', 'language'],
    ['diarization', "a poster that says 'language en'", 'language'],
    ['lora', 'a token string MYSTYLE printed on a mug, lora rank 8', 'token_string'],
    ['waveform', 'neon bars color the whole frame, 40 bars', 'bars_color'],
  ] as [Model, string, string][])('%s: %s', (model, text, field) => {
    expect(placed(models.build(model, text))).not.toHaveProperty(field);
  });
});
