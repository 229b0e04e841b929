import { describe, expect, it } from 'vitest';
import { decodeAnswer } from '../../src/adapters/openai/strict-answer.ts';
import { strictReport, toStrictSchema, type JsonObject } from '../../src/adapters/openai/strict-schema.ts';
import type { FieldSpec, ModelSchema } from '../../src/generated/contracts.ts';
import { createAjv } from '../../src/schema/ajv.ts';
import { extractModelSchema } from '../../src/stages/schema-extractor/index.ts';
import { canonicalHash } from '../../src/util/canonical-hash.ts';
import { exampleModel } from '../support/pipeline.ts';
import { extractReplicateCatalog } from '../support/replicate-catalog.ts';

/** The keywords strict mode accepts; nothing else may reach the request. */
const STRICT_KEYWORDS = new Set(['type', 'enum', 'description', 'properties', 'required', 'additionalProperties', 'items', 'anyOf']);

function schemaOf(file: string): ModelSchema {
  return extractModelSchema(exampleModel(file)).modelSchema;
}

/** A hand-made ModelSchema, for constructs the extractor never produces (a conditional, say). */
function handMade(properties: Record<string, JsonObject>, required: string[] = [], fields: Partial<FieldSpec>[] = []): ModelSchema {
  const jsonSchema = { type: 'object', additionalProperties: false, properties, required };
  return {
    schemaHash: canonicalHash(jsonSchema),
    model: 'acme/hand-made',
    version: null,
    source: 'replicate_model',
    jsonSchema,
    fields: Object.keys(properties).map((name, order) => ({
      name, role: 'other', type: 'any', required: required.includes(name), nullable: false, order, hasDefault: false,
      ...fields.find((f) => f.name === name),
    })),
    warnings: [],
  };
}

/** Every node of a strict schema, with its pointer. */
function* nodes(node: JsonObject, path = ''): Generator<[string, JsonObject]> {
  yield [path, node];
  for (const [name, child] of Object.entries((node.properties ?? {}) as Record<string, JsonObject>)) yield* nodes(child, `${path}/${name}`);
  if (node.items) yield* nodes(node.items as JsonObject, `${path}/*`);
  for (const branch of (node.anyOf ?? []) as JsonObject[]) yield* nodes(branch, path);
}

/** The first way the schema breaks the strict rules, or undefined. */
function strictViolation(schema: JsonObject): string | undefined {
  for (const [path, node] of nodes(schema)) {
    const stranger = Object.keys(node).find((keyword) => !STRICT_KEYWORDS.has(keyword));
    if (stranger) return `${path}: ${stranger}`;
    if (!node.properties) continue;
    if (node.additionalProperties !== false) return `${path}: open object`;
    const required = new Set(node.required as string[]);
    if (Object.keys(node.properties).some((name) => !required.has(name))) return `${path}: a property is not required`;
  }
  return undefined;
}

function assertStrictShape(schema: JsonObject): void {
  expect(strictViolation(schema)).toBeUndefined();
}

const allNull = (schema: ModelSchema) => Object.fromEntries(schema.fields.map((field) => [field.name, null]));

describe('toStrictSchema', () => {
  it('makes every property required and nullable, closes objects, and keeps nothing strict mode rejects', () => {
    const strict = toStrictSchema(schemaOf('flux-schnell.model.json'));
    assertStrictShape(strict.schema);
    expect(strict.name).toBe('black-forest-labs_flux-schnell');
    const properties = strict.schema.properties as Record<string, JsonObject>;
    expect(properties.prompt).toEqual({ type: ['string', 'null'], description: 'Prompt for generated image' });
    expect(properties.aspect_ratio?.enum).toContain(null);
    expect(properties.num_outputs?.description).toBe('Number of outputs to generate (minimum: 1; maximum: 4; default: 1)');
  });

  it('reports every rule it moved into a description as residual, for AJV to keep enforcing', () => {
    const strict = toStrictSchema(schemaOf('sdxl.model.json'));
    expect(strict.residualRules).toContainEqual({ path: '/image', keyword: 'format', value: 'uri', kind: 'format' });
    expect(strict.residualRules).toContainEqual({ path: '/guidance_scale', keyword: 'maximum', value: 50, kind: 'bound' });
    expect(strictReport(schemaOf('sdxl.model.json')).residualRules.every((rule) => rule.enforcedBy === 'ajv')).toBe(true);
  });

  it('does not tell the LLM a sample prompt default or a secret default (the builder uses neither)', () => {
    const sdxl = toStrictSchema(schemaOf('sdxl.model.json'));
    expect(JSON.stringify(sdxl.schema)).not.toContain('astronaut');
    const secret = handMade({ hf_token: { type: 'string', default: 'hf_default_value_123' }, steps: { type: 'integer', default: 30 } }, [], [
      { name: 'hf_token', role: 'secret', type: 'string', hasDefault: true, default: 'hf_default_value_123' },
    ]);
    const text = JSON.stringify(toStrictSchema(secret).schema);
    expect(text).not.toContain('hf_default_value_123');
    expect(text).toContain('default: 30');
  });

  it('handles what strict mode cannot type: encodes, splits unions, drops conditionals (reported)', () => {
    const schema = handMade({
      tags: { type: 'array', items: { type: 'string', minLength: 2 }, maxItems: 3, uniqueItems: true },
      extra: { type: 'object' },
      anything: {},
      image: { type: ['string', 'array', 'null'], format: 'uri', items: { type: 'string' } },
      mode: { const: 'fast' },
      box: { type: 'object', properties: { w: { type: 'integer', exclusiveMinimum: 0 }, label: { type: 'string', pattern: '^[a-z]+$' } }, required: ['w'] },
      gated: { type: 'string', if: { minLength: 1 }, then: { pattern: 'x' } },
    }, ['box']);
    const strict = toStrictSchema(schema);
    assertStrictShape(strict.schema);
    const properties = strict.schema.properties as Record<string, JsonObject>;
    expect(strict.jsonEncoded).toEqual(['/extra', '/anything']);
    expect(properties.extra).toMatchObject({ type: ['string', 'null'] });
    expect(properties.image?.anyOf).toEqual([{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'null' }]);
    expect(properties.mode).toMatchObject({ enum: ['fast', null] });
    expect((properties.box?.properties as Record<string, JsonObject>).label).toMatchObject({ type: ['string', 'null'] });
    expect(strict.residualRules.map((rule) => `${rule.path} ${rule.keyword} ${rule.kind}`)).toEqual(expect.arrayContaining([
      '/tags maxItems count', '/tags uniqueItems count', '/tags/* minLength length', '/image format format',
      '/box/w exclusiveMinimum bound', '/box/label pattern pattern', '/gated if conditional', '/gated then conditional',
    ]));
  });
});

describe('decodeAnswer', () => {
  const schema = handMade({
    prompt: { type: 'string' },
    extra: { type: 'object' },
    anything: {},
    box: { type: 'object', properties: { w: { type: 'integer' }, label: { type: 'string' } }, required: ['w'] },
  }, ['prompt']);
  const strict = toStrictSchema(schema);

  it('drops nulls (the user said nothing) and decodes JSON-encoded values', () => {
    const answer = { prompt: 'a fox', extra: '{"k":[1,2]}', anything: 'plain words', box: { w: 3, label: null } };
    expect(decodeAnswer(JSON.stringify(answer), strict, schema)).toEqual({ prompt: 'a fox', extra: { k: [1, 2] }, anything: 'plain words', box: { w: 3 } });
    expect(decodeAnswer(JSON.stringify({ prompt: null, extra: null, anything: null, box: null }), strict, schema)).toEqual({});
  });

  it.each([
    ['{"prompt": "never closed', /not valid JSON/],
    [JSON.stringify({ prompt: 'x' }), /does not fit the strict schema: extra is required/],
    [JSON.stringify({ prompt: 7, extra: null, anything: null, box: null }), /prompt must be string/],
    [JSON.stringify({ prompt: 'x', extra: null, anything: null, box: null, seed: 1 }), /seed is not an allowed field/],
    [JSON.stringify({ prompt: 'x', extra: 'not json', anything: null, box: null }), /for \/extra is not the JSON-encoded value/],
  ])('refuses %s as BUILDER_FAILED with the reason', (content, reason) => {
    expect(() => decodeAnswer(content, strict, schema)).toThrow(expect.objectContaining({ code: 'BUILDER_FAILED', message: expect.stringMatching(reason) }));
  });
});

describe('every public Replicate model', () => {
  it('converts to a strict schema AJV compiles, whose all-null answer decodes to nothing', () => {
    const ajv = createAjv({ strict: false });
    let converted = 0;
    for (const entry of extractReplicateCatalog()) {
      if (!entry.result) continue;
      const schema = entry.result.modelSchema;
      const strict = toStrictSchema(schema);
      expect(strict.name, entry.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(strictViolation(strict.schema), entry.name).toBeUndefined();
      expect(ajv.validate(strict.schema, allNull(schema)), entry.name).toBe(true);
      expect(decodeAnswer(JSON.stringify(allNull(schema)), strict, schema), entry.name).toEqual({});
      converted += 1;
    }
    expect(converted).toBeGreaterThan(1000);
  }, 480_000);
});
