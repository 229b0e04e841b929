/**
 * fast-check arbitraries from the OpenAPI document's schemas (JSON Schema 2020-12, `#/components/schemas`
 * refs): values a client reading the document would send. Generation follows the common keywords (types,
 * enums, formats, patterns, bounds, properties, unions); what it cannot aim for (`if`/`then`, cross-field
 * rules) the fuzz filters afterwards with AJV against the same document, so every "valid" value is valid.
 */
import fc from 'fast-check';

type Schema = Record<string, unknown>;

/** Nesting beyond this gets only required members, so recursive contracts stay small. */
const MAX_DEPTH = 5;

export function arbitraryFor(schema: unknown, document: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (schema === true || schema === undefined) return fc.jsonValue({ maxDepth: 1 });
  if (schema === false) return fc.constant(undefined);
  let node = schema as Schema;
  if (typeof node.$ref === 'string') {
    const { $ref, ...siblings } = node;
    node = { ...resolveRef($ref, document), ...siblings };
  }
  if (Array.isArray(node.allOf)) node = mergeAllOf(node, document);
  if ('const' in node) return fc.constant(node.const);
  if (Array.isArray(node.enum)) return fc.constantFrom(...(node.enum as unknown[]));
  for (const union of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(node[union])) {
      const { [union]: branches, ...rest } = node;
      return fc.oneof(...(branches as Schema[]).map((branch) => arbitraryFor(mergeAllOf({ allOf: [rest, branch] }, document), document, depth + 1)));
    }
  }
  const types = Array.isArray(node.type) ? (node.type as string[]) : node.type ? [node.type as string] : inferTypes(node);
  if (types.length === 0) return fc.jsonValue({ maxDepth: 1 });
  return fc.oneof(...types.map((type) => ofType(type, node, document, depth)));
}

function ofType(type: string, node: Schema, document: Schema, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringFor(node);
    case 'integer':
      return fc.integer({ min: num(node.minimum, -1_000_000), max: num(node.maximum, 1_000_000) });
    case 'number':
      return fc.double({ min: num(node.minimum, -1e6), max: num(node.maximum, 1e6), noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(arbitraryFor(node.items ?? {}, document, depth + 1), { minLength: num(node.minItems, 0), maxLength: Math.min(num(node.maxItems, 3), num(node.minItems, 0) + 3) });
    case 'object':
      return objectFor(node, document, depth);
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

function stringFor(node: Schema): fc.Arbitrary<string> {
  const minLength = num(node.minLength, 0);
  const maxLength = Math.min(num(node.maxLength, 40), minLength + 40);
  switch (node.format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2035-12-31T23:59:59Z'), noInvalidDate: true }).map((date) => date.toISOString());
    case 'uri':
      return fc.webUrl();
    default:
      break;
  }
  if (typeof node.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(node.pattern)).filter((text) => text.length >= minLength && text.length <= num(node.maxLength, Infinity));
    } catch {
      // A pattern fast-check cannot aim for (lookahead): plain strings, filtered by the validity check.
    }
  }
  return fc.string({ minLength, maxLength });
}

function objectFor(node: Schema, document: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  const required = new Set((node.required as string[] | undefined) ?? []);
  const keys = Object.keys(properties).filter((key) => properties[key] !== false && (required.has(key) || depth < MAX_DEPTH));
  const record = fc.record(Object.fromEntries(keys.map((key) => [key, arbitraryFor(properties[key], document, depth + 1)])), {
    requiredKeys: keys.filter((key) => required.has(key)),
  });
  const additional = node.additionalProperties;
  if (additional === false || additional === undefined || depth >= MAX_DEPTH) return record as fc.Arbitrary<Record<string, unknown>>;
  // An open map (field edits, a user profile): a few more members, named as propertyNames allows.
  const names = node.propertyNames ? (arbitraryFor(node.propertyNames, document, depth + 1) as fc.Arbitrary<string>) : fc.string({ minLength: 1, maxLength: 12 });
  const values = additional === true ? fc.jsonValue({ maxDepth: 1 }) : arbitraryFor(additional, document, depth + 1);
  const maxExtra = Math.max(0, Math.min(3, num(node.maxProperties, 3) - keys.length));
  return fc.tuple(record, fc.dictionary(names, values, { maxKeys: maxExtra })).map(([fixed, extra]) => ({ ...extra, ...fixed }));
}

/** Folds `allOf` parts (refs resolved) into one schema: properties and required joined, the rest laid over. */
export function mergeAllOf(node: Schema, document: Schema): Schema {
  const { allOf, ...rest } = node;
  let merged: Schema = {};
  for (const part of [...((allOf as Schema[]) ?? []), rest]) {
    let resolved = typeof part.$ref === 'string' ? { ...resolveRef(part.$ref, document), ...withoutRef(part) } : part;
    if (Array.isArray(resolved.allOf)) resolved = mergeAllOf(resolved, document);
    merged = {
      ...merged,
      ...resolved,
      properties: { ...(merged.properties as Schema), ...(resolved.properties as Schema) },
      required: [...new Set([...((merged.required as string[]) ?? []), ...((resolved.required as string[]) ?? [])])],
    };
  }
  return merged;
}

function withoutRef(schema: Schema): Schema {
  const { $ref: _ref, ...rest } = schema;
  return rest;
}

export function resolveRef(ref: string, document: Schema): Schema {
  if (!ref.startsWith('#/')) throw new Error(`only local refs are generated: ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, part) => (node as Schema)[part.replace(/~1/g, '/').replace(/~0/g, '~')], document) as Schema;
}

function inferTypes(node: Schema): string[] {
  if (node.properties || node.additionalProperties !== undefined || node.required) return ['object'];
  if (node.items) return ['array'];
  if (node.pattern || node.format || node.minLength !== undefined) return ['string'];
  return [];
}

function num(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}
