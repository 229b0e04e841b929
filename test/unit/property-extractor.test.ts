/**
 * Properties of the SchemaExtractor on generated Replicate-like sources and on arbitrary JSON:
 *  - it answers a ModelSchema or a typed VettedError (MODEL_SOURCE_INVALID / SCHEMA_UNSUPPORTED), nothing else;
 *  - what it answers is a valid `model-schema` contract that AJV compiles, and the same source gives the same answer;
 *  - no example value (a canary of 8+ characters put in default_example, example_input or an example keyword)
 *    reaches the ModelSchema, unless the schema itself declares that text as a default, an enum member or a const.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isVettedError, type ErrorCode } from '../../src/errors.ts';
import type { ModelSchema } from '../../src/generated/contracts.ts';
import { assertContract } from '../../src/schema/contracts.ts';
import { isPlainObject } from '../../src/stages/example-quarantine.ts';
import { extractModelSchema, type ExtractionResult } from '../../src/stages/schema-extractor/index.ts';
import { CompiledSchemaCache } from '../../src/stages/validator/index.ts';
import { jsonArb, keyArb, propertyParams, replicateModelArb } from '../support/hostile.ts';

/** The shortest example string the zero-trust promise covers (shorter ones are ordinary words). */
const MIN_CANARY_LENGTH = 8;
const EXTRACTION_ERRORS: ReadonlySet<ErrorCode> = new Set(['MODEL_SOURCE_INVALID', 'SCHEMA_UNSUPPORTED']);
const cache = new CompiledSchemaCache(50);

/** The extraction, or undefined for a typed refusal; anything else is rethrown so fast-check reports it. */
function extractOrRefuse(source: unknown): ExtractionResult | undefined {
  try {
    return extractModelSchema(source);
  } catch (error) {
    if (isVettedError(error) && EXTRACTION_ERRORS.has(error.code)) return undefined;
    throw error;
  }
}

/** What every successful extraction must satisfy, whatever its source. */
function checkWellFormed(source: unknown, result: ExtractionResult): void {
  assertContract<ModelSchema>('model-schema', result.modelSchema, 'extracted ModelSchema');
  cache.compiledFor(result.modelSchema);
  expect(JSON.parse(JSON.stringify(result.quarantine))).toEqual({ quarantinedValues: result.quarantine.size });
  expect(extractModelSchema(source)).toEqual(result);
}

function stringLeaves(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((item) => stringLeaves(item, out));
  else if (isPlainObject(value)) Object.values(value).forEach((item) => stringLeaves(item, out));
}

/** Text the schema declares as values (default, enum, const), walking nodes as the redactor does. */
function declaredStrings(node: unknown, out: string[] = []): string[] {
  if (!isPlainObject(node)) return out;
  for (const keyword of ['default', 'enum', 'const']) if (Object.hasOwn(node, keyword)) stringLeaves(node[keyword], out);
  if (isPlainObject(node.properties)) Object.values(node.properties).forEach((child) => declaredStrings(child, out));
  declaredStrings(node.items, out);
  declaredStrings(node.additionalProperties, out);
  return out;
}

/**
 * Example keywords of a source schema node and of every node it reaches: members, items, properties and
 * `#/components/schemas/*` refs. Components nothing references describe no input, so they are not walked.
 */
function keywordExamples(node: unknown, schemas: Record<string, unknown>, out: string[], seen = new Set<unknown>()): void {
  if (!isPlainObject(node) || seen.has(node)) return;
  seen.add(node);
  const walk = (child: unknown) => keywordExamples(child, schemas, out, seen);
  for (const keyword of ['example', 'examples']) if (Object.hasOwn(node, keyword)) stringLeaves(node[keyword], out);
  if (isPlainObject(node.properties)) Object.values(node.properties).forEach(walk);
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(node[keyword])) (node[keyword] as unknown[]).forEach(walk);
  walk(node.items);
  walk(node.additionalProperties);
  const ref = typeof node.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(node.$ref)?.[1] : undefined;
  if (ref !== undefined && Object.hasOwn(schemas, ref)) walk(schemas[ref]);
}

/** Every string in an example position of a generated source: the example input and the example keywords. */
function exampleStrings(source: Record<string, unknown>): string[] {
  const out: string[] = [];
  const at = (value: unknown, ...path: string[]): unknown => path.reduce<unknown>((acc, key) => (isPlainObject(acc) ? acc[key] : undefined), value);
  stringLeaves(at(source, 'default_example', 'input'), out);
  stringLeaves(source.example_input, out);
  const schemas = at(source.latest_version ?? source, 'openapi_schema', 'components', 'schemas');
  if (isPlainObject(schemas)) keywordExamples(schemas.Input, schemas, out);
  return out;
}

/** Every key and string in a value, so a leak is found even where JSON.stringify would escape it. */
function allText(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((item) => allText(item, out));
  else if (isPlainObject(value)) {
    for (const [key, inner] of Object.entries(value)) {
      out.push(key);
      allText(inner, out);
    }
  }
  return out;
}

/** Example strings (trimmed, 8+ characters) found in the ModelSchema, except those `allowed` explains. */
function leakedExamples(modelSchema: ModelSchema, examples: readonly string[], allowed: readonly string[]): string[] {
  const text = allText(modelSchema);
  return [...new Set(examples.map((value) => value.trim()))].filter(
    (value) => value.length >= MIN_CANARY_LENGTH && !allowed.some((owned) => owned.includes(value)) && text.some((t) => t.includes(value)),
  );
}

describe('SchemaExtractor on generated Replicate-like sources', () => {
  it('answers a well-formed ModelSchema or a typed refusal, and never lets a canary through', () => {
    const params = propertyParams(300);
    let extracted = 0;
    fc.assert(
      fc.property(replicateModelArb(), ({ source }) => {
        const result = extractOrRefuse(source);
        if (result === undefined) return;
        extracted += 1;
        checkWellFormed(source, result);
        const leaks = leakedExamples(result.modelSchema, exampleStrings(source), declaredStrings(result.modelSchema.jsonSchema));
        expect(leaks, 'example values in the ModelSchema').toEqual([]);
      }),
      params,
    );
    // The generator is only useful if most of its sources extract (about 70% do); refusals alone prove little.
    expect(extracted).toBeGreaterThan(params.numRuns / 2);
  });
});

describe('SchemaExtractor on arbitrary input', () => {
  const wrapped = fc.oneof(
    fc.anything({ withNullPrototype: true, maxDepth: 3 }),
    jsonArb(4),
    fc.record({ owner: jsonArb(1), name: jsonArb(1), latest_version: jsonArb(3), default_example: jsonArb(2) }, { requiredKeys: [], noNullPrototype: true }),
    jsonArb(4).map((input) => ({ id: 'v1', openapi_schema: { components: { schemas: { Input: input } } } })),
    fc.dictionary(keyArb(), jsonArb(3), { maxKeys: 5, noNullPrototype: true }).map((properties) => ({
      id: 'v1',
      openapi_schema: { components: { schemas: { Input: { type: 'object', properties } } } },
    })),
    fc.record({ model: jsonArb(1), example_input: jsonArb(3) }, { requiredKeys: ['example_input'], noNullPrototype: true }),
  );

  it('answers a well-formed ModelSchema or a typed refusal, never a crash', () => {
    fc.assert(
      fc.property(wrapped, (source) => {
        const result = extractOrRefuse(source);
        if (result !== undefined) checkWellFormed(source, result);
      }),
      propertyParams(400),
    );
  });

  it('keeps every example_input value out of a ModelSchema inferred from it', () => {
    const toolConfig = fc.record({
      model: fc.constantFrom('acme/widget', 'acme/widget:v2'),
      example_input: fc.dictionary(keyArb(), jsonArb(3), { maxKeys: 8, noNullPrototype: true }),
    }, { noNullPrototype: true });
    fc.assert(
      fc.property(toolConfig, (source) => {
        const result = extractOrRefuse(source);
        if (result === undefined) return;
        const examples: string[] = [];
        stringLeaves(source.example_input, examples);
        // Field names come from the example's keys, and the model reference is the caller's: both are allowed.
        const allowed = [...Object.keys(source.example_input), source.model];
        expect(leakedExamples(result.modelSchema, examples, allowed)).toEqual([]);
      }),
      propertyParams(300),
    );
  });
});
