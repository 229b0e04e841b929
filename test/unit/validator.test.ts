import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHeuristicPayload } from '../../src/builders/heuristic-builder.ts';
import { isVettedError } from '../../src/errors.ts';
import type {
  CandidatePayload,
  FieldProvenance,
  FieldSpec,
  ModelSchema,
  RequestBundle,
  ValidationIssue,
} from '../../src/generated/contracts.ts';
import { ExampleQuarantine } from '../../src/stages/example-quarantine.ts';
import { extractModelSchema } from '../../src/stages/schema-extractor/index.ts';
import {
  CompiledSchemaCache,
  compareIssues,
  hasBlockingIssues,
  validatePayload,
} from '../../src/stages/validator/index.ts';
import { canonicalHash } from '../../src/util/canonical-hash.ts';

// ---- fixtures: hand-made contracts (strict draft-07 object schema, one FieldSpec per field)

type FieldInput = Pick<FieldSpec, 'name' | 'type'> & Partial<FieldSpec> & { extra?: Record<string, unknown> };

function defineSchema(inputs: FieldInput[], model = 'acme/sdxl-like'): ModelSchema {
  const fields: FieldSpec[] = [];
  const properties: Record<string, unknown> = {};
  inputs.forEach(({ extra, ...input }, order) => {
    const spec: FieldSpec = { role: 'other', required: false, nullable: false, hasDefault: 'default' in input, order, ...input };
    fields.push(spec);
    properties[spec.name] = {
      ...(spec.type === 'any' ? {} : { type: spec.nullable ? [spec.type, 'null'] : spec.type }),
      'x-order': order,
      ...(spec.format ? { format: spec.format } : {}),
      ...(spec.enum ? { enum: spec.enum } : {}),
      ...(spec.minimum !== undefined ? { minimum: spec.minimum } : {}),
      ...(spec.maximum !== undefined ? { maximum: spec.maximum } : {}),
      ...(spec.hasDefault ? { default: spec.default } : {}),
      ...(spec.itemType ? { items: { type: spec.itemType } } : {}),
      ...extra,
    };
  });
  const required = fields.filter((f) => f.required).map((f) => f.name);
  const jsonSchema = { type: 'object', additionalProperties: false, properties, required };
  return { schemaHash: canonicalHash(jsonSchema), model, version: null, source: 'replicate_model', jsonSchema, fields, warnings: [] };
}

const schema = defineSchema([
  { name: 'prompt', type: 'string', role: 'prompt', required: true, extra: { maxLength: 500 } },
  { name: 'negative_prompt', type: 'string', role: 'negative_prompt', default: '' },
  { name: 'image', type: 'string', role: 'image_input', format: 'uri' },
  { name: 'width', type: 'integer', role: 'width', minimum: 256, maximum: 2048, default: 1024 },
  { name: 'height', type: 'integer', role: 'height', minimum: 256, maximum: 2048, default: 1024 },
  { name: 'num_outputs', type: 'integer', role: 'num_outputs', minimum: 1, maximum: 4, default: 1 },
  { name: 'scheduler', type: 'string', enum: ['DDIM', 'K_EULER', 'DPMSolverMultistep'], default: 'K_EULER' },
  { name: 'guidance_scale', type: 'number', role: 'guidance', minimum: 1, maximum: 50, default: 7.5 },
  { name: 'seed', type: 'integer', role: 'seed', nullable: true },
  { name: 'apply_watermark', type: 'boolean', default: true },
  { name: 'api_token', type: 'string', role: 'secret' },
]);

const example = {
  prompt: 'An astronaut riding a rainbow unicorn, cinematic, dramatic',
  width: 768,
  height: 768,
  scheduler: 'K_EULER',
  guidance_scale: 7.5,
  seed: 4242,
  image: 'https://replicate.delivery/pbxt/canary/cat.jpg',
};
const quarantine = ExampleQuarantine.fromExamples(example);

function bundle(prompt: string, extra: Partial<RequestBundle> = {}): RequestBundle {
  return { prompt, conversation: [], attachments: [], userProfile: {}, humanEdits: {}, safetyFlags: [], ...extra };
}

const userBundle = bundle('Please make an image of a red fox in the snow, 1536 pixels wide, seed 7', {
  attachments: [{ url: 'https://files.example/fox.png', mimeType: 'image/png', name: 'fox.png' }],
});

type Source = FieldProvenance['source'];

function candidate(fields: Record<string, [unknown, Source]>): CandidatePayload {
  const payload: Record<string, unknown> = {};
  const provenance: Record<string, FieldProvenance> = {};
  for (const [name, [value, source]] of Object.entries(fields)) {
    payload[name] = value;
    provenance[name] = { source };
  }
  return { payload, provenance, confidence: 0.9, builder: 'test' };
}

const goodCandidate = candidate({
  prompt: ['a red fox in the snow', 'user_prompt'],
  image: ['https://files.example/fox.png', 'attachment'],
  width: [1536, 'user_prompt'],
  seed: [7, 'user_prompt'],
  scheduler: ['K_EULER', 'schema_default'],
  apply_watermark: [true, 'schema_default'],
});

function validate(c: CandidatePayload, b: RequestBundle = userBundle, s: ModelSchema = schema, q = quarantine): ValidationIssue[] {
  return validatePayload({ candidate: c, schema: s, bundle: b, quarantine: q });
}

function withField(c: CandidatePayload, name: string, value: unknown, source: Source | null): CandidatePayload {
  const provenance = { ...c.provenance };
  if (source === null) delete provenance[name];
  else provenance[name] = { source };
  return { ...c, payload: { ...c.payload, [name]: value }, provenance };
}

function only(issues: ValidationIssue[], code: ValidationIssue['code']): ValidationIssue[] {
  return issues.filter((issue) => issue.code === code);
}

// ---- the whole verdict

describe('validatePayload', () => {
  it('passes a payload built from the bundle', () => {
    expect(validate(goodCandidate)).toEqual([]);
  });

  it('is deterministic and sorts issues by path, then code', () => {
    const bad = withField(withField(goodCandidate, 'width', 4096, 'inferred'), 'zzz', 1, null);
    const first = validate(bad);
    expect(validate(bad)).toEqual(first);
    expect([...first].sort(compareIssues)).toEqual(first);
    expect(first.map((i) => [i.path, i.code])).toEqual([
      ['/width', 'provenance'],
      ['/width', 'range'],
      ['/zzz', 'provenance'],
      ['/zzz', 'unknown_field'],
    ]);
    expect(hasBlockingIssues(first)).toBe(true);
  });

  it('throws SCHEMA_UNSUPPORTED for a schema AJV cannot compile', () => {
    const broken = { ...schema, schemaHash: 'f'.repeat(64), jsonSchema: { type: 'object', properties: { a: { type: 'strnig' } } } };
    try {
      validate(goodCandidate, userBundle, broken);
      expect.unreachable();
    } catch (error) {
      expect(isVettedError(error) && error.code).toBe('SCHEMA_UNSUPPORTED');
    }
  });
});

// ---- schema check: AJV errors mapped to issues that name the field and say what to do

describe('validatePayload: schema issues', () => {
  it('reports a missing required field at its own path', () => {
    const { prompt: _prompt, ...payload } = goodCandidate.payload;
    const issues = only(validate({ ...goodCandidate, payload }), 'missing_required');
    expect(issues).toEqual([
      {
        path: '/prompt',
        code: 'missing_required',
        severity: 'blocking',
        message: 'prompt is required by the model but the payload has no value for it',
        suggestion: 'set prompt to a string',
      },
    ]);
  });

  it('says to attach an image when a required image field is missing', () => {
    const needsImage = defineSchema([{ name: 'image', type: 'string', role: 'image_input', format: 'uri', required: true }], 'acme/upscaler');
    const issues = validatePayload({ candidate: candidate({}), schema: needsImage, bundle: userBundle, quarantine: ExampleQuarantine.empty() });
    expect(issues).toEqual([expect.objectContaining({ path: '/image', code: 'missing_required', suggestion: 'attach an image to the request; image takes its URL' })]);
  });

  it('reports a wrong type', () => {
    const [issue] = only(validate(withField(goodCandidate, 'width', '1536', 'user_prompt')), 'type');
    expect(issue).toEqual({
      path: '/width',
      code: 'type',
      severity: 'blocking',
      message: 'width must be an integer, got "1536" (a string)',
      suggestion: 'give width as an integer between 256 and 2048, or leave it out to use the default 1024',
    });
  });

  it('reports a value out of range with the bounds and the default', () => {
    const [issue] = only(validate(withField(goodCandidate, 'width', 4096, 'inferred')), 'range');
    expect(issue).toEqual({
      path: '/width',
      code: 'range',
      severity: 'blocking',
      message: 'width must be ≤ 2048, got 4096',
      suggestion: 'use a value between 256 and 2048 for width, or leave it out to use the default 1024',
    });
    const [low] = only(validate(withField(goodCandidate, 'num_outputs', 0, 'inferred')), 'range');
    expect(low?.message).toBe('num_outputs must be ≥ 1, got 0');
  });

  it('reports an enum miss with the allowed members', () => {
    const [issue] = only(validate(withField(goodCandidate, 'scheduler', 'EULER', 'inferred')), 'enum');
    expect(issue).toEqual({
      path: '/scheduler',
      code: 'enum',
      severity: 'blocking',
      message: `scheduler must be one of the model's allowed values, got "EULER"`,
      suggestion: 'choose one of "DDIM", "K_EULER", "DPMSolverMultistep" for scheduler, or leave it out to use the default "K_EULER"',
    });
  });

  it('reports a bad format and says to attach an image for an image field', () => {
    const [issue] = only(validate(withField(goodCandidate, 'image', 'fox.png', 'inferred')), 'format');
    expect(issue).toEqual({
      path: '/image',
      code: 'format',
      severity: 'blocking',
      message: 'image must be an http(s) URL, got "fox.png"',
      suggestion: 'attach an image to the request and use its URL for image',
    });
  });

  it.each(['file:///etc/passwd', 'javascript:alert(1)', 'ftp://files.test/fox.png', 'data:image/png;base64,AAAA', 'http://'])(
    'refuses a file input that is not an http(s) URL (%s), whoever wrote it',
    (url) => {
      const [issue] = only(validate(withField(goodCandidate, 'image', url, 'inferred')), 'format');
      expect(issue).toMatchObject({ path: '/image', code: 'format', severity: 'blocking', message: expect.stringContaining('must be an http(s) URL') });
    },
  );

  it('accepts http and https URLs in any letter case', () => {
    for (const url of ['https://cdn.test/fox.png', 'HTTP://cdn.test/fox.png']) {
      expect(only(validate(withField(goodCandidate, 'image', url, 'inferred')), 'format')).toEqual([]);
    }
  });

  it('reports an unknown field and suggests the likely name', () => {
    const [issue] = only(validate(withField(goodCandidate, 'widht', 1536, 'user_prompt')), 'unknown_field');
    expect(issue).toEqual({
      path: '/widht',
      code: 'unknown_field',
      severity: 'blocking',
      message: 'widht is not an input of this model',
      suggestion: 'remove widht; did you mean width?',
    });
  });

  it('reports other keywords as constraint issues', () => {
    const long = 'fox '.repeat(200).trim();
    const [issue] = only(validate(withField(goodCandidate, 'prompt', long, 'inferred')), 'constraint');
    expect(issue?.path).toBe('/prompt');
    expect(issue?.severity).toBe('blocking');
    expect(issue?.message).toMatch(/^prompt must not have more than 500 characters, got "fox fox/);
  });

  it('accepts null for a nullable field and names both types otherwise', () => {
    expect(validate(withField(goodCandidate, 'seed', null, 'inferred')).map((i) => i.code)).toEqual(['provenance']);
    const [issue] = only(validate(withField(goodCandidate, 'seed', 'seven', 'inferred')), 'type');
    expect(issue?.message).toBe('seed must be an integer or null, got "seven" (a string)');
  });

  it('reports one issue for a value that matches no branch of an anyOf', () => {
    const union = defineSchema([{ name: 'size', type: 'any', extra: { anyOf: [{ type: 'string' }, { type: 'integer' }] } }], 'acme/union');
    const issues = validatePayload({ candidate: candidate({ size: [true, 'inferred'] }), schema: union, bundle: userBundle, quarantine });
    expect(issues.map((i) => [i.path, i.code, i.severity])).toEqual([
      ['/size', 'constraint', 'blocking'],
      ['/size', 'provenance', 'warning'],
    ]);
    expect(issues[0]?.message).toBe('size matches none of the forms the schema allows, got true');
  });

  it('never shows the value of a secret field', () => {
    const issues = validate(withField(goodCandidate, 'api_token', 12345, 'inferred'));
    expect(issues.map((i) => i.code)).toEqual(['provenance', 'type']);
    for (const issue of issues) expect(`${issue.message} ${issue.suggestion}`).not.toContain('12345');
  });
});

// ---- provenance: labels are claims, checked against the bundle

describe('validatePayload: provenance', () => {
  it('blocks a field with no provenance entry', () => {
    const issues = validate(withField(goodCandidate, 'height', 1024, null));
    expect(issues).toEqual([
      expect.objectContaining({ path: '/height', code: 'provenance', severity: 'blocking', message: 'height has no provenance: nothing says where its value came from' }),
    ]);
  });

  it('warns about an inferred field', () => {
    expect(validate(withField(goodCandidate, 'height', 1536, 'inferred'))).toEqual([
      {
        path: '/height',
        code: 'provenance',
        severity: 'warning',
        message: 'height was not supplied by the user; the builder chose 1536. Check it',
        suggestion: 'approve height if 1536 is what the user wants, or edit it, or set it to the default 1024',
      },
    ]);
  });

  it('blocks a safety setting the builder moved off its default; its default or null stays a warning at most', () => {
    const guarded = defineSchema([
      { name: 'prompt', type: 'string', role: 'prompt', required: true },
      { name: 'disable_safety_checker', type: 'boolean', role: 'safety', default: false },
      { name: 'safety_tolerance', type: 'integer', role: 'safety', minimum: 1, maximum: 6, nullable: true },
    ]);
    const base = candidate({ prompt: ['a red fox in the snow', 'user_prompt'] });
    const loosened = validate(withField(base, 'disable_safety_checker', true, 'inferred'), userBundle, guarded);
    expect(loosened).toEqual([
      {
        path: '/disable_safety_checker',
        code: 'provenance',
        severity: 'blocking',
        message: 'disable_safety_checker is a safety setting the user did not ask to change; the builder chose true',
        suggestion: 'set disable_safety_checker back to the default false, or confirm true with the user and set it as an edit',
      },
    ]);
    const noDefault = validate(withField(base, 'safety_tolerance', 6, 'inferred'), userBundle, guarded);
    expect(noDefault).toMatchObject([{ path: '/safety_tolerance', severity: 'blocking', suggestion: expect.stringMatching(/^leave safety_tolerance out/) }]);
    expect(validate(withField(base, 'disable_safety_checker', false, 'inferred'), userBundle, guarded)).toMatchObject([{ severity: 'warning' }]);
    expect(validate(withField(base, 'safety_tolerance', null, 'inferred'), userBundle, guarded)).toMatchObject([{ severity: 'warning' }]);
  });

  it('accepts a human edit only when the bundle holds that edit', () => {
    const edited = bundle(userBundle.prompt, { ...userBundle, humanEdits: { num_outputs: 3, scheduler: 'DDIM' } });
    expect(validate(withField(goodCandidate, 'num_outputs', 3, 'human_edit'), edited)).toEqual([]);
    const [wrongValue] = validate(withField(goodCandidate, 'num_outputs', 4, 'human_edit'), edited);
    expect(wrongValue?.message).toBe('num_outputs claims to come from a human edit, but the review edit set it to 3');
    expect(wrongValue?.severity).toBe('blocking');
    const [noEdit] = validate(withField(goodCandidate, 'height', 1536, 'human_edit'), edited);
    expect(noEdit?.message).toBe('height claims to come from a human edit, but no review edit touched height');
  });

  it("accepts an attachment claim only for the request's attachment URLs", () => {
    expect(validate(goodCandidate)).toEqual([]);
    const issues = validate(withField(goodCandidate, 'image', 'https://elsewhere.example/cat.png', 'attachment'));
    expect(issues).toEqual([
      expect.objectContaining({
        path: '/image',
        code: 'provenance',
        severity: 'blocking',
        message: `image claims to come from an attachment, but "https://elsewhere.example/cat.png" is not one of the request's attachments`,
        suggestion: 'attach an image to the request and use its URL for image',
      }),
    ]);
    const [numeric] = validate(withField(goodCandidate, 'num_outputs', 2, 'attachment'));
    expect(numeric?.message).toBe('num_outputs claims to come from an attachment, but its value holds no attachment URL');
  });

  it('accepts a schema_default claim only for the schema default', () => {
    const [wrong] = validate(withField(goodCandidate, 'guidance_scale', 9, 'schema_default'));
    expect(wrong?.message).toBe('guidance_scale claims the schema default 7.5, but its value is 9');
    const [none] = validate(withField(goodCandidate, 'seed', 7, 'schema_default'));
    expect(none?.message).toBe('seed claims the schema default, but the schema declares no default for seed');
    expect(validate(withField(goodCandidate, 'guidance_scale', 7.5, 'schema_default'))).toEqual([]);
  });

  it("accepts the user's words with directive phrases dropped and reordered, but not an added word", () => {
    expect(validate(withField(goodCandidate, 'prompt', 'red fox, snow', 'user_prompt'))).toEqual([]);
    expect(validate(withField(goodCandidate, 'prompt', 'snow fox (red)', 'user_prompt'))).toEqual([]);
    expect(validate(withField(goodCandidate, 'prompt', 'the red fox at snow', 'user_prompt'))).toEqual([]);
    const [added] = validate(withField(goodCandidate, 'prompt', 'a red fox in the snow, masterpiece, 8k', 'user_prompt'));
    expect(added).toEqual({
      path: '/prompt',
      code: 'provenance',
      severity: 'blocking',
      message: `prompt claims to come from the user's words, but the request never mentions the words "masterpiece", "8k"`,
      suggestion: 'keep only what the user wrote in prompt, or confirm the value with the user and set it as an edit',
    });
  });

  it('accepts a number the user wrote, and refuses one the user never wrote', () => {
    const [issue] = validate(withField(goodCandidate, 'num_outputs', 3, 'user_prompt'));
    expect(issue?.message).toBe(`num_outputs claims to come from the user's words, but the request never mentions the number 3`);
  });

  it("accepts a boolean as the user's only when it cites a phrase the user wrote", () => {
    const cited = (phrase?: string) => {
      const c = withField(goodCandidate, 'apply_watermark', false, 'user_prompt');
      return { ...c, provenance: { ...c.provenance, apply_watermark: { source: 'user_prompt' as const, ...(phrase === undefined ? {} : { evidence: phrase }) } } };
    };
    expect(validate(cited('a red fox in the snow'))).toEqual([]);
    expect(only(validate(cited()), 'provenance')).toEqual([expect.objectContaining({
      path: '/apply_watermark', severity: 'blocking', message: "apply_watermark is set to false as the user's wish, but cites nothing the user wrote",
    })]);
    expect(only(validate(cited('without watermark')), 'provenance')).toEqual([expect.objectContaining({
      severity: 'blocking', message: 'apply_watermark is set to false citing "without watermark", which the user never wrote',
    })]);
  });

  it('reads user words from user turns of the conversation, not from assistant turns', () => {
    const chat = bundle('make it', {
      conversation: [
        { role: 'user', content: 'I want a red fox' },
        { role: 'assistant', content: 'Sure, in the snow?' },
      ],
    });
    const c = candidate({ prompt: ['a red fox', 'user_prompt'] });
    expect(validate(c, chat)).toEqual([]);
    // "snow" was only said by the assistant; "in" and "the" are connective words and need no evidence
    expect(validate(candidate({ prompt: ['a red fox in the snow', 'user_prompt'] }), chat)[0]?.message).toBe(
      `prompt claims to come from the user's words, but the request never mentions the word "snow"`,
    );
  });
});

// ---- the leak firewall through the validator

describe('validatePayload: example leaks', () => {
  it('blocks an example value the user did not supply, naming the field and the example', () => {
    const leaked = withField(goodCandidate, 'prompt', 'An astronaut riding a rainbow unicorn, cinematic, dramatic', 'user_prompt');
    const issues = only(validate(leaked), 'example_leak');
    expect(issues).toEqual([
      {
        path: '/prompt',
        code: 'example_leak',
        severity: 'blocking',
        message: `prompt copies the value "An astronaut riding a rainbow unicorn, cinematic, dramatic" at prompt in the model's published example; the user never supplied it`,
        suggestion: "write prompt from the user's own words, or ask the user what they want",
      },
    ]);
  });

  it('blocks a copied number at the same path and suggests the default', () => {
    const issues = only(validate(withField(goodCandidate, 'height', 768, 'inferred')), 'example_leak');
    expect(issues).toEqual([
      expect.objectContaining({
        path: '/height',
        message: `height repeats the number 768 at height in the model's published example; the user never supplied it`,
        suggestion: 'remove height to use the default 1024, or set it from the request',
      }),
    ]);
  });

  it('says to attach an image when an image field copies the example image', () => {
    const issues = only(validate(withField(goodCandidate, 'image', example.image, 'attachment')), 'example_leak');
    expect(issues).toEqual([
      expect.objectContaining({
        path: '/image',
        suggestion: 'attach an image to the request and use its URL for image, or leave image out',
      }),
    ]);
  });

  it('does not block the default even when the example has the same value', () => {
    expect(validate(goodCandidate)).toEqual([]);
    expect(example.scheduler).toBe(goodCandidate.payload.scheduler);
  });
});

// ---- compiled once per schema hash

describe('CompiledSchemaCache', () => {
  it('compiles a schema once per hash', () => {
    const cache = new CompiledSchemaCache(2);
    for (let i = 0; i < 3; i++) validatePayload({ candidate: goodCandidate, schema, bundle: userBundle, quarantine }, cache);
    expect(cache.compiles).toBe(1);
    const other = defineSchema([{ name: 'prompt', type: 'string', required: true }], 'acme/other');
    validatePayload({ candidate: candidate({ prompt: ['red fox', 'user_prompt'] }), schema: other, bundle: userBundle, quarantine }, cache);
    expect(cache.compiles).toBe(2);
    expect(cache.size).toBe(2);
  });

  it('evicts the least recently used schema and can compile it again', () => {
    const cache = new CompiledSchemaCache(1);
    const other = defineSchema([{ name: 'prompt', type: 'string', required: true }], 'acme/other');
    cache.compiledFor(schema);
    cache.compiledFor(other);
    expect(cache.size).toBe(1);
    cache.compiledFor(schema);
    expect(cache.compiles).toBe(3);
  });

  it('compiles schemas that carry an $id more than once without conflict', () => {
    const withId = { ...schema, schemaHash: 'e'.repeat(64), jsonSchema: { ...schema.jsonSchema, $id: 'https://acme.example/input.json' } };
    const cache = new CompiledSchemaCache(1);
    cache.compiledFor(withId);
    cache.compiledFor(schema);
    expect(() => cache.compiledFor(withId)).not.toThrow();
  });
});

// ---- end to end on the published example models: extract → build → validate

const MODELS_DIR = path.resolve(import.meta.dirname, '../../examples/models');
const modelFiles = readdirSync(MODELS_DIR).filter((file) => file.endsWith('.json')).sort();

const ATTACHMENT_MIME: Partial<Record<FieldSpec['role'], string>> = {
  image_input: 'image/png',
  mask_input: 'image/png',
  audio_input: 'audio/mpeg',
  video_input: 'video/mp4',
  file_input: 'application/pdf',
};

/** A user who asks for something unrelated to the example and attaches whatever the model requires. */
function userBundleFor(modelSchema: ModelSchema): RequestBundle {
  const attachments = modelSchema.fields
    .filter((f) => f.required && ATTACHMENT_MIME[f.role])
    .map((f) => ({ url: `https://files.example/${f.name}`, mimeType: ATTACHMENT_MIME[f.role] ?? '', name: f.name }));
  return bundle('a lighthouse at dusk, seed 31337', { attachments });
}

describe.each(modelFiles)('extract → build → validate: %s', (file) => {
  const source: unknown = JSON.parse(readFileSync(path.join(MODELS_DIR, file), 'utf8'));
  const { modelSchema, quarantine: examples } = extractModelSchema(source);
  const user = userBundleFor(modelSchema);
  const built = buildHeuristicPayload({ bundle: user, schema: modelSchema });

  it('passes the heuristic build with no blocking issue and no leak', () => {
    const issues = validatePayload({ candidate: built, schema: modelSchema, bundle: user, quarantine: examples });
    expect(issues.filter((i) => i.severity === 'blocking')).toEqual([]);
  });

  it('blocks every example value a V2-style merge copies in, unless it is the default', () => {
    const example = examples.exampleInput();
    const payload = { ...built.payload, ...example };
    const provenance = { ...built.provenance, ...Object.fromEntries(Object.keys(example).map((k) => [k, { source: 'user_prompt' as const }])) };
    const issues = validatePayload({ candidate: { ...built, payload, provenance }, schema: modelSchema, bundle: user, quarantine: examples });
    const fields = new Map(modelSchema.fields.map((f) => [f.name, f]));
    const expected = Object.entries(example)
      .filter(([, value]) => (typeof value === 'string' && value.trim() !== '') || typeof value === 'number')
      .filter(([name, value]) => !(fields.get(name)?.hasDefault && fields.get(name)?.default === value))
      .map(([name]) => `/${name}`)
      .sort();
    // every published example here has at least one value that is not a default: the check is never vacuous
    if (examples.size > 0) expect(expected.length).toBeGreaterThan(0);
    expect(issues.filter((i) => i.code === 'example_leak').map((i) => i.path)).toEqual(expected);
  });
});
