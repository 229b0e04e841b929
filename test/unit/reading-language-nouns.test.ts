/**
 * A language named after the word for what is in it, as Spanish, French, Portuguese and Russian write it (`la
 * langue française`, `voz española`, `legendas em português`, `русские субтитры`): the name's other forms are
 * in each language's `languages` list and the nouns in `languageLeads`/`languageTrails` (words/<language>.json).
 * The field takes codes (its default is one), so the code read is the value.
 */
import { describe, expect, it } from 'vitest';
import { readSettings } from '../../src/reading/index.ts';
import { field } from '../support/reading-builds.ts';

const LANGUAGE = field('language', 'other', 'string', { hasDefault: true, default: 'en' });
const TEXT = field('text', 'prompt', 'string', { required: true, order: 1 });

function languageOf(text: string): unknown {
  return readSettings(text, [TEXT, LANGUAGE]).find((reading) => reading.field === 'language')?.value;
}

describe('a language named after its noun', () => {
  it.each([
    ['es', 'léelo con una voz italiana, despacio', 'it'],
    ['es', 'el audio en lengua portuguesa', 'pt'],
    ['es', 'con subtítulos alemanes para el video', 'de'],
    ['fr', 'un texte pour la langue allemande', 'de'],
    ['fr', 'avec une voix anglaise chaleureuse', 'en'],
    ['fr', 'des sous-titres italiens', 'it'],
    ['pt', 'legendas inglesas, por favor', 'en'],
    ['pt', 'narração em língua espanhola', 'es'],
    ['pt', 'com voz francesa', 'fr'],
    ['pt', 'legendas em italiano', 'it'],
    ['ru', 'немецкая озвучка для ролика', 'de'],
    ['ru', 'итальянские субтитры', 'it'],
    ['ru', 'прочитай английским голосом', 'en'],
  ])('%s: %j → %j', (_language, text, code) => {
    expect(languageOf(text)).toBe(code);
  });

  it.each([
    'una guitarra española en la playa',
    'une cuisine française, lumineuse',
    'uma cerâmica portuguesa azul',
    'немецкая овчарка на лугу',
  ])('a nationality of a thing is no language: %j', (text) => {
    expect(languageOf(text)).toBeUndefined();
  });
});
