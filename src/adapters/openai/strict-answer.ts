/**
 * The LLM's answer back into payload values: parse the JSON, check it against the strict schema it was asked
 * to fit (AJV; a server that ignores `strict` does not get to slip anything through), then map it onto the
 * ModelSchema's shape:
 * - null means "the user did not specify it": the key is omitted (the builder then applies the schema's
 *   default, or leaves a required field for the validator to report);
 * - JSON-encoded strings (untyped values, free-form objects) are decoded.
 * Any failure is a BUILDER_FAILED with the reason, which parks the run for a person.
 */
import type { ValidateFunction } from 'ajv';
import { LRUCache } from 'lru-cache';
import { VettedError } from '../../errors.ts';
import type { ModelSchema } from '../../generated/contracts.ts';
import { createAjv } from '../../schema/ajv.ts';
import { describeAjvErrors } from '../../schema/contracts.ts';
import { escapePointer, isPlainObject } from '../../stages/example-quarantine.ts';
import { isJsonEncoded, typesOf, type JsonObject } from './strict-node.ts';
import type { StrictSchema } from './strict-schema.ts';
import { OPENAI_BUILDER_NAME } from './names.ts';

const MAX_LISTED_ERRORS = 3;
const ajv = createAjv({ strict: false });
const compiled = new LRUCache<string, ValidateFunction>({ max: 500 });

/**
 * Parses, checks and maps the answer's content. Returns the fields the LLM set, keyed by field name.
 * @throws VettedError BUILDER_FAILED when the content is not JSON or does not fit the strict schema.
 */
export function decodeAnswer(content: string, strict: StrictSchema, modelSchema: ModelSchema): Record<string, unknown> {
  const parsed = parseJson(content);
  const validate = validatorFor(strict);
  if (!validate(parsed)) {
    const errors = describeAjvErrors(validate.errors ?? []).slice(0, MAX_LISTED_ERRORS);
    const listed = errors.map((error) => `${error.field || '(root)'} ${error.message}`).join('; ');
    throw failed(`The LLM's answer does not fit the strict schema: ${listed}`);
  }
  return decodeObject(parsed as JsonObject, modelSchema.jsonSchema, '');
}

function parseJson(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw failed(`The LLM's answer is not valid JSON (${reason})`);
  }
}

function validatorFor(strict: StrictSchema): ValidateFunction {
  let validate = compiled.get(strict.schemaHash);
  if (!validate) {
    validate = ajv.compile(strict.schema);
    compiled.set(strict.schemaHash, validate);
  }
  return validate;
}

function decodeObject(value: JsonObject, node: JsonObject, path: string): Record<string, unknown> {
  const properties = isPlainObject(node.properties) ? node.properties : {};
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const child = properties[key];
    if (inner === null || !isPlainObject(child)) continue;
    out[key] = decodeValue(inner, child, `${path}/${escapePointer(key)}`);
  }
  return out;
}

function decodeValue(value: unknown, node: JsonObject, path: string): unknown {
  if (isJsonEncoded(node)) return decodeEncoded(value, node, path);
  if (Array.isArray(node.anyOf)) {
    const branch = node.anyOf.find((b): b is JsonObject => isPlainObject(b) && acceptsKind(typesOf(b), value));
    return branch ? decodeValue(value, branch, path) : value;
  }
  if (Array.isArray(value) && isPlainObject(node.items)) {
    const items = node.items;
    return value.map((item) => (item === null ? null : decodeValue(item, items, `${path}/*`)));
  }
  if (isPlainObject(value)) return decodeObject(value, node, path);
  return value;
}

/** A JSON-encoded value; a plain string stays a string where the schema allows strings (or anything). */
function decodeEncoded(value: unknown, node: JsonObject, path: string): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    const types = typesOf(node);
    if (types.length === 0 || types.includes('string')) return value;
    throw failed(`The LLM's answer for ${path} is not the JSON-encoded value the schema asked for`);
  }
}

function acceptsKind(types: readonly string[], value: unknown): boolean {
  if (Array.isArray(value)) return types.includes('array');
  if (isPlainObject(value)) return types.includes('object');
  return false;
}

function failed(message: string): VettedError {
  return new VettedError('BUILDER_FAILED', message, { details: { builder: OPENAI_BUILDER_NAME } });
}
