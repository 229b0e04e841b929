/**
 * Numbers in conversations and in words, on real catalog schemas: compound number words of every reading language
 * (`forty-two`, `cuarenta y dos`, `zweiundvierzig`, `四十二`); a later turn that corrects a number without naming
 * its setting (`actually three`, `mejor dos`), placed where the conversation makes the setting plain and reported
 * where it does not; and a later turn's number for a setting set before (`go 4x`), read wherever it stands. The
 * validator accepts each value from the user's words; the same words as content set nothing.
 */
import { describe, expect, it } from 'vitest';
import { buildHeuristicPayload } from '../../src/builders/heuristic-builder.ts';
import type { CandidatePayload, ConversationTurn, ModelSchema, RequestBundle } from '../../src/generated/contracts.ts';
import { parseWrittenNumber } from '../../src/reading/numbers.ts';
import { collectBundleEvidence, evidenceMentionsNumber } from '../../src/stages/bundle-evidence.ts';
import { ExampleQuarantine } from '../../src/stages/example-quarantine.ts';
import { validatePayload } from '../../src/stages/validator/index.ts';
import { catalogEntry, catalogSchema } from '../support/catalog-schema.ts';

const user = (content: string): ConversationTurn => ({ role: 'user', content });
const assistant = (content: string): ConversationTurn => ({ role: 'assistant', content });

function bundleOf(conversation: ConversationTurn[], prompt = ''): RequestBundle {
  return { prompt, conversation, attachments: [], userProfile: {}, humanEdits: {}, safetyFlags: [] };
}

const schemas = new Map<string, ModelSchema>();
function schemaOf(name: string): ModelSchema {
  let schema = schemas.get(name);
  if (!schema) {
    schema = catalogSchema(name);
    schemas.set(name, schema);
  }
  return schema;
}

function build(model: string, bundle: RequestBundle): CandidatePayload {
  return buildHeuristicPayload({ bundle, schema: schemaOf(model) });
}

/** The fields set from the request (not the schema's defaults). */
function placed(candidate: CandidatePayload): Record<string, unknown> {
  return Object.fromEntries(Object.entries(candidate.payload).filter(([field]) => candidate.provenance[field]?.source !== 'schema_default'));
}

/** The validator's blocking issues, a missing required file aside. */
function blocking(model: string, bundle: RequestBundle, candidate: CandidatePayload): string[] {
  const issues = validatePayload({ candidate, schema: schemaOf(model), bundle, quarantine: quarantineOf(model) });
  return issues.filter((issue) => issue.severity === 'blocking' && issue.code !== 'missing_required').map((issue) => issue.message);
}

function quarantineOf(model: string): ExampleQuarantine {
  const example = (catalogEntry(model).default_example as { input?: Record<string, unknown> } | null)?.input ?? {};
  return ExampleQuarantine.fromExamples(example);
}

const unusedPhrases = (candidate: CandidatePayload) => (candidate.unusedRequest ?? []).map((entry) => entry.phrase);

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
    const evidence = collectBundleEvidence(bundleOf([], 'a koi pond, seed forty-two, zweiundvierzig, 四十二'));
    expect(evidenceMentionsNumber(evidence, 42)).toBe(true);
  });

  it.each([
    ['black-forest-labs/flux-schnell', 'a koi pond in autumn, seed forty-two', { seed: 42 }],
    ['black-forest-labs/flux-schnell', 'un estanque de koi, semilla cuarenta y dos', { seed: 42 }],
    ['black-forest-labs/flux-schnell', 'ein Koiteich im Herbst, Seed zweiundvierzig', { seed: 42 }],
    ['meta/musicgen', 'a calm piano piece, twenty five seconds', { duration: 25 }],
    ['meta/musicgen', 'une mélodie au piano, vingt et une secondes', { duration: 21 }],
    ['meta/musicgen', 'спокойная мелодия на пианино, двадцать пять секунд', { duration: 25 }],
    ['meta/musicgen', '静かなピアノ曲、二十五秒', { duration: 25 }],
  ])('%s: %s', (model, prompt, expected) => {
    const bundle = bundleOf([], prompt);
    const candidate = build(model, bundle);
    expect(placed(candidate)).toMatchObject(expected);
    expect(blocking(model, bundle, candidate)).toEqual([]);
  });

  it('set nothing when they are what is made', () => {
    const steps = build('stability-ai/stable-diffusion', bundleOf([], 'the forty-two steps of the temple at dawn'));
    expect(placed(steps)).not.toHaveProperty('num_inference_steps');
    expect(steps.payload.prompt).toBe('the forty-two steps of the temple at dawn');
    const film = build('black-forest-labs/flux-schnell', bundleOf([], "a poster for Ocean's Eleven, twenty-one stars on the marquee"));
    expect(placed(film)).not.toHaveProperty('num_outputs');
    expect(film.payload.prompt).toBe("a poster for Ocean's Eleven, twenty-one stars on the marquee");
  });
});

describe('a later turn that corrects a number without naming its setting', () => {
  const flux = 'black-forest-labs/flux-schnell';

  it.each([
    ['a koi pond in autumn, 2 images', 'actually three'],
    ['un estanque de koi, 2 imágenes', 'mejor tres'],
    ['un étang de carpes koï, 2 images', 'en fait trois'],
    ['ein Koiteich, 2 Bilder', 'doch lieber drei'],
    ['um lago de carpas, 2 imagens', 'na verdade três'],
    ['пруд с карпами, 2 изображения', 'лучше три'],
    ['お寿司の盛り合わせ、2枚', 'やっぱり三つ'],
  ])('%s → %s sets the count the earlier turn set', (first, later) => {
    const bundle = bundleOf([user(first), assistant('Done.'), user(later)]);
    const candidate = build(flux, bundle);
    expect(placed(candidate)).toMatchObject({ num_outputs: 3 });
    expect(candidate.payload.prompt).toBe(first.replace(/[,、]\s*2\s*\S+$/u, ''));
    expect(unusedPhrases(candidate)).toEqual([]);
    expect(blocking(flux, bundle, candidate)).toEqual([]);
  });

  it('reads a number word beside a named setting in the same turn', () => {
    const bundle = bundleOf([user('a koi pond in autumn, 2 images'), assistant('Done.'), user('actually three, and seed forty-two')]);
    const candidate = build(flux, bundle);
    expect(placed(candidate)).toMatchObject({ num_outputs: 3, seed: 42 });
    expect(blocking(flux, bundle, candidate)).toEqual([]);
  });

  it('takes "only one" as the count the conversation spoke of', () => {
    const bundle = bundleOf([user('a medieval castle on a hill, 2 images'), assistant('Here are two castles.'), user('nice, now seed 777 and only one')]);
    const candidate = build('stability-ai/sdxl', bundle);
    expect(placed(candidate)).toMatchObject({ num_outputs: 1, seed: 777, prompt: 'a medieval castle on a hill' });
  });

  it('reports a number when two earlier number settings could take it', () => {
    const bundle = bundleOf([user('a koi pond, 2 images, seed 5'), assistant('Done.'), user('actually 3')]);
    const candidate = build(flux, bundle);
    expect(placed(candidate)).toMatchObject({ num_outputs: 2, seed: 5 });
    expect(unusedPhrases(candidate)).toContain('3');
  });

  it('takes no setting from the assistant: a number nobody set before is reported', () => {
    const bundle = bundleOf([user('a koi pond'), assistant('Here are 2 images.'), user('actually three')]);
    const candidate = build(flux, bundle);
    expect(placed(candidate)).not.toHaveProperty('num_outputs');
    expect(unusedPhrases(candidate)).toContain('three');
  });

  it('reads no article as a number (`una vez más`), and reports a number that does not fit', () => {
    const again = build(flux, bundleOf([user('un estanque de koi, 2 imágenes'), assistant('Listo.'), user('otra vez, una vez más')]));
    expect(placed(again)).toMatchObject({ num_outputs: 2 });
    expect(unusedPhrases(again)).toEqual([]);
    const tooMany = build(flux, bundleOf([user('a koi pond, 2 images'), assistant('Done.'), user('actually 40')]));
    expect(placed(tooMany)).toMatchObject({ num_outputs: 2 });
    expect(unusedPhrases(tooMany)).toContain('40');
  });
});

describe("a later turn's number for a setting set before", () => {
  it('is read wherever it stands, and replaces the earlier value', () => {
    const bundle = bundleOf([user('a timelapse of clouds over a mountain, 30 fps'), assistant('Rendering.'), user('now 24 fps instead, and keep the clouds slow')]);
    const candidate = build('tencent/hunyuan-video', bundle);
    expect(placed(candidate)).toMatchObject({ fps: 24 });
  });

  it('stays content when the earlier turns never set it', () => {
    const bundle = bundleOf([user('a temple at dawn'), assistant('Done.'), user('now with 100 steps leading up to the gate')]);
    const candidate = build('stability-ai/stable-diffusion', bundle);
    expect(placed(candidate)).not.toHaveProperty('num_inference_steps');
  });
});
