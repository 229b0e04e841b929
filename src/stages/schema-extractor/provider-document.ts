/**
 * Model files for providers that publish a plain OpenAPI 3.x document (fal, OpenAI, Anthropic) rather than
 * Replicate's Cog objects: `{"provider": "fal", "endpoint": "fal-ai/flux/dev", "openapi": {…}}`,
 * `{"provider": "openai", "operation": "createImage", "openapi": {…}, "fields": [...]}` or
 * `{"provider": "anthropic", "operation": "messages_post", "openapi": {…}}`.
 *
 * This file finds the operation, picks its request body (JSON, else multipart), resolves the body's root
 * `$ref` / `allOf` into one object schema, turns multipart binary parts into URL fields (the provider uploads
 * them), and keeps only the `fields` the model file enables. The result is an Input schema the common
 * converter reads exactly as it reads Replicate's, so examples are quarantined the same way.
 */
import type { ModelSchema } from '../../generated/contracts.ts';
import { isPlainObject } from './json.ts';
import type { JsonObject } from './json.ts';
import { invalidSource, unsupported } from './warnings.ts';

/** Providers whose model files this reader accepts, and the key naming the operation in each. */
const OPERATION_KEY = { fal: 'endpoint', openai: 'operation', anthropic: 'operation' } as const;
export type ProviderName = keyof typeof OPERATION_KEY;

const METHODS = ['post', 'put', 'patch'];
const BODY_TYPES = ['application/json', 'multipart/form-data'] as const;
/** `owner/alias[/path…]`: fal's published endpoints run to six segments (`fal-ai/bytedance/seedance/v1/pro/image-to-video`). */
const ENDPOINT = /^[A-Za-z0-9][\w.-]*(?:\/[A-Za-z0-9][\w.-]*){1,6}$/;
const OPERATION_ID = /^[A-Za-z0-9][\w.-]{0,99}$/;
const MAX_REF_HOPS = 16;

export interface ProviderDocument {
  /** The catalog name: the fal endpoint, or `<provider>/<operationId>` (`openai/createImage`). */
  model: string;
  /** The published document, as it was given (refs resolve against it). */
  document: JsonObject;
  /** The request body's object schema, reduced to the enabled fields. */
  input: JsonObject;
  inputField: string;
  provider: NonNullable<ModelSchema['provider']>;
}

/** True when the source is a provider model file (it names a provider and carries its document). */
export function isProviderSource(source: JsonObject): boolean {
  return Object.hasOwn(source, 'provider') && Object.hasOwn(source, 'openapi');
}

/**
 * @throws VettedError MODEL_SOURCE_INVALID naming the field (provider, endpoint, operation, openapi…, fields).
 * @throws VettedError SCHEMA_UNSUPPORTED for a body root that is no object schema.
 */
export function parseProviderDocument(source: JsonObject): ProviderDocument {
  const provider = source.provider;
  if (typeof provider !== 'string' || !Object.hasOwn(OPERATION_KEY, provider)) {
    throw invalidSource('provider', `provider must be one of: ${Object.keys(OPERATION_KEY).join(', ')}`);
  }
  const name = provider as ProviderName;
  const document = source.openapi;
  if (!isPlainObject(document) || !isPlainObject(document.paths)) throw invalidSource('openapi', 'openapi must be an OpenAPI 3.x document with "paths"');
  if (typeof document.openapi !== 'string' || !document.openapi.startsWith('3.')) throw invalidSource('openapi.openapi', 'only OpenAPI 3.x documents are read');
  const key = OPERATION_KEY[name];
  const wanted = source[key];
  if (typeof wanted !== 'string' || !(name === 'fal' ? ENDPOINT : OPERATION_ID).test(wanted)) {
    throw invalidSource(key, name === 'fal' ? 'endpoint must name a fal endpoint, e.g. "fal-ai/flux/dev"' : 'operation must be an operationId, e.g. "createImage"');
  }
  const found = name === 'fal' ? findEndpoint(document, wanted) : findOperation(document, wanted);
  if (found === undefined) throw invalidSource(key, `the document has no ${name === 'fal' ? `POST /${wanted}` : `operation "${wanted}"`} with a request body`);
  const { contentType, schema, field } = requestBody(document, found.operation, found.field);
  const uploads: string[] = [];
  const whole = rootObject(document, schema, field);
  const multipart = contentType === 'multipart/form-data' ? urlsForBinary(whole, uploads) : whole;
  const input = urlsByName(enabledFields(multipart, source.fields));
  return {
    model: name === 'fal' ? wanted : `${name}/${wanted}`,
    document,
    input,
    inputField: field,
    provider: {
      name,
      ...(name === 'fal' ? { endpoint: wanted } : { operation: wanted }),
      method: found.method.toUpperCase(),
      path: found.path,
      contentType,
      uploads: uploads.filter((upload) => Object.hasOwn(input.properties as JsonObject, upload)),
    },
  };
}

interface FoundOperation {
  method: string;
  path: string;
  operation: JsonObject;
  field: string;
}

/** fal publishes one document per endpoint; the run is submitted with `POST /<endpoint>`. */
function findEndpoint(document: JsonObject, endpoint: string): FoundOperation | undefined {
  const path = `/${endpoint}`;
  const item = (document.paths as JsonObject)[path];
  const operation = isPlainObject(item) ? item.post : undefined;
  return isPlainObject(operation) ? { method: 'post', path, operation, field: `openapi.paths.${path}.post` } : undefined;
}

function findOperation(document: JsonObject, operationId: string): FoundOperation | undefined {
  for (const [path, item] of Object.entries(document.paths as JsonObject)) {
    if (!isPlainObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (isPlainObject(operation) && operation.operationId === operationId) return { method, path, operation, field: `openapi.paths.${path}.${method}` };
    }
  }
  return undefined;
}

function requestBody(document: JsonObject, operation: JsonObject, field: string): { contentType: (typeof BODY_TYPES)[number]; schema: unknown; field: string } {
  const body = follow(document, operation.requestBody, `${field}.requestBody`);
  const content = isPlainObject(body.content) ? body.content : {};
  for (const type of BODY_TYPES) {
    const media = content[type];
    if (isPlainObject(media) && media.schema !== undefined) return { contentType: type, schema: media.schema, field: `${field}.requestBody.content.${type}.schema` };
  }
  throw invalidSource(`${field}.requestBody.content`, `the request body is neither ${BODY_TYPES.join(' nor ')}`);
}

/** The body's schema with its root `$ref`s followed and a root `allOf` of object schemas merged into one. */
function rootObject(document: JsonObject, raw: unknown, field: string): JsonObject {
  const node = follow(document, raw, field);
  if (!Array.isArray(node.allOf)) return node;
  const { allOf, ...rest } = node;
  const properties: JsonObject = { ...(isPlainObject(rest.properties) ? rest.properties : {}) };
  const required = new Set<string>(Array.isArray(rest.required) ? rest.required.filter((r): r is string => typeof r === 'string') : []);
  for (const member of allOf) {
    const part = rootObject(document, member, field);
    if (part.type !== undefined && part.type !== 'object') throw unsupported('allOf', '', 'a member of the body\'s allOf is not an object schema');
    for (const [name, schema] of Object.entries(isPlainObject(part.properties) ? part.properties : {})) {
      if (Object.hasOwn(properties, name)) throw unsupported('allOf', name, 'two members of the body\'s allOf declare the same property');
      properties[name] = schema;
    }
    for (const name of Array.isArray(part.required) ? part.required : []) if (typeof name === 'string') required.add(name);
  }
  return { ...rest, type: 'object', properties, required: [...required] };
}

/** Follows `$ref`s (local only) until a node without one. */
function follow(document: JsonObject, raw: unknown, field: string): JsonObject {
  let node = raw;
  for (let hops = 0; isPlainObject(node) && typeof node.$ref === 'string'; hops += 1) {
    if (hops >= MAX_REF_HOPS) throw unsupported('$ref cycle', '', `${field} refers to itself`);
    const { $ref, ...siblings } = node;
    node = { ...pointer(document, $ref as string, field), ...siblings };
  }
  if (!isPlainObject(node)) throw invalidSource(field, `${field} is missing or not an object`);
  return node;
}

function pointer(document: JsonObject, ref: string, field: string): JsonObject {
  if (!ref.startsWith('#/')) throw unsupported('external $ref', '', `${field} refers outside the document (${ref})`);
  let current: unknown = document;
  for (const segment of ref.slice(2).split('/')) {
    const key = segment.replace(/~1/g, '/').replace(/~0/g, '~');
    current = isPlainObject(current) && Object.hasOwn(current, key) ? current[key] : undefined;
  }
  if (!isPlainObject(current)) throw unsupported('unresolvable $ref', '', `${ref} does not name a schema`);
  return current;
}

/**
 * Multipart file parts (`format: binary`, alone, in `items`, or in a union branch) become URL fields: a
 * payload carries the file's URL and the provider fetches and uploads it. Their names go to `uploads`.
 */
function urlsForBinary(input: JsonObject, uploads: string[]): JsonObject {
  const properties = isPlainObject(input.properties) ? input.properties : {};
  const converted = Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => {
      const { node, changed } = binaryToUrl(schema, 0);
      if (changed) uploads.push(name);
      return [name, node];
    }),
  );
  return { ...input, properties: converted };
}

function binaryToUrl(raw: unknown, depth: number): { node: unknown; changed: boolean } {
  if (!isPlainObject(raw) || depth > 4) return { node: raw, changed: false };
  if (raw.format === 'binary') {
    const note = 'A file URL; the provider uploads the file.';
    const description = typeof raw.description === 'string' ? `${raw.description} ${note}` : note;
    return { node: { ...raw, type: 'string', format: 'uri', description }, changed: true };
  }
  let changed = false;
  const node: JsonObject = { ...raw };
  for (const keyword of ['items', 'anyOf', 'oneOf'] as const) {
    const value = raw[keyword];
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      node[keyword] = value.map((branch) => {
        const inner = binaryToUrl(branch, depth + 1);
        changed ||= inner.changed;
        return inner.node;
      });
    } else {
      const inner = binaryToUrl(value, depth + 1);
      changed ||= inner.changed;
      node[keyword] = inner.node;
    }
  }
  return { node, changed };
}

/** `image_url`, `reference_image_urls`: fal's file inputs, which say what they are by name only. */
const URL_NAME = /_urls?$/;
/** Addresses the provider calls back, never a file the user gives. */
const NOT_A_FILE = /(?:webhook|callback|redirect)/;

/**
 * fal writes its file inputs as plain strings named `…_url` (or lists named `…_urls`) with no `format`, where a
 * Replicate schema says `format: uri`. Without the format no role reading sees a file there, and an attachment
 * could never be placed; a string input so named is given `format: uri`, as the name says.
 */
function urlsByName(input: JsonObject): JsonObject {
  const properties = isPlainObject(input.properties) ? input.properties : {};
  const withFormat = (node: unknown): unknown =>
    isPlainObject(node) && node.type === 'string' && node.format === undefined ? { ...node, format: 'uri' } : node;
  const converted = Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => {
      if (!URL_NAME.test(name) || NOT_A_FILE.test(name) || !isPlainObject(schema)) return [name, schema];
      if (schema.type === 'array') return [name, { ...schema, items: withFormat(schema.items) }];
      return [name, withFormat(schema)];
    }),
  );
  return { ...input, properties: converted };
}

/**
 * The fields the model file enables (`fields`), or all of them. A chat-completions body declares dozens of
 * fields a catalog entry never wants builders to fill; every required one must stay enabled.
 */
function enabledFields(input: JsonObject, fields: unknown): JsonObject {
  if (fields === undefined) return input;
  if (!Array.isArray(fields) || fields.length === 0 || !fields.every((f) => typeof f === 'string')) {
    throw invalidSource('fields', 'fields must be a non-empty list of the request body\'s property names');
  }
  const properties = isPlainObject(input.properties) ? input.properties : {};
  const unknown = fields.find((name) => !Object.hasOwn(properties, name));
  if (unknown !== undefined) throw invalidSource('fields', `fields names "${unknown}", which the request body does not declare`);
  const required = Array.isArray(input.required) ? input.required.filter((r): r is string => typeof r === 'string') : [];
  const missing = required.find((name) => !fields.includes(name));
  if (missing !== undefined) throw invalidSource('fields', `"${missing}" is required by the operation; list it in fields`);
  return { ...input, properties: Object.fromEntries(fields.map((name) => [name, properties[name]])) };
}
