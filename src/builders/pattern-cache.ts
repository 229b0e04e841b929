/**
 * Compiled patterns per field, so a schema that is built against many times (the build stage keeps schemas by
 * hash) compiles its regexes once. Keyed by the FieldSpec object; an entry is dropped when the field's name,
 * title, role, type or enum no longer match what it was compiled from. Schemas are treated as values: an enum
 * array edited in place is not detected.
 *
 * Global regexes are only used with String.prototype.matchAll, which works on a copy, so sharing them is safe.
 */
import type { FieldSpec } from '../generated/contracts.ts';

interface Entry {
  name: string;
  title: string | undefined;
  role: FieldSpec['role'];
  type: FieldSpec['type'];
  options: unknown[] | undefined;
  patterns: Map<string, RegExp | null>;
}

const cache = new WeakMap<FieldSpec, Entry>();

/** The pattern `key` of this field, built by `build` on first use (null when the field has none). */
export function fieldPattern(field: FieldSpec, key: string, build: () => RegExp | null): RegExp | null {
  let entry = cache.get(field);
  if (!entry || !sameShape(entry, field)) {
    entry = { name: field.name, title: field.title, role: field.role, type: field.type, options: field.enum, patterns: new Map() };
    cache.set(field, entry);
  }
  if (!entry.patterns.has(key)) entry.patterns.set(key, build());
  return entry.patterns.get(key) ?? null;
}

function sameShape(entry: Entry, field: FieldSpec): boolean {
  return (
    entry.name === field.name &&
    entry.title === field.title &&
    entry.role === field.role &&
    entry.type === field.type &&
    entry.options === field.enum
  );
}
