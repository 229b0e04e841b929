/**
 * Example values that the schema's own prose repeats ("Ex: alvdansen/frosting_lane_flux", "e.g. 918273645")
 * are removed from titles and descriptions: a builder reading the description could otherwise copy them into
 * a payload. Values the schema itself declares (a default, an enum member, a bound, or text inside one) are
 * schema content and stay. Short strings and everyday numbers are left alone: they are ordinary words
 * ("image", "tile") and figures ("1024", "50 steps") that descriptions use; only a distinctive number (the
 * leak firewall's rule, distinctive-numbers.ts) says it came from the example.
 */
import { EMBEDDED_NUMERAL, isDistinctiveNumber } from '../distinctive-numbers.ts';
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
  const numbers = secretNumbers(exampleValues, new Set(nodes.flatMap(({ node }) => declaredNumbers(node))));
  if (secrets.length === 0 && numbers.size === 0) return;
  for (const { node, path } of nodes) {
    for (const keyword of ['title', 'description'] as const) {
      const text = node[keyword];
      if (typeof text !== 'string') continue;
      const withoutStrings = secrets.reduce((acc, value) => acc.split(value).join(REDACTION_MARK), text);
      const redacted = numbers.size === 0 ? withoutStrings : withoutStrings.replace(EMBEDDED_NUMERAL, (numeral) => (numbers.has(Number(numeral)) ? REDACTION_MARK : numeral));
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

/** The distinctive example numbers (numeric strings included) the schema does not declare itself. */
function secretNumbers(exampleValues: readonly unknown[], declared: ReadonlySet<number>): Set<number> {
  const numbers = exampleValues.map((value) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value));
  return new Set(numbers.filter((value): value is number => typeof value === 'number' && isDistinctiveNumber(value) && !declared.has(value)));
}

/** The numbers a node declares: its default, enum, const and bounds. */
function declaredNumbers(node: JsonObject): number[] {
  const values = [node.default, node.const, node.minimum, node.maximum, node.exclusiveMinimum, node.exclusiveMaximum, ...(Array.isArray(node.enum) ? node.enum : [])];
  return values.filter((value): value is number => typeof value === 'number');
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
