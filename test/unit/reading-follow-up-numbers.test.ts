/**
 * Numbers in conversations and in words, on real catalog schemas: compound number words of every reading language
 * (`forty-two`, `cuarenta y dos`, `zweiundvierzig`, `四十二`); a later turn that corrects a number without naming
 * its setting (`actually three`, `mejor dos`), placed where the conversation makes the setting plain and reported
 * where it does not; and a later turn's number for a setting set before (`go 4x`), read wherever it stands. The
 * validator accepts each value from the user's words; the same words as content set nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConversationTurn, RequestBundle } from '../../src/generated/contracts.ts';
import { parseWrittenNumber } from '../../src/reading/numbers.ts';
import { collectBundleEvidence, evidenceMentionsNumber } from '../../src/stages/bundle-evidence.ts';
import { bundleOf, CATALOG_LOAD_MS, CatalogModels, placed, unplacedPhrases } from '../support/reading-builds.ts';

const models = new CatalogModels({
  flux: 'black-forest-labs/flux-schnell',
  sd: 'stability-ai/stable-diffusion',
  sdxl: 'stability-ai/sdxl',
  musicgen: 'meta/musicgen',
  looper: 'andreasjansson/musicgen-looper',
  hunyuan: 'tencent/hunyuan-video',
  clarity: 'philz1337x/clarity-upscaler',
});
type Model = keyof typeof models.names;

beforeAll(() => models.load(), CATALOG_LOAD_MS);

const user = (content: string): ConversationTurn => ({ role: 'user', content });
const assistant = (content: string): ConversationTurn => ({ role: 'assistant', content });
const conversationOf = (...conversation: ConversationTurn[]): RequestBundle => bundleOf('', { conversation });

/** Built from the conversation and validated against it. */
function checked(model: Model, bundle: RequestBundle) {
  const candidate = models.build(model, bundle.prompt, bundle);
  return { candidate, blocking: models.blocking(model, bundle.prompt, candidate, bundle) };
}

describe('compound number words', () => {
  it.each([
    ['forty-two', 42],
    ['twenty five', 25],
    ['seventeen', 17],
    ['cuarenta y dos', 42],
    ['veinticinco', 25],
    ['quarante-deux', 42],
    ['vingt et un', 21],
    ['soixante-dix-neuf', 79],
    ['quatre-vingt-dix', 90],
    ['zweiundvierzig', 42],
    ['einundzwanzig', 21],
    ['quarenta e dois', 42],
    ['сорок два', 42],
    ['двадцать одна', 21],
    ['ארבעים ושתיים', 42],
    ['עשרים וחמש', 25],
    ['اثنان وأربعون', 42],
    ['خمسة وعشرون', 25],
    ['四十二', 42],
    ['百二十', 120],
  ])('%s is %d', (written, value) => {
    expect(parseWrittenNumber(written)).toBe(value);
  });

  it('are no number when the parts do not make one', () => {
    expect(parseWrittenNumber('forty-forty')).toBeUndefined();
    expect(parseWrittenNumber('十百')).toBeUndefined();
  });

  it('count as numbers the user wrote, for the validator', () => {
    const evidence = collectBundleEvidence(bundleOf('a koi pond, seed forty-two, zweiundvierzig, 四十二'));
    expect(evidenceMentionsNumber(evidence, 42)).toBe(true);
  });

  it.each([
    ['flux', 'a koi pond in autumn, seed forty-two', { seed: 42 }],
    ['flux', 'un estanque de koi, semilla cuarenta y dos', { seed: 42 }],
    ['flux', 'ein Koiteich im Herbst, Seed zweiundvierzig', { seed: 42 }],
    ['musicgen', 'a calm piano piece, twenty five seconds', { duration: 25 }],
    ['musicgen', 'une mélodie au piano, vingt et une secondes', { duration: 21 }],
    ['musicgen', 'спокойная мелодия на пианино, двадцать пять секунд', { duration: 25 }],
    ['musicgen', '静かなピアノ曲、二十五秒', { duration: 25 }],
  ] as [Model, string, Record<string, unknown>][])('%s: %s', (model, prompt, expected) => {
    const { candidate, blocking } = checked(model, bundleOf(prompt));
    expect(placed(candidate)).toMatchObject(expected);
    expect(blocking).toEqual([]);
  });

  it('set nothing when they are what is made', () => {
    const steps = models.build('sd', 'the forty-two steps of the temple at dawn');
    expect(placed(steps)).not.toHaveProperty('num_inference_steps');
    expect(steps.payload.prompt).toBe('the forty-two steps of the temple at dawn');
    const film = models.build('flux', "a poster for Ocean's Eleven, twenty-one stars on the marquee");
    expect(placed(film)).not.toHaveProperty('num_outputs');
    expect(film.payload.prompt).toBe("a poster for Ocean's Eleven, twenty-one stars on the marquee");
  });
});

describe('a later turn that corrects a number without naming its setting', () => {
  it.each([
    ['a koi pond in autumn', '2 images', 'actually three'],
    ['un estanque de koi', '2 imágenes', 'mejor tres'],
    ['un étang de carpes koï', '2 images', 'en fait trois'],
    ['ein Koiteich', '2 Bilder', 'doch lieber drei'],
    ['um lago de carpas', '2 imagens', 'na verdade três'],
    ['пруд с карпами', '2 изображения', 'лучше три'],
    ['お寿司の盛り合わせ', '2枚', 'やっぱり三つ'],
  ])('%s, %s → %s sets the count the earlier turn set', (subject, count, later) => {
    const separator = /\p{Script=Han}|\p{Script=Hiragana}/u.test(subject) ? '、' : ', ';
    const { candidate, blocking } = checked('flux', conversationOf(user(`${subject}${separator}${count}`), assistant('Done.'), user(later)));
    expect(placed(candidate)).toMatchObject({ num_outputs: 3, prompt: subject });
    expect(unplacedPhrases(candidate)).toEqual([]);
    expect(blocking).toEqual([]);
  });

  it('reads a number word beside a named setting in the same turn', () => {
    const { candidate, blocking } = checked('flux', conversationOf(user('a koi pond in autumn, 2 images'), assistant('Done.'), user('actually three, and seed forty-two')));
    expect(placed(candidate)).toMatchObject({ num_outputs: 3, seed: 42 });
    expect(blocking).toEqual([]);
  });

  it('takes "only one" and "just 3" as the count the conversation spoke of, and another number as the one setting set before', () => {
    const castle = models.build('sdxl', '', { conversation: [user('a medieval castle on a hill, 2 images'), assistant('Here are two castles.'), user('nice, now seed 777 and only one')] });
    expect(placed(castle)).toMatchObject({ num_outputs: 1, seed: 777, prompt: 'a medieval castle on a hill' });
    const loop = checked('looper', conversationOf(user('a techno loop at 128 bpm'), assistant('Generated 8 variations at 128 bpm.'), user('slower, 110, and just 3')));
    expect(placed(loop.candidate)).toMatchObject({ bpm: 110, variations: 3, prompt: 'a techno loop' });
    expect(loop.blocking).toEqual([]);
  });

  it('reports a number when two earlier number settings could take it', () => {
    const candidate = models.build('flux', '', { conversation: [user('a koi pond, 2 images, seed 5'), assistant('Done.'), user('actually 3')] });
    expect(placed(candidate)).toMatchObject({ num_outputs: 2, seed: 5 });
    expect(unplacedPhrases(candidate)).toContain('3');
  });

  it('takes no setting from the assistant: a number nobody set before is reported', () => {
    const candidate = models.build('flux', '', { conversation: [user('a koi pond'), assistant('Here are 2 images.'), user('actually three')] });
    expect(placed(candidate)).not.toHaveProperty('num_outputs');
    expect(unplacedPhrases(candidate)).toContain('three');
  });

  it('reads no article as a number (`una vez más`), and reports a number that does not fit', () => {
    const again = models.build('flux', '', { conversation: [user('un estanque de koi, 2 imágenes'), assistant('Listo.'), user('otra vez, una vez más')] });
    expect(placed(again)).toMatchObject({ num_outputs: 2 });
    expect(unplacedPhrases(again)).toEqual([]);
    const tooMany = models.build('flux', '', { conversation: [user('a koi pond, 2 images'), assistant('Done.'), user('actually 40')] });
    expect(placed(tooMany)).toMatchObject({ num_outputs: 2 });
    expect(unplacedPhrases(tooMany)).toContain('40');
  });
});

describe("a later turn's number for a setting set before", () => {
  it('is read wherever it stands, and replaces the earlier value', () => {
    const candidate = models.build('hunyuan', '', { conversation: [user('a timelapse of clouds over a mountain, 30 fps'), assistant('Rendering.'), user('now 24 fps instead, and keep the clouds slow')] });
    expect(placed(candidate)).toMatchObject({ fps: 24 });
  });

  it('needs no clause of its own once an earlier turn set the field (`go 4x`), and not before', () => {
    const later = models.build('clarity', '', { conversation: [user('upscale my photo 2x'), assistant('Done. Want more detail?'), user('yes, go 4x and creativity 0.5')] });
    expect(placed(later)).toMatchObject({ scale_factor: 4, creativity: 0.5 });
    const first = models.build('clarity', '', { conversation: [user('more detail on my photo'), assistant('Done.'), user('yes, go 4x and creativity 0.5')] });
    expect(placed(first)).not.toHaveProperty('scale_factor');
  });

  it('stays content when the earlier turns never set it', () => {
    const candidate = models.build('sd', '', { conversation: [user('a temple at dawn'), assistant('Done.'), user('now with 100 steps leading up to the gate')] });
    expect(placed(candidate)).not.toHaveProperty('num_inference_steps');
  });
});
