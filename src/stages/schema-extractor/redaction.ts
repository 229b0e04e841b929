/**
 * Example values that the schema's own prose repeats ("Ex: alvdansen/frosting_lane_flux") are removed from
 * titles and descriptions: a builder reading the description could otherwise copy them into a payload.
 * Values the schema itself declares (a default, an enum member, or text inside one) are schema content and
 * stay. Short values are left alone: they are ordinary words ("image", "tile") that descriptions use.
 */
import { isPlainObject } from './json.ts';
import type { JsonObject } from './json.ts';
import type { WarningList } from './warnings.ts';

/** The shortest example string that is redacted from prose. */
export const MIN_REDACTED_LENGTH = 8;
export const REDACTION_MARK = '[example value removed]';

export function redactExampleText(
  properties: Record<string, JsonObject>,
  exampleValues: readonly unknown[],
  warnings: WarningList,
): void {
  const nodes = Object.entries(properties).flatMap(([name, node]) => collectNodes(node, name));
  const declared = nodes.flatMap(({ node }) => declaredStrings(node));
  const candidates = [...new Set(exampleValues.filter((v): v is string => typeof v === 'string').map((v) => v.trim()))];
  const secrets = candidates.filter((value) => value.length >= MIN_REDACTED_LENGTH && !declared.some((text) => text.includes(value)));
  if (secrets.length === 0) return;
  for (const { node, path } of nodes) {
    for (const keyword of ['title', 'description'] as const) {
      const text = node[keyword];
      if (typeof text !== 'string') continue;
      const redacted = secrets.reduce((acc, value) => acc.split(value).join(REDACTION_MARK), text);
      if (redacted === text) continue;
      node[keyword] = redacted;
      warnings.add(path, 'example_redacted', `an example value quoted in the ${keyword} was removed`);
    }
  }
}

interface NodeAt {
  node: JsonObject;
  path: string;
}

function collectNodes(node: JsonObject, path: string): NodeAt[] {
  const found: NodeAt[] = [{ node, path }];
  if (isPlainObject(node.items)) found.push(...collectNodes(node.items, `${path}[]`));
  if (isPlainObject(node.additionalProperties)) found.push(...collectNodes(node.additionalProperties, `${path}.*`));
  if (isPlainObject(node.properties)) {
    for (const [name, child] of Object.entries(node.properties)) {
      if (isPlainObject(child)) found.push(...collectNodes(child, `${path}.${name}`));
    }
  }
  return found;
}

/** Every string inside a node's default, enum and const: the values the schema itself declares. */
function declaredStrings(node: JsonObject): string[] {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') out.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (isPlainObject(value)) Object.values(value).forEach(walk);
  };
  walk(node.default);
  walk(node.enum);
  walk(node.const);
  return out;
}
