/**
 * The non-validating parts of a node: examples (quarantined, never kept), title, description, x-order,
 * and the schema's own `default`, which is kept only when it is valid for its own property.
 */
import type { QuarantinedValue } from '../example-quarantine.ts';
import { matchesNode } from './default-check.ts';
import { isPlainObject, jsonTypeOf } from './json.ts';
import type { JsonObject } from './json.ts';
import type { ConvertContext } from './context.ts';
import type { WarningList } from './warnings.ts';

/**
 * Returns the node without `example` / `examples`, moving their values to `ctx.examples`: they are
 * example values too, and must not reach the ModelSchema.
 */
export function harvestExamples(node: JsonObject, path: string, ctx: ConvertContext): JsonObject {
  if (!Object.hasOwn(node, 'example') && !Object.hasOwn(node, 'examples')) return node;
  const { example, examples, ...rest } = node;
  for (const [keyword, value] of [['example', example], ['examples', examples]] as const) {
    if (value === undefined) continue;
    collectLeaves(value, `#/${path}/${keyword}`, ctx.examples, 0);
    ctx.warnings.add(path, 'example_quarantined', `"${keyword}" keyword removed and quarantined`);
  }
  return rest;
}

function collectLeaves(value: unknown, path: string, out: QuarantinedValue[], depth: number): void {
  if (depth > 8) return;
  if ((typeof value === 'string' && value.trim() !== '') || (typeof value === 'number' && Number.isFinite(value))) {
    out.push({ path, value });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => collectLeaves(item, `${path}/${index}`, out, depth + 1));
  } else if (isPlainObject(value)) {
    for (const [key, inner] of Object.entries(value)) collectLeaves(inner, `${path}/${key}`, out, depth + 1);
  }
}

/** Copies title, description and x-order when they have the right type; anything else is a warning. */
export function copyAnnotations(node: JsonObject, out: JsonObject, path: string, warnings: WarningList): void {
  for (const keyword of ['title', 'description'] as const) {
    const value = node[keyword];
    if (typeof value === 'string') out[keyword] = value;
    else if (value !== undefined) warnings.add(path, 'keyword_dropped', `"${keyword}" is not a string; dropped`);
  }
  const order = node['x-order'];
  if (typeof order === 'number' && Number.isFinite(order)) out['x-order'] = order;
  else if (order !== undefined) warnings.add(path, 'keyword_dropped', '"x-order" is not a number; dropped');
}

/**
 * Keeps the schema's `default` when it validates against the finished node. A default that does not is
 * dropped with a warning rather than repaired: guessing what the author meant is not ours to do.
 */
export function applyDefault(node: JsonObject, out: JsonObject, path: string, warnings: WarningList): void {
  if (!Object.hasOwn(node, 'default')) return;
  const value = node.default;
  if (value !== undefined && matchesNode(value, out)) {
    out.default = structuredClone(value);
    return;
  }
  warnings.add(path, 'default_dropped', `default (${jsonTypeOf(value)}) does not validate against the property's own schema; dropped`);
}

/** Makes a finished node also accept null (OpenAPI `nullable`, or a `{type: null}` union branch). */
export function allowNull(out: JsonObject): void {
  const type = out.type;
  const types = typeof type === 'string' ? [type] : Array.isArray(type) ? (type as string[]) : [];
  if (types.length > 0 && !types.includes('null')) out.type = [...types, 'null'];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
}
