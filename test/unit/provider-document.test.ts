import { describe, expect, it } from 'vitest';
import { isVettedError } from '../../src/errors.ts';
import type { ModelSchema } from '../../src/generated/contracts.ts';
import { createPayloadAjv } from '../../src/schema/ajv.ts';
import { extractModelSchema } from '../../src/stages/schema-extractor/index.ts';
import { CompiledSchemaCache } from '../../src/stages/validator/index.ts';

type Json = Record<string, unknown>;

/** An OpenAI-style document with one operation whose JSON (or multipart) body is `body`. */
function openaiFile(body: Json, options: { components?: Json; contentType?: string; fields?: string[] } = {}): Json {
  return {
    provider: 'openai',
    operation: 'doThing',
    ...(options.fields ? { fields: options.fields } : {}),
    openapi: {
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      paths: {
        '/things': {
          get: { operationId: 'listThings', responses: {} },
          post: {
            operationId: 'doThing',
            requestBody: { content: { [options.contentType ?? 'application/json']: { schema: { $ref: '#/components/schemas/Body' } } } },
            responses: {},
          },
        },
      },
      components: { schemas: { Body: body, ...options.components } },
    },
  };
}

function extract(source: Json) {
  return extractModelSchema(source);
}

function property(schema: ModelSchema, name: string): Json {
  return (schema.jsonSchema.properties as Record<string, Json>)[name] as Json;
}

function refusal(source: Json): { code: string; construct?: unknown; field?: string } {
  try {
    extract(source);
  } catch (error) {
    if (!isVettedError(error)) throw error;
    return { code: error.code, construct: (error.details as Json | undefined)?.construct, field: error.field };
  }
  throw new Error('extraction did not refuse');
}

function accepts(schema: ModelSchema, payload: unknown): boolean {
  return Boolean(createPayloadAjv().compile(schema.jsonSchema)(payload));
}

describe('provider model files', () => {
  it('names the model after the operation, records the provider and resolves the body $ref', () => {
    const { modelSchema } = extract(openaiFile({ type: 'object', required: ['prompt'], properties: { prompt: { type: 'string' } } }));
    expect(modelSchema.model).toBe('openai/doThing');
    expect(modelSchema.source).toBe('provider_openapi');
    expect(modelSchema.provider).toMatchObject({ name: 'openai', operation: 'doThing', method: 'POST', path: '/things', contentType: 'application/json' });
    expect(modelSchema.jsonSchema.required).toEqual(['prompt']);
  });

  it('finds a fal endpoint by its submit path', () => {
    const source = {
      provider: 'fal',
      endpoint: 'fal-ai/some/model',
      openapi: {
        openapi: '3.0.4',
        paths: { '/fal-ai/some/model': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/In' } } } } } } },
        components: { schemas: { In: { type: 'object', properties: { prompt: { type: 'string' } } } } },
      },
    };
    const { modelSchema } = extract(source);
    expect(modelSchema.model).toBe('fal-ai/some/model');
    expect(modelSchema.provider).toMatchObject({ name: 'fal', endpoint: 'fal-ai/some/model', path: '/fal-ai/some/model' });
  });

  it('finds a fal endpoint of six segments, as fal publishes them, and refuses eight', () => {
    const falFile = (endpoint: string) => ({
      provider: 'fal',
      endpoint,
      openapi: {
        openapi: '3.0.4',
        paths: { [`/${endpoint}`]: { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/In' } } } } } } },
        components: { schemas: { In: { type: 'object', properties: { prompt: { type: 'string' } } } } },
      },
    });
    expect(extract(falFile('fal-ai/bytedance/seedance/v1/pro/image-to-video')).modelSchema.model).toBe('fal-ai/bytedance/seedance/v1/pro/image-to-video');
    expect(refusal(falFile('a/b/c/d/e/f/g/h'))).toMatchObject({ code: 'MODEL_SOURCE_INVALID', field: 'endpoint' });
  });

  it('keeps a published schema that writes nullable beside a union with no type, accepting null', () => {
    const body = { type: 'object', properties: { model: { anyOf: [{ type: 'string' }, { type: 'string', enum: ['dall-e-2'] }], nullable: true, default: 'dall-e-2' } } };
    const { modelSchema } = extract(openaiFile(body));
    const compiled = new CompiledSchemaCache(1).compiledFor(modelSchema);
    expect(compiled.publishedError).toBeUndefined();
    expect(compiled.published?.({ model: null })).toBe(true);
    expect(compiled.published?.({ model: 'dall-e-2' })).toBe(true);
    expect(compiled.published?.({ model: 3 })).toBe(false);
  });

  it('refuses an operation the document does not have, naming the field', () => {
    const source = { ...openaiFile({ type: 'object', properties: {} }), operation: 'missingOp' };
    expect(refusal(source)).toMatchObject({ code: 'MODEL_SOURCE_INVALID', field: 'operation' });
    expect(refusal({ ...source, provider: 'nope' })).toMatchObject({ code: 'MODEL_SOURCE_INVALID', field: 'provider' });
  });

  it('reads nullable, and a mixed-type anyOf with an enum branch as side-by-side branches', () => {
    const { modelSchema } = extract(
      openaiFile(
        {
          type: 'object',
          properties: {
            n: { type: 'integer', minimum: 1, nullable: true },
            size: { anyOf: [{ $ref: '#/components/schemas/Size' }, { type: 'string', enum: ['square', 'wide'] }] },
          },
        },
        { components: { Size: { type: 'object', properties: { width: { type: 'integer' } } } } },
      ),
    );
    expect(property(modelSchema, 'n').type).toEqual(['integer', 'null']);
    expect(accepts(modelSchema, { n: null, size: 'square' })).toBe(true);
    expect(accepts(modelSchema, { size: { width: 5 } })).toBe(true);
    expect(accepts(modelSchema, { size: 'tall' })).toBe(false);
  });

  it('reads an open string enum as any string', () => {
    const { modelSchema } = extract(openaiFile({ type: 'object', properties: { model: { anyOf: [{ type: 'string' }, { type: 'string', enum: ['a-1', 'b-2'] }] } } }));
    expect(property(modelSchema, 'model').type).toBe('string');
    expect(accepts(modelSchema, { model: 'c-3' })).toBe(true);
    expect(modelSchema.warnings.some((w) => w.path === 'model' && w.code === 'keyword_dropped')).toBe(true);
  });

  it('keeps a discriminated union of objects, each pinned to its tag', () => {
    const branch = (tag: string, extra: Json) => ({ type: 'object', required: ['kind'], properties: { kind: { type: 'string', enum: [tag] }, ...extra } });
    const { modelSchema } = extract(
      openaiFile({
        type: 'object',
        properties: {
          format: { oneOf: [branch('text', {}), branch('json', { strict: { type: 'boolean' } })], discriminator: { propertyName: 'kind' } },
        },
      }),
    );
    expect(property(modelSchema, 'format').oneOf).toHaveLength(2);
    expect(accepts(modelSchema, { format: { kind: 'json', strict: true } })).toBe(true);
    expect(accepts(modelSchema, { format: { kind: 'xml' } })).toBe(false);
  });

  it('keeps object branches told apart by a required fixed tag, with no discriminator, as OpenAI writes chat messages', () => {
    const message = (role: string) => ({ type: 'object', required: ['role', 'content'], properties: { role: { type: 'string', enum: [role] }, content: { type: 'string', nullable: true } } });
    const body = {
      type: 'object',
      required: ['messages'],
      properties: {
        messages: { type: 'array', items: { oneOf: [message('system'), message('user')] } },
        stop: { oneOf: [{ type: 'string', nullable: true }, { type: 'array', items: { type: 'string' } }] },
      },
    };
    const { modelSchema } = extract(openaiFile(body));
    expect(accepts(modelSchema, { messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: null }] })).toBe(true);
    expect(accepts(modelSchema, { messages: [{ role: 'critic', content: 'hm' }] })).toBe(false);
    expect(accepts(modelSchema, { messages: [{ role: 'user', content: 'hi' }], stop: null })).toBe(true);
    expect(accepts(modelSchema, { messages: [{ role: 'user', content: 'hi' }], stop: ['END'] })).toBe(true);
    // Two branches that may carry the same tag value are still refused: a payload could fit both.
    expect(refusal(openaiFile({ type: 'object', properties: { m: { oneOf: [message('user'), message('user')] } } }))).toMatchObject({ code: 'SCHEMA_UNSUPPORTED', construct: 'oneOf' });
  });

  it('refuses a discriminator whose branches carry no fixed tag, naming the keyword', () => {
    const source = openaiFile({
      type: 'object',
      properties: { format: { oneOf: [{ type: 'object', properties: { kind: { type: 'string' } } }], discriminator: { propertyName: 'kind' } } },
    });
    expect(refusal(source)).toMatchObject({ code: 'SCHEMA_UNSUPPORTED', construct: 'discriminator', field: 'format' });
  });

  it('turns multipart binary parts into URL fields the provider uploads', () => {
    const { modelSchema } = extract(
      openaiFile(
        {
          type: 'object',
          required: ['image', 'prompt'],
          properties: {
            image: { anyOf: [{ type: 'string', format: 'binary' }, { type: 'array', items: { type: 'string', format: 'binary' } }] },
            mask: { type: 'string', format: 'binary' },
            prompt: { type: 'string' },
          },
        },
        { contentType: 'multipart/form-data' },
      ),
    );
    expect(modelSchema.provider).toMatchObject({ contentType: 'multipart/form-data', uploads: ['image', 'mask'] });
    expect(property(modelSchema, 'mask')).toMatchObject({ type: 'string', format: 'uri' });
    expect(accepts(modelSchema, { prompt: 'p', image: ['https://files.example/a.png'] })).toBe(true);
    expect(accepts(modelSchema, { prompt: 'p', image: 'not a url' })).toBe(false);
  });

  it('quarantines example, examples and sample-text defaults, never keeping them in the schema', () => {
    const { modelSchema, quarantine } = extract(
      openaiFile({
        type: 'object',
        properties: {
          prompt: { type: 'string', example: 'an otter juggling plums', default: 'a heron standing in fog at dawn' },
          style: { type: 'string', examples: ['noir-ink'], default: 'auto' },
        },
      }),
    );
    const values = quarantine.entries().map((entry) => entry.value);
    expect(values).toEqual(expect.arrayContaining(['an otter juggling plums', 'noir-ink', 'a heron standing in fog at dawn']));
    const text = JSON.stringify(modelSchema);
    for (const value of ['otter', 'noir-ink', 'heron']) expect(text).not.toContain(value);
    expect(property(modelSchema, 'style').default).toBe('auto');
  });

  it('refuses a keyword it cannot express, naming it', () => {
    const source = openaiFile({ type: 'object', properties: { tags: { type: 'object', patternProperties: { '^x': { type: 'string' } } } } });
    expect(refusal(source)).toMatchObject({ code: 'SCHEMA_UNSUPPORTED', construct: 'patternProperties', field: 'tags' });
  });

  it('reduces a large body to the enabled fields, keeping every required one', () => {
    const body = {
      allOf: [
        { $ref: '#/components/schemas/Shared' },
        { type: 'object', required: ['messages'], properties: { messages: { type: 'array', items: { type: 'string' } }, tools: { type: 'array' } } },
      ],
    };
    const components = { Shared: { type: 'object', properties: { temperature: { type: 'number' }, user: { type: 'string' } } } };
    const { modelSchema } = extract(openaiFile(body, { components, fields: ['messages', 'temperature'] }));
    expect(Object.keys(modelSchema.jsonSchema.properties as Json)).toEqual(['messages', 'temperature']);
    expect(refusal(openaiFile(body, { components, fields: ['temperature'] }))).toMatchObject({ code: 'MODEL_SOURCE_INVALID', field: 'fields' });
    expect(refusal(openaiFile(body, { components, fields: ['nope'] }))).toMatchObject({ code: 'MODEL_SOURCE_INVALID', field: 'fields' });
  });
});
