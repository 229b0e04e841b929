/**
 * `$ref` and single-member `allOf`, inlined. Cog wraps every enum as `allOf: [{$ref}]` with the
 * property's own default and description beside it; inlining merges the two, the wrapper winning for
 * annotations. Only local refs into the same document are followed; a ref back into the chain that led
 * here is a cycle and is refused.
 */
import { harvestExamples } from './annotations.ts';
import { isAnnotation } from './keywords.ts';
import { isPlainObject, jsonEqual } from './json.ts';
import type { JsonObject } from './json.ts';
import type { ConvertContext } from './context.ts';
import { unsupported } from './warnings.ts';

/** A node with every top-level `$ref` / `allOf` merged in, and the ref chain followed to build it. */
export interface Inlined {
  node: JsonObject;
  refs: readonly string[];
}

export function inlineRefs(raw: JsonObject, path: string, ctx: ConvertContext, refs: readonly string[]): Inlined {
  let node = harvestExamples(raw, path, ctx);
  let chain = refs;
  for (;;) {
    if (Object.hasOwn(node, 'allOf')) {
      const { allOf, ...siblings } = node;
      if (!Array.isArray(allOf) || allOf.length !== 1 || !isPlainObject(allOf[0])) {
        throw unsupported('allOf', path, 'only a single-member allOf (a wrapped $ref) is supported');
      }
      node = merge(harvestExamples(allOf[0], path, ctx), siblings, path);
    } else if (Object.hasOwn(node, '$ref')) {
      const { $ref, ...siblings } = node;
      const ref = checkRef($ref, path, chain);
      chain = [...chain, ref];
      node = merge(harvestExamples(resolvePointer(ctx.root, ref, path), path, ctx), siblings, path);
    } else {
      return { node, refs: chain };
    }
  }
}

function checkRef(ref: unknown, path: string, chain: readonly string[]): string {
  if (typeof ref !== 'string') throw unsupported('$ref', path, '$ref is not a string');
  if (!ref.startsWith('#')) throw unsupported('external $ref', path, 'only local refs (#/...) are resolved');
  if (chain.includes(ref)) throw unsupported('$ref cycle', path, `${[...chain, ref].join(' -> ')}`);
  return ref;
}

function resolvePointer(root: JsonObject, ref: string, path: string): JsonObject {
  const segments = ref === '#' ? [] : ref.slice(ref.startsWith('#/') ? 2 : 1).split('/');
  let current: unknown = root;
  for (const segment of segments) {
    const key = decodePointerSegment(segment);
    current = isPlainObject(current) && Object.hasOwn(current, key) ? current[key] : undefined;
  }
  if (!isPlainObject(current)) throw unsupported('unresolvable $ref', path, `${ref} does not name a schema`);
  return current;
}

function decodePointerSegment(segment: string): string {
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // A malformed %-escape cannot name anything; the lookup below then fails as unresolvable.
  }
  return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * The wrapper's annotations override the target's; a validation keyword on both sides must agree,
 * because picking one would silently change what validates.
 */
function merge(target: JsonObject, wrapper: JsonObject, path: string): JsonObject {
  const merged: JsonObject = { ...target };
  for (const [keyword, value] of Object.entries(wrapper)) {
    if (Object.hasOwn(target, keyword) && !isAnnotation(keyword) && !jsonEqual(target[keyword], value)) {
      throw unsupported('allOf', path, `"${keyword}" differs between the wrapper and the referenced schema`);
    }
    merged[keyword] = value;
  }
  return merged;
}
