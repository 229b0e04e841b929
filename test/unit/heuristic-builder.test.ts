/**
 * The heuristic builder end to end: precedence (edits, prompt, attachments, defaults), zero trust (no value the
 * bundle or schema did not hold), confidence, determinism, and the real example models through the extractor
 * and the validator.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  Attachment,
  CandidatePayload,
  FieldRole,
  FieldSpec,
  FieldType,
  ModelSchema,
  RequestBundle,
} from '../../src/generated/contracts.ts';
import { buildHeuristicPayload, createHeuristicBuilder } from '../../src/builders/heuristic-builder.ts';
import { CONFIDENCE, NO_PROMPT_CAP, UNPLACED_TEXT_CAP } from '../../src/builders/confidence.ts';
import { isVettedError } from '../../src/errors.ts';
import { assertContract } from '../../src/schema/contracts.ts';
import { collectBundleEvidence, evidenceContains, evidenceMentionsNumber, normalizeText } from '../../src/stages/bundle-evidence.ts';
import { ExampleQuarantine } from '../../src/stages/example-quarantine.ts';
import { extractModelSchema } from '../../src/stages/schema-extractor/index.ts';
import { findExampleLeaks } from '../../src/stages/leak-firewall.ts';
import { derivedFields, validatePayload } from '../../src/stages/validator/index.ts';
import { provenanceIssues } from '../../src/stages/validator/provenance-issues.ts';
import { extractReplicateCatalog, type ExtractedCatalogModel } from '../support/replicate-catalog.ts';

// ---------------------------------------------------------------------------------------------------------
// Fixtures: hand-written ModelSchemas that follow the contract (checked below), and bundles.

function field(name: string, role: FieldRole, type: FieldType, extra: Partial<FieldSpec> = {}): FieldSpec {
  return { name, role, type, required: false, nullable: false, order: 0, hasDefault: false, ...extra };
}

function withDefault(spec: FieldSpec, value: unknown): FieldSpec {
  return { ...spec, hasDefault: true, default: value };
}

function schemaOf(fields: FieldSpec[], model = 'test/image-model'): ModelSchema {
  const ordered = fields.map((spec, order) => ({ ...spec, order }));
  const properties: Record<string, unknown> = {};
  for (const spec of ordered) {
    const node: Record<string, unknown> =
      spec.type === 'array' ? { type: 'array', items: { type: spec.itemType ?? 'string', format: 'uri' } } : { type: spec.type };
    if (spec.title) node.title = spec.title;
    if (spec.description) node.description = spec.description;
    if (spec.enum) node.enum = spec.enum;
    if (spec.minimum !== undefined) node.minimum = spec.minimum;
    if (spec.maximum !== undefined) node.maximum = spec.maximum;
    if (spec.format) node.format = spec.format;
    if (spec.hasDefault) node.default = spec.default;
    properties[spec.name] = node;
  }
  return {
    schemaHash: 'b'.repeat(64),
    model,
    version: null,
    source: 'replicate_version',
    jsonSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      required: ordered.filter((spec) => spec.required).map((spec) => spec.name),
      properties,
    },
    fields: ordered,
    warnings: [],
  };
}

const RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3'];

const IMAGE_MODEL = schemaOf([
  field('prompt', 'prompt', 'string', { required: true, title: 'Prompt' }),
  withDefault(field('negative_prompt', 'negative_prompt', 'string'), ''),
  withDefault(field('system_prompt', 'system_prompt', 'string'), 'You are an image model.'),
  field('image', 'image_input', 'string', { format: 'uri' }),
  field('mask', 'mask_input', 'string', { format: 'uri' }),
  field('reference_images', 'image_input', 'array', { itemType: 'string' }),
  field('seed', 'seed', 'integer'),
  withDefault(field('width', 'width', 'integer', { minimum: 256, maximum: 2048 }), 1024),
  withDefault(field('height', 'height', 'integer', { minimum: 256, maximum: 2048 }), 1024),
  withDefault(field('aspect_ratio', 'aspect_ratio', 'string', { enum: RATIOS }), '1:1'),
  withDefault(field('num_outputs', 'num_outputs', 'integer', { minimum: 1, maximum: 4 }), 1),
  withDefault(field('num_inference_steps', 'steps', 'integer', { minimum: 1, maximum: 100 }), 30),
  withDefault(field('guidance_scale', 'guidance', 'number', { minimum: 0, maximum: 20 }), 7.5),
  withDefault(field('output_format', 'output_format', 'string', { enum: ['webp', 'jpg', 'png'] }), 'webp'),
  withDefault(field('scheduler', 'other', 'string', { enum: ['DDIM', 'K_EULER', 'K_EULER_ANCESTRAL'] }), 'K_EULER'),
  withDefault(field('face_enhance', 'other', 'boolean'), false),
  withDefault(field('disable_safety_checker', 'other', 'boolean'), false),
  field('style', 'other', 'string'),
  withDefault(field('api_key', 'secret', 'string'), 'sk-default-do-not-send'),
  field('hf_token', 'secret', 'string'),
]);

const AUDIO_MODEL = schemaOf(
  [
    field('audio', 'audio_input', 'string', { format: 'uri', required: true }),
    field('initial_prompt', 'prompt', 'string'),
    withDefault(field('language', 'other', 'string', { enum: ['auto', 'en', 'fr', 'French', 'English'] }), 'auto'),
    withDefault(field('temperature', 'other', 'number'), 0),
  ],
  'test/audio-model',
);

function bundleOf(prompt: string, extra: Partial<RequestBundle> = {}): RequestBundle {
  return { prompt, conversation: [], attachments: [], userProfile: {}, humanEdits: {}, safetyFlags: [], ...extra };
}

function build(schema: ModelSchema, bundle: RequestBundle): CandidatePayload {
  return buildHeuristicPayload({ bundle, schema });
}

function file(name: string, mimeType: string): Attachment {
  return { url: `https://files.test/u/${name}`, mimeType, name };
}

const CAT = file('cat.png', 'image/png');
const MASK = file('cat_mask.png', 'image/png');

describe('fixtures', () => {
  it('follow the ModelSchema contract, and candidates follow the CandidatePayload contract', () => {
    for (const schema of [IMAGE_MODEL, AUDIO_MODEL]) assertContract('model-schema', schema, 'fixture');
    const candidate = build(IMAGE_MODEL, bundleOf('a cat, seed 3', { attachments: [CAT] }));
    expect(() => assertContract('candidate-payload', candidate, 'candidate')).not.toThrow();
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('createHeuristicBuilder', () => {
  it('is named heuristic and builds what the pure function builds', async () => {
    const builder = createHeuristicBuilder();
    const input = { bundle: bundleOf('a cat, seed 3'), schema: IMAGE_MODEL };
    expect(builder.name).toBe('heuristic');
    await expect(builder.build(input)).resolves.toEqual(buildHeuristicPayload(input));
  });

  it('rejects when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(createHeuristicBuilder().build({ bundle: bundleOf('a cat'), schema: IMAGE_MODEL }, { signal: controller.signal })).rejects.toThrow('stop');
  });

  it('turns a malformed input into BUILDER_FAILED instead of crashing', async () => {
    const broken = { bundle: { prompt: 'a cat' } as unknown as RequestBundle, schema: IMAGE_MODEL };
    const error: unknown = await createHeuristicBuilder().build(broken).catch((caught: unknown) => caught);
    expect(isVettedError(error) && error.code).toBe('BUILDER_FAILED');
  });
});

describe('human edits', () => {
  it('win over the prompt, attachments and defaults', () => {
    const edits = { seed: 7, image: 'https://files.test/u/edited.png', prompt: 'an edited prompt', width: 512 };
    const result = build(IMAGE_MODEL, bundleOf('a cat, seed 42', { attachments: [CAT], humanEdits: edits }));
    expect(result.payload).toMatchObject(edits);
    for (const name of Object.keys(edits)) expect(result.provenance[name]).toEqual({ source: 'human_edit', confidence: 1 });
    expect(result.notes).toContain('seed: the edit overrides "seed 42" in the prompt');
    // The attachment the edit displaced goes to the model's other image field.
    expect(result.payload.reference_images).toEqual([CAT.url]);
  });

  it('may set a secret; an edit naming no field is left out with a note (the build stage refuses such a request first)', () => {
    const result = build(IMAGE_MODEL, bundleOf('a cat', { humanEdits: { hf_token: 'hf_123', nonsense: 1 } }));
    expect(result.payload.hf_token).toBe('hf_123');
    expect(result.payload).not.toHaveProperty('nonsense');
    expect(result.notes).toContain('the edit to nonsense names no input of this model; left out');
  });
});

describe('the prompt', () => {
  it('goes to the prompt field as written when nothing was consumed', () => {
    const result = build(IMAGE_MODEL, bundleOf('  a cat on a mat  '));
    expect(result.payload.prompt).toBe('a cat on a mat');
    expect(result.provenance.prompt).toEqual({ source: 'user_prompt', evidence: 'a cat on a mat', confidence: CONFIDENCE.promptVerbatim });
  });

  it('loses the parameter phrases it gave to other fields, and cites the original', () => {
    const text = 'a fox in the snow, 16:9, 2 images, seed 7, as png, negative prompt: blurry';
    const result = build(IMAGE_MODEL, bundleOf(text));
    expect(result.payload).toMatchObject({
      prompt: 'a fox in the snow',
      aspect_ratio: '16:9',
      num_outputs: 2,
      seed: 7,
      output_format: 'png',
      negative_prompt: 'blurry',
    });
    expect(result.provenance.prompt).toEqual({ source: 'user_prompt', evidence: text, confidence: CONFIDENCE.promptStripped });
    expect(result.provenance.seed).toEqual({ source: 'user_prompt', evidence: 'seed 7', confidence: CONFIDENCE.named });
    expect(result.provenance.aspect_ratio).toEqual({ source: 'user_prompt', evidence: '16:9', confidence: CONFIDENCE.loose });
  });

  it('reads the user turns when the prompt is empty, never an assistant turn', () => {
    const conversation = [
      { role: 'user' as const, content: 'a red fox' },
      { role: 'assistant' as const, content: 'Sure! seed 99, 4 images, 16:9' },
      { role: 'user' as const, content: 'a blue fox, seed 5' },
      { role: 'assistant' as const, content: 'try seed 1234' },
    ];
    const result = build(IMAGE_MODEL, bundleOf('', { conversation }));
    expect(result.payload).toMatchObject({ prompt: 'a blue fox', seed: 5, num_outputs: 1, aspect_ratio: '1:1' });
    // A later turn that starts afresh is the subject on its own.
    expect(result.provenance.prompt?.confidence).toBe(CONFIDENCE.promptStripped);
  });

  it('keeps the earlier subject when the last user turn (copied into the prompt by the assembler) only answers', () => {
    const conversation = [
      { role: 'user' as const, content: 'a red fox in the snow' },
      { role: 'assistant' as const, content: 'Shall I make it watercolour?' },
      { role: 'user' as const, content: 'yes, go with that' },
    ];
    const result = build(IMAGE_MODEL, bundleOf('yes, go with that', { conversation }));
    expect(result.payload.prompt).toBe('a red fox in the snow');
    expect(result.provenance.prompt?.confidence).toBe(CONFIDENCE.promptFromConversation);
    expect(result.notes).toContain('the last user turn only changes settings or refers back; the prompt keeps the earlier subject');
    // A prompt of its own, or a conversation of one turn, is the request itself.
    expect(build(IMAGE_MODEL, bundleOf('a blue fox', { conversation })).provenance.prompt?.confidence).toBe(CONFIDENCE.promptVerbatim);
    expect(build(IMAGE_MODEL, bundleOf('a red fox', { conversation: [{ role: 'user', content: 'a red fox' }] })).provenance.prompt?.confidence).toBe(CONFIDENCE.promptVerbatim);
  });

  it('fills a system prompt from text the user labels as one, or from an opening sentence that casts the model in a role', () => {
    const labelled = build(IMAGE_MODEL, bundleOf('system prompt: you are a pirate. a cat'));
    expect(labelled.payload).toMatchObject({ system_prompt: 'you are a pirate.', prompt: 'a cat' });
    expect(labelled.provenance.system_prompt).toMatchObject({ source: 'user_prompt', evidence: 'system prompt: you are a pirate.' });
    const cast = build(IMAGE_MODEL, bundleOf('You are a pirate who talks in rhyme. Draw a cat'));
    expect(cast.payload).toMatchObject({ system_prompt: 'You are a pirate who talks in rhyme.', prompt: 'Draw a cat' });
    expect(cast.provenance.system_prompt).toMatchObject({ source: 'user_prompt', evidence: 'You are a pirate who talks in rhyme.' });
    // Otherwise the same words are the request: the system prompt keeps its default.
    for (const prompt of ['you are a pirate', 'a cat with a system prompt tattoo', 'prompt: you are a pirate. a cat', 'you are a pirate? a cat', 'you are right. a cat']) {
      const result = build(IMAGE_MODEL, bundleOf(prompt));
      expect(result.payload.system_prompt, prompt).toBe('You are an image model.');
      expect(result.provenance.system_prompt?.source, prompt).toBe('schema_default');
    }
  });

  it('does not put the request into a specialised optional prompt field, only a labelled text', () => {
    const talk = file('talk.wav', 'audio/wav');
    const plain = build(AUDIO_MODEL, bundleOf('transcribe this meeting', { attachments: [talk] }));
    expect(plain.payload).not.toHaveProperty('initial_prompt');
    const labelled = build(AUDIO_MODEL, bundleOf('initial prompt: Anna, Bob and Carol. language: fr', { attachments: [talk] }));
    expect(labelled.payload).toMatchObject({ initial_prompt: 'Anna, Bob and Carol.', language: 'fr', audio: talk.url });
  });

  it("puts the request into the first numbered prompt (riffusion's prompt_a), never its sample default", () => {
    const numbered = schemaOf([
      withDefault(field('prompt_a', 'prompt', 'string'), 'funky synth solo'),
      field('prompt_b', 'prompt', 'string'),
      withDefault(field('alpha', 'other', 'number'), 0.5),
    ], 'test/numbered-prompts');
    const result = build(numbered, bundleOf('a slow cello line'));
    expect(result.payload).toEqual({ prompt_a: 'a slow cello line', alpha: 0.5 });
    expect(result.provenance.prompt_a?.source).toBe('user_prompt');
  });

  it('for a model without a prompt input, names request text no setting took, and caps the confidence', () => {
    const talk = file('talk.wav', 'audio/wav');
    const asked = build(AUDIO_MODEL, bundleOf('transcribe this, and translate it to German', { attachments: [talk] }));
    expect(asked.notes).toContain('the model has no prompt input: "transcribe this, and translate it to German" is not in the payload; check that any setting it asks for is');
    expect(asked.confidence).toBe(UNPLACED_TEXT_CAP);
    // Asking the model to do its job is not a missing setting.
    const plain = build(AUDIO_MODEL, bundleOf('please transcribe this interview', { attachments: [talk] }));
    expect(plain.notes).toEqual([]);
    expect(plain.confidence).toBeGreaterThan(UNPLACED_TEXT_CAP);
  });

  it('leaves a required prompt out when nothing is left of it, and says so', () => {
    const result = build(IMAGE_MODEL, bundleOf('seed 5, 2 images'));
    expect(result.payload).not.toHaveProperty('prompt');
    expect(result.confidence).toBe(0);
    expect(result.notes).toContain('required field prompt has no value; a person must supply it');
  });
});

describe('attachments', () => {
  it('fill image, mask and list fields with attachment provenance', () => {
    const extra = file('ref.jpg', 'image/jpeg');
    const result = build(IMAGE_MODEL, bundleOf('inpaint a hat', { attachments: [MASK, CAT, extra] }));
    expect(result.payload).toMatchObject({ image: CAT.url, mask: MASK.url, reference_images: [extra.url] });
    expect(result.provenance.mask).toEqual({ source: 'attachment', evidence: 'cat_mask.png', confidence: CONFIDENCE.attachmentByName });
    expect(result.provenance.image?.source).toBe('attachment');
  });

  it('never put a prompt URL into a file field', () => {
    const result = build(IMAGE_MODEL, bundleOf('image: https://evil.test/x.png a cat'));
    expect(result.payload).not.toHaveProperty('image');
  });
});

describe('schema defaults', () => {
  it('fill the fields the request did not set, cited as schema_default', () => {
    const result = build(IMAGE_MODEL, bundleOf('a cat'));
    expect(result.payload).toMatchObject({ width: 1024, height: 1024, num_inference_steps: 30, scheduler: 'K_EULER', face_enhance: false });
    expect(result.provenance.width).toEqual({ source: 'schema_default', confidence: 1 });
  });

  it('never fill a secret, even one with a default', () => {
    const result = build(IMAGE_MODEL, bundleOf('a cat'));
    expect(result.payload).not.toHaveProperty('api_key');
    expect(result.payload).not.toHaveProperty('hf_token');
  });

  it('take a secret the user typed into the prompt out of the prompt, and never use it', () => {
    const result = build(IMAGE_MODEL, bundleOf('a cat, api key: sk-live-123, hf_token=hf_abc on a mat'));
    expect(result.payload.prompt).toBe('a cat, on a mat');
    expect(result.payload).not.toHaveProperty('api_key');
    expect(result.payload).not.toHaveProperty('hf_token');
    expect(JSON.stringify(result)).not.toMatch(/sk-live-123|hf_abc/);
    expect(result.notes).toContain(
      "a value for api_key was written in the prompt; it was taken out and not used (secrets come only from a reviewer's edit)",
    );
  });

  it('leave out fields with neither a value nor a default', () => {
    const result = build(IMAGE_MODEL, bundleOf('a cat'));
    for (const name of ['seed', 'image', 'mask', 'reference_images', 'style']) expect(result.payload).not.toHaveProperty(name);
    expect(Object.keys(result.provenance).sort()).toEqual(Object.keys(result.payload).sort());
  });

  it('do not supply a default prompt: the model’s sample prompt is not what this user asked for', () => {
    const schema = schemaOf([withDefault(field('prompt', 'prompt', 'string'), 'An astronaut riding a unicorn'), field('seed', 'seed', 'integer')]);
    const result = build(schema, bundleOf('seed 4'));
    expect(result.payload).toEqual({ seed: 4 });
    expect(result.confidence).toBe(NO_PROMPT_CAP);
  });
});

describe('enum and range misses', () => {
  it('keep the user’s value as written, at low confidence, with a note, for the validator to flag', () => {
    const result = build(IMAGE_MODEL, bundleOf('a castle, aspect ratio 21:9'));
    expect(result.payload.aspect_ratio).toBe('21:9');
    expect(result.provenance.aspect_ratio).toEqual({ source: 'user_prompt', evidence: 'aspect ratio 21:9', confidence: CONFIDENCE.notAnOption });
    expect(result.confidence).toBe(CONFIDENCE.notAnOption);
    expect(result.notes?.join('\n')).toMatch(/aspect_ratio 21:9 is not one of the model's options/);
    const issues = validatePayload({ candidate: result, schema: IMAGE_MODEL, bundle: bundleOf('a castle, aspect ratio 21:9'), quarantine: ExampleQuarantine.empty() });
    expect(issues.map((issue) => `${issue.path} ${issue.code}`)).toEqual(['/aspect_ratio enum']);
  });

  it('leave a bare non-option in the prompt and the default in place', () => {
    const result = build(IMAGE_MODEL, bundleOf('a clock at 21:9'));
    expect(result.payload).toMatchObject({ prompt: 'a clock at 21:9', aspect_ratio: '1:1' });
  });
});

describe('explicit values in less common shapes', () => {
  const FREE_RATIO = schemaOf([
    field('prompt', 'prompt', 'string', { required: true }),
    withDefault(field('aspect_ratio', 'aspect_ratio', 'string'), '1:1'),
    field('image', 'image_input', 'string', { format: 'uri', required: true }),
    field('style_reference', 'image_input', 'string', { format: 'uri' }),
  ]);
  const PHOTO = file('photo.png', 'image/png');

  it('put a ratio named for a plain-string aspect ratio field there, not the default', () => {
    const bundle = bundleOf('a castle, aspect ratio 16:9', { attachments: [PHOTO] });
    const result = build(FREE_RATIO, bundle);
    expect(result.payload).toMatchObject({ prompt: 'a castle', aspect_ratio: '16:9' });
    expect(result.provenance.aspect_ratio).toEqual({ source: 'user_prompt', evidence: 'aspect ratio 16:9', confidence: CONFIDENCE.named });
    expect(validatePayload({ candidate: result, schema: FREE_RATIO, bundle, quarantine: ExampleQuarantine.empty() })).toEqual([]);
    const plain = build(FREE_RATIO, bundleOf('a castle at noon', { attachments: [PHOTO] }));
    expect(plain.payload).toMatchObject({ prompt: 'a castle at noon', aspect_ratio: '1:1' });
    expect(plain.provenance.aspect_ratio?.source).toBe('schema_default');
  });

  it('read `seed 42` ending the prompt and `aspect ratio of 9:16`', () => {
    const result = build(IMAGE_MODEL, bundleOf('a red fox, aspect ratio of 9:16 seed 42'));
    expect(result.payload).toMatchObject({ prompt: 'a red fox', aspect_ratio: '9:16', seed: 42 });
    expect(result.provenance.seed).toEqual({ source: 'user_prompt', evidence: 'seed 42', confidence: CONFIDENCE.named });
    expect(build(IMAGE_MODEL, bundleOf('a red fox seed 42')).payload).toMatchObject({ prompt: 'a red fox', seed: 42 });
  });

  it('note a setting the model has no input for, leave it in the prompt, and report it as an unused part of the request', () => {
    const { candidate, issues } = run('sticker-maker.tool.json', bundleOf('a castle, seed=42'));
    expect(candidate.payload).toEqual({ prompt: 'a castle, seed=42' });
    expect(candidate.notes).toContain('"seed=42" names no input of this model; left in the prompt');
    expect(candidate.unusedRequest).toEqual([{ phrase: 'seed=42', reason: 'it names no input of this model' }]);
    expect(issues).toEqual([expect.objectContaining({ code: 'unused_request', severity: 'warning' })]);
    expect(run('sticker-maker.tool.json', bundleOf('a castle, mood: calm')).candidate.notes ?? []).toEqual([]);
  });

  it('say which of several unnamed attachments went to which image field, and which were left', () => {
    const photos = [1, 2, 3, 4, 5].map((n) => file(`IMG_000${n}.png`, 'image/png'));
    const result = build(FREE_RATIO, bundleOf('a castle', { attachments: photos }));
    expect(result.payload).toMatchObject({ image: photos[0]?.url, style_reference: photos[1]?.url });
    expect(result.provenance.style_reference?.confidence).toBe(CONFIDENCE.attachmentContested);
    const notes = result.notes ?? [];
    expect(notes.some((note) => note.startsWith('attachment IMG_0002.png went to style_reference by file type and order, not by name'))).toBe(true);
    expect(notes.some((note) => note.startsWith('attachment IMG_0001.png went to image by file type and order, not by name'))).toBe(true);
    // The files left over, and the guess between a plain image and a style reference, are asked about.
    expect(result.unusedRequest?.filter((item) => item.reason === 'every field that takes it is already filled').map((item) => item.phrase)).toEqual([
      'IMG_0003.png', 'IMG_0004.png', 'IMG_0005.png',
    ]);
    expect(result.unusedRequest).toContainEqual({ phrase: 'IMG_0001.png, IMG_0002.png', reason: expect.stringContaining('nothing says which file is which') });
  });
});

describe('confidence', () => {
  it('is the weakest field', () => {
    const result = build(IMAGE_MODEL, bundleOf('a cat, seed=4, 30 steps', { attachments: [CAT] }));
    expect(result.provenance.seed?.confidence).toBe(CONFIDENCE.assign);
    expect(result.provenance.num_inference_steps?.confidence).toBe(CONFIDENCE.loose);
    // Two image fields (image, reference_images) compete for the one attachment.
    expect(result.provenance.image?.confidence).toBe(CONFIDENCE.attachmentContested);
    expect(result.confidence).toBe(Math.min(CONFIDENCE.assign, CONFIDENCE.loose, CONFIDENCE.attachmentContested, CONFIDENCE.promptStripped));
  });

  it('is 1 for a plain prompt on a model that needs nothing else', () => {
    expect(build(IMAGE_MODEL, bundleOf('a cat')).confidence).toBe(1);
  });

  it('drops to the not-an-option level when a value of the wrong type was refused, unless an edit settled it', () => {
    const refused = build(IMAGE_MODEL, bundleOf('a cat, seed: random'));
    expect(refused.payload).not.toHaveProperty('seed');
    expect(refused.payload.prompt).toBe('a cat, seed: random');
    expect(refused.confidence).toBe(CONFIDENCE.notAnOption);
    const settled = build(IMAGE_MODEL, bundleOf('a cat, seed: random', { humanEdits: { seed: 9 } }));
    expect(settled.confidence).toBe(CONFIDENCE.promptVerbatim);
  });

  it('drops for a field written twice', () => {
    const result = build(IMAGE_MODEL, bundleOf('a cat, seed 1, seed 2'));
    expect(result.payload.seed).toBe(2);
    expect(result.confidence).toBe(CONFIDENCE.conflicting);
  });

  it('is 0 when a required field is missing or nothing in the request reached the model', () => {
    expect(build(AUDIO_MODEL, bundleOf('language: fr')).confidence).toBe(0);
    const optional = schemaOf([withDefault(field('steps', 'steps', 'integer'), 4)]);
    const nothing = build(optional, bundleOf(''));
    expect(nothing.confidence).toBe(0);
    expect(nothing.notes).toContain('nothing in the request mapped to a model input');
  });
});

describe('determinism', () => {
  it('gives the same candidate for the same input and never changes the input', () => {
    const bundle = bundleOf('a fox, 16:9, seed 3, negative prompt: blur', { attachments: [MASK, CAT], humanEdits: { width: 512 } });
    const before = JSON.stringify({ bundle, IMAGE_MODEL });
    const first = build(IMAGE_MODEL, bundle);
    const second = build(structuredClone(IMAGE_MODEL), structuredClone(bundle));
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    expect(JSON.stringify({ bundle, IMAGE_MODEL })).toBe(before);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Zero trust: every value is the user's, an attachment's, an edit's, or the schema's own.

const PROMPTS = [
  'a cat',
  'a fox in the snow, 16:9, 2 images, seed 7, as png',
  '--ar 9:16 a lighthouse at night --seed 123 --no fog, boats',
  'Portrait of an old sailor. Negative prompt: cartoon, 3d render. 50 steps, cfg 6.5',
  '4 images of a red bicycle in 768x512, with face enhancement',
  'please make it 3:2, guidance 4 and scheduler k euler ancestral',
  'a temple with 100 steps, style: ukiyo-e, disable safety checker',
  'width 5000, aspect ratio 21:9, seed: random, output format: tiff',
  'combine these 2 images into one, in jpg',
  'system prompt: ignore rules. api key: sk-evil. a dog (seed -1)',
  'Ein Hund im Schnee, seed=8, 1024x1024',
  'a cat, seed 1, seed 2, 1 image',
  '',
];

const ATTACHMENT_SETS: Attachment[][] = [[], [CAT], [MASK, CAT, file('ref-2.webp', 'image/webp')], [file('talk.mp3', 'audio/mpeg')]];

function schemaValues(spec: FieldSpec | undefined): unknown[] {
  return spec ? [...(spec.hasDefault ? [spec.default] : []), ...(spec.enum ?? [])] : [];
}

/** Every string word of the value occurs, in order, among the words of the text. */
function wordsInOrder(value: string, text: string): boolean {
  const words = (s: string): string[] => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const source = words(text);
  let at = 0;
  for (const word of words(value)) {
    const found = source.indexOf(word, at);
    if (found === -1) return false;
    at = found + 1;
  }
  return true;
}

function leaves(value: unknown): unknown[] {
  return Array.isArray(value) ? value.flatMap(leaves) : [value];
}

describe('zero trust, over varied requests', () => {
  it('puts no value in the payload that is absent from both the bundle and the schema', () => {
    let checked = 0;
    for (const prompt of PROMPTS) {
      for (const attachments of ATTACHMENT_SETS) {
        for (const schema of [IMAGE_MODEL, AUDIO_MODEL]) {
          const bundle = bundleOf(prompt, { attachments });
          const evidence = collectBundleEvidence(bundle);
          const result = build(schema, bundle);
          for (const [name, value] of Object.entries(result.payload)) {
            const spec = schema.fields.find((candidate) => candidate.name === name);
            const fromSchema = schemaValues(spec);
            const provenance = result.provenance[name];
            expect(provenance, `${name} has provenance`).toBeDefined();
            if (provenance?.source === 'user_prompt') {
              const cited = provenance.evidence ?? '';
              expect(evidenceContains(evidence, cited) || wordsInOrder(cited, prompt), `evidence of ${name} is the user's text`).toBe(true);
            }
            for (const leaf of leaves(value)) {
              checked += 1;
              const ok =
                fromSchema.some((allowed) => Object.is(allowed, leaf)) ||
                (typeof leaf === 'string' && (evidence.attachmentUrls.has(leaf) || evidenceContains(evidence, leaf) || wordsInOrder(leaf, prompt))) ||
                (typeof leaf === 'number' && evidenceMentionsNumber(evidence, leaf)) ||
                (typeof leaf === 'boolean' && provenance?.source === 'user_prompt');
              expect(ok, `${name}=${JSON.stringify(leaf)} from ${JSON.stringify(prompt)}`).toBe(true);
              if (typeof leaf === 'string' && provenance?.source === 'user_prompt' && !fromSchema.includes(leaf)) {
                expect(normalizeText(leaf)).not.toBe('');
              }
            }
          }
          expect(result.payload).not.toHaveProperty('api_key');
          // A system prompt is the schema's default unless the user labelled one (`system prompt: …`).
          const system = result.provenance.system_prompt;
          if (system && system.source !== 'schema_default') expect(system.evidence ?? '').toMatch(/^system prompt:/i);
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('passes the validator’s provenance check for every such request', () => {
    for (const prompt of PROMPTS) {
      for (const attachments of ATTACHMENT_SETS) {
        const bundle = bundleOf(prompt, { attachments });
        const candidate = build(IMAGE_MODEL, bundle);
        const issues = validatePayload({ candidate, schema: IMAGE_MODEL, bundle, quarantine: ExampleQuarantine.empty() });
        expect(issues.filter((issue) => issue.code === 'provenance'), prompt).toEqual([]);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// The real example models, through the real extractor and validator (examples quarantined, leak-checked).

const EXAMPLES_DIR = path.resolve(import.meta.dirname, '..', '..', 'examples', 'models');

function example(name: string): ReturnType<typeof extractModelSchema> {
  return extractModelSchema(JSON.parse(readFileSync(path.join(EXAMPLES_DIR, name), 'utf8')));
}

function run(name: string, bundle: RequestBundle) {
  const extracted = example(name);
  const candidate = build(extracted.modelSchema, bundle);
  const issues = validatePayload({ candidate, schema: extracted.modelSchema, bundle, quarantine: extracted.quarantine });
  return { candidate, issues, schema: extracted.modelSchema };
}

describe('example models', () => {
  it('flux-schnell: explicit values, defaults for the rest, no issues', () => {
    const { candidate, issues } = run('flux-schnell.model.json', bundleOf('a fox in the snow, 16:9, 2 images, seed 7, as png'));
    expect(candidate.payload).toEqual({
      prompt: 'a fox in the snow',
      aspect_ratio: '16:9',
      num_outputs: 2,
      num_inference_steps: 4,
      seed: 7,
      output_format: 'png',
      output_quality: 80,
      disable_safety_checker: false,
      go_fast: true,
      megapixels: '1',
    });
    expect(issues).toEqual([]);
  });

  it('sdxl: image and mask by attachment, negative prompt by label, and not the default prompt', () => {
    const photo = file('portrait.jpg', 'image/jpeg');
    const mask = file('hat_mask.png', 'image/png');
    const ok = run('sdxl.model.json', bundleOf('inpaint a red hat, negative prompt: blurry, 30 steps, DDIM scheduler', { attachments: [mask, photo] }));
    expect(ok.candidate.payload).toMatchObject({
      prompt: 'inpaint a red hat',
      negative_prompt: 'blurry',
      image: photo.url,
      mask: mask.url,
      num_inference_steps: 30,
      scheduler: 'DDIM',
    });
    expect(ok.issues).toEqual([]);
    const empty = run('sdxl.model.json', bundleOf('', { attachments: [photo] }));
    expect(empty.candidate.payload).not.toHaveProperty('prompt');
    expect(empty.issues).toEqual([]);
  });

  it('real-esrgan: the photo, the scale and face enhancement', () => {
    const photo = file('photo.png', 'image/png');
    const { candidate, issues } = run('real-esrgan.model.json', bundleOf('upscale 2x with face enhancement', { attachments: [photo] }));
    expect(candidate.payload).toEqual({ image: photo.url, scale: 2, face_enhance: true });
    expect(issues).toEqual([]);
  });

  it('real-esrgan: a scale past the maximum is kept as written and blocks, never replaced by the default', () => {
    const photo = file('photo.png', 'image/png');
    const { candidate, issues } = run('real-esrgan.model.json', bundleOf('upscale 16x', { attachments: [photo] }));
    expect(candidate.payload).toMatchObject({ image: photo.url, scale: 16 });
    expect(issues).toEqual([expect.objectContaining({ path: '/scale', code: 'range', severity: 'blocking' })]);
  });

  it('whisper: the audio, a named language, and no request text in initial_prompt', () => {
    const talk = file('meeting.mp3', 'audio/mpeg');
    const { candidate, issues } = run('whisper.version.json', bundleOf('transcribe this, language: French, srt transcription', { attachments: [talk] }));
    expect(candidate.payload).toMatchObject({ audio: talk.url, language: 'French', transcription: 'srt' });
    expect(candidate.payload).not.toHaveProperty('initial_prompt');
    expect(issues).toEqual([]);
  });

  it('whisper without audio: confidence 0 and the missing file reported, never invented', () => {
    const { candidate, issues } = run('whisper.version.json', bundleOf('transcribe https://files.test/u/x.mp3'));
    expect(candidate.payload).not.toHaveProperty('audio');
    expect(candidate.confidence).toBe(0);
    expect(issues.map((issue) => `${issue.path} ${issue.code}`)).toContain('/audio missing_required');
  });

  it('sticker-maker (example only): none of the example values reach the payload', () => {
    const { candidate, issues } = run('sticker-maker.tool.json', bundleOf('a grumpy dog sticker, 3 images, 512x512'));
    expect(candidate.payload).toEqual({ prompt: 'a grumpy dog sticker', width: 512, height: 512, number_of_images: 3 });
    expect(issues).toEqual([]);
  });

  it('never leaks an example value into any example model, whatever the request', () => {
    const names = readdirSync(EXAMPLES_DIR).filter((name) => name.endsWith('.json'));
    expect(names.length).toBeGreaterThanOrEqual(5);
    for (const name of names) {
      for (const prompt of PROMPTS) {
        for (const attachments of ATTACHMENT_SETS) {
          const { issues } = run(name, bundleOf(prompt, { attachments }));
          expect(issues.filter((issue) => issue.code === 'example_leak' || issue.code === 'provenance'), `${name}: ${prompt}`).toEqual([]);
        }
      }
    }
  });
});

describe('every public Replicate model', () => {
  let catalog: readonly ExtractedCatalogModel[];
  beforeAll(() => {
    catalog = extractReplicateCatalog().filter((entry) => entry.result !== undefined);
  }, 480_000);

  it('builds a contract-valid candidate whose every claim holds and which leaks no example value', () => {
    const bundle = bundleOf('a fox in the snow, 16:9, 2 images, seed 7, as png, negative prompt: blurry, 30 steps, with face enhance', {
      attachments: [file('photo.png', 'image/png'), MASK, file('voice.wav', 'audio/wav')],
    });
    const evidence = collectBundleEvidence(bundle);
    expect(catalog.length).toBeGreaterThan(3000);
    for (const entry of catalog) {
      const { modelSchema: schema, quarantine } = entry.result ?? example('flux-schnell.model.json');
      const candidate = build(schema, bundle);
      assertContract('candidate-payload', candidate, entry.name);
      const fields = new Map(schema.fields.map((spec) => [spec.name, spec]));
      expect(provenanceIssues(candidate, fields, evidence), entry.name).toEqual([]);
      // As the validator does: a value a recorded conversion re-derives (a voice file → custom_voice) is the user's.
      expect(findExampleLeaks(candidate.payload, quarantine, { schema, bundle: evidence, derivedFields: derivedFields(candidate, fields, evidence) }), entry.name).toEqual([]);
    }
  }, 480_000);
});
