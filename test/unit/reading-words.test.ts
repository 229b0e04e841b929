/** The reading word lists, language by language: each file holds to its JSON schema and loads. */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { READING_LANGUAGES, readingWords, wordFileProblem } from '../../src/reading/index.ts';
import { fromPackageRoot } from '../../src/util/package-root.ts';

const schema = JSON.parse(readFileSync(fromPackageRoot('src', 'reading', 'reading-words.schema.json'), 'utf8')) as object;
const validate = new Ajv({ allErrors: true }).compile(schema);

describe.each(READING_LANGUAGES)('%s', (language) => {
  const raw = JSON.parse(readFileSync(fromPackageRoot('src', 'reading', 'words', `${language}.json`), 'utf8')) as Record<string, unknown>;

  it('holds to the word-file schema', () => {
    expect(validate(raw), JSON.stringify(validate.errors)).toBe(true);
    expect(wordFileProblem(raw)).toBeUndefined();
  });

  it('has the words a request needs: seconds, numbers, an aspect word, a negation, every common language', () => {
    const words = readingWords().byLanguage[language];
    for (const list of [words.seconds, words.minutes, words.portrait, words.square, words.negation]) expect(list.length).toBeGreaterThan(0);
    expect(Object.keys(words.numbers).length).toBeGreaterThan(8);
    for (const code of ['en', 'es', 'fr', 'de', 'pt', 'he', 'ru', 'ar', 'ja']) expect(words.languages[code]?.length ?? 0, code).toBeGreaterThan(0);
  });
});

describe('wordFileProblem', () => {
  it('names the list that is wrong', () => {
    const raw = JSON.parse(readFileSync(fromPackageRoot('src', 'reading', 'words', 'en.json'), 'utf8')) as Record<string, unknown>;
    expect(wordFileProblem({ ...raw, seconds: 'seconds' })).toMatch(/"seconds" must be a list of words/);
    expect(wordFileProblem({ ...raw, numbers: { six: 'six' } })).toMatch(/"numbers"/);
    expect(wordFileProblem({ ...raw, colours: [] })).toMatch(/unknown list "colours"/);
    expect(validate({ ...raw, seconds: [' padded '] })).toBe(false);
  });
});
