/**
 * JSON Schema as the routes and schemas/ write it (draft-07, `$ref`s between files by `$id`) turned into
 * OpenAPI 3.1 Schema Objects (JSON Schema 2020-12) whose every `$ref` is local: `#/components/schemas/<Name>`.
 *
 * A contract file's root is the component named by its `title` (GenerationRequest, Run, ...) and each of
 * its `definitions` a component of its own name (Identifier, RunStatus, ...). Names are unique across
 * schemas/ (the build fails naming both files otherwise). Only what 2020-12 spells differently changes;
 * annotation keywords for other generators (`tsType`) are dropped. The walk knows which keywords hold
 * subschemas, so a property *named* like a keyword (`nullable`, `default`) is left alone.
 */
import { VettedError } from '../../src/errors.ts';
import type { LoadedSchema } from '../../src/schema/contracts.ts';

export type JsonSchema = Record<string, unknown>;

const COMPONENT_PREFIX = '#/components/schemas/';

/** Keywords whose value is a map of subschemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs'] as const;
/** Keywords whose value is one subschema. */
const SCHEMA_ONE = ['additionalProperties', 'items', 'contains', 'propertyNames', 'if', 'then', 'else', 'not', 'unevaluatedProperties', 'unevaluatedItems'] as const;
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
/** Dropped: file identity (the document is one file) and annotations meant for json-schema-to-typescript. */
const DROPPED = new Set(['$schema', '$id', 'definitions', 'tsType']);

/** Where every contract and definition lives in the document, by absolute schema URI. */
export class ComponentNames {
  private readonly byUri = new Map<string, string>();
  private readonly sources = new Map<string, JsonSchema>();
  /** Which file first used a name, to name both when two collide. */
  private readonly files = new Map<string, string>();

  constructor(contracts: readonly LoadedSchema[]) {
    for (const { id, name: file, schema } of contracts) {
      if (hasValidation(schema)) this.add(id, String(schema.title ?? file), schema, file);
      const definitions = (schema.definitions ?? {}) as Record<string, JsonSchema>;
      for (const [name, definition] of Object.entries(definitions)) this.add(`${id}#/definitions/${name}`, name, definition, file);
    }
  }

  /** The component name for an absolute ref (`https://vetted.dev/schemas/run.schema.json#/definitions/RunStatus`). */
  nameOf(absoluteRef: string): string {
    const name = this.byUri.get(absoluteRef.replace(/#$/, ''));
    if (!name) throw new VettedError('INTERNAL', `OpenAPI: $ref ${absoluteRef} names no contract or definition in schemas/`);
    return name;
  }

  /** The contract schema a component comes from, with the URI its relative refs resolve against. */
  source(name: string): { schema: JsonSchema; baseUri: string } {
    const schema = this.sources.get(name);
    const uri = [...this.byUri].find(([, n]) => n === name)?.[0];
    if (!schema || !uri) throw new VettedError('INTERNAL', `OpenAPI: no component ${name}`);
    return { schema, baseUri: uri.split('#')[0]! };
  }

  private add(uri: string, name: string, schema: JsonSchema, file: string): void {
    const other = this.files.get(name);
    if (other) throw new VettedError('INTERNAL', `OpenAPI: the component name ${name} is used by schemas/${other} and schemas/${file}; rename one`);
    this.files.set(name, file);
    this.byUri.set(uri, name);
    this.sources.set(name, schema);
  }
}

/** A file like common.schema.json holds only definitions; its root is no schema of its own. */
function hasValidation(schema: JsonSchema): boolean {
  return Object.keys(schema).some((key) => !['$schema', '$id', 'title', 'description', 'definitions', '$comment'].includes(key));
}

/**
 * Converts one schema. `onRef` hears every component it now points at, so the document holds exactly the
 * components its operations reach.
 * @param baseUri the `$id` relative refs resolve against (a contract file's id; route schemas use absolute refs).
 */
export function toOpenApiSchema(schema: unknown, names: ComponentNames, baseUri: string, onRef: (name: string) => void): JsonSchema {
  if (typeof schema === 'boolean') return schema ? {} : { not: {} };
  if (!isObject(schema)) throw new VettedError('INTERNAL', `OpenAPI: a schema must be an object, not ${JSON.stringify(schema)}`);
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key)) continue;
    if (key === 'dependencies') throw new VettedError('INTERNAL', 'OpenAPI: `dependencies` is draft-07 only; write dependentRequired or dependentSchemas');
    if (key === '$ref') {
      const name = names.nameOf(new URL(String(value), baseUri).toString());
      onRef(name);
      out.$ref = `${COMPONENT_PREFIX}${name}`;
    } else if (key === 'items' && Array.isArray(value)) {
      out.prefixItems = value.map((item) => toOpenApiSchema(item, names, baseUri, onRef));
    } else if ((SCHEMA_MAPS as readonly string[]).includes(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, typeof inner === 'boolean' ? inner : toOpenApiSchema(inner, names, baseUri, onRef)]));
    } else if ((SCHEMA_ONE as readonly string[]).includes(key) && (isObject(value) || typeof value === 'boolean')) {
      out[key] = typeof value === 'boolean' ? value : toOpenApiSchema(value, names, baseUri, onRef);
    } else if ((SCHEMA_LISTS as readonly string[]).includes(key) && Array.isArray(value)) {
      out[key] = value.map((item) => toOpenApiSchema(item, names, baseUri, onRef));
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** Every component the document needs, converted, following refs from the ones the operations use. */
export function buildComponents(names: ComponentNames, used: Iterable<string>): Record<string, JsonSchema> {
  const components: Record<string, JsonSchema> = {};
  const pending = [...used];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (components[name]) continue;
    const { schema, baseUri } = names.source(name);
    components[name] = toOpenApiSchema(schema, names, baseUri, (next) => {
      if (!components[next]) pending.push(next);
    });
  }
  return Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b)));
}

export function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
