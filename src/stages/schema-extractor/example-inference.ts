/**
 * A schema inferred from an example input alone (a bare tool config, or a model without a schema). The
 * example tells us field names and value types; no value is kept: no defaults, no enums, no lengths.
 */
import { isPlainObject } from './json.ts';
import type { JsonObject } from './json.ts';
import type { WarningList } from './warnings.ts';
import { itemsPath } from './warnings.ts';

/** http(s) URLs and data: URLs are files for Replicate, so they get `format: uri`. */
const URL_TEXT = /^(?:https?:\/\/[^\s]+|data:[^\s,]*,[^\s]*)$/i;

/** Strict property schemas, in the example's key order (written as x-order). */
export function inferProperties(example: JsonObject, warnings: WarningList): Record<string, JsonObject> {
  return Object.fromEntries(
    Object.entries(example).map(([name, value], order) => [name, { ...inferNode(value, name, warnings), 'x-order': order }]),
  );
}

function inferNode(value: unknown, path: string, warnings: WarningList): JsonObject {
  if (Array.isArray(value)) return inferArray(value, path, warnings);
  const node = inferScalar(value);
  if (node !== undefined) return node;
  warnings.add(path, 'untyped_field', 'the example value is null, so the type is unknown; any value is accepted');
  return {};
}

/** The node for a non-array value; undefined for null, whose type an example cannot tell. */
function inferScalar(value: unknown): JsonObject | undefined {
  if (typeof value === 'string') return URL_TEXT.test(value.trim()) ? { type: 'string', format: 'uri' } : { type: 'string' };
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number' };
  if (typeof value === 'boolean') return { type: 'boolean' };
  // Nested objects (and arrays inside arrays) stay opaque: describing them would copy the example's structure.
  if (isPlainObject(value)) return { type: 'object' };
  if (Array.isArray(value)) return { type: 'array' };
  return undefined;
}

function inferArray(values: readonly unknown[], path: string, warnings: WarningList): JsonObject {
  const items = unify(values.map(inferScalar));
  if (items === undefined) {
    const why = values.length === 0 ? 'the example array is empty' : 'the example items differ in type or are null';
    warnings.add(itemsPath(path), 'untyped_field', `${why}; items accept any value`);
    return { type: 'array' };
  }
  return { type: 'array', items };
}

/** One node that every item fits, or undefined when the items disagree, are null, or there are none. */
function unify(nodes: readonly (JsonObject | undefined)[]): JsonObject | undefined {
  if (nodes.length === 0 || nodes.includes(undefined)) return undefined;
  const types = new Set(nodes.map((node) => String(node?.type)));
  if (types.size === 2 && types.has('integer') && types.has('number')) return { type: 'number' };
  if (types.size !== 1) return undefined;
  // A mix of URLs and plain strings is just strings.
  const uri = nodes.every((node) => node?.format === 'uri');
  return uri ? { type: 'string', format: 'uri' } : { type: [...types][0] };
}
