/**
 * Settings implied by another choice, on real catalog schemas: a voice file attached to `custom_voice` sets
 * `voice_a` to `custom_voice`; a width on a model whose width `only works if aspect_ratio is set to custom` sets
 * the custom ratio; the guitar or the piano picked out of a song sets the six-source separator; "the white part of
 * the mask should stay" switches `invert_mask` on. The validator re-derives each value (`dependent_option`,
 * `mask_side`), the leak firewall takes it for the user's although the model's example holds it, and the same
 * value with no trace is still refused. The same words as content set nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildHeuristicPayload } from '../../src/builders/heuristic-builder.ts';
import type { Attachment, CandidatePayload, FieldSpec, ModelSchema, RequestBundle } from '../../src/generated/contracts.ts';
import { deriveValue } from '../../src/reading/index.ts';
import type { ExampleQuarantine } from '../../src/stages/example-quarantine.ts';
import { validatePayload } from '../../src/stages/validator/index.ts';
import { loadCatalogModels } from '../support/replicate-catalog.ts';

const MODELS = {
  tortoise: 'afiaka87/tortoise-tts',
  demucs: 'ryan5453/demucs',
  inpainting: 'andreasjansson/stable-diffusion-inpainting',
  lora: 'fofr/flux-mona-lisa',
} as const;
type Model = keyof typeof MODELS;
const schemas = new Map<Model, ModelSchema>();
const quarantines = new Map<Model, ExampleQuarantine>();

beforeAll(() => loadCatalogModels(MODELS, schemas, quarantines), 180_000);

const VOICE: Attachment = { url: 'https://files.example.com/my-voice.mp3', mimeType: 'audio/mpeg', name: 'my-voice.mp3' };
const SONG: Attachment = { url: 'https://files.example.com/song.mp3', mimeType: 'audio/mpeg' };
const SCENE: Attachment = { url: 'https://files.example.com/scene.png', mimeType: 'image/png', name: 'scene.png' };
const MASK: Attachment = { url: 'https://files.example.com/mask.png', mimeType: 'image/png', name: 'mask.png' };

function bundleOf(prompt: string, attachments: Attachment[] = []): RequestBundle {
  return { prompt, conversation: [], attachments, userProfile: {}, humanEdits: {}, safetyFlags: [] };
}

function build(model: Model, bundle: RequestBundle): CandidatePayload {
  return buildHeuristicPayload({ bundle, schema: schemas.get(model) as ModelSchema });
}

/** The fields set from the request (not the schema's defaults). */
function placed(candidate: CandidatePayload): Record<string, unknown> {
  return Object.fromEntries(Object.entries(candidate.payload).filter(([field]) => candidate.provenance[field]?.source !== 'schema_default'));
}

/** The validator's blocking issues (a missing required input aside), as `code path: message`. */
function blocking(model: Model, bundle: RequestBundle, candidate: CandidatePayload): string[] {
  const issues = validatePayload({ candidate, schema: schemas.get(model) as ModelSchema, bundle, quarantine: quarantines.get(model) as ExampleQuarantine });
  return issues.filter((issue) => issue.severity === 'blocking' && issue.code !== 'missing_required').map((issue) => `${issue.code} ${issue.path}: ${issue.message}`);
}

function field(model: Model, name: string): FieldSpec {
  const found = (schemas.get(model) as ModelSchema).fields.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`${MODELS[model]} has no ${name}`);
  return found;
}

describe('a file attached for an input an option stands for', () => {
  it.each([
    'clone the voice in this mp3 and say: Welcome home.',
    'usa mi voz de la muestra y di: Bienvenido a casa.',
    'say: Welcome home.',
  ])('%s → the file and custom_voice', (prompt) => {
    const bundle = bundleOf(prompt, [VOICE]);
    const candidate = build('tortoise', bundle);
    expect(placed(candidate)).toMatchObject({ custom_voice: VOICE.url, voice_a: 'custom_voice' });
    expect(placed(candidate)).not.toHaveProperty('voice_b');
    expect(candidate.provenance.voice_a).toMatchObject({ source: 'user_prompt', evidence: VOICE.url, conversion: 'dependent_option' });
    // The model's example holds `custom_voice` too: the conversion is the trace, so no leak and no failed claim.
    expect(blocking('tortoise', bundle, candidate)).toEqual([]);
  });

  it('no voice file, no custom_voice', () => {
    const candidate = build('tortoise', bundleOf('say: Welcome home, in a custom voice'));
    expect(candidate.payload.voice_a).not.toBe('custom_voice');
    expect(candidate.payload.custom_voice).toBeUndefined();
  });

  it('custom_voice with no file behind it is refused, as a claim and as the example it copies', () => {
    const bundle = bundleOf('say: Welcome home.', [VOICE]);
    const untraced: CandidatePayload = {
      payload: { text: 'Welcome home.', voice_a: 'custom_voice' },
      provenance: {
        text: { source: 'user_prompt', evidence: 'Welcome home.' },
        voice_a: { source: 'user_prompt', evidence: VOICE.url, conversion: 'dependent_option' },
      },
      confidence: 0.9,
      builder: 'test',
    };
    const issues = blocking('tortoise', bundle, untraced);
    expect(issues).toContainEqual(expect.stringMatching(/^example_leak \/voice_a/));
    expect(issues).toContainEqual(expect.stringMatching(/^provenance \/voice_a: /));
  });

  it('a file cited that is not the one the input holds proves nothing', () => {
    const other = 'https://files.example.com/other.mp3';
    const context = { fields: (schemas.get('tortoise') as ModelSchema).fields, payload: { custom_voice: VOICE.url } };
    expect(deriveValue('dependent_option', VOICE.url, field('tortoise', 'voice_a'), context)?.value).toBe('custom_voice');
    expect(deriveValue('dependent_option', other, field('tortoise', 'voice_a'), context)).toBeUndefined();
    expect(deriveValue('dependent_option', VOICE.url, field('tortoise', 'voice_a'))).toBeUndefined();
    // voice_b has the option too, but the file overrides voice_a: one voice is asked for, not a mix.
    expect(deriveValue('dependent_option', VOICE.url, field('tortoise', 'voice_b'), context)).toBeUndefined();
  });
});

describe('a value the description says another field needs', () => {
  it.each([
    ['a lighthouse at dusk, 1024x768', { width: 1024, height: 768, aspect_ratio: 'custom' }],
    ['un faro al atardecer, ancho 1024', { width: 1024, aspect_ratio: 'custom' }],
  ])('%s', (prompt, expected) => {
    const bundle = bundleOf(prompt);
    const candidate = build('lora', bundle);
    expect(placed(candidate)).toMatchObject(expected);
    expect(candidate.provenance.aspect_ratio).toMatchObject({ conversion: 'dependent_option' });
    expect(blocking('lora', bundle, candidate)).toEqual([]);
  });

  it('a ratio the user chose stays; no size, no custom ratio', () => {
    expect(placed(build('lora', bundleOf('a lighthouse, 16:9, width 1024')))).toMatchObject({ aspect_ratio: '16:9' });
    expect(placed(build('lora', bundleOf('a lighthouse with 1024 windows'))).aspect_ratio).toBeUndefined();
  });
});

describe('an option a chosen value needs', () => {
  it.each([
    ['separate only the guitar', 'guitar'],
    ['separe só o piano, em wav', 'piano'],
    ['افصل الغيتار فقط، بصيغة wav', 'guitar'],
  ])('%s → the stem and the six-source model', (prompt, stem) => {
    const bundle = bundleOf(prompt, [SONG]);
    const candidate = build('demucs', bundle);
    expect(placed(candidate)).toMatchObject({ stem, model: 'htdemucs_6s' });
    expect(candidate.provenance.model).toMatchObject({ conversion: 'dependent_option' });
    expect(blocking('demucs', bundle, candidate)).toEqual([]);
  });

  it.each(['separate only the vocals', 'this song has a great bass and piano intro', 'a guitar on the wall'])('%s: the default model stays', (prompt) => {
    const candidate = build('demucs', bundleOf(prompt, [SONG]));
    expect(placed(candidate).model).toBeUndefined();
  });

  it('the six-source model with no such stem asked for is refused', () => {
    const bundle = bundleOf('separate only the vocals', [SONG]);
    const untraced: CandidatePayload = {
      payload: { audio: SONG.url, stem: 'vocals', model: 'htdemucs_6s' },
      provenance: {
        audio: { source: 'attachment', evidence: 'song.mp3' },
        stem: { source: 'user_prompt', evidence: 'only the vocals', conversion: 'enum_synonym' },
        model: { source: 'user_prompt', evidence: 'only the vocals', conversion: 'dependent_option' },
      },
      confidence: 0.9,
      builder: 'test',
    };
    expect(blocking('demucs', bundle, untraced)).toEqual([expect.stringMatching(/^provenance \/model/)]);
  });
});

describe('which side of the mask stays', () => {
  it.each([
    ['the white part of the mask should stay; fill the rest with a beach', true],
    ['keep the white area, put a beach there', true],
    ['fill the black area with a beach', true],
    ['la zona blanca se queda, rellena lo demás con una playa', true],
    ['garde la partie blanche, une plage ailleurs', true],
    ['白い部分は残して、残りをビーチに', true],
    ['fill the white part with a beach', false],
  ])('%s → invert_mask %s', (prompt, invert) => {
    const bundle = bundleOf(prompt, [SCENE, MASK]);
    const candidate = build('inpainting', bundle);
    expect(candidate.payload.invert_mask).toBe(invert);
    if (invert) expect(candidate.provenance.invert_mask).toMatchObject({ source: 'user_prompt', conversion: 'mask_side' });
    expect(blocking('inpainting', bundle, candidate)).toEqual([]);
  });

  it.each(['a white cat on a black sofa', 'a beach with white sand that should stay sunny', 'a zebra, keep it simple'])('%s: nothing about the mask', (prompt) => {
    const candidate = build('inpainting', bundleOf(prompt, [SCENE, MASK]));
    expect(candidate.provenance.invert_mask?.source ?? 'schema_default').toBe('schema_default');
  });

  it('the switch is read from its description; a phrase keeping the other side does not give it', () => {
    const invert = field('inpainting', 'invert_mask');
    expect(deriveValue('mask_side', 'the white part should stay', invert)?.value).toBe(true);
    expect(deriveValue('mask_side', 'the black part should stay', invert)?.value).toBe(false);
    expect(deriveValue('mask_side', 'a white cat', invert)).toBeUndefined();
  });
});
