/**
 * Settings said in plain words, in nine languages, on real catalog schemas: lengths (`half a minute`, `une
 * minute et demie`, `полминуты`), counts (`a couple of versions`, `three different takes`, `ロゴを2パターン`),
 * each placed with the words it came from and accepted by the validator.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildHeuristicPayload } from '../../src/builders/heuristic-builder.ts';
import type { CandidatePayload, ModelSchema, RequestBundle } from '../../src/generated/contracts.ts';
import { ExampleQuarantine } from '../../src/stages/example-quarantine.ts';
import { validatePayload } from '../../src/stages/validator/index.ts';
import { extractReplicateCatalog } from '../support/replicate-catalog.ts';

const MODELS = {
  music: 'meta/musicgen',
  image: 'black-forest-labs/flux-schnell',
} as const;
type Model = keyof typeof MODELS;

const schemas = new Map<Model, ModelSchema>();
const quarantines = new Map<Model, ExampleQuarantine>();
beforeAll(() => {
  const catalog = extractReplicateCatalog();
  for (const [key, name] of Object.entries(MODELS) as [Model, string][]) {
    const entry = catalog.find((candidate) => candidate.name === name);
    const schema = entry?.result?.modelSchema;
    if (!entry || !schema) throw new Error(`${name} is not in the catalog`);
    schemas.set(key, schema);
    quarantines.set(key, ExampleQuarantine.fromExamples(entry.model.default_example?.input ?? {}));
  }
}, 180_000);

function bundleOf(prompt: string): RequestBundle {
  return { prompt, conversation: [], attachments: [], userProfile: {}, humanEdits: {}, safetyFlags: [] };
}

function build(model: Model, prompt: string): { candidate: CandidatePayload; blocking: string[] } {
  const schema = schemas.get(model) as ModelSchema;
  const bundle = bundleOf(prompt);
  const candidate = buildHeuristicPayload({ bundle, schema });
  const issues = validatePayload({ candidate, schema, bundle, quarantine: quarantines.get(model) as ExampleQuarantine });
  return { candidate, blocking: issues.filter((issue) => issue.severity === 'blocking' && issue.code !== 'missing_required').map((issue) => issue.message) };
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
