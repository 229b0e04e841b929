/**
 * A multiple (`make it twice as big`, `4x`) and a feature asked for by name (`fix the faces`, `make it loop`) that
 * no input of the model takes are reported as unplaced, never dropped in silence; the same words as content (`a
 * double rainbow`, `jumped twice`) are not, and a model with the input places them.
 */
import { describe, expect, it } from 'vitest';
import { buildOn, field, schemaOf, unplacedPhrases } from '../support/reading-builds.ts';

const PLAIN = schemaOf([field('prompt', 'prompt', 'string', { required: true }), field('seed', 'seed', 'integer')]);
const SCALED = schemaOf([field('prompt', 'prompt', 'string', { required: true }), field('scale', 'other', 'number', { minimum: 1, maximum: 8 })]);
const FACES = schemaOf([field('prompt', 'prompt', 'string', { required: true }), field('face_enhance', 'other', 'boolean')]);

describe('an unplaced multiple is reported', () => {
  it.each([
    ['a red fox in the snow, make it twice as big', 'twice as big'],
    ['a castle on a hill, upscale it 4x', '4x'],
    ['a cat on a sofa, 4x', '4x'],
    ['un gato en un sofá, amplíalo al doble', 'al doble'],
  ])('%s', (text, phrase) => {
    expect(unplacedPhrases(buildOn(PLAIN, text))).toContain(phrase);
  });

  it.each(['a double rainbow over the lake', 'a man who jumped twice over the fence', 'a 2x2 grid of tiles'])('%s: content, not reported', (text) => {
    expect(unplacedPhrases(buildOn(PLAIN, text))).toEqual([]);
  });

  it('a model with a scale input places it', () => {
    const candidate = buildOn(SCALED, 'a red fox in the snow, make it twice as big');
    expect(candidate.payload.scale).toBe(2);
    expect(unplacedPhrases(candidate)).toEqual([]);
  });
});

describe('a feature asked for by name that the model lacks is reported', () => {
  it.each([
    ['a portrait of my grandmother, fix the faces', 'fix the faces'],
    ['waves rolling onto a beach, make it loop', 'make it loop'],
    ['un retrato de mi abuela, mejora las caras', 'mejora las caras'],
  ])('%s', (text, phrase) => {
    expect(unplacedPhrases(buildOn(PLAIN, text))).toContain(phrase);
  });

  it('a model with the switch sets it', () => {
    const candidate = buildOn(FACES, 'a portrait of my grandmother, fix the faces');
    expect(candidate.payload.face_enhance).toBe(true);
    expect(unplacedPhrases(candidate)).toEqual([]);
  });
});
