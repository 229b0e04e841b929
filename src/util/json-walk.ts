/**
 * Depth-first walk over parsed JSON with each node's dotted path (`conversation[1].content`). A loop over an
 * explicit stack, not recursion: request bodies may nest tens of thousands of levels deep.
 */

export interface JsonNode {
  value: unknown;
  /** `''` for the root, else `a.b[0].c`. */
  path: string;
}

/** Appends an object key to a path. */
export function childPath(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** Every node, parents before children, in key and index order. */
export function* walkJson(root: unknown, rootPath = ''): Generator<JsonNode> {
  const stack: JsonNode[] = [{ value: root, path: rootPath }];
  while (stack.length > 0) {
    const node = stack.pop() as JsonNode;
    yield node;
    const { value, path } = node;
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) stack.push({ value: value[index], path: `${path}[${index}]` });
      continue;
    }
    const entries = Object.entries(value);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, item] = entries[index] as [string, unknown];
      stack.push({ value: item, path: childPath(path, key) });
    }
  }
}

/**
 * The dotted path of the first key, depth first, that could rewrite object prototypes: `__proto__`, or
 * `constructor` holding `prototype`. JSON.parse makes them harmless own properties, but a later merge or spread
 * could turn them into a prototype change, so every channel that takes JSON refuses them.
 */
export function findPrototypeKey(root: unknown): string | undefined {
  for (const { value, path } of walkJson(root)) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    if (Object.hasOwn(value, '__proto__')) return childPath(path, '__proto__');
    const ctor = Object.hasOwn(value, 'constructor') ? (value as Record<string, unknown>).constructor : undefined;
    if (ctor !== null && typeof ctor === 'object' && Object.hasOwn(ctor, 'prototype')) return childPath(path, 'constructor.prototype');
  }
  return undefined;
}
