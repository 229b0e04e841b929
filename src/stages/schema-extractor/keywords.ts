/**
 * The keyword policy in one table: what the extractor translates, what it drops because it carries no
 * validation meaning, and what it refuses because it cannot be expressed faithfully in the strict subset
 * the validator and the builders understand.
 */
import { unsupported } from './warnings.ts';
import type { WarningList } from './warnings.ts';
import type { JsonObject } from './json.ts';

/** Keywords that only make sense for one JSON type; AJV's strictTypes rejects them on other types. */
export const KEYWORDS_BY_GROUP = {
  numeric: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  string: ['minLength', 'maxLength', 'pattern', 'format'],
  array: ['items', 'minItems', 'maxItems', 'uniqueItems'],
  object: ['properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties'],
} as const;

/** Pydantic's constraint names, which older Cog versions leaked into the schema verbatim. */
export const PYDANTIC_BOUNDS = { ge: 'minimum', le: 'maximum', gt: 'exclusiveMinimum', lt: 'exclusiveMaximum' } as const;

const TRANSLATED = new Set<string>([
  ...Object.values(KEYWORDS_BY_GROUP).flat(),
  ...Object.keys(PYDANTIC_BOUNDS),
  'type', 'nullable', 'enum', 'const', 'title', 'description', 'default', 'x-order',
  'example', 'examples', 'anyOf', 'oneOf', 'allOf', '$ref',
]);

/** Annotations with no effect on validity; dropped without a warning (vendor `x-*` keywords too). */
const SILENT = new Set([
  'readOnly', 'writeOnly', 'deprecated', '$comment', '$id', '$schema', 'definitions', '$defs', 'externalDocs', 'xml',
  'contentMediaType', 'contentEncoding',
]);

/** Constructs the strict subset cannot express; a schema using them is refused, naming the construct. */
const REFUSED = [
  'not', 'if', 'then', 'else', 'patternProperties', 'dependencies', 'dependentSchemas', 'dependentRequired',
  'propertyNames', 'contains', 'additionalItems', 'unevaluatedProperties', 'unevaluatedItems', 'discriminator',
];

/** Throws SCHEMA_UNSUPPORTED for the first refused construct on this node. */
export function refuseUnsupported(node: JsonObject, path: string): void {
  for (const keyword of REFUSED) if (Object.hasOwn(node, keyword)) throw unsupported(keyword, path);
  if (Array.isArray(node.items)) throw unsupported('items (tuple form)', path);
}

/** Warns about keywords that are neither translated, silent nor refused, which the output leaves out. */
export function warnUnknownKeywords(node: JsonObject, path: string, warnings: WarningList): void {
  for (const keyword of Object.keys(node)) {
    if (TRANSLATED.has(keyword) || SILENT.has(keyword) || keyword.startsWith('x-')) continue;
    warnings.add(path, 'keyword_dropped', `unknown keyword "${keyword}" dropped`);
  }
}

/** True for keywords a wrapper (`allOf`, `$ref`, `anyOf`) may carry beside its members without changing validity. */
export function isAnnotation(keyword: string): boolean {
  return (
    ['title', 'description', 'default', 'x-order', 'nullable', 'example', 'examples'].includes(keyword) ||
    SILENT.has(keyword) ||
    keyword.startsWith('x-')
  );
}
