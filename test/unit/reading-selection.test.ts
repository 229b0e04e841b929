/**
 * An option picked out of a set (`only the vocals`, `sepárame solo la batería`, `ボーカルだけ`) is chosen, wherever it
 * stands in its clause: the selecting word makes the phrase firm, in every reading language. Without one, the
 * same word stays what it was (bare, counted only alone in its clause), and a common word still needs its field.
 */
import { describe, expect, it } from 'vitest';
import type { FieldSpec } from '../../src/generated/contracts.ts';
import { deriveValue, readSettings } from '../../src/reading/index.ts';

const STEM: FieldSpec = { name: 'stem', type: 'string', enum: ['none', 'drums', 'bass', 'other', 'vocals', 'guitar', 'piano'], role: 'other' } as FieldSpec;
const QUALITY: FieldSpec = { name: 'quality', type: 'string', enum: ['low', 'medium', 'high'], role: 'other' } as FieldSpec;

function firmReading(text: string, field: FieldSpec = STEM) {
  return readSettings(text, [field]).find((reading) => reading.conversion === 'enum_synonym' && reading.firm);
}

describe('an option picked out of a set is chosen', () => {
  it.each([
    ['en', 'keep only the vocals from this song', 'vocals'],
    ['en', 'just pull the vocals out of this track, as a wav', 'vocals'],
    ['en', 'separate the drums, output flac', 'drums'],
    ['en', 'I want the piano only, please', 'piano'],
    ['es', 'sepárame solo la batería, en mp3', 'drums'],
    ['fr', 'garde seulement la batterie de ce morceau', 'drums'],
    ['fr', 'isole la voix de cette chanson', 'vocals'],
    ['de', 'trenne nur den Bass heraus, als mp3', 'bass'],
    ['pt', 'separe só o piano, em wav', 'piano'],
    ['he', 'תפריד רק את התופים, בפורמט wav', 'drums'],
    ['ru', 'выдели только вокал, формат mp3', 'vocals'],
    ['ar', 'افصل الغيتار فقط، بصيغة wav', 'guitar'],
    ['ja', 'ボーカルだけ抜き出して、mp3で', 'vocals'],
  ])('%s: %s', (_language, text, value) => {
    const reading = firmReading(text);
    expect(reading?.value).toBe(value);
    // The validator re-derives the value from the cited words alone.
    expect(deriveValue('enum_synonym', reading?.phrase ?? '', STEM)?.value).toBe(value);
  });
});

describe('without a selecting word nothing is firm', () => {
  it.each([
    'this song has a great bass and piano intro',
    'I love the drums in this song',
    'мне нравится вокал в этой песне',
  ])('%s', (text) => {
    expect(firmReading(text)).toBeUndefined();
  });

  it('a common option word picked out still needs its field named', () => {
    expect(firmReading('only high notes, a soft melody', QUALITY)).toBeUndefined();
    expect(firmReading('quality: high', QUALITY)?.value).toBe('high');
  });
});
