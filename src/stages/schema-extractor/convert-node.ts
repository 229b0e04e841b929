/**
 * One source schema node (Replicate's OpenAPI 3.0 dialect) in, one strict draft-07 node out. The output is
 * built from an allowlist, so nothing the policy does not name (examples, vendor keywords) can slip through.
 */
import { allowNull, applyDefault, copyAnnotations } from './annotations.ts';
import { applicableGroups, applyArrayCounts, applyNumeric, applyString, copyCount, dropInapplicable } from './constraints.ts';
import type { ConvertContext } from './context.ts';
import { convertEnum } from './enum.ts';
import { applyFormat } from './formats.ts';
import { isPlainObject, jsonTypeOf, typeList, typeValue } from './json.ts';
import type { JsonObject } from './json.ts';
import { refuseUnsupported, warnUnknownKeywords } from './keywords.ts';
import { inlineRefs } from './refs.ts';
import { convertDiscriminated, convertUnion } from './union.ts';
import { childPath, itemsPath, unsupported } from './warnings.ts';

/** Deeper nesting than any real model input; the limit keeps a hostile schema from exhausting the stack. */
const MAX_DEPTH = 32;

const JSON_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'array', 'object', 'null']);

/** Converts a property schema; see {@link ConvertFn} for the arguments. */
export function convertNode(raw: unknown, path: string, ctx: ConvertContext, refs: readonly string[]): JsonObject {
  const depth = refs.length + (path.match(/\.|\[\]/g)?.length ?? 0);
  if (depth > MAX_DEPTH) throw unsupported('nesting depth', path, `more than ${MAX_DEPTH} levels`);
  if (raw === true) return {};
  if (!isPlainObject(raw)) throw unsupported('non-object schema', path, `the schema is ${jsonTypeOf(raw)}`);
  const { node, refs: chain } = inlineRefs(raw, path, ctx, refs);
  if (Object.hasOwn(node, 'discriminator')) return convertDiscriminated(node, path, ctx, chain, convertNode);
  refuseUnsupported(node, path);
  if (Object.hasOwn(node, 'anyOf') || Object.hasOwn(node, 'oneOf')) return convertUnion(node, path, ctx, chain, convertNode);
  return convertPlain(node, path, ctx, chain);
}

function convertPlain(node: JsonObject, path: string, ctx: ConvertContext, refs: readonly string[]): JsonObject {
  const declared = declaredTypes(node, path);
  const converted = node.enum === undefined ? undefined : convertEnum(node.enum, declared, path, ctx.warnings);
  const types = converted?.types ?? declared;
  const out: JsonObject = {};
  if (types.length > 0) out.type = typeValue(types);
  if (converted !== undefined) out.enum = converted.members;
  copyAnnotations(node, out, path, ctx.warnings);
  if (Object.hasOwn(node, 'const')) out.const = structuredClone(node.const);
  dropInapplicable(node, types, path, ctx.warnings);
  const groups = applicableGroups(types);
  if (groups.has('numeric')) applyNumeric(node, out, path, ctx.warnings);
  if (groups.has('string')) applyString(node, out, path, ctx.warnings);
  if (groups.has('array')) applyArray(node, out, path, ctx, refs);
  if (groups.has('object')) applyObject(node, out, path, ctx, refs);
  if (typeof node.format === 'string') applyFormat(node.format, types, out, path, ctx.warnings);
  else if (node.format !== undefined) ctx.warnings.add(path, 'keyword_dropped', '"format" is not a string; dropped');
  warnUnknownKeywords(node, path, ctx.warnings);
  // After the enum, whose members may have supplied the types: nullable must reach both.
  if (node.nullable === true) allowNull(out);
  applyDefault(node, out, path, ctx.warnings);
  return out;
}

/** The node's JSON types, with OpenAPI's `nullable: true` read as an extra "null". */
function declaredTypes(node: JsonObject, path: string): string[] {
  const type = node.type;
  if (type !== undefined && typeof type !== 'string' && !Array.isArray(type)) throw unsupported('type', path, 'type is not a string');
  const types = typeList(node);
  const unknown = types.find((t) => !JSON_TYPES.has(t));
  if (unknown !== undefined) throw unsupported(`type "${unknown}"`, path, 'not a JSON Schema type');
  if (node.nullable === true && types.length > 0 && !types.includes('null')) types.push('null');
  return [...new Set(types)];
}

function applyArray(node: JsonObject, out: JsonObject, path: string, ctx: ConvertContext, refs: readonly string[]): void {
  if (node.items !== undefined) out.items = convertNode(node.items, itemsPath(path), ctx, refs);
  applyArrayCounts(node, out, path, ctx.warnings);
}

function applyObject(node: JsonObject, out: JsonObject, path: string, ctx: ConvertContext, refs: readonly string[]): void {
  const properties = isPlainObject(node.properties) ? node.properties : undefined;
  if (properties !== undefined) {
    // fromEntries defines own properties, so a field called "__proto__" stays a field.
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, schema]) => [name, convertNode(schema, childPath(path, name), ctx, refs)]),
    );
  }
  const additional = node.additionalProperties;
  if (typeof additional === 'boolean') out.additionalProperties = additional;
  else if (additional !== undefined) out.additionalProperties = convertNode(additional, childPath(path, '*'), ctx, refs);
  if (Array.isArray(node.required)) out.required = knownRequired(node.required, out, path, ctx);
  for (const keyword of ['minProperties', 'maxProperties'] as const) copyCount(node, out, keyword, path, ctx.warnings);
}

/**
 * `required` names, minus those a closed object could never satisfy: requiring a property that
 * additionalProperties: false forbids would make every payload invalid.
 */
export function knownRequired(required: unknown[], out: JsonObject, path: string, ctx: ConvertContext): string[] {
  const properties = isPlainObject(out.properties) ? out.properties : {};
  const closed = out.additionalProperties === false;
  const names = [...new Set(required.filter((name): name is string => typeof name === 'string'))];
  return names.filter((name) => {
    if (!closed || Object.hasOwn(properties, name)) return true;
    ctx.warnings.add(childPath(path, name), 'required_unknown', 'required names a property the schema does not declare; dropped');
    return false;
  });
}
