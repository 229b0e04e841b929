/**
 * Clauses that leave things out go to the negative prompt, in nine languages: the clause leaves the prompt and the
 * things it names become the negative prompt's text, in the user's words, which the validator accepts. A negation
 * inside the description, text to show, a title, a limit or a reply is content and stays where it is; a model with
 * no negative-prompt input keeps the clause in its prompt.
 */
import { describe, expect, it } from 'vitest';
import type { CandidatePayload, ConversationTurn, ModelSchema } from '../../src/generated/contracts.ts';
import { collectBundleEvidence } from '../../src/stages/bundle-evidence.ts';
import { provenanceIssues } from '../../src/stages/validator/provenance-issues.ts';
import { exclusionField, findExclusions } from '../../src/reading/index.ts';
import { bundleOf, buildOn, field, schemaOf } from '../support/reading-builds.ts';

const IMAGE = schemaOf([
  field('prompt', 'prompt', 'string', { required: true }),
  field('negative_prompt', 'negative_prompt', 'string'),
  field('apply_watermark', 'other', 'boolean'),
  field('num_outputs', 'num_outputs', 'integer', { minimum: 1, maximum: 4 }),
]);
const VIDEO = schemaOf([field('prompt', 'prompt', 'string', { required: true }), field('negative_prompt', 'negative_prompt', 'string')]);
const NO_NEGATIVE = schemaOf([field('prompt', 'prompt', 'string', { required: true }), field('seed', 'seed', 'integer')]);
/** A negative input not named `negative`: found by its description. */
const DESCRIBED = schemaOf([
  field('prompt', 'prompt', 'string', { required: true }),
  field('avoid_text', 'other', 'string', { description: 'Things you do not want to see in the image' }),
]);

function build(schema: ModelSchema, prompt: string, conversation: ConversationTurn[] = []): CandidatePayload {
  return buildOn(schema, prompt, { conversation });
}

function issues(candidate: CandidatePayload, schema: ModelSchema, prompt: string, conversation: ConversationTurn[] = []): string[] {
  const fields = new Map(schema.fields.map((spec) => [spec.name, spec]));
  return provenanceIssues(candidate, fields, collectBundleEvidence(bundleOf(prompt, { conversation }))).map((issue) => issue.message);
}

describe('a clause that leaves things out goes to the negative prompt', () => {
  it.each([
    ['en', 'a lighthouse on a cliff, nothing blurry or deformed', 'a lighthouse on a cliff', 'blurry, deformed'],
    ['en', 'a bowl of ramen, no text or watermarks in the image', 'a bowl of ramen', 'text, watermarks in the image'],
    ['en', "a pianist's hands on the keys, avoid extra fingers", "a pianist's hands on the keys", 'extra fingers'],
    ['en', 'a cabin in the snow but nothing blurry', 'a cabin in the snow', 'blurry'],
    ['en', 'an empty street at dawn. No people, no cars.', 'an empty street at dawn.', 'people, cars'],
    ['es', 'un faro en un acantilado, sin nada borroso', 'un faro en un acantilado', 'borroso'],
    ['es', 'un retrato de un pescador, nada borroso ni deforme', 'un retrato de un pescador', 'borroso, deforme'],
    ['fr', 'un phare la nuit, sans flou ni déformation', 'un phare la nuit', 'flou, déformation'],
    ['de', 'ein Leuchtturm bei Nacht, bitte nichts Verschwommenes und keine Verzerrungen', 'ein Leuchtturm bei Nacht', 'Verschwommenes, Verzerrungen'],
    ['pt', 'um farol à noite, sem nada desfocado', 'um farol à noite', 'desfocado'],
    ['he', 'מגדלור בלילה, בלי טשטוש ובלי עיוותים', 'מגדלור בלילה', 'טשטוש, עיוותים'],
    ['ru', 'маяк ночью, без размытия и искажений', 'маяк ночью', 'размытия, искажений'],
    ['ar', 'منارة في الليل، بدون ضبابية أو تشوه', 'منارة في الليل', 'ضبابية, تشوه'],
    ['ja', '夜の灯台、ぼやけや歪みはなしで', '夜の灯台', 'ぼやけや歪み'],
  ])('%s: %s', (_language, text, prompt, negative) => {
    const candidate = build(IMAGE, text);
    expect(candidate.payload.prompt).toBe(prompt);
    expect(candidate.payload.negative_prompt).toBe(negative);
    expect(candidate.provenance.negative_prompt?.source).toBe('user_prompt');
    expect(issues(candidate, IMAGE, text)).toEqual([]);
  });

  it('adds to a negative prompt written out', () => {
    const text = 'a red fox in the snow, negative prompt: blurry. No text.';
    expect(build(IMAGE, text).payload.negative_prompt).toBe('blurry, text');
  });

  it('finds an input that takes what to leave out by its description', () => {
    expect(exclusionField(DESCRIBED.fields)?.name).toBe('avoid_text');
    expect(build(DESCRIBED, 'a quiet harbour, no boats').payload).toMatchObject({ prompt: 'a quiet harbour', avoid_text: 'boats' });
  });

  it('a later turn adds what it leaves out to the earlier turn’s', () => {
    const conversation: ConversationTurn[] = [
      { role: 'user', content: 'a red barn in a wheat field, no people' },
      { role: 'assistant', content: 'Here it is.' },
      { role: 'user', content: 'and no cars' },
    ];
    const candidate = build(IMAGE, '', conversation);
    expect(candidate.payload).toMatchObject({ prompt: 'a red barn in a wheat field', negative_prompt: 'people, cars' });
  });
});

describe('a negation that is content stays where it is', () => {
  it.each([
    'a dog with no collar running on the beach',
    'a world without war, painted in watercolour',
    'a poster that says NO PARKING, in red',
    'a street sign, No Parking',
    'No Country for Old Men, a movie poster',
    'a castle on a hill, no more than three towers',
    'a castle on a hill, no more than 3 towers',
    'a choir in a church, nothing but voices and candles',
    'a sign reading "no dogs allowed", on a gate',
    'um cachorro correndo, no parque ao pôr do sol',
    'a quiet street, no one around',
  ])('%s', (text) => {
    const candidate = build(IMAGE, text);
    expect(candidate.payload.negative_prompt).toBeUndefined();
    expect(candidate.payload.prompt).toBe(text);
  });

  it('a reply that opens with "no" is not something to leave out', () => {
    const conversation: ConversationTurn[] = [
      { role: 'user', content: 'a red barn in a wheat field' },
      { role: 'assistant', content: 'Here it is.' },
    ];
    for (const reply of ['no, I meant a blue barn', 'no I meant a blue barn']) {
      expect(build(IMAGE, '', [...conversation, { role: 'user', content: reply }]).payload.negative_prompt).toBeUndefined();
    }
  });

  it('a model without a negative-prompt input keeps the clause in its prompt, and reports nothing', () => {
    const text = 'a lighthouse on a cliff, nothing blurry or deformed';
    const candidate = build(NO_NEGATIVE, text);
    expect(candidate.payload.prompt).toBe(text);
    expect(candidate.unusedRequest ?? []).toEqual([]);
  });

  it('a switch the model has takes its clause: no watermark sets the switch, not the negative prompt', () => {
    const candidate = build(IMAGE, 'a vintage travel poster of Lisbon, no watermark please');
    expect(candidate.payload).toMatchObject({ apply_watermark: false, prompt: 'a vintage travel poster of Lisbon' });
    expect(candidate.payload.negative_prompt).toBeUndefined();
  });

  it('a setting the model lacks is reported, not turned into words to avoid', () => {
    const candidate = build(VIDEO, 'waves on a beach at night, no audio');
    expect(candidate.payload.negative_prompt).toBeUndefined();
    expect(candidate.unusedRequest?.map((entry) => entry.phrase)).toContain('no audio');
  });

  it('a visible thing with no switch for it is left out: no watermark on a model without the switch', () => {
    expect(build(VIDEO, 'waves on a beach at night, no watermark').payload.negative_prompt).toBe('watermark');
  });

  it('the opening clause of a request is never read as one', () => {
    expect(findExclusions('no people on the beach')).toEqual([]);
    expect(findExclusions('no people on the beach', true).map((found) => found.items)).toEqual([['people on the beach']]);
  });
});

describe('a switch turned off in other words', () => {
  it.each([
    ['en', 'a portrait of a beekeeper, and leave off the watermark'],
    ['en', 'a harbour at dusk, get rid of the watermark'],
    ['es', 'un retrato de un apicultor, no pongas marca de agua'],
    ['fr', "un portrait d'apiculteur, retire le filigrane"],
    ['pt', 'um retrato de um apicultor, não coloque marca d\'água'],
    ['ru', 'портрет пчеловода, не добавляй водяной знак'],
    ['he', 'דיוקן של כוורן, תוריד סימן מים'],
    ['ar', 'صورة لمربي نحل، لا تضف علامة مائية'],
  ])('%s: %s', (_language, text) => {
    const candidate = build(IMAGE, text);
    expect(candidate.payload.apply_watermark).toBe(false);
    expect(candidate.payload.negative_prompt).toBeUndefined();
  });
});
