/**
 * The source shapes the extractor accepts, told apart by their keys, and checked field by field so a
 * malformed source is refused naming the field instead of failing somewhere deeper:
 *  - a Replicate model object (`GET /v1/models/{owner}/{name}`): owner, name, latest_version, default_example;
 *  - a Replicate version object: id, openapi_schema;
 *  - a bare tool config: { model: "owner/name", example_input: {...} };
 *  - a provider model file: { provider, endpoint | operation, openapi } (provider-document.ts).
 */
import type { ModelSchema } from '../../generated/contracts.ts';
import { isPlainObject } from './json.ts';
import type { JsonObject } from './json.ts';
import { invalidSource } from './warnings.ts';

import { isProviderSource, parseProviderDocument } from './provider-document.ts';

export type SourceKind = 'replicate_model' | 'replicate_version' | 'tool_config' | 'provider_openapi';

export interface ParsedSource {
  kind: SourceKind;
  /** owner/name when known. */
  model: string | null;
  version: string | null;
  /** The OpenAPI document and its Input schema, when the source has one. */
  openapi: { document: JsonObject; input: JsonObject; inputField: string } | null;
  example: JsonObject | null;
  /** Where the example sits in the source, for messages. */
  exampleField: string;
  /** The provider and operation, for a provider model file. */
  provider?: NonNullable<ModelSchema['provider']>;
}

const MODEL_REFERENCE = /^([A-Za-z0-9][\w.-]*\/[\w.-]+)(?::([\w.-]+))?$/;

export function parseSource(source: unknown, givenModel: string | null): ParsedSource {
  if (!isPlainObject(source)) throw invalidSource('source', 'The model source is not a JSON object');
  if (isProviderSource(source)) return parseProviderSource(source);
  if (Object.hasOwn(source, 'example_input') && Object.hasOwn(source, 'openapi_schema')) {
    // Read as either shape, half of it would be dropped without a word: the schema, or the example to quarantine.
    throw invalidSource('source', 'The model source holds both "example_input" (a tool config) and "openapi_schema" (a version object); send one shape');
  }
  if (Object.hasOwn(source, 'example_input')) return parseToolConfig(source);
  if (Object.hasOwn(source, 'openapi_schema')) return parseVersion(source, givenModel);
  if (Object.hasOwn(source, 'latest_version') || (Object.hasOwn(source, 'owner') && Object.hasOwn(source, 'name'))) {
    return parseModel(source);
  }
  throw invalidSource(
    'source',
    'The model source is none of: a Replicate model (owner, name, latest_version), ' +
      'a version (id, openapi_schema), { model, example_input }, or { provider, endpoint | operation, openapi }',
  );
}

function parseProviderSource(source: JsonObject): ParsedSource {
  const parsed = parseProviderDocument(source);
  return {
    kind: 'provider_openapi',
    model: parsed.model,
    version: null,
    openapi: { document: parsed.document, input: parsed.input, inputField: parsed.inputField },
    example: null,
    exampleField: 'example',
    provider: parsed.provider,
  };
}

function parseModel(source: JsonObject): ParsedSource {
  const owner = requireString(source, 'owner');
  const name = requireString(source, 'name');
  const latest = optionalObject(source.latest_version, 'latest_version');
  const version = latest === null ? null : optionalString(latest.id, 'latest_version.id');
  const schema = latest === null ? null : optionalObject(latest.openapi_schema, 'latest_version.openapi_schema');
  const defaultExample = optionalObject(source.default_example, 'default_example');
  const example = defaultExample === null ? null : optionalObject(defaultExample.input, 'default_example.input');
  if (schema === null && example === null) {
    throw invalidSource('latest_version.openapi_schema', 'The model has neither latest_version.openapi_schema nor default_example.input');
  }
  if (schema === null && isEmpty(example)) {
    throw invalidSource(
      'default_example.input',
      'The model has no latest_version.openapi_schema and its default_example.input is empty: there is nothing to infer its inputs from',
    );
  }
  const openapi = schema === null ? null : locateInput(schema, 'latest_version.openapi_schema');
  return { kind: 'replicate_model', model: `${owner}/${name}`, version, openapi, example, exampleField: 'default_example.input' };
}

function parseVersion(source: JsonObject, givenModel: string | null): ParsedSource {
  const version = requireString(source, 'id');
  const schema = optionalObject(source.openapi_schema, 'openapi_schema');
  if (schema === null) throw invalidSource('openapi_schema', 'The version has no openapi_schema');
  const openapi = locateInput(schema, 'openapi_schema');
  return { kind: 'replicate_version', model: givenModel, version, openapi, example: null, exampleField: 'example_input' };
}

function parseToolConfig(source: JsonObject): ParsedSource {
  const example = optionalObject(source.example_input, 'example_input');
  if (example === null) throw invalidSource('example_input', 'example_input is missing');
  // The inputs are inferred from the example's keys; a schema that declares no input is accepted (some real
  // models take none), but an empty example says nothing at all.
  if (isEmpty(example)) throw invalidSource('example_input', 'example_input is empty: give one key per model input, with a value of its type');
  const reference = optionalString(source.model, 'model');
  const match = reference === null ? null : MODEL_REFERENCE.exec(reference);
  if (reference !== null && match === null) throw invalidSource('model', 'model must be "owner/name" or "owner/name:version"');
  const model = match?.[1] ?? null;
  const version = match?.[2] ?? null;
  return { kind: 'tool_config', model, version, openapi: null, example, exampleField: 'example_input' };
}

function locateInput(document: JsonObject, field: string): NonNullable<ParsedSource['openapi']> {
  const components = document.components;
  const schemas = isPlainObject(components) ? components.schemas : undefined;
  const input = isPlainObject(schemas) ? schemas.Input : undefined;
  const inputField = `${field}.components.schemas.Input`;
  if (!isPlainObject(input)) throw invalidSource(inputField, `${inputField} is missing or not an object`);
  return { document, input, inputField };
}

function isEmpty(value: JsonObject | null): boolean {
  return value !== null && Object.keys(value).length === 0;
}

function requireString(source: JsonObject, field: string): string {
  const value = source[field];
  if (typeof value !== 'string' || value.trim() === '') throw invalidSource(field, `${field} must be a non-empty string`);
  return value;
}

function optionalString(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.trim() === '') throw invalidSource(field, `${field} must be a non-empty string`);
  return value;
}

function optionalObject(value: unknown, field: string): JsonObject | null {
  if (value === undefined || value === null) return null;
  if (!isPlainObject(value)) throw invalidSource(field, `${field} must be an object`);
  return value;
}
