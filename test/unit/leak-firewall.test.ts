import { describe, expect, it } from 'vitest';
import type { FieldSpec, ModelSchema, RequestBundle } from '../../src/generated/contracts.ts';
import { collectBundleEvidence } from '../../src/stages/bundle-evidence.ts';
import { ExampleQuarantine } from '../../src/stages/example-quarantine.ts';
import {
  COMMON_INTEGER_MAX,
  EXACT_ANYWHERE_MIN_LENGTH,
  SUBSTRING_MIN_LENGTH,
  findExampleLeaks,
  isDistinctiveNumber,
  ownFieldPath,
  type LeakFinding,
} from '../../src/stages/leak-firewall.ts';
import { canonicalHash } from '../../src/util/canonical-hash.ts';

// ---- fixtures: a hand-made ModelSchema that follows the contract (strict draft-07 object, one FieldSpec per field)

type FieldInput = Pick<FieldSpec, 'name' | 'type'> & Partial<FieldSpec>;

function defineSchema(inputs: FieldInput[]): ModelSchema {
  const fields: FieldSpec[] = inputs.map((input, order) => ({
    role: 'other',
    required: false,
    nullable: false,
    hasDefault: 'default' in input,
    order,
    ...input,
  }));
  const properties: Record<string, unknown> = {};
  for (const f of fields) {
    properties[f.name] = {
      type: f.type,
      ...(f.enum ? { enum: f.enum } : {}),
      ...(f.hasDefault ? { default: f.default } : {}),
      ...(f.itemType ? { items: { type: f.itemType } } : {}),
    };
  }
  const required = fields.filter((f) => f.required).map((f) => f.name);
  const jsonSchema = { type: 'object', additionalProperties: false, properties, required };
  return { schemaHash: canonicalHash(jsonSchema), model: 'acme/test', version: null, source: 'example_input', jsonSchema, fields, warnings: [] };
}

const schema = defineSchema([
  { name: 'prompt', type: 'string', role: 'prompt', required: true },
  { name: 'negative_prompt', type: 'string', role: 'negative_prompt', default: '' },
  { name: 'style', type: 'string' },
  { name: 'width', type: 'integer', role: 'width', default: 1024 },
  { name: 'steps', type: 'integer', role: 'steps' },
  { name: 'num_outputs', type: 'integer', role: 'num_outputs', default: 1 },
  { name: 'seed', type: 'integer', role: 'seed' },
  { name: 'guidance', type: 'number', role: 'guidance' },
  { name: 'scheduler', type: 'string', enum: ['DDIM', 'K_EULER'], default: 'K_EULER' },
  { name: 'refine', type: 'string', enum: ['no_refiner', 'image_refiner', 'base_image_refiner'], default: 'no_refiner' },
  { name: 'images', type: 'array', itemType: 'string', role: 'image_input' },
  { name: 'go_fast', type: 'boolean', default: true },
]);

function bundle(prompt = '', extra: Partial<RequestBundle> = {}): RequestBundle {
  return { prompt, conversation: [], attachments: [], userProfile: {}, humanEdits: {}, safetyFlags: [], ...extra };
}

function leaks(payload: Record<string, unknown>, example: Record<string, unknown>, b: RequestBundle = bundle()): LeakFinding[] {
  return findExampleLeaks(payload, ExampleQuarantine.fromExamples(example), { schema, bundle: b });
}

// ---- strings

describe('findExampleLeaks: strings', () => {
  it('matches a short example string only at its own path', () => {
    const short = 'anime';
    expect(short.length).toBeLessThan(EXACT_ANYWHERE_MIN_LENGTH);
    expect(leaks({ negative_prompt: 'anime' }, { style: short })).toEqual([]);
    expect(leaks({ style: 'Anime ' }, { style: short })).toEqual([
      { path: '/style', value: 'Anime ', examplePath: '/style', exampleValue: 'anime', match: 'exact' },
    ]);
  });

  it(`matches an example string of ${EXACT_ANYWHERE_MIN_LENGTH}+ characters at any path, trimmed and case-insensitively`, () => {
    expect('kawaii').toHaveLength(EXACT_ANYWHERE_MIN_LENGTH);
    expect(leaks({ negative_prompt: '  KAWAII ' }, { style: 'kawaii' })).toEqual([
      { path: '/negative_prompt', value: '  KAWAII ', examplePath: '/style', exampleValue: 'kawaii', match: 'exact' },
    ]);
  });

  it('does not flag an exact match the user wrote', () => {
    expect(leaks({ style: 'kawaii' }, { style: 'kawaii' }, bundle('a kawaii cat, please'))).toEqual([]);
    expect(leaks({ style: 'anime' }, { style: 'anime' }, bundle('anime style cat'))).toEqual([]);
  });

  it(`finds example strings of ${SUBSTRING_MIN_LENGTH}+ characters inside longer text, on word boundaries`, () => {
    expect('dramatic').toHaveLength(SUBSTRING_MIN_LENGTH);
    expect(leaks({ prompt: 'a dramatic cat on a roof' }, { style: 'dramatic' })).toEqual([
      { path: '/prompt', value: 'a dramatic cat on a roof', examplePath: '/style', exampleValue: 'dramatic', match: 'substring' },
    ]);
    // part of another word is not the example's word
    expect(leaks({ prompt: 'a melodramatic cat' }, { style: 'dramatic' })).toEqual([]);
  });

  it(`treats example strings shorter than ${SUBSTRING_MIN_LENGTH} characters as ordinary words inside text`, () => {
    expect('pastels').toHaveLength(SUBSTRING_MIN_LENGTH - 1);
    expect(leaks({ prompt: 'a cat in pastels' }, { style: 'pastels' })).toEqual([]);
  });

  it('does not flag a substring match when the user wrote the example text', () => {
    expect(leaks({ prompt: 'a dramatic cat' }, { style: 'dramatic' }, bundle('draw a dramatic cat'))).toEqual([]);
  });

  it('flags a truncated copy of a long example string unless the user wrote it', () => {
    const example = { prompt: 'An astronaut riding a rainbow unicorn, cinematic, dramatic' };
    expect(leaks({ prompt: 'an astronaut riding a rainbow unicorn' }, example)).toEqual([
      {
        path: '/prompt',
        value: 'an astronaut riding a rainbow unicorn',
        examplePath: '/prompt',
        exampleValue: example.prompt,
        match: 'substring',
      },
    ]);
    expect(leaks({ prompt: 'an astronaut riding a rainbow unicorn' }, example, bundle('make an astronaut riding a rainbow unicorn'))).toEqual([]);
    // the user's words in another order still trace to the user
    expect(leaks({ prompt: 'an astronaut riding a rainbow unicorn' }, example, bundle('unicorn (rainbow) riding an astronaut? a'))).toEqual([]);
  });

  it('matches enum members only exactly, never as substrings of one another', () => {
    expect(leaks({ refine: 'image_refiner' }, { refine: 'base_image_refiner' })).toEqual([]);
    expect(leaks({ refine: 'base_image_refiner' }, { refine: 'base_image_refiner' })).toHaveLength(1);
  });

  it('does not flag an enum member the user named', () => {
    expect(leaks({ refine: 'base_image_refiner' }, { refine: 'base_image_refiner' }, bundle('use the base_image_refiner'))).toEqual([]);
  });

  it("does not flag the field's schema default, even when the example has the same value", () => {
    expect(leaks({ scheduler: 'K_EULER' }, { scheduler: 'K_EULER' })).toEqual([]);
    expect(leaks({ scheduler: 'DDIM' }, { scheduler: 'DDIM' })).toHaveLength(1);
  });

  it('does not flag a field whose value is the human edit', () => {
    const example = { images: ['https://cdn.example/canary-cat.png'] };
    const edited = bundle('', { humanEdits: { images: ['https://cdn.example/canary-cat.png'] } });
    expect(leaks({ images: ['https://cdn.example/canary-cat.png'] }, example, edited)).toEqual([]);
  });

  it('walks nested arrays and objects', () => {
    const example = { images: ['https://cdn.example/canary-cat.png'], extra: { note: 'zebra-canary-note' } };
    const found = leaks({ images: ['https://user.example/mine.png', 'https://cdn.example/canary-cat.png'], style: { a: ['zebra-canary-note'] } }, example);
    expect(found.map((f) => [f.path, f.examplePath, f.match])).toEqual([
      ['/images/1', '/images/0', 'exact'],
      ['/style/a/0', '/extra/note', 'exact'],
    ]);
  });
});

// ---- examples a schema publishes on its own fields (`example` / `examples` keywords)

describe('findExampleLeaks: short examples at the field whose schema publishes them', () => {
  /** A quarantine of schema keyword values only (as a provider document gives them), no example request. */
  function keywordLeaks(payload: Record<string, unknown>, published: Record<string, string | number>, b: RequestBundle = bundle(), derived: string[] = []): LeakFinding[] {
    const quarantine = ExampleQuarantine.fromExamples(undefined, Object.entries(published).map(([path, value]) => ({ path, value })));
    return findExampleLeaks(payload, quarantine, { schema, bundle: b, derivedFields: new Set(derived) });
  }

  it.each([
    ['language', 'ja', '#/language/example'],
    ['aspect_ratio', '2:3', '#/aspect_ratio/examples/0'],
    ['mode', 'fast', '#/mode/examples/1'],
  ])('flags %s = %j placed without the user saying it (published at %s)', (field, value, published) => {
    expect(value.length).toBeLessThan(EXACT_ANYWHERE_MIN_LENGTH);
    expect(keywordLeaks({ [field]: value }, { [published]: value }, bundle('a cat on a roof'))).toEqual([
      { path: `/${field}`, value, examplePath: published, exampleValue: value, match: 'exact' },
    ]);
  });

  it('does not flag the same short values when the user said them, or at another field', () => {
    expect(keywordLeaks({ language: 'ja' }, { '#/language/example': 'ja' }, bundle('answer in ja please'))).toEqual([]);
    expect(keywordLeaks({ aspect_ratio: '2:3' }, { '#/aspect_ratio/example': '2:3' }, bundle('a cat on a roof, 2:3'))).toEqual([]);
    expect(keywordLeaks({ mode: 'Fast' }, { '#/mode/example': 'fast' }, bundle('make it fast'))).toEqual([]);
    // A short word at another field is an ordinary word, not a copy.
    expect(keywordLeaks({ style: 'fast' }, { '#/mode/example': 'fast' })).toEqual([]);
  });

  it("does not flag the schema's own default, or a value a recorded conversion gives from the user's words", () => {
    expect(keywordLeaks({ scheduler: 'K_EULER' }, { '#/scheduler/example': 'K_EULER' })).toEqual([]);
    // `vertical` → 9:16 (aspect_word), `en japonés` → ja (language_name): the validator re-derived both.
    expect(keywordLeaks({ aspect_ratio: '9:16' }, { '#/aspect_ratio/example': '9:16' }, bundle('a lighthouse, vertical'), ['aspect_ratio'])).toEqual([]);
    expect(keywordLeaks({ language: 'ja' }, { '#/language/example': 'ja' }, bundle('responde en japonés'), ['language'])).toEqual([]);
    // An enum member the schema offers is still a copy when nobody asked for it and it is not the default.
    expect(keywordLeaks({ scheduler: 'DDIM' }, { '#/scheduler/example': 'DDIM' })).toHaveLength(1);
  });

  it('matches inside objects and lists, and numbers at their own field', () => {
    const published = { '#/image_size/examples/0/width': 1280, '#/image_size/examples/0/height': 720, '#/tags[]/example': 'noir', '#/steps/example': 17 };
    expect(keywordLeaks({ image_size: { width: 1280, height: 720 }, tags: ['day', 'noir'], steps: 17 }, published).map((f) => [f.path, f.examplePath])).toEqual([
      ['/image_size/height', '#/image_size/examples/0/height'],
      ['/image_size/width', '#/image_size/examples/0/width'],
      ['/steps', '#/steps/example'],
      ['/tags/1', '#/tags[]/example'],
    ]);
    expect(keywordLeaks({ image_size: { width: 1280, height: 720 } }, published, bundle('a cat, 1280x720'))).toEqual([]);
  });

  it.each([
    ['/style', '/style'],
    ['/images/3', '/images/*'],
    ['#/style/example', '/style'],
    ['#/style/examples/2', '/style'],
    ['#/image_size/examples/0/width', '/image_size/width'],
    ['#/opts.mode/example', '/opts/mode'],
    ['#/images[]/example', '/images/*'],
    ['#/images/example/1', '/images/*'],
    ['#//example/style', '/style'],
    ['#//examples/0/opts/mode', '/opts/mode'],
    ['#/prompt/default', '/prompt'],
  ])('ownFieldPath(%j) is %j', (examplePath, field) => {
    expect(ownFieldPath(examplePath)).toBe(field);
  });
});

// ---- numbers

describe('findExampleLeaks: numbers', () => {
  it('flags a small number at the same path', () => {
    expect(17).toBeLessThanOrEqual(COMMON_INTEGER_MAX);
    expect(leaks({ steps: 17 }, { steps: 17 })).toEqual([
      { path: '/steps', value: 17, examplePath: '/steps', exampleValue: 17, match: 'number' },
    ]);
  });

  it('does not flag a same-path number the user wrote, or the default', () => {
    expect(leaks({ steps: 17 }, { steps: 17 }, bundle('use 17 steps'))).toEqual([]);
    expect(leaks({ width: 1024 }, { width: 1024 })).toEqual([]);
    expect(leaks({ width: 768 }, { width: 768 })).toHaveLength(1);
    expect(leaks({ width: 768 }, { width: 768 }, bundle('768 pixels wide'))).toEqual([]);
  });

  it('does not flag a common number at another path', () => {
    expect(leaks({ num_outputs: 17 }, { steps: 17 })).toEqual([]);
    expect(leaks({ width: 768 }, { height: 768 })).toEqual([]);
    expect(leaks({ guidance: 7.5 }, { lora_scale: 7.5 })).toEqual([]);
  });

  it('flags a distinctive number at another path unless the user wrote it', () => {
    expect(leaks({ steps: 424242 }, { seed: 424242 })).toEqual([
      { path: '/steps', value: 424242, examplePath: '/seed', exampleValue: 424242, match: 'number' },
    ]);
    expect(leaks({ guidance: 0.37 }, { lora_scale: 0.37 })).toHaveLength(1);
    expect(leaks({ steps: 424242 }, { seed: 424242 }, bundle('seed 424242 please'))).toEqual([]);
  });

  it('compares numeric strings as numbers on both sides', () => {
    expect(leaks({ seed: '424242' }, { seed: 424242 })).toEqual([
      { path: '/seed', value: '424242', examplePath: '/seed', exampleValue: 424242, match: 'number' },
    ]);
    expect(leaks({ seed: 424242 }, { seed: '424242' })).toHaveLength(1);
  });

  it('flags a distinctive example number written inside text, unless the user wrote it', () => {
    const example = { seed: 918273645, prompt: 'a bowl of fruit' };
    expect(leaks({ prompt: 'a cat on a mat, seed 918273645' }, example, bundle('a cat on a mat'))).toEqual([
      { path: '/prompt', value: 'a cat on a mat, seed 918273645', examplePath: '/seed', exampleValue: 918273645, match: 'number' },
    ]);
    expect(leaks({ style: 'lit at 0.37 exposure' }, { lora_scale: 0.37 })).toHaveLength(1);
    expect(leaks({ prompt: 'a cat on a mat, seed 918273645' }, example, bundle('a cat on a mat, seed 918273645'))).toEqual([]);
  });

  it('does not look for everyday numbers, or digits inside longer words, in text', () => {
    expect(leaks({ prompt: 'a cat, 1024x768, 4 images, 17 steps' }, { width: 1024, height: 768, steps: 17 }, bundle('a cat'))).toEqual([]);
    expect(leaks({ style: 'model v918273645b, id918273645, 9182736450' }, { seed: 918273645 })).toEqual([]);
  });

  it('never flags booleans', () => {
    expect(leaks({ go_fast: false, style: true }, { go_fast: false, style: true })).toEqual([]);
  });

  it.each([
    [17, false],
    [100, false],
    [-1, false],
    [768, false],
    [1152, false],
    [4096, false],
    [65536, false],
    [4294967295, false],
    [2147483647, false],
    [150, false],
    [2500, false],
    [0.5, false],
    [0.8, false],
    [7.5, false],
    [0.01, false],
    [101, true],
    [1337, true],
    [424242, true],
    [4104, true],
    [0.37, true],
    [3.14159, true],
  ])('isDistinctiveNumber(%s) is %s', (value, distinctive) => {
    expect(isDistinctiveNumber(value)).toBe(distinctive);
  });
});

// ---- the canary: every unique example value copied into a payload is caught; the same values from the user are not

describe('findExampleLeaks: canary', () => {
  const example = {
    prompt: 'zqx canary prompt about a xylophone walrus',
    negative_prompt: 'canary-negative-wombat',
    style: 'qzv',
    steps: 37,
    seed: 987654321,
    guidance: 3.14159,
    images: ['https://canary.example/qz-7731.png'],
    lora: { name: 'canary-lora-7731', scale: 0.37 },
  };
  const copied = {
    prompt: 'zqx canary prompt about a xylophone walrus',
    negative_prompt: 'blurry, canary-negative-wombat, low quality',
    style: 'qzv',
    steps: 37,
    seed: 987654321,
    guidance: 3.14159,
    images: ['https://canary.example/qz-7731.png'],
    lora: { name: 'canary-lora-7731', scale: 0.37 },
  };

  it('flags each copied value with the right match kind', () => {
    const found = leaks(copied, example);
    expect(found.map((f) => [f.path, f.match, f.examplePath])).toEqual([
      ['/guidance', 'number', '/guidance'],
      ['/images/0', 'exact', '/images/0'],
      ['/lora/name', 'exact', '/lora/name'],
      ['/lora/scale', 'number', '/lora/scale'],
      ['/negative_prompt', 'substring', '/negative_prompt'],
      ['/prompt', 'exact', '/prompt'],
      ['/seed', 'number', '/seed'],
      ['/steps', 'number', '/steps'],
      ['/style', 'exact', '/style'],
    ]);
  });

  it('finds nothing when the same payload is built only from the bundle', () => {
    const fromUser = bundle(
      'zqx canary prompt about a xylophone walrus, style qzv, 37 steps, seed 987654321, guidance 3.14159, ' +
        'avoid: blurry, canary-negative-wombat, low quality',
      {
        attachments: [{ url: 'https://canary.example/qz-7731.png', mimeType: 'image/png' }],
        humanEdits: { lora: { name: 'canary-lora-7731', scale: 0.37 } },
      },
    );
    expect(leaks(copied, example, fromUser)).toEqual([]);
    // the evidence form of the bundle gives the same answer
    expect(
      findExampleLeaks(copied, ExampleQuarantine.fromExamples(example), { schema, bundle: collectBundleEvidence(fromUser) }),
    ).toEqual([]);
  });

  it('finds nothing in an unrelated payload', () => {
    expect(leaks({ prompt: 'a red fox in the snow', steps: 30, seed: 42, guidance: 7.5, images: ['https://u.example/fox.png'] }, example)).toEqual([]);
  });

  it('finds nothing when there are no examples', () => {
    expect(findExampleLeaks(copied, ExampleQuarantine.empty(), { schema, bundle: bundle() })).toEqual([]);
  });
});
