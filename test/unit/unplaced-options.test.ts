/**
 * An option of the model's own fields named in the request and not placed is reported, never dropped in
 * silence: bare (`I love the drums in this song`) where no prompt input takes the words, and in a later turn that asks for
 * a change; words that only describe (`a flyer for a graphic design meetup`, `loud drums and soft vocals`) or
 * name the option the field holds anyway are not.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CandidatePayload, ConversationTurn } from '../../src/generated/contracts.ts';
import { CATALOG_LOAD_MS, CatalogModels, unplacedPhrases } from '../support/reading-builds.ts';

const models = new CatalogModels({
  stems: 'ryan5453/demucs',
  whisper: 'openai/whisper',
  ideogram: 'ideogram-ai/ideogram-v2',
  recraft: 'recraft-ai/recraft-v3',
  animagine: 'cjwbw/animagine-xl-3.1',
});
type Model = keyof typeof models.names;

beforeAll(() => models.load(), CATALOG_LOAD_MS);

function build(model: Model, prompt: string, conversation: ConversationTurn[] = []): CandidatePayload {
  return models.build(model, prompt, { conversation });
}

describe('an option named and not placed is reported', () => {
  it.each([
    ['I love the drums in this song', 'drums'],
    ['me encanta la batería de esta canción', 'batería'],
    ['j’adore la voix de cette chanson', 'voix'],
    ['אני אוהב את התופים בשיר הזה', 'התופים'],
    ['мне нравится вокал в этой песне', 'вокал'],
  ])('a model without a prompt input: %s', (text, phrase) => {
    const candidate = build('stems', text);
    expect(unplacedPhrases(candidate)).toContain(phrase);
    expect(candidate.unusedRequest?.find((entry) => entry.phrase === phrase)?.reason).toMatch(/stem option/);
  });

  it('a later turn naming another option asks for a change', () => {
    const candidate = build('recraft', '', [
      { role: 'user', content: 'an icon of a paper plane, pixel art' },
      { role: 'assistant', content: 'Here it is.' },
      { role: 'user', content: 'switch to hand drawn instead' },
    ]);
    expect(unplacedPhrases(candidate)).toContain('hand drawn');
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
    expect(unplacedPhrases(candidate)).not.toContain('Fantasy art');
  });
});
