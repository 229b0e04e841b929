/**
 * Replicate's `components.schemas.Input` (Cog's OpenAPI 3.0 dialect) → the strict property schemas of a
 * closed input object. Each property goes through {@link convertNode}; this file owns the root: its shape,
 * its `required` list and the refusal of root-level constructs.
 */
import type { QuarantinedValue } from '../example-quarantine.ts';
import { harvestExamples } from './annotations.ts';
import type { ConvertContext } from './context.ts';
import { convertNode, knownRequired } from './convert-node.ts';
import { isPlainObject } from './json.ts';
import type { JsonObject } from './json.ts';
import { refuseUnsupported } from './keywords.ts';
import type { WarningList } from './warnings.ts';
import { invalidSource, unsupported } from './warnings.ts';

/** A converted input: strict property schemas, the raw ones (for role traits) and the required names. */
export interface ConvertedInput {
  properties: Record<string, JsonObject>;
  raw: Record<string, unknown>;
  required: string[];
  /** Values of `example` / `examples` keywords found anywhere in the schema. */
  examples: QuarantinedValue[];
}

const ROOT_WRAPPERS = ['$ref', 'allOf', 'anyOf', 'oneOf'];

/**
 * @param document the whole `openapi_schema` (refs resolve against it)
 * @param inputField where the Input sits in the source, for error messages
 */
export function convertOpenApiInput(document: JsonObject, input: JsonObject, inputField: string, warnings: WarningList): ConvertedInput {
  const ctx: ConvertContext = { root: document, warnings, examples: [] };
  const root = harvestExamples(input, '', ctx);
  checkRoot(root, inputField, warnings);
  const raw = (root.properties ?? {}) as Record<string, unknown>;
  const properties = Object.fromEntries(Object.entries(raw).map(([name, schema]) => [name, convertNode(schema, name, ctx, [])]));
  const required = Array.isArray(root.required) ? knownRequired(root.required, { properties, additionalProperties: false }, '', ctx) : [];
  return { properties, raw, required, examples: ctx.examples };
}

function checkRoot(root: JsonObject, inputField: string, warnings: WarningList): void {
  if (root.type !== undefined && root.type !== 'object') {
    throw invalidSource(`${inputField}.type`, 'The Input schema is not an object schema');
  }
  if (root.properties !== undefined && !isPlainObject(root.properties)) {
    throw invalidSource(`${inputField}.properties`, 'Input.properties is not an object');
  }
  if (root.required !== undefined && !Array.isArray(root.required)) {
    throw invalidSource(`${inputField}.required`, 'Input.required is not an array');
  }
  refuseUnsupported(root, '');
  const wrapper = ROOT_WRAPPERS.find((keyword) => Object.hasOwn(root, keyword));
  if (wrapper !== undefined) throw unsupported(wrapper, '', 'the Input object itself must be a plain object schema');
  if (root.additionalProperties !== undefined && root.additionalProperties !== false) {
    // Vetted closes the input object: a payload carries only fields the schema names.
    warnings.add('', 'keyword_dropped', '"additionalProperties" replaced by false (the input object is closed)');
  }
}
