import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isVettedError } from '../../src/errors.ts';
import type { ModelSchema } from '../../src/generated/contracts.ts';
import { createAjv, createPayloadAjv } from '../../src/schema/ajv.ts';
import { extractModelSchema, extractionCacheKey } from '../../src/stages/schema-extractor/index.ts';
import { canonicalHash } from '../../src/util/canonical-hash.ts';

type Json = Record<string, unknown>;

function sample(file: string): Json {
  return JSON.parse(readFileSync(new URL(`../../examples/models/${file}`, import.meta.url), 'utf8')) as Json;
}

/** A Replicate model object around hand-made Input properties (and extra component schemas for refs). */
function model(properties: Json, options: { required?: string[]; components?: Json; example?: Json; input?: Json } = {}): Json {
  const input = { type: 'object', title: 'Input', properties, ...(options.required ? { required: options.required } : {}), ...options.input };
  return {
    owner: 'acme',
    name: 'widget',
    latest_version: { id: 'v1', openapi_schema: { openapi: '3.0.2', components: { schemas: { Input: input, ...options.components } } } },
    default_example: { input: options.example ?? {} },
  };
}

function schemaOf(source: unknown): ModelSchema {
  return extractModelSchema(source).modelSchema;
}

function property(schema: ModelSchema, name: string): Json {
  return (schema.jsonSchema.properties as Record<string, Json>)[name] as Json;
}

function field(schema: ModelSchema, name: string) {
  const found = schema.fields.find((f) => f.name === name);
  if (!found) throw new Error(`no field ${name}`);
  return found;
}

function codes(schema: ModelSchema, path: string): string[] {
  return schema.warnings.filter((w) => w.path === path).map((w) => w.code);
}

/** Runs fn and returns the VettedError it throws (failing the test when it throws nothing or something else). */
function refusal(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (isVettedError(error)) return error;
    throw error;
  }
  throw new Error('expected a VettedError');
}

function compiles(schema: ModelSchema): void {
  expect(() => createAjv().compile(schema.jsonSchema)).not.toThrow();
}

/** String and number leaves of a JSON value. */
function leaves(value: unknown, out: (string | number)[] = []): (string | number)[] {
  if (typeof value === 'string' || typeof value === 'number') out.push(value);
  else if (Array.isArray(value)) for (const item of value) leaves(item, out);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) leaves(item, out);
  return out;
}

/** Every value under a `default` or `enum` key anywhere in a document: what the schema itself declares. */
function declaredValues(document: unknown, out: (string | number)[] = []): (string | number)[] {
  if (Array.isArray(document)) for (const item of document) declaredValues(item, out);
  else if (document !== null && typeof document === 'object') {
    for (const [key, value] of Object.entries(document)) {
      if (key === 'default' || key === 'enum') leaves(value, out);
      else declaredValues(value, out);
    }
  }
  return out;
}

/** How a string sits inside serialised JSON (quotes and backslashes escaped). */
const asJsonText = (value: string): string => JSON.stringify(value).slice(1, -1);

describe('source shapes', () => {
  it('reads a Replicate model object (flux-schnell)', () => {
    const source = sample('flux-schnell.model.json');
    const { modelSchema, quarantine, cacheKey } = extractModelSchema(source);
    const version = (source.latest_version as Json).id as string;
    expect(modelSchema).toMatchObject({ model: 'black-forest-labs/flux-schnell', version, source: 'replicate_model' });
    expect(cacheKey).toMatch(new RegExp(`^version:${version}@[a-f0-9]{64}$`));
    expect(modelSchema.jsonSchema).toMatchObject({ type: 'object', additionalProperties: false, required: ['prompt'] });
    expect(modelSchema.schemaHash).toBe(canonicalHash({ jsonSchema: modelSchema.jsonSchema, publishedSchema: modelSchema.publishedSchema }));
    expect(quarantine.entries().map((e) => e.path)).toContain('/prompt');
    compiles(modelSchema);
  });

  it('reads a version object (whisper): no model unless given, nothing to quarantine', () => {
    const source = sample('whisper.version.json');
    const { modelSchema, quarantine, cacheKey } = extractModelSchema(source);
    expect(modelSchema).toMatchObject({ model: null, version: source.id, source: 'replicate_version' });
    expect(cacheKey).toMatch(new RegExp(`^version:${source.id as string}@[a-f0-9]{64}$`));
    expect(quarantine.size).toBe(0);
    expect(field(modelSchema, 'audio')).toMatchObject({ role: 'audio_input', format: 'uri', required: true });
    expect(extractModelSchema(source, { model: 'openai/whisper' }).modelSchema.model).toBe('openai/whisper');
    compiles(modelSchema);
  });

  it('reads real-esrgan: a required uri image', () => {
    const schema = schemaOf(sample('real-esrgan.model.json'));
    expect(field(schema, 'image')).toMatchObject({ role: 'image_input', type: 'string', format: 'uri', required: true, hasDefault: false });
    expect(property(schema, 'scale')).toMatchObject({ type: 'number', minimum: 0, maximum: 10, default: 4 });
    compiles(schema);
  });

  it('reads sdxl: roles, enums through allOf/$ref, defaults from the schema', () => {
    const schema = schemaOf(sample('sdxl.model.json'));
    const roles = Object.fromEntries(schema.fields.map((f) => [f.name, f.role]));
    expect(roles).toMatchObject({
      prompt: 'prompt', negative_prompt: 'negative_prompt', image: 'image_input', mask: 'mask_input', width: 'width',
      height: 'height', num_outputs: 'num_outputs', num_inference_steps: 'steps', guidance_scale: 'guidance', seed: 'seed',
    });
    expect(property(schema, 'scheduler')).toMatchObject({ type: 'string', default: 'K_EULER' });
    expect(property(schema, 'scheduler').enum).toContain('DDIM');
    // The example asks for width 768; the schema's own default is 1024, and only that is kept.
    expect(field(schema, 'width')).toMatchObject({ hasDefault: true, default: 1024 });
    compiles(schema);
  });

  it('reads a bare tool config (sticker-maker): types only, the prompt required', () => {
    const { modelSchema, quarantine, cacheKey } = extractModelSchema(sample('sticker-maker.tool.json'));
    expect(modelSchema).toMatchObject({ model: 'fofr/sticker-maker', version: null, source: 'example_input' });
    expect(cacheKey).toMatch(/^sha256:[a-f0-9]{64}$/);
    expect(modelSchema.jsonSchema.required).toEqual(['prompt']);
    expect(modelSchema.fields.map((f) => [f.name, f.type, f.role])).toEqual([
      ['prompt', 'string', 'prompt'], ['steps', 'integer', 'steps'], ['width', 'integer', 'width'], ['height', 'integer', 'height'],
      ['output_format', 'string', 'output_format'], ['negative_prompt', 'string', 'negative_prompt'], ['number_of_images', 'integer', 'num_outputs'],
    ]);
    expect(modelSchema.fields.every((f) => !f.hasDefault && f.enum === undefined)).toBe(true);
    expect(quarantine.size).toBe(7);
    compiles(modelSchema);
  });

  it('falls back to the example when a model has no schema, and says so', () => {
    const { modelSchema: schema, cacheKey } = extractModelSchema({ owner: 'a', name: 'b', latest_version: { id: 'v9', openapi_schema: null }, default_example: { input: { prompt: 'x', n: 2 } } });
    expect(schema).toMatchObject({ source: 'example_input', model: 'a/b', version: 'v9' });
    expect(cacheKey).toMatch(/^version:v9@[a-f0-9]{64}$/);
    expect(codes(schema, '')).toContain('schema_missing');
  });

  it('keys the cache by content, never by the version id a source claims', () => {
    const genuine = sample('flux-schnell.model.json');
    const key = extractModelSchema(genuine).cacheKey;
    expect(extractionCacheKey(genuine)).toBe(key);
    // What extraction does not read (run counts, cover image) does not change the key.
    expect(extractionCacheKey({ ...genuine, run_count: 1, cover_image_url: 'https://example.com/x.png' })).toBe(key);
    // A forged source under the same version id, or the same one with its example taken away, is another entry.
    const forged = structuredClone(genuine) as { latest_version: { openapi_schema: { components: { schemas: { Input: { properties: Record<string, unknown> } } } } } };
    forged.latest_version.openapi_schema.components.schemas.Input.properties.extra_text = { type: 'string', default: 'planted' };
    expect(extractionCacheKey(forged)).not.toBe(key);
    expect(extractionCacheKey({ ...genuine, default_example: null })).not.toBe(key);
    expect(extractionCacheKey(forged).split('@')[0]).toBe(key.split('@')[0]);
  });

  it('accepts a schema that declares no input (some real models take none)', () => {
    const { modelSchema } = extractModelSchema(model({}));
    expect(modelSchema.fields).toEqual([]);
    expect(modelSchema.jsonSchema).toMatchObject({ properties: {}, additionalProperties: false });
  });

  it.each([
    ['a non-object', 'just a string', 'source'],
    ['an unknown shape', { hello: 'world' }, 'source'],
    ['a model with neither schema nor example', { owner: 'a', name: 'b', latest_version: null, default_example: null }, 'latest_version.openapi_schema'],
    ['a model without a name', { owner: 'a', latest_version: { id: 'v' } }, 'name'],
    ['a schema without an Input', { owner: 'a', name: 'b', latest_version: { id: 'v', openapi_schema: { components: { schemas: {} } } } }, 'latest_version.openapi_schema.components.schemas.Input'],
    ['a version without an id', { openapi_schema: { components: { schemas: { Input: { type: 'object' } } } } }, 'id'],
    ['a tool config with a malformed model', { model: 'not a model', example_input: { prompt: 'x' } }, 'model'],
    ['a tool config with an empty example', { model: 'a/b', example_input: {} }, 'example_input'],
    ['a model without a schema whose example is empty', { owner: 'a', name: 'b', latest_version: { id: 'v', openapi_schema: null }, default_example: { input: {} } }, 'default_example.input'],
    ['a tool config whose example is not an object', { model: 'a/b', example_input: ['x'] }, 'example_input'],
    ['an Input that is not an object schema', model({}, { input: { type: 'array' } }), 'latest_version.openapi_schema.components.schemas.Input.type'],
    ['two shapes at once (a tool config and a version)', { model: 'a/b', example_input: { prompt: 'x' }, id: 'v', openapi_schema: { components: { schemas: { Input: { type: 'object' } } } } }, 'source'],
  ])('refuses %s with MODEL_SOURCE_INVALID naming the field', (_label, source, fieldName) => {
    const error = refusal(() => extractModelSchema(source));
    expect(error.code).toBe('MODEL_SOURCE_INVALID');
    expect(error.field).toBe(fieldName);
  });
});

describe('OpenAPI input conversion', () => {
  it('resolves enums wrapped in allOf/$ref and plain $ref, the wrapper winning for annotations', () => {
    const schema = schemaOf(model(
      {
        size: { allOf: [{ $ref: '#/components/schemas/size' }], default: 'small', 'x-order': 0, description: 'How big' },
        mode: { $ref: '#/components/schemas/mode' },
      },
      { components: { size: { enum: ['small', 'large'], type: 'string', title: 'size', description: 'An enumeration.' }, mode: { enum: [1, 2] } } },
    ));
    expect(property(schema, 'size')).toEqual({ type: 'string', enum: ['small', 'large'], title: 'size', description: 'How big', 'x-order': 0, default: 'small' });
    expect(property(schema, 'mode')).toEqual({ type: 'integer', enum: [1, 2] });
    expect(field(schema, 'size').enum).toEqual(['small', 'large']);
  });

  it('turns OpenAPI nullable into a null type (and a null enum member)', () => {
    const schema = schemaOf(model({
      seed: { type: 'integer', nullable: true },
      pick: { allOf: [{ $ref: '#/components/schemas/pick' }], nullable: true, default: null },
    }, { components: { pick: { enum: ['a', 'b'], type: 'string' } } }));
    expect(property(schema, 'seed').type).toEqual(['integer', 'null']);
    expect(property(schema, 'pick')).toMatchObject({ type: ['string', 'null'], enum: ['a', 'b', null], default: null });
    expect(field(schema, 'seed')).toMatchObject({ type: 'integer', nullable: true });
    compiles(schema);
  });

  it('keeps bounds, converts OpenAPI 3.0 exclusive bounds and pydantic ge/le/gt/lt (with warnings)', () => {
    const schema = schemaOf(model({
      a: { type: 'number', minimum: 0, maximum: 1 },
      b: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 5, exclusiveMaximum: false },
      c: { type: 'integer', ge: 1, le: 100 },
      d: { type: 'number', gt: 0, lt: 2 },
      e: { type: 'string', minLength: 1, maxLength: 10, pattern: '^[a-z]+$' },
    }));
    expect(property(schema, 'a')).toMatchObject({ minimum: 0, maximum: 1 });
    expect(property(schema, 'b')).toMatchObject({ exclusiveMinimum: 0, maximum: 5 });
    expect(property(schema, 'b')).not.toHaveProperty('minimum');
    expect(property(schema, 'c')).toMatchObject({ minimum: 1, maximum: 100 });
    expect(property(schema, 'c')).not.toHaveProperty('ge');
    expect(codes(schema, 'c')).toContain('bound_converted');
    expect(property(schema, 'd')).toMatchObject({ exclusiveMinimum: 0, exclusiveMaximum: 2 });
    expect(property(schema, 'e')).toMatchObject({ minLength: 1, maxLength: 10, pattern: '^[a-z]+$' });
    expect(field(schema, 'c')).toMatchObject({ minimum: 1, maximum: 100 });
    compiles(schema);
  });

  it('refuses bounds no value fits, naming the field', () => {
    expect(refusal(() => extractModelSchema(model({ steps: { type: 'integer', minimum: 10, maximum: 1 } })))).toMatchObject({
      code: 'SCHEMA_UNSUPPORTED', field: 'steps', details: { construct: 'bounds' }, message: expect.stringContaining('lower bound 10 is above the upper bound 1'),
    });
  });

  it('keeps patterns and runs them in linear time; drops only what the linear engine cannot run, with a warning', () => {
    const schema = schemaOf(model({
      redos: { type: 'string', pattern: '(a+)+$' },
      alternation: { type: 'string', pattern: '^(\\w|\\d)*$' },
      lookbehind: { type: 'string', pattern: '(?<=a)b' },
      safe: { type: 'string', pattern: '^[a-z0-9_-]+$' },
    }));
    expect(property(schema, 'redos')).toMatchObject({ pattern: '(a+)+$' });
    expect(property(schema, 'lookbehind')).not.toHaveProperty('pattern');
    expect(codes(schema, 'lookbehind')).toContain('keyword_dropped');
    expect(property(schema, 'safe')).toMatchObject({ pattern: '^[a-z0-9_-]+$' });
    // Inputs that keep a backtracking engine busy for minutes are answered at once, and correctly.
    const validate = createPayloadAjv().compile(schema.jsonSchema);
    expect(validate({ redos: `${'a'.repeat(5000)}!`, alternation: `${'1'.repeat(5000)}!` })).toBe(false);
    expect(validate({ redos: 'aaa', alternation: 'ab12', safe: 'ok-1' })).toBe(true);
  });

  it('keeps uri formats on files and on arrays of files', () => {
    const schema = schemaOf(model({
      image: { type: 'string', format: 'uri' },
      images: { type: 'array', items: { type: 'string', format: 'uri' } },
    }));
    expect(property(schema, 'image').format).toBe('uri');
    expect(property(schema, 'images')).toEqual({ type: 'array', items: { type: 'string', format: 'uri' } });
    expect(field(schema, 'images')).toMatchObject({ type: 'array', itemType: 'string', format: 'uri', role: 'image_input' });
  });

  it('orders fields by x-order, then the unordered ones in declaration order', () => {
    const schema = schemaOf(model({ z: { type: 'string' }, b: { type: 'string', 'x-order': 1 }, y: { type: 'string' }, a: { type: 'string', 'x-order': 0 } }));
    expect(schema.fields.map((f) => [f.name, f.order])).toEqual([['a', 0], ['b', 1], ['z', 2], ['y', 3]]);
    expect(Object.keys(schema.jsonSchema.properties as Json)).toEqual(['a', 'b', 'z', 'y']);
  });

  it('takes defaults only from the schema, never from the example', () => {
    const schema = schemaOf(model(
      { steps: { type: 'integer', default: 30 }, strength: { type: 'number' } },
      { example: { steps: 17, strength: 0.35 } },
    ));
    expect(field(schema, 'steps')).toMatchObject({ hasDefault: true, default: 30 });
    expect(field(schema, 'strength').hasDefault).toBe(false);
    expect(property(schema, 'strength')).not.toHaveProperty('default');
  });

  it('drops a default that does not validate against its own property, with a warning', () => {
    const schema = schemaOf(model({
      seed: { type: 'integer', default: null },
      image: { type: 'string', format: 'uri', default: 'Input image' },
      steps: { type: 'integer', minimum: 1, maximum: 10, default: 50 },
      scale: { type: 'integer', default: 13.5 },
    }));
    for (const name of ['seed', 'image', 'steps', 'scale']) {
      expect(field(schema, name).hasDefault).toBe(false);
      expect(property(schema, name)).not.toHaveProperty('default');
      expect(codes(schema, name)).toContain('default_dropped');
    }
  });

  it('keeps property names that are JSON Schema keywords working as fields', () => {
    // JSON.parse, as a real source arrives: an object literal would turn "__proto__" into the prototype.
    const source = JSON.parse(`{
      "format": { "type": "string", "default": "png" },
      "type": { "allOf": [{ "$ref": "#/components/schemas/type" }], "default": "gif" },
      "pattern": { "type": "boolean", "default": false },
      "properties": { "type": "string" },
      "example": { "type": "string", "title": "Example" },
      "__proto__": { "type": "string" }
    }`) as Json;
    const schema = schemaOf(model(source, { components: { type: { enum: ['gif', 'mp4'], type: 'string' } }, required: ['format'] }));
    const properties = schema.jsonSchema.properties as Json;
    expect(Object.keys(properties)).toEqual(['format', 'type', 'pattern', 'properties', 'example', '__proto__']);
    expect(properties.format).toEqual({ type: 'string', default: 'png' });
    expect(properties.type).toMatchObject({ type: 'string', enum: ['gif', 'mp4'] });
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(field(schema, 'example').title).toBe('Example');
    expect(schema.jsonSchema.required).toEqual(['format']);
    const validate = createAjv().compile(schema.jsonSchema);
    expect(validate({ format: 'jpg', type: 'mp4', pattern: true, properties: 'p', example: 'e' })).toBe(true);
    expect(validate({ format: 'jpg', type: 'webm' })).toBe(false);
  });

  it('turns unknown formats into bounds or description text, with warnings', () => {
    const schema = schemaOf(model({
      small: { type: 'integer', format: 'uint8', minimum: 1, nullable: true },
      big: { type: 'integer', format: 'uint32' },
      ratio: { type: 'number', format: 'double', description: 'Ratio' },
      token: { type: 'string', format: 'password', 'x-cog-secret': true },
      blob: { type: 'string', format: 'binary' },
    }));
    expect(property(schema, 'small')).toMatchObject({ type: ['integer', 'null'], minimum: 1, maximum: 255 });
    expect(property(schema, 'big')).toMatchObject({ minimum: 0, maximum: 4294967295 });
    expect(codes(schema, 'big')).toEqual(['format_converted']);
    expect(property(schema, 'ratio')).toEqual({ type: 'number', description: 'Ratio (Format: double.)' });
    expect(codes(schema, 'ratio')).toEqual(['format_dropped']);
    expect(property(schema, 'token')).not.toHaveProperty('format');
    expect(field(schema, 'token').role).toBe('secret');
    expect(property(schema, 'blob')).not.toHaveProperty('format');
    compiles(schema);
  });

  it('drops vendor keywords except x-order, and warns about unknown ones', () => {
    const schema = schemaOf(model({ a: { type: 'string', 'x-order': 0, 'x-cog-secret': false, 'x-whatever': 1, readOnly: false, max_length: 5 } }));
    expect(property(schema, 'a')).toEqual({ type: 'string', 'x-order': 0 });
    expect(codes(schema, 'a')).toEqual(['keyword_dropped']);
  });

  it('converts enum members that do not match their type when the conversion is lossless', () => {
    const schema = schemaOf(model({
      side_x: { enum: ['32', '48', '64'], type: 'integer', default: 64 },
      temp: { enum: ['0.997', '1.0'], type: 'number', default: 0.997 },
      flag: { enum: ['True', 'False'], type: 'boolean', default: true },
      steps: { enum: ['5', '40', '40'], type: 'string', default: '40' },
    }));
    expect(property(schema, 'side_x')).toMatchObject({ enum: [32, 48, 64], default: 64 });
    expect(property(schema, 'temp')).toMatchObject({ enum: [0.997, 1], default: 0.997 });
    expect(property(schema, 'flag')).toMatchObject({ enum: [true, false], default: true });
    expect(codes(schema, 'side_x')).toContain('enum_coerced');
    expect(property(schema, 'steps').enum).toEqual(['5', '40']);
    expect(codes(schema, 'steps')).toContain('enum_deduplicated');
    compiles(schema);
  });

  it('supports the nullable and string-or-array anyOf forms', () => {
    const schema = schemaOf(model({
      text: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }], title: 'Text' },
      style: { anyOf: [{ $ref: '#/components/schemas/style' }, { type: 'null' }], default: null },
      count: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }] },
    }, { components: { style: { enum: ['a', 'b'], type: 'string' } } }));
    expect(property(schema, 'text')).toEqual({ type: ['string', 'array'], items: { type: 'string' }, title: 'Text' });
    expect(field(schema, 'text')).toMatchObject({ type: 'string', itemType: 'string' });
    expect(property(schema, 'style')).toEqual({ type: ['string', 'null'], enum: ['a', 'b', null], default: null });
    expect(property(schema, 'count')).toEqual({ type: ['integer', 'null'], minimum: 1 });
    compiles(schema);
  });

  it('drops required names the closed input does not declare, with a warning', () => {
    const schema = schemaOf(model({ prompt: { type: 'string' } }, { required: ['prompt', 'ghost'] }));
    expect(schema.jsonSchema.required).toEqual(['prompt']);
    expect(codes(schema, 'ghost')).toEqual(['required_unknown']);
  });

  it('is deterministic', () => {
    const source = sample('sdxl.model.json');
    expect(extractModelSchema(source).modelSchema).toEqual(extractModelSchema(structuredClone(source)).modelSchema);
  });
});

describe('unsupported constructs are refused, naming the construct and the property', () => {
  const cyclic = { node: { type: 'object', properties: { child: { $ref: '#/components/schemas/node' } } } };
  it.each([
    ['not', { a: { type: 'string', not: { enum: ['x'] } } }, {}, 'a'],
    ['if', { a: { type: 'string', if: { minLength: 1 }, then: { maxLength: 3 } } }, {}, 'a'],
    ['patternProperties', { a: { type: 'object', patternProperties: { '^x': { type: 'string' } } } }, {}, 'a'],
    ['dependencies', { a: { type: 'object', dependencies: { x: ['y'] } } }, {}, 'a'],
    ['external $ref', { a: { $ref: 'https://example.com/schema.json' } }, {}, 'a'],
    ['unresolvable $ref', { a: { allOf: [{ $ref: '#/components/schemas/missing' }] } }, {}, 'a'],
    ['$ref cycle', { tree: { $ref: '#/components/schemas/node' } }, cyclic, 'tree.child'],
    ['allOf', { a: { allOf: [{ type: 'string' }, { minLength: 2 }] } }, {}, 'a'],
    ['anyOf', { a: { anyOf: [{ type: 'string', pattern: '^a' }, { type: 'string', pattern: '^b' }] } }, {}, 'a'],
    ['oneOf', { a: { oneOf: [{ type: 'integer' }, { type: 'number' }] } }, {}, 'a'],
    ['enum', { a: { type: 'integer', enum: ['1', 'two'] } }, {}, 'a'],
    ['pattern', { a: { type: 'string', pattern: '(?P<name>x)' } }, {}, 'a'],
    ['items (tuple form)', { a: { type: 'array', items: [{ type: 'string' }] } }, {}, 'a'],
    ['not', { list: { type: 'array', items: { type: 'string', not: { const: 'x' } } } }, {}, 'list[]'],
  ])('%s', (construct, properties, components, path) => {
    const error = refusal(() => extractModelSchema(model(properties, { components })));
    expect(error.code).toBe('SCHEMA_UNSUPPORTED');
    expect(error.field).toBe(path);
    expect(error.details).toEqual({ construct });
    expect(error.message).toContain(construct);
    expect(error.message).toContain(path);
  });

  it('refuses a construct on the Input object itself', () => {
    const error = refusal(() => extractModelSchema(model({}, { input: { anyOf: [{ type: 'object' }] } })));
    expect(error).toMatchObject({ code: 'SCHEMA_UNSUPPORTED', details: { construct: 'anyOf' } });
  });
});

describe('example inference', () => {
  const tool = (example_input: Json): ModelSchema => schemaOf({ model: 'acme/tool', example_input });

  it('infers string, uri, integer, number, boolean, array and object types without keeping values', () => {
    const schema = tool({
      prompt: 'a red fox', image: 'https://example.com/fox.png', data: 'data:image/png;base64,AAAA', steps: 20, scale: 7.5,
      fast: true, tags: ['a', 'b'], files: ['https://example.com/1.png'], mix: [1, 2.5], config: { depth: 3 },
    });
    const properties = schema.jsonSchema.properties as Record<string, Json>;
    expect(properties.prompt).toEqual({ type: 'string', 'x-order': 0 });
    expect(properties.image).toMatchObject({ type: 'string', format: 'uri' });
    expect(properties.data).toMatchObject({ type: 'string', format: 'uri' });
    expect(properties.steps).toMatchObject({ type: 'integer' });
    expect(properties.scale).toMatchObject({ type: 'number' });
    expect(properties.fast).toMatchObject({ type: 'boolean' });
    expect(properties.tags).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(properties.files).toMatchObject({ type: 'array', items: { type: 'string', format: 'uri' } });
    expect(properties.mix).toMatchObject({ items: { type: 'number' } });
    expect(properties.config).toEqual({ type: 'object', 'x-order': 9 });
    expect(field(schema, 'image').role).toBe('image_input');
    expect(schema.fields.every((f) => !f.hasDefault)).toBe(true);
    compiles(schema);
  });

  it('leaves a null example untyped, with a warning', () => {
    const schema = tool({ prompt: 'x', extra: null, empty: [] });
    expect(property(schema, 'extra')).toEqual({ 'x-order': 1 });
    expect(field(schema, 'extra').type).toBe('any');
    expect(codes(schema, 'extra')).toEqual(['untyped_field']);
    expect(codes(schema, 'empty[]')).toEqual(['untyped_field']);
  });

  it('requires only the primary prompt: the field named prompt wins over other prompt-like fields', () => {
    expect(tool({ text: 'a', prompt: 'b', negative_prompt: 'c', seed: 1 }).jsonSchema.required).toEqual(['prompt']);
    expect(tool({ caption: 'a', query: 'b' }).jsonSchema.required).toEqual(['caption']);
    expect(tool({ image: 'https://example.com/a.png', scale: 2 }).jsonSchema.required).toEqual([]);
  });

  it('parses owner/name:version references, but keys the cache by content (the example decides the schema)', () => {
    const { modelSchema, cacheKey } = extractModelSchema({ model: 'acme/tool:abc123', example_input: { prompt: 'x' } });
    expect(modelSchema).toMatchObject({ model: 'acme/tool', version: 'abc123', source: 'example_input' });
    expect(cacheKey).toMatch(/^sha256:[a-f0-9]{64}$/);
  });
});

describe('zero trust: example values never reach the ModelSchema', () => {
  it.each(['flux-schnell.model.json', 'real-esrgan.model.json', 'sdxl.model.json', 'whisper.version.json', 'sticker-maker.tool.json'])(
    '%s',
    (file) => {
      const source = sample(file);
      const example = (source.default_example as Json | undefined)?.input ?? source.example_input ?? {};
      const declared = new Set(declaredValues(source));
      const schema = schemaOf(source);
      const text = JSON.stringify(schema);
      const kept = declaredValues(schema);
      for (const value of leaves(example)) {
        if (declared.has(value)) continue;
        if (typeof value === 'string' && value.length >= 4) expect(text).not.toContain(asJsonText(value));
        // Numbers are too short to search for as text; they must not become a default or an enum member.
        if (typeof value === 'number') expect(kept).not.toContain(value);
      }
    },
  );

  it('keeps canaries from example_input and from example keywords out, and in the quarantine', () => {
    const canaries = ['CANARY-example-input-7f3a', 'CANARY-property-example-91bc', 'CANARY-items-examples-42de', 'CANARY-ref-example-5e0f', 'CANARY-root-example-c3d2'];
    const numbers = [8675309.25, 4242.4242];
    const source = model(
      {
        prompt: { type: 'string', example: canaries[1], description: `Try ${canaries[0]} here` },
        tags: { type: 'array', items: { type: 'string', examples: [canaries[2], numbers[1]] } },
        style: { allOf: [{ $ref: '#/components/schemas/style' }], default: 'plain' },
      },
      {
        components: { style: { enum: ['plain', 'fancy'], type: 'string', example: canaries[3] } },
        example: { prompt: canaries[0], strength: numbers[0], style: 'plain' },
        input: { example: { prompt: canaries[4] } },
      },
    );
    const { modelSchema, quarantine } = extractModelSchema(source);
    const text = JSON.stringify(modelSchema);
    for (const canary of [...canaries, ...numbers.map(String)]) expect(text).not.toContain(canary);
    const quarantined = quarantine.entries().map((e) => e.value);
    for (const canary of [...canaries, ...numbers]) expect(quarantined).toContain(canary);
    // The example chose the schema's own default: that value is schema content and stays.
    expect(property(modelSchema, 'style').default).toBe('plain');
    expect(codes(modelSchema, 'prompt')).toEqual(expect.arrayContaining(['example_quarantined', 'example_redacted']));
    expect(JSON.stringify(quarantine)).not.toContain('CANARY');
  });

  it('removes a distinctive example number quoted in prose, but not everyday figures or what the schema declares', () => {
    const source = {
      owner: 'acme', name: 'seeds',
      latest_version: { id: 'v1', openapi_schema: { components: { schemas: { Input: { type: 'object', properties: {
        seed: { type: 'integer', description: 'Random seed, e.g. 918273645; 1024 is fine too' },
        steps: { type: 'integer', maximum: 1337, description: 'Steps, at most 1337 (the example uses 1337)' },
        scale: { type: 'number', description: 'Scale such as 0.37, or 0.5' },
      } } } } } },
      default_example: { input: { seed: 918273645, steps: 1337, scale: '0.37', width: 1024 } },
    };
    const { modelSchema } = extractModelSchema(source);
    expect(property(modelSchema, 'seed').description).toBe('Random seed, e.g. [example value removed]; 1024 is fine too');
    expect(property(modelSchema, 'steps').description).toBe('Steps, at most 1337 (the example uses 1337)');
    expect(property(modelSchema, 'scale').description).toBe('Scale such as [example value removed], or 0.5');
    expect(codes(modelSchema, 'seed')).toContain('example_redacted');
  });

  it('infers from example_input without keeping any of its values', () => {
    const example = { prompt: 'CANARY-tool-prompt-1a2b', image: 'https://canary.example.com/CANARY.png', steps: 9137, list: ['CANARY-list-item'] };
    const text = JSON.stringify(schemaOf({ model: 'acme/tool', example_input: example }));
    for (const value of leaves(example)) expect(text).not.toContain(String(value));
  });
});

describe('an empty anyOf (Replicate 2025–26 video models: reference images)', () => {
  const video = model({
    prompt: { type: 'string', title: 'Prompt' },
    reference_images: { type: 'array', items: { anyOf: [] }, title: 'Reference Images', default: [] },
    tags: { type: 'array', items: { anyOf: [] } },
    frames: { type: 'array', items: { anyOf: [], format: 'uri' } },
  });

  it('reads list items as URIs where the name or format says files, else as any value, with a warning', () => {
    const schema = schemaOf(video);
    expect(property(schema, 'reference_images')).toMatchObject({ type: 'array', items: { type: 'string', format: 'uri' } });
    expect(property(schema, 'frames')).toMatchObject({ type: 'array', items: { type: 'string', format: 'uri' } });
    expect(property(schema, 'tags')).toMatchObject({ type: 'array', items: {} });
    expect(codes(schema, 'reference_images[]')).toEqual(['empty_any_of']);
    expect(codes(schema, 'tags[]')).toEqual(['empty_any_of']);
    expect(schema.warnings.find((w) => w.path === 'tags[]')?.message).toContain('any value');
    compiles(schema);
  });

  it('validates payloads against the reading: URLs for reference images, anything for untyped items', () => {
    const schema = schemaOf(video);
    const validate = createPayloadAjv().compile(schema.jsonSchema);
    expect(validate({ prompt: 'a', reference_images: ['https://x.test/a.png'], tags: ['a', 1] })).toBe(true);
    expect(validate({ prompt: 'a', reference_images: [42] })).toBe(false);
  });

  it('still refuses an anyOf whose branches cannot be merged', () => {
    const error = refusal(() => extractModelSchema(model({ a: { type: 'array', items: { anyOf: [{ type: 'string', pattern: '^a' }, { type: 'string', pattern: '^b' }] } } })));
    expect(error).toMatchObject({ code: 'SCHEMA_UNSUPPORTED', details: { construct: 'anyOf' } });
  });
});
