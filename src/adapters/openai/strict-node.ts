/**
 * One ModelSchema node in, one OpenAI Structured Outputs ("strict") node out.
 *
 * Strict mode accepts a small JSON Schema subset: `type`, `enum`, `description`, `properties`, `required`
 * (every property), `additionalProperties: false`, `items`, `anyOf`. The rules, in one place:
 * - every object property is required, and nullable: null is the model's way to say "the user did not
 *   specify it" (the answer mapper turns it back into an omitted field);
 * - bounds, lengths, patterns, formats, item counts and defaults are not strict keywords: they are written
 *   into the description (so the model still reads them) and reported as residual rules, which AJV keeps
 *   enforcing on the mapped payload; defaults the builder never applies (a non-empty prompt default, a
 *   secret's) are left out of the description too;
 * - conditional and combinator keywords (`if`/`then`/`else`, `not`, `allOf`, `oneOf` exclusivity,
 *   `dependencies`…) are dropped from the strict schema and reported the same way;
 * - a node strict mode cannot type at all (an untyped value, a free-form object or map, an array without
 *   `items`) is sent as a JSON-encoded string and decoded on the way back (see strict-answer.ts);
 * - a union of several JSON types becomes `anyOf`, one branch per type.
 * The output is built from an allowlist, so nothing else (titles, `x-order`, vendor keywords) is sent.
 */
import { escapePointer, isPlainObject } from '../../stages/example-quarantine.ts';

export type JsonObject = Record<string, unknown>;

/** Why a rule could not be expressed in strict mode. */
export type ResidualKind = 'bound' | 'length' | 'pattern' | 'format' | 'count' | 'conditional' | 'enum';

/** A rule of the ModelSchema that strict mode does not enforce; AJV still does, on the mapped payload. */
export interface ResidualRule {
  /** Pointer into the payload; `*` stands for every item of an array. */
  path: string;
  keyword: string;
  value: unknown;
  kind: ResidualKind;
}

/** What the conversion of a whole schema collects besides the strict schema itself. */
export interface ConversionLog {
  residual: ResidualRule[];
  /** Pointers whose values travel as JSON-encoded strings. */
  jsonEncoded: string[];
  /** Pointers whose default is not told to the LLM (a sample prompt, a secret). */
  withheldDefaults: ReadonlySet<string>;
}

const DESCRIBED: ReadonlyArray<readonly [string, ResidualKind, string]> = [
  ['minimum', 'bound', 'minimum'],
  ['maximum', 'bound', 'maximum'],
  ['exclusiveMinimum', 'bound', 'greater than'],
  ['exclusiveMaximum', 'bound', 'less than'],
  ['multipleOf', 'bound', 'multiple of'],
  ['minLength', 'length', 'at least this many characters'],
  ['maxLength', 'length', 'at most this many characters'],
  ['pattern', 'pattern', 'pattern'],
  ['format', 'format', 'format'],
  ['minItems', 'count', 'at least this many items'],
  ['maxItems', 'count', 'at most this many items'],
  ['uniqueItems', 'count', 'unique items'],
  ['minProperties', 'count', 'at least this many keys'],
  ['maxProperties', 'count', 'at most this many keys'],
];

const CONDITIONAL = [
  'if', 'then', 'else', 'not', 'allOf', 'oneOf', 'dependencies', 'dependentSchemas', 'dependentRequired',
  'patternProperties', 'propertyNames', 'contains',
];

/** Strict mode's documented ceiling for one enum; a longer list is left to AJV. */
export const MAX_STRICT_ENUM = 1000;

/** True when strict mode cannot type this node, so its value travels as a JSON-encoded string. */
export function isJsonEncoded(node: JsonObject): boolean {
  const types = typesOf(node);
  if (types.length === 0) return !Object.hasOwn(node, 'enum') && !Object.hasOwn(node, 'const') && !Array.isArray(node.anyOf);
  if (types.includes('object') && !hasProperties(node)) return true;
  return types.includes('array') && !isPlainObject(node.items);
}

/** The node's JSON types (`type` as a string or an array). */
export function typesOf(node: JsonObject): string[] {
  if (typeof node.type === 'string') return [node.type];
  return Array.isArray(node.type) ? node.type.filter((t): t is string => typeof t === 'string') : [];
}

/** Converts a property schema, recording what strict mode loses in `log`. */
export function toStrictNode(node: JsonObject, path: string, log: ConversionLog): JsonObject {
  const notes = residualNotes(node, path, log);
  if (isJsonEncoded(node)) {
    log.jsonEncoded.push(path || '/');
    return described({ type: 'string' }, node, [...notes, 'send the value JSON-encoded as a string, or null']);
  }
  const branches = Array.isArray(node.anyOf) ? node.anyOf.filter(isPlainObject) : undefined;
  if (branches) return described({ anyOf: branches.map((branch) => toStrictNode(branch, path, log)) }, node, notes);
  const nonNull = typesOf(node).filter((t) => t !== 'null');
  if (nonNull.length > 1) return splitUnion(node, nonNull, path, notes, log);
  return described(typedNode(node, path, log), node, notes);
}

/** An object node: every property required and nullable, nothing else allowed. */
export function toStrictObject(node: JsonObject, path: string, log: ConversionLog): JsonObject {
  const properties = isPlainObject(node.properties) ? node.properties : {};
  const converted: JsonObject = {};
  for (const [name, child] of Object.entries(properties)) {
    if (!isPlainObject(child)) continue;
    converted[name] = withNull(toStrictNode(child, `${path}/${escapePointer(name)}`, log));
  }
  return { type: 'object', properties: converted, required: Object.keys(converted), additionalProperties: false };
}

/** Adds null to what a node accepts: the strict way to make a property optional. */
export function withNull(node: JsonObject): JsonObject {
  if (Array.isArray(node.anyOf)) {
    const hasNull = node.anyOf.some((branch) => isPlainObject(branch) && branch.type === 'null');
    return hasNull ? node : { ...node, anyOf: [...node.anyOf, { type: 'null' }] };
  }
  const out: JsonObject = { ...node };
  const types = typesOf(node);
  if (types.length > 0 && !types.includes('null')) out.type = [...types, 'null'];
  if (Array.isArray(node.enum) && !node.enum.includes(null)) out.enum = [...node.enum, null];
  return out;
}

function typedNode(node: JsonObject, path: string, log: ConversionLog): JsonObject {
  const types = typesOf(node);
  const out: JsonObject = types.includes('object') ? toStrictObject(node, path, log) : {};
  if (types.length > 0) out.type = types.length === 1 ? types[0] : types;
  const members = Object.hasOwn(node, 'const') ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
  if (members && members.length <= MAX_STRICT_ENUM) out.enum = members;
  if (types.includes('array') && isPlainObject(node.items)) out.items = toStrictNode(node.items, `${path}/*`, log);
  return out;
}

/** `type: ["string", "array"]` → `anyOf`, each branch keeping the keywords of its own type. */
function splitUnion(node: JsonObject, nonNull: string[], path: string, notes: string[], log: ConversionLog): JsonObject {
  const branches = nonNull.map((type) => typedNode({ ...node, type }, path, log));
  if (typesOf(node).includes('null')) branches.push({ type: 'null' });
  return described({ anyOf: branches }, node, notes);
}

/** Records every keyword strict mode drops and returns the description notes for it. */
function residualNotes(node: JsonObject, path: string, log: ConversionLog): string[] {
  const at = path || '/';
  const notes: string[] = [];
  for (const [keyword, kind, label] of DESCRIBED) {
    if (!Object.hasOwn(node, keyword)) continue;
    log.residual.push({ path: at, keyword, value: node[keyword], kind });
    notes.push(keyword === 'uniqueItems' ? label : `${label}: ${JSON.stringify(node[keyword])}`);
  }
  for (const keyword of CONDITIONAL) {
    if (Object.hasOwn(node, keyword)) log.residual.push({ path: at, keyword, value: node[keyword], kind: 'conditional' });
  }
  if (Array.isArray(node.enum) && node.enum.length > MAX_STRICT_ENUM) {
    log.residual.push({ path: at, keyword: 'enum', value: `${node.enum.length} options`, kind: 'enum' });
  }
  // The schema's own default is safe configuration (never an example), so telling the model is harmless,
  // except where the builder would not use it either: a sample prompt, a secret.
  if (Object.hasOwn(node, 'default') && !log.withheldDefaults.has(at)) notes.push(`default: ${JSON.stringify(node.default)}`);
  return notes;
}

/** `out` with the node's description (or title) and the notes, when there is anything to say. */
function described(out: JsonObject, node: JsonObject, notes: readonly string[]): JsonObject {
  const base = typeof node.description === 'string' ? node.description : typeof node.title === 'string' ? node.title : '';
  const text = notes.length === 0 ? base : base === '' ? `(${notes.join('; ')})` : `${base} (${notes.join('; ')})`;
  return text === '' ? out : { ...out, description: text };
}

function hasProperties(node: JsonObject): boolean {
  return isPlainObject(node.properties) && Object.keys(node.properties).length > 0;
}
