/**
 * Does a value satisfy a strict node the extractor built? Used to keep a schema `default` only when it is
 * valid for its own property. It understands exactly the keywords the extractor emits, which is why it is
 * not AJV: compiling one AJV validator per property would cost seconds over the Replicate catalog. The
 * catalog test checks every kept default with AJV, so the two cannot drift apart unnoticed.
 */
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { isPlainObject, jsonEqual, jsonTypeOf, typeList } from './json.ts';
import type { JsonObject } from './json.ts';

/** True when `value` validates against the strict `node`. */
export function matchesNode(value: unknown, node: JsonObject): boolean {
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = node[keyword];
    if (Array.isArray(branches) && !branches.some((branch) => isPlainObject(branch) && matchesNode(value, branch))) return false;
  }
  return (
    matchesType(value, typeList(node)) &&
    matchesEnum(value, node) &&
    (typeof value !== 'number' || matchesNumber(value, node)) &&
    (typeof value !== 'string' || matchesString(value, node)) &&
    (!Array.isArray(value) || matchesArray(value, node)) &&
    (!isPlainObject(value) || matchesObject(value, node))
  );
}

function matchesType(value: unknown, types: readonly string[]): boolean {
  if (types.length === 0) return true;
  const actual = jsonTypeOf(value);
  return types.includes(actual) || (actual === 'integer' && types.includes('number'));
}

function matchesEnum(value: unknown, node: JsonObject): boolean {
  if ('const' in node && !jsonEqual(value, node.const)) return false;
  return !Array.isArray(node.enum) || node.enum.some((member) => jsonEqual(member, value));
}

function matchesNumber(value: number, node: JsonObject): boolean {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = node;
  if (typeof minimum === 'number' && value < minimum) return false;
  if (typeof maximum === 'number' && value > maximum) return false;
  if (typeof exclusiveMinimum === 'number' && value <= exclusiveMinimum) return false;
  if (typeof exclusiveMaximum === 'number' && value >= exclusiveMaximum) return false;
  // AJV's own multipleOf test, including its floating-point tolerance.
  if (typeof multipleOf === 'number' && !Number.isInteger(value / multipleOf)) return false;
  return true;
}

function matchesString(value: string, node: JsonObject): boolean {
  // AJV counts code points, not UTF-16 units.
  const length = [...value].length;
  if (typeof node.minLength === 'number' && length < node.minLength) return false;
  if (typeof node.maxLength === 'number' && length > node.maxLength) return false;
  if (typeof node.pattern === 'string' && !new RegExp(node.pattern, 'u').test(value)) return false;
  return typeof node.format !== 'string' || matchesFormat(value, node.format);
}

function matchesFormat(value: string, format: string): boolean {
  const definition: unknown = (fullFormats as Record<string, unknown>)[format];
  if (definition instanceof RegExp) return definition.test(value);
  if (typeof definition === 'function') return Boolean((definition as (s: string) => unknown)(value));
  if (isPlainObject(definition)) {
    const validate = definition.validate;
    if (validate instanceof RegExp) return validate.test(value);
    if (typeof validate === 'function') return Boolean((validate as (s: string) => unknown)(value));
  }
  return definition === true;
}

function matchesArray(value: unknown[], node: JsonObject): boolean {
  if (typeof node.minItems === 'number' && value.length < node.minItems) return false;
  if (typeof node.maxItems === 'number' && value.length > node.maxItems) return false;
  if (node.uniqueItems === true && value.some((item, i) => value.findIndex((other) => jsonEqual(other, item)) !== i)) {
    return false;
  }
  const items = node.items;
  return !isPlainObject(items) || value.every((item) => matchesNode(item, items));
}

function matchesObject(value: JsonObject, node: JsonObject): boolean {
  const properties = isPlainObject(node.properties) ? node.properties : {};
  const required = Array.isArray(node.required) ? node.required : [];
  if (required.some((name) => typeof name === 'string' && !Object.hasOwn(value, name))) return false;
  return Object.entries(value).every(([key, inner]) => {
    const schema = Object.hasOwn(properties, key) ? properties[key] : node.additionalProperties;
    if (schema === false) return false;
    return !isPlainObject(schema) || matchesNode(inner, schema);
  });
}
