/**
 * The model's published input schema, kept beside our strict one for the final guard (the validator checks
 * every payload against both: ../validator/published-issues.ts), and the fields it contradicts itself on.
 *
 * Our strict schema repairs what it can (an enum of strings under `type: integer` is converted, with a
 * warning); the published schema is what the model's server was declared to accept, so a payload it rejects
 * must not run. Kept: the Input object and the component schemas it refers to, with validation keywords only.
 * Dropped: titles, descriptions, defaults and examples (examples are quarantined; text is not validation),
 * vendor keywords (`x-order`), and `pattern` (a published pattern may be a Python regex or a backtracking trap;
 * the strict schema runs the ones that are safe, in RE2).
 *
 * A field is unsatisfiable when no value can pass its published schema: an enum none of whose members has the
 * declared type (`{"type": "boolean", "enum": ["True", "False"]}`). Such a field is marked on its FieldSpec
 * (builders leave it out) unless it is required, when the model cannot be run at all and is refused.
 */
import type { FieldSpec } from '../../generated/contracts.ts';
import { isPlainObject, jsonEqual, jsonTypeOf, typeList } from './json.ts';
import type { JsonObject } from './json.ts';
import { unsupported, type WarningList } from './warnings.ts';

const COMPONENT_REF = /^#\/components\/schemas\/([^/]+)$/;
const DROPPED = new Set(['title', 'description', 'default', 'example', 'examples', 'pattern', 'deprecated', 'readOnly', 'writeOnly', 'externalDocs', 'xml', 'discriminator']);
/** Keywords whose value is a map of name → schema. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs']);
/** Keywords whose value is a schema or a list of schemas. */
const SCHEMA_VALUES = new Set(['items', 'additionalProperties', 'additionalItems', 'not', 'allOf', 'anyOf', 'oneOf', 'contains', 'propertyNames', 'if', 'then', 'else']);
const MAX_DEPTH = 64;

/** The published Input with the component schemas it refers to, validation keywords only. */
export function publishedInputSchema(document: JsonObject, input: JsonObject): JsonObject {
  const schemas = isPlainObject(document.components) && isPlainObject(document.components.schemas) ? document.components.schemas : {};
  const referenced = new Map<string, JsonObject>();
  const pending = [...refsIn(input)];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (referenced.has(name) || !isPlainObject(schemas[name])) continue;
    const schema = validationOnly(schemas[name], 0) as JsonObject;
    referenced.set(name, schema);
    pending.push(...refsIn(schemas[name]));
  }
  const root = validationOnly(input, 0) as JsonObject;
  return referenced.size === 0 ? root : { ...root, components: { schemas: Object.fromEntries([...referenced].sort(([a], [b]) => (a < b ? -1 : 1))) } };
}

/**
 * Marks each field no value can satisfy (FieldSpec.unsatisfiable, a warning), reading its published node
 * with `$ref` and single `allOf` followed.
 * @throws VettedError SCHEMA_UNSUPPORTED (construct `unsatisfiable`) for a required one: no payload could ever run.
 */
export function markUnsatisfiable(fields: FieldSpec[], input: JsonObject, document: JsonObject, warnings: WarningList): void {
  const properties = isPlainObject(input.properties) ? input.properties : {};
  for (const field of fields) {
    const reason = contradiction(resolve(properties[field.name], document, 0));
    if (reason === undefined) continue;
    if (field.required) throw unsupported('unsatisfiable', field.name, `the required field contradicts itself (${reason}), so no value fits`);
    field.unsatisfiable = reason;
    warnings.add(field.name, 'unsatisfiable_field', `no value satisfies the published schema (${reason}); builders leave the field out`);
  }
}

/** Why no value fits the node, or undefined when some value may. */
function contradiction(node: JsonObject | undefined): string | undefined {
  if (!node || !Array.isArray(node.enum) || node.enum.length === 0) return undefined;
  const types = typeList(node);
  if (types.length === 0) return undefined;
  if (node.nullable === true) types.push('null');
  const fits = (member: unknown) => types.some((type) => fitsType(member, type));
  if (node.enum.some(fits)) return undefined;
  const memberTypes = [...new Set(node.enum.map(jsonTypeOf))].join(' or ');
  const shown = node.enum.slice(0, 4).map((member) => JSON.stringify(member)).join(', ');
  return `type ${types.join(' or ')}, but every allowed value is a ${memberTypes}: ${shown}${node.enum.length > 4 ? ', …' : ''}`;
}

function fitsType(value: unknown, type: string): boolean {
  const actual = jsonTypeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

/** The node with its `$ref`s and single-member `allOf`s merged in (annotations of the outer node win). */
function resolve(raw: unknown, document: JsonObject, depth: number): JsonObject | undefined {
  if (!isPlainObject(raw) || depth > 8) return isPlainObject(raw) ? raw : undefined;
  const { $ref, allOf, ...rest } = raw;
  let inner: JsonObject | undefined;
  if (typeof $ref === 'string') inner = resolve(componentNamed(document, $ref), document, depth + 1);
  else if (Array.isArray(allOf) && allOf.length === 1) inner = resolve(allOf[0], document, depth + 1);
  else if (allOf !== undefined) return raw;
  return inner ? { ...inner, ...rest } : rest;
}

function componentNamed(document: JsonObject, ref: string): unknown {
  const name = COMPONENT_REF.exec(ref)?.[1];
  const schemas = isPlainObject(document.components) && isPlainObject(document.components.schemas) ? document.components.schemas : {};
  return name === undefined ? undefined : schemas[decodeURIComponent(name)];
}

function refsIn(node: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > MAX_DEPTH) return out;
  if (Array.isArray(node)) for (const item of node) refsIn(item, out, depth + 1);
  else if (isPlainObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const name = COMPONENT_REF.exec(value)?.[1];
        if (name !== undefined) out.push(decodeURIComponent(name));
      } else refsIn(value, out, depth + 1);
    }
  }
  return out;
}

/** A schema node with only what validates; property names are kept whatever they are called. */
function validationOnly(node: unknown, depth: number): unknown {
  if (typeof node === 'boolean') return node;
  if (!isPlainObject(node) || depth > MAX_DEPTH) return {};
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.has(key) || key.startsWith('x-')) continue;
    if (SCHEMA_MAPS.has(key) && isPlainObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, validationOnly(inner, depth + 1)]));
    } else if (SCHEMA_VALUES.has(key)) {
      out[key] = Array.isArray(value) ? value.map((inner) => validationOnly(inner, depth + 1)) : validationOnly(value, depth + 1);
    } else {
      out[key] = structuredClone(value);
    }
  }
  // AJV refuses an enum that repeats a member (laion-ai/laionide-v2 does); the repeat changes nothing.
  if (Array.isArray(out.enum)) out.enum = out.enum.filter((member, i, all) => all.findIndex((other) => jsonEqual(other, member)) === i);
  // OpenAPI 3.0 writes `minimum: 0, exclusiveMinimum: true`; draft-07 (what AJV runs) writes `exclusiveMinimum: 0`.
  for (const [exclusive, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof out[exclusive] !== 'boolean') continue;
    if (out[exclusive] === true && typeof out[bound] === 'number') {
      out[exclusive] = out[bound];
      delete out[bound];
    } else {
      delete out[exclusive];
    }
  }
  return nullableWithoutType(out);
}

/**
 * OpenAPI 3.0 lets `nullable: true` stand beside a union or a `$ref` with no `type` (OpenAI's image edit
 * `model`: `anyOf` of strings, nullable); AJV reads `nullable` only beside `type` and refuses the schema
 * otherwise. Such a node accepts null or whatever the rest of it accepts, which is what it is made to say.
 */
function nullableWithoutType(node: JsonObject): JsonObject {
  if (!Object.hasOwn(node, 'nullable') || Object.hasOwn(node, 'type')) return node;
  const { nullable, ...rest } = node;
  return nullable === true ? { anyOf: [rest, { type: 'null' }] } : rest;
}
