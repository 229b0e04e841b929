/**
 * An option of the model's own fields named in the request and not placed is reported, never dropped in
 * silence: bare (`I love the drums in this song`) where no prompt input takes the words, and in a later turn that asks for
 * a change; words that only describe (`a flyer for a graphic design meetup`, `loud drums and soft vocals`) or
 * name the option the field holds anyway are not.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildHeuristicPayload } from '../../src/builders/heuristic-builder.ts';
import type { CandidatePayload, ConversationTurn, ModelSchema } from '../../src/generated/contracts.ts';
import { extractReplicateCatalog } from '../support/replicate-catalog.ts';

const MODELS = {
  stems: 'ryan5453/demucs',
  whisper: 'openai/whisper',
  ideogram: 'ideogram-ai/ideogram-v2',
  recraft: 'recraft-ai/recraft-v3',
  animagine: 'cjwbw/animagine-xl-3.1',
} as const;
type Model = keyof typeof MODELS;
const schemas = new Map<Model, ModelSchema>();

beforeAll(() => {
  const catalog = extractReplicateCatalog();
  for (const [key, name] of Object.entries(MODELS) as [Model, string][]) {
    const schema = catalog.find((candidate) => candidate.name === name)?.result?.modelSchema;
    if (!schema) throw new Error(`${name} is not in the catalog`);
    schemas.set(key, schema);
  }
}, 180_000);

function build(model: Model, prompt: string, conversation: ConversationTurn[] = []): CandidatePayload {
  const bundle = { prompt, conversation, attachments: [], userProfile: {}, humanEdits: {}, safetyFlags: [] };
  return buildHeuristicPayload({ bundle, schema: schemas.get(model) as ModelSchema });
}

const phrases = (candidate: CandidatePayload) => (candidate.unusedRequest ?? []).map((entry) => entry.phrase);

describe('an option named and not placed is reported', () => {
  it.each([
    ['I love the drums in this song', 'drums'],
    ['me encanta la batería de esta canción', 'batería'],
    ['j’adore la voix de cette chanson', 'voix'],
    ['אני אוהב את התופים בשיר הזה', 'התופים'],
    ['мне нравится вокал в этой песне', 'вокал'],
  ])('a model without a prompt input: %s', (text, phrase) => {
    const candidate = build('stems', text);
    expect(phrases(candidate)).toContain(phrase);
    expect(candidate.unusedRequest?.find((entry) => entry.phrase === phrase)?.reason).toMatch(/stem option/);
  });

  it('a later turn naming another option asks for a change', () => {
    const candidate = build('recraft', '', [
      { role: 'user', content: 'an icon of a paper plane, pixel art' },
      { role: 'assistant', content: 'Here it is.' },
      { role: 'user', content: 'switch to hand drawn instead' },
    ]);
    expect(phrases(candidate)).toContain('hand drawn');
  });
});

describe('option words that are content, or already hold, are not reported', () => {
  it.each([
    ['stems', 'this song has a great bass and piano intro'],
    ['whisper', 'transcribe it, is it clear?'],
    ['whisper', 'this is a French teacher speaking English to her class'],
    ['ideogram', 'a comic about a designer who hates anime'],
    ['ideogram', 'a t-shirt design that says No Magic'],
  ] as [Model, string][])('%s: %s', (model, text) => {
    expect(build(model, text).unusedRequest ?? []).toEqual([]);
  });

  it('a later turn confirming the option the field holds', () => {
    const candidate = build('animagine', '', [
      { role: 'user', content: 'a knight with a glowing sword, style Fantasy art' },
      { role: 'assistant', content: 'How about the Neonpunk style instead?' },
      { role: 'user', content: 'no, Fantasy art is fine' },
    ]);
    expect(candidate.payload.style_selector).toBe('Fantasy art');
    expect(phrases(candidate)).not.toContain('Fantasy art');
  });
});
