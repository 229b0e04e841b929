/** Small JSON helpers shared by the extractor's files. */
import { isPlainObject } from '../example-quarantine.ts';

export { isPlainObject };

export type JsonObject = Record<string, unknown>;

/** Structural equality for JSON values (enum members, defaults). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]));
  }
  return false;
}

/** The JSON Schema type names of a node's `type` keyword, in order ([] when untyped). */
export function typeList(node: JsonObject): string[] {
  const type = node.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}

/** Writes `type` back in its shortest form. */
export function typeValue(types: readonly string[]): string | string[] {
  return types.length === 1 ? (types[0] as string) : [...types];
}

/** The JSON type of a value as JSON Schema names it ('integer' for whole numbers). */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
