/**
 * `anyOf` / `oneOf`, in the forms that have a faithful strict equivalent:
 *  - one real branch plus `{type: "null"}` (pydantic's Optional[X]) → that branch, also accepting null;
 *  - an open string enum (`anyOf: [{type: string, enum: [...]}, {type: string}]`, OpenAI's model names) →
 *    any string, the listed members being suggestions only;
 *  - branches of different JSON types whose keywords only apply to their own type (string or array of
 *    strings) → one node with a union `type` and each branch's keywords side by side;
 *  - a `discriminator` over object branches → those branches kept as a `oneOf` the validator checks, each
 *    pinned to its tag value;
 *  - object branches that each require one property with its own fixed value (OpenAI's chat messages, told
 *    apart by `role`; their content parts, by `type`), with no `discriminator` → kept the same way.
 * Anything else would change what validates, so it is refused.
 */
import { allowNull, applyDefault, copyAnnotations } from './annotations.ts';
import type { ConvertContext, ConvertFn } from './context.ts';
import { applicableGroups } from './constraints.ts';
import { isAnnotation, KEYWORDS_BY_GROUP } from './keywords.ts';
import { typeList, typeValue } from './json.ts';
import type { JsonObject } from './json.ts';
import { unsupported } from './warnings.ts';

const BRANCH_ANNOTATIONS = ['title', 'description', 'x-order', 'default'];

export function convertUnion(node: JsonObject, path: string, ctx: ConvertContext, refs: readonly string[], convert: ConvertFn): JsonObject {
  const keyword = Object.hasOwn(node, 'anyOf') ? 'anyOf' : 'oneOf';
  const branches = node[keyword];
  if (keyword === 'anyOf' && Array.isArray(branches) && branches.length === 0 && !Object.hasOwn(node, 'oneOf')) {
    return convert(withoutEmptyAnyOf(node, path, ctx), path, ctx, refs);
  }
  if (Object.hasOwn(node, 'anyOf') && Object.hasOwn(node, 'oneOf')) throw unsupported('anyOf with oneOf', path);
  if (!Array.isArray(branches) || branches.length === 0) throw unsupported(keyword, path, `${keyword} is not a non-empty array`);
  const extra = Object.keys(node).find((key) => key !== keyword && !isAnnotation(key));
  if (extra !== undefined) throw unsupported(keyword, path, `"${extra}" beside ${keyword} is not supported`);

  const converted = branches.map((branch) => stripAnnotations(convert(branch, path, ctx, refs)));
  const isNull = (branch: JsonObject): boolean => typeValue(typeList(branch)) === 'null' && Object.keys(branch).length === 1;
  // A branch that is itself nullable (`{type: string, nullable: true}` beside an array branch, OpenAI's `stop`)
  // lets the whole union accept null; the branch is then read without it.
  const nullableBranch = converted.some((branch) => !isNull(branch) && typeList(branch).length > 1 && typeList(branch).includes('null') && !Array.isArray(branch.enum));
  const nonNull = converted.filter((branch) => !isNull(branch)).map((branch) => (nullableBranch ? withoutNull(branch) : branch));
  const real = openStringEnum(nonNull, path, ctx);
  const out = real.length === 1 ? (real[0] as JsonObject) : taggedObjects(real) ?? mergeDisjoint(real, keyword, path);
  if (nonNull.length < converted.length || nullableBranch || node.nullable === true) allowNull(out);
  copyAnnotations(node, out, path, ctx.warnings);
  applyDefault(node, out, path, ctx.warnings);
  return out;
}

/**
 * An unconstrained `{type: "string"}` branch accepts every other string branch's values, so those branches
 * (an enum of known names, usually) say nothing more about validity: they are folded into it.
 */
function openStringEnum(branches: JsonObject[], path: string, ctx: ConvertContext): JsonObject[] {
  const isString = (branch: JsonObject): boolean => branch.type === 'string';
  const open = branches.find((branch) => isString(branch) && Object.keys(branch).length === 1);
  const folded = branches.filter((branch) => branch !== open && isString(branch));
  if (open === undefined || folded.length === 0) return branches;
  ctx.warnings.add(path, 'keyword_dropped', 'an open enum (any string, or one of the listed values) read as any string');
  return branches.filter((branch) => !folded.includes(branch));
}

/**
 * A discriminated union of objects (`oneOf` + `discriminator.propertyName`): each branch must be an object
 * declaring the tag property with a fixed value, so exactly one branch fits a payload. The `discriminator`
 * keyword itself only speeds up validation and is dropped.
 */
export function convertDiscriminated(node: JsonObject, path: string, ctx: ConvertContext, refs: readonly string[], convert: ConvertFn): JsonObject {
  const keyword = Object.hasOwn(node, 'oneOf') ? 'oneOf' : Object.hasOwn(node, 'anyOf') ? 'anyOf' : undefined;
  const discriminator = node.discriminator;
  const tag = discriminator !== null && typeof discriminator === 'object' ? (discriminator as JsonObject).propertyName : undefined;
  if (keyword === undefined) throw unsupported('discriminator', path, 'a discriminator without oneOf or anyOf');
  if (typeof tag !== 'string') throw unsupported('discriminator', path, 'discriminator.propertyName is not a string');
  const branches = node[keyword];
  if (!Array.isArray(branches) || branches.length === 0) throw unsupported(keyword, path, `${keyword} is not a non-empty array`);
  const extra = Object.keys(node).find((key) => key !== keyword && key !== 'discriminator' && key !== 'type' && !isAnnotation(key));
  if (extra !== undefined) throw unsupported('discriminator', path, `"${extra}" beside a discriminated ${keyword} is not supported`);
  const converted = branches.map((branch) => stripAnnotations(convert(branch, path, ctx, refs)));
  for (const branch of converted) requireTag(branch, tag, path);
  const out: JsonObject = { type: 'object', oneOf: converted };
  copyAnnotations(node, out, path, ctx.warnings);
  return out;
}

/**
 * Object branches told apart by a tag without a `discriminator` keyword: some property every branch requires
 * with one fixed value, a different value in each. Exactly one branch fits a payload, as with a discriminator.
 */
function taggedObjects(branches: JsonObject[]): JsonObject | undefined {
  if (!branches.every((branch) => branch.type === 'object')) return undefined;
  const first = branches[0]?.properties as Record<string, JsonObject> | undefined;
  const tag = Object.keys(first ?? {}).find((name) => {
    const values = branches.map((branch) => fixedValue(branch, name));
    return values.every((value) => value !== undefined) && new Set(values.map((value) => JSON.stringify(value))).size === branches.length;
  });
  return tag === undefined ? undefined : { type: 'object', oneOf: branches };
}

/** The one value a required property of an object branch may take, or undefined. */
function fixedValue(branch: JsonObject, name: string): unknown {
  const node = (branch.properties as Record<string, JsonObject> | undefined)?.[name];
  if (node === undefined || !Array.isArray(branch.required) || !branch.required.includes(name)) return undefined;
  if (Object.hasOwn(node, 'const')) return node.const;
  return Array.isArray(node.enum) && node.enum.length === 1 ? node.enum[0] : undefined;
}

function requireTag(branch: JsonObject, tag: string, path: string): void {
  const properties = branch.properties as Record<string, JsonObject> | undefined;
  const tagNode = properties?.[tag];
  const fixed = tagNode !== undefined && (Object.hasOwn(tagNode, 'const') || (Array.isArray(tagNode.enum) && tagNode.enum.length === 1));
  const required = Array.isArray(branch.required) && branch.required.includes(tag);
  if (branch.type !== 'object' || !fixed || !required) {
    throw unsupported('discriminator', path, `every branch must be an object that requires "${tag}" with one fixed value`);
  }
}

/** Words in a field's name that say its values are files (sent as URLs). */
const FILE_WORDS = /(?:^|[^a-z])(?:image|images|img|photo|video|videos|audio|file|files|mask|url|urls|uri|reference|references|frame|frames)(?:[^a-z]|$)/i;

/**
 * Replicate's own schemas for some 2025–26 video models carry `"anyOf": []` on list items (reference images).
 * Read literally no value fits an empty anyOf; what the model means is "any item". So the keyword is dropped
 * with a warning, and an item that is then untyped becomes a URI when its format or the field's name says
 * files (`reference_images`), else stays untyped.
 */
function withoutEmptyAnyOf(node: JsonObject, path: string, ctx: ConvertContext): JsonObject {
  const rest: JsonObject = { ...node };
  delete rest.anyOf;
  const untyped = rest.type === undefined && rest.enum === undefined && rest.const === undefined;
  const fileLike = rest.format === 'uri' || FILE_WORDS.test(path.replace(/\[\]$/, ''));
  if (untyped && fileLike) {
    rest.type = 'string';
    rest.format = 'uri';
  }
  const reading = untyped ? (fileLike ? 'a URI (the field name or format says files)' : 'any value') : 'its other keywords';
  ctx.warnings.add(path, 'empty_any_of', `"anyOf": [] (no branch) read as ${reading}`);
  return rest;
}

function withoutNull(branch: JsonObject): JsonObject {
  const types = typeList(branch);
  if (!types.includes('null') || types.length < 2 || Array.isArray(branch.enum)) return branch;
  return { ...branch, type: typeValue(types.filter((type) => type !== 'null')) };
}

function stripAnnotations(branch: JsonObject): JsonObject {
  const copy = { ...branch };
  for (const keyword of BRANCH_ANNOTATIONS) delete copy[keyword];
  return copy;
}

/**
 * Merges branches of pairwise different type groups; refuses when a keyword would leak across branches.
 * A branch with an `enum` or `const` (fal's `image_size`: explicit sizes, or one of the preset names) cannot
 * share a node with the others, so then the branches stay side by side as an `anyOf` (disjoint types: at
 * most one branch ever fits).
 */
function mergeDisjoint(branches: JsonObject[], keyword: string, path: string): JsonObject {
  if (branches.length === 0) throw unsupported(keyword, path, 'every branch is null');
  const merged: JsonObject = { type: [] as string[] };
  const seenGroups = new Set<string>();
  let pinned = false;
  for (const branch of branches) {
    const types = typeList(branch);
    if (types.length !== 1) throw unsupported(keyword, path, 'a branch without exactly one type');
    const groups = [...applicableGroups(types)];
    const group = groups[0] ?? types[0] ?? '';
    if (seenGroups.has(group)) throw unsupported(keyword, path, `two branches of the same kind (${group})`);
    seenGroups.add(group);
    const own: readonly string[] = group in KEYWORDS_BY_GROUP ? KEYWORDS_BY_GROUP[group as keyof typeof KEYWORDS_BY_GROUP] : [];
    for (const [key, value] of Object.entries(branch)) {
      if (key === 'type') continue;
      if (key === 'enum' || key === 'const') {
        pinned = true;
        continue;
      }
      if (!own.includes(key)) throw unsupported(keyword, path, `"${key}" in one branch would constrain the others`);
      merged[key] = value;
    }
    (merged.type as string[]).push(...types);
  }
  if (pinned) return { type: typeValue(merged.type as string[]), anyOf: branches };
  merged.type = typeValue(merged.type as string[]);
  return merged;
}
