/**
 * Options named by what they do and switches asked for in plain words: a switch's action said in a clause of its
 * own (`fix the hands` → handfix), an option's words spread over a clause (`crop it to 16:9`), a feature of the
 * lists in nine languages (`who said what` → diarization, `don't rewrite my prompt` → magic prompt off), an
 * option named by its meaning (`keep my image's size`), a switch named for a file format (`an mp4 instead`); each
 * placed with the user's words and accepted by the validator, and content that looks like them left alone.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildHeuristicPayload } from '../../src/builders/heuristic-builder.ts';
import type { CandidatePayload, FieldSpec, ModelSchema, RequestBundle } from '../../src/generated/contracts.ts';
import type { ExampleQuarantine } from '../../src/stages/example-quarantine.ts';
import { validatePayload } from '../../src/stages/validator/index.ts';
import { actionWords } from '../../src/reading/field-actions.ts';
import { deriveValue, readSettings } from '../../src/reading/index.ts';
import { loadCatalogModels } from '../support/replicate-catalog.ts';

const MODELS = {
  clarity: 'philz1337x/clarity-upscaler',
  svd: 'sunfjun/stable-video-diffusion',
  ideogram: 'ideogram-ai/ideogram-v2-turbo',
  whisperx: 'victor-upmeet/whisperx',
  fastWhisper: 'vaibhavs10/incredibly-fast-whisper',
  hotshot: 'lucataco/hotshot-xl',
} as const;
type Model = keyof typeof MODELS;

const schemas = new Map<Model, ModelSchema>();
const quarantines = new Map<Model, ExampleQuarantine>();
beforeAll(() => loadCatalogModels(MODELS, schemas, quarantines), 180_000);

const ATTACHMENTS: Record<Model, RequestBundle['attachments']> = {
  clarity: [{ url: 'https://files.example.com/group.jpg', mimeType: 'image/jpeg' }],
  svd: [{ url: 'https://files.example.com/harbor.jpg', mimeType: 'image/jpeg' }],
  ideogram: [],
  whisperx: [{ url: 'https://files.example.com/talk.mp3', mimeType: 'audio/mpeg' }],
  fastWhisper: [{ url: 'https://files.example.com/talk.mp3', mimeType: 'audio/mpeg' }],
  hotshot: [],
};

function build(model: Model, prompt: string): { candidate: CandidatePayload; blocking: string[] } {
  const schema = schemas.get(model) as ModelSchema;
  const bundle: RequestBundle = { prompt, conversation: [], attachments: ATTACHMENTS[model], userProfile: {}, humanEdits: {}, safetyFlags: [] };
  const candidate = buildHeuristicPayload({ bundle, schema });
  const issues = validatePayload({ candidate, schema, bundle, quarantine: quarantines.get(model) as ExampleQuarantine });
  return { candidate, blocking: issues.filter((issue) => issue.severity === 'blocking' && issue.code !== 'missing_required').map((issue) => issue.message) };
}

function expectPlaced(model: Model, prompt: string, expected: Record<string, unknown>): void {
  const { candidate, blocking } = build(model, prompt);
  expect(candidate.payload, prompt).toMatchObject(expected);
  expect(blocking, prompt).toEqual([]);
}

function expectUnset(model: Model, prompt: string, field: string): void {
  const { candidate } = build(model, prompt);
  const schema = schemas.get(model) as ModelSchema;
  const spec = schema.fields.find((candidateField) => candidateField.name === field);
  const value = candidate.payload[field];
  expect(value === undefined || (spec?.hasDefault === true && value === spec.default), `${prompt}: ${field}=${JSON.stringify(value)}`).toBe(true);
}

function options(name: string, values: string[], extra: Partial<FieldSpec> = {}): FieldSpec {
  return { name, role: 'other', type: 'string', required: false, nullable: false, order: 0, hasDefault: false, enum: values, ...extra };
}

function boolean(name: string, description: string): FieldSpec {
  return { name, role: 'other', type: 'boolean', required: false, nullable: false, order: 0, hasDefault: true, default: false, description };
}

describe('a switch asked for by its action', () => {
  const HANDFIX = options('handfix', ['disabled', 'hands_only', 'image_and_hands'], { hasDefault: true, default: 'disabled', description: 'Use clarity to fix hands in the image' });

  it('splits a name written as one word where both parts are words of its description', () => {
    expect(actionWords(HANDFIX)).toEqual(['hand', 'fix']);
    expect(actionWords(boolean('invert_mask', 'Invert the mask'))).toEqual(['invert', 'mask']);
    // A vague word (`use`, `image`) says nothing of what the field does.
    expect(actionWords(boolean('use_image', 'Use the image'))).toBeUndefined();
    expect(actionWords(boolean('seamless', 'Seamless tiling'))).toBeUndefined();
  });

  it('chooses the option for on holding a word of the phrase, and off after a negation', () => {
    const read = (text: string) => readSettings(text, [HANDFIX]).map((reading) => reading.value);
    expect(read('fix the hands')).toEqual(['hands_only']);
    expect(read("don't fix the hands")).toEqual(['disabled']);
    expect(deriveValue('enum_synonym', 'fix the hands', HANDFIX)?.value).toBe('hands_only');
    expect(deriveValue('negated_switch', 'invert the mask', boolean('invert_mask', 'Invert the mask'))?.value).toBe(true);
  });

  it('is placed in a clause of its own on a catalog model, and accepted by the validator', () => {
    expectPlaced('clarity', 'double the resolution, and fix the hands', { handfix: expect.stringMatching(/hands/) });
  });

  it('is content inside a description', () => {
    expectUnset('clarity', 'a watchmaker who can fix the hands of any clock', 'handfix');
  });
});

describe('an option spread over a clause', () => {
  it('reads the option whose words the clause holds in order, one other word at most between two', () => {
    expectPlaced('svd', 'animate this photo, crop it to 16:9', { sizing_strategy: 'crop_to_16_9' });
    const field = options('sizing_strategy', ['maintain_aspect_ratio', 'crop_to_16_9', 'use_image_dimensions']);
    expect(deriveValue('enum_synonym', 'crop it to 16:9', field)?.value).toBe('crop_to_16_9');
    expect(deriveValue('enum_synonym', 'use the image dimensions', field)?.value).toBe('use_image_dimensions');
  });

  it('is content when the clause holds more than the option', () => {
    expectUnset('svd', 'a photographer learning how to crop photos to 16:9 for a magazine', 'sizing_strategy');
  });
});

describe('an option named by its meaning', () => {
  it('reads the size of the input image picked out by a word that keeps it, in several languages', () => {
    expectPlaced('svd', 'animate this, keep my image’s size', { sizing_strategy: 'use_image_dimensions' });
    expectPlaced('svd', 'anima esta foto, conserva el tamaño original', { sizing_strategy: 'use_image_dimensions' });
    expectPlaced('svd', 'анимируй фото, сохрани исходный размер', { sizing_strategy: 'use_image_dimensions' });
  });
});

describe('the prompt rewritten or not', () => {
  it('is switched off by a negated clause naming what the field does, in several languages', () => {
    expectPlaced('ideogram', "a running shoe splashing through a puddle, and please don't rewrite my prompt", { magic_prompt_option: 'Off' });
    expectPlaced('ideogram', 'un cartel de un concierto, no reescribas mi prompt', { magic_prompt_option: 'Off' });
    expectPlaced('ideogram', 'постер для кофейни, не переписывай мой промпт', { magic_prompt_option: 'Off' });
    expectPlaced('ideogram', 'une affiche pour un concert, sans amélioration du prompt', { magic_prompt_option: 'Off' });
    expectPlaced('ideogram', 'カフェのポスター、プロンプトを書き換えないで', { magic_prompt_option: 'Off' });
  });

  it('is not read from a description, and a linking verb after "don’t" is no switch', () => {
    expectUnset('ideogram', 'a poster for a writing class called Rewrite My Prompt', 'magic_prompt_option');
    const audio = boolean('generate_audio', 'Generate audio');
    expect(readSettings("a robot voice that doesn't sound robotic, don't sound cheap", [audio])).toEqual([]);
    expect(readSettings("don't add sound", [audio]).map((reading) => reading.value)).toEqual([false]);
  });
});

describe('speakers told apart', () => {
  it('switch diarization on, in several languages', () => {
    expectPlaced('whisperx', 'transcribe and tell me who said what', { diarization: true });
    expectPlaced('fastWhisper', 'just transcribe it, and tell apart the hosts', { diarise_audio: true });
    expectPlaced('fastWhisper', 'transcris et sépare les locuteurs', { diarise_audio: true });
    expectPlaced('fastWhisper', 'transcribe esto y dime quién dijo qué', { diarise_audio: true });
    expectPlaced('fastWhisper', 'транскрибируй и раздели спикеров', { diarise_audio: true });
    expectPlaced('fastWhisper', '文字起こしして、話者を分けて', { diarise_audio: true });
  });

  it('stay off when nobody asks', () => {
    expectUnset('fastWhisper', 'transcribe this interview about two hosts', 'diarise_audio');
  });
});

describe('a switch named for a file format', () => {
  it('is on when its format is asked for instead of another, and off for the format its description names', () => {
    expectPlaced('hotshot', 'a dancing cactus gif, but give me an mp4 instead of a gif', { mp4: true });
    const mp4 = boolean('mp4', 'Returns .mp4 if true or .gif if false');
    expect(deriveValue('format_word', 'mp4 instead', mp4)?.value).toBe(true);
    expect(deriveValue('format_word', 'as a gif', mp4)?.value).toBe(false);
  });

  it('is content where the format names a thing', () => {
    expectUnset('hotshot', 'a vintage mp4 player from 2005 spinning on a table', 'mp4');
  });
});
