/**
 * `anyOf` / `oneOf`, in the forms that have a faithful strict equivalent:
 *  - one real branch plus `{type: "null"}` (pydantic's Optional[X]) → that branch, also accepting null;
 *  - branches of different JSON types whose keywords only apply to their own type (string or array of
 *    strings) → one node with a union `type` and each branch's keywords side by side.
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
  const real = converted.filter((branch) => !isNull(branch));
  const out = real.length === 1 ? (real[0] as JsonObject) : mergeDisjoint(real, keyword, path);
  if (real.length < converted.length || node.nullable === true) allowNull(out);
  copyAnnotations(node, out, path, ctx.warnings);
  applyDefault(node, out, path, ctx.warnings);
  return out;
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

function stripAnnotations(branch: JsonObject): JsonObject {
  const copy = { ...branch };
  for (const keyword of BRANCH_ANNOTATIONS) delete copy[keyword];
  return copy;
}

/** Merges branches of pairwise different type groups; refuses when a keyword would leak across branches. */
function mergeDisjoint(branches: JsonObject[], keyword: string, path: string): JsonObject {
  if (branches.length === 0) throw unsupported(keyword, path, 'every branch is null');
  const merged: JsonObject = { type: [] as string[] };
  const seenGroups = new Set<string>();
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
      if (!own.includes(key)) throw unsupported(keyword, path, `"${key}" in one branch would constrain the others`);
      merged[key] = value;
    }
    (merged.type as string[]).push(...types);
  }
  merged.type = typeValue(merged.type as string[]);
  return merged;
}
