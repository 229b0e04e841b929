/**
 * The picture's shape said in plain words: `square` beside what is made, `ultra wide` (21:9), a desktop
 * wallpaper (widescreen), a written ratio led by a word and followed by another request (`en 16:9 y cuatro
 * variantes`, `16:9にして`), and a colon that ends a clause (`make it widescreen: a desert highway`). A ratio or a
 * shape word that is the picture's content stays content. Also: a count after a word
 * for "now" in a later turn (`עכשיו ארבע גרסאות`).
 */
import { describe, expect, it } from 'vitest';
import { scanPromptDirectives } from '../../src/builders/prompt-directives.ts';
import { field, schemaOf } from '../support/reading-builds.ts';

const MODEL = schemaOf([
  field('prompt', 'prompt', 'string', { required: true }),
  field('aspect_ratio', 'aspect_ratio', 'string', { enum: ['21:9', '16:9', '4:3', '1:1', '3:4', '9:16', '9:21'] }),
  field('num_outputs', 'num_outputs', 'integer', { minimum: 1, maximum: 4 }),
]);

function aspectOf(text: string): unknown {
  return scanPromptDirectives(text, MODEL).values.find((value) => value.field === 'aspect_ratio')?.value;
}

describe('the shape said in words', () => {
  it.each([
    ['en', 'a square photo of a wooden clock', '1:1'],
    ['es', 'una foto cuadrada de churros con chocolate', '1:1'],
    ['pt', 'uma foto quadrada de brigadeiros', '1:1'],
    ['he', 'צילום ריבועי של חומוס עם שמן זית', '1:1'],
    ['ar', 'صورة مربعة لصحن حمص', '1:1'],
    ['en', 'an ultra wide cinematic panorama of the Dolomites', '21:9'],
    ['es', 'una panorámica ultra ancha de la Patagonia', '21:9'],
    ['en', 'a desktop wallpaper of northern lights over a frozen lake', '16:9'],
    ['fr', "un fond d'écran pour ordinateur : les calanques au lever du soleil", '16:9'],
    ['de', 'ein Hintergrundbild fürs Handy mit einem Leuchtturm', '9:16'],
    ['en', 'make it widescreen: a desert highway with a lone motel sign', '16:9'],
  ])('%s: %s', (_language, text, ratio) => {
    expect(aspectOf(text)).toBe(ratio);
  });
});

describe('a written ratio led by a word and followed by another request', () => {
  it.each([
    ['ahora en 16:9 y cuatro variantes', '16:9'],
    ['deixa vertical 9:16 e em jpg', '9:16'],
    ['os Lençóis Maranhenses vistos de cima, panorama 21:9, formato jpg', '21:9'],
    ['ночная Москва с высоты, широкоформатно 16:9, в jpg', '16:9'],
    ['16:9にして、jpgでお願いします', '16:9'],
  ])('%s', (text, ratio) => {
    expect(aspectOf(text)).toBe(ratio);
  });
});

describe('shape words and ratios that are content stay content', () => {
  it.each([
    'a photo of the town square at dusk',
    'a portrait photo of my grandmother',
    'a poster of the score 16:9 and a trophy',
    'a 1:1 scale model of a ship and its crew',
    'a panorama of the city skyline, with fog',
    'the meeting is at 10:30: bring the slides',
  ])('%s', (text) => {
    expect(aspectOf(text)).toBeUndefined();
  });
});

describe('a count after a word for "now" in a later turn', () => {
  it.each([
    ['now 4 images', 4],
    ['עכשיו ארבע גרסאות, seed 613', 4],
    ['الآن أربع نسخ، والبذرة 786', 4],
    ['теперь три варианта', 3],
  ])('%s', (text, count) => {
    expect(scanPromptDirectives(text, MODEL).values.find((value) => value.field === 'num_outputs')?.value).toBe(count);
  });

  it('a number of things in the description stays content', () => {
    expect(scanPromptDirectives('now 4 images hang on the wall of a gallery in the painting', MODEL).values.find((value) => value.field === 'num_outputs')).toBeUndefined();
  });
});
