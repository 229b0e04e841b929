/**
 * SchemaExtractor: a Replicate model, version or tool config in; a strict ModelSchema plus the quarantined
 * example values out. Pure: no I/O, no clock, no randomness, so equal sources give equal results.
 *
 * Zero trust starts here. Example values (`default_example.input`, `example_input`, `example(s)` keywords)
 * go to the quarantine and nowhere else; the ModelSchema keeps only what the schema itself declares.
 */
import { ExampleQuarantine } from '../example-quarantine.ts';
import { deriveFragments, modelSchemaText, publishedSchemaText } from '../fragments/derive.ts';
import type { QuarantinedValue } from '../example-quarantine.ts';
import type { FieldSpec, ModelSchema } from '../../generated/contracts.ts';
import { canonicalHash } from '../../util/canonical-hash.ts';
import { findUnstorableText } from '../../util/storable-text.ts';
import { assembledExample, quarantineExampleDefaults } from './example-defaults.ts';
import { inferProperties } from './example-inference.ts';
import { primaryPromptName } from './field-roles.ts';
import { buildFieldSpecs, orderedNames } from './field-specs.ts';
import type { JsonObject } from './json.ts';
import { convertOpenApiInput } from './openapi-input.ts';
import { redactExampleText } from './redaction.ts';
import { markUnsatisfiable, publishedInputSchema } from './published-schema.ts';
import { parseSource } from './source-shapes.ts';
import type { ParsedSource } from './source-shapes.ts';
import { invalidSource, WarningList } from './warnings.ts';

export { classifyRole, primaryPromptName, ROLE_RULES } from './field-roles.ts';
export type { RoleTraits } from './field-roles.ts';
export type { WarningCode } from './warnings.ts';

export interface ExtractionResult {
  modelSchema: ModelSchema;
  /** Every example value; never part of modelSchema. */
  quarantine: ExampleQuarantine;
  /** Content-addressed: see {@link extractionCacheKey}. */
  cacheKey: string;
}

export interface ExtractOptions {
  /** owner/name for a version object, which does not name its model. */
  model?: string | null;
}

/** What the two routes (schema, example) hand back before the common finishing steps. */
interface Blueprint {
  properties: Record<string, JsonObject>;
  raw: Record<string, unknown>;
  required: string[];
  schemaExamples: QuarantinedValue[];
  /** A provider document's example request, assembled from its inputs' examples (it publishes none whole). */
  assembledExample?: Record<string, unknown>;
}

/**
 * Extracts the ModelSchema of a model source.
 *
 * @throws VettedError MODEL_SOURCE_INVALID (field names what is missing or malformed) when the source is none of
 *   the accepted shapes, or a model has neither a schema nor an example.
 * @throws VettedError SCHEMA_UNSUPPORTED (field = property path, details.construct) when the schema uses a
 *   construct that cannot be expressed faithfully.
 */
export function extractModelSchema(source: unknown, options: ExtractOptions = {}): ExtractionResult {
  const parsed = parseSource(source, options.model ?? null);
  // Its examples and schema are stored in jsonb, which cannot hold these. Checked here, not in parseSource:
  // a cache key is computed for every inline source, and only a source that extracted is ever cached.
  const unstorable = findUnstorableText(source);
  if (unstorable) throw invalidSource(unstorable.path, `${unstorable.path} ${unstorable.reason}`);
  const warnings = new WarningList();
  const blueprint = parsed.openapi === null ? fromExample(parsed, warnings) : fromOpenApi(parsed, warnings);
  const quarantine = ExampleQuarantine.fromExamples(parsed.example ?? undefined, blueprint.schemaExamples, blueprint.assembledExample);
  redactExampleText(blueprint.properties, quarantine.entries().map((entry) => entry.value), warnings);

  const names = orderedNames(blueprint.properties);
  const entries = names.map((name) => ({ name, node: blueprint.properties[name] as JsonObject, raw: blueprint.raw[name] }));
  const fields = buildFieldSpecs(entries, new Set(blueprint.required));
  const required = parsed.openapi === null ? inferRequired(fields) : blueprint.required;
  const jsonSchema = {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(entries.map((entry) => [entry.name, entry.node])),
    required,
  };
  // The published schema too, for the final guard; it is part of the schema's identity (the hash), because two
  // published schemas our repairs make equal (`enum: ["32"]` and `enum: [32]`) still accept different payloads.
  const published = parsed.openapi && publishedInputSchema(parsed.openapi.document, parsed.openapi.input);
  if (parsed.openapi) markUnsatisfiable(fields, parsed.openapi.input, parsed.openapi.document, warnings);
  const modelSchema: ModelSchema = {
    schemaHash: published ? canonicalHash({ jsonSchema, publishedSchema: published }) : canonicalHash(jsonSchema),
    model: parsed.model,
    version: parsed.version,
    source: blueprintSource(parsed),
    jsonSchema,
    fields,
    warnings: warnings.toArray(),
    ...(published ? { publishedSchema: published } : {}),
    ...(parsed.provider ? { provider: parsed.provider } : {}),
  };
  // The example's distinctive pieces, minus what the published schema itself says, kept with the quarantine.
  const schemaText = `${publishedSchemaText(parsed.openapi?.document ?? null, parsed.model)}\n${modelSchemaText(modelSchema)}`;
  const fragments = deriveFragments(quarantine.entries(), { schemaText });
  return { modelSchema, quarantine: quarantine.withFragments(fragments), cacheKey: cacheKeyOf(parsed) };
}

/**
 * The key an extraction is cached under (model_schemas, model_examples), computed without extracting, so
 * the cache can be looked up first. See cacheKeyOf.
 *
 * @throws VettedError MODEL_SOURCE_INVALID as extractModelSchema does, for a source of no accepted shape.
 */
export function extractionCacheKey(source: unknown, options: ExtractOptions = {}): string {
  return cacheKeyOf(parseSource(source, options.model ?? null));
}

/**
 * Bump this whenever the extractor's output changes for the same source (a new field role, a stricter
 * redaction): it is part of every cache key, so an upgraded process extracts again instead of serving what an
 * older extractor made, and catalog entries are re-pointed when next resolved (model-catalog.ts).
 * 2: field role `safety`; `n_prompt` and a "Negative Prompt" title read as the negative prompt; patterns
 *    with lookaround or backreferences dropped (patterns run in RE2); width/height only for sizes of the
 *    output (not `tile_width`); bounds no value fits refused.
 * 3: the quarantine keeps its examples' distinctive fragments (../fragments/derive.ts); the ModelSchema keeps
 *    the published input schema (publishedSchema, part of the hash) and marks fields no value satisfies;
 *    an empty `anyOf: []` is read instead of refused.
 * 4: a provider document's quarantine holds the example request its inputs' examples make (shadow mode's V2
 *    side and the review card read it).
 * 5: a provider document's string inputs named `…_url` / `…_urls` are file URLs (`format: uri`), as fal writes them.
 * 6: a published schema's `nullable: true` beside a union or `$ref` with no `type` is kept as a null branch
 *    (AJV refused the whole published schema before).
 * 7: a union of an object and a string enum (fal's `image_size`) is an object field whose FieldSpec lists the enum's
 *    names as `presets`.
 */
export const EXTRACTOR_REVISION = 7;

/**
 * The hash of everything extraction reads (shape, model, version, schema document, example) and of the
 * extractor's revision, prefixed with the version id when Replicate named one, so keys stay readable:
 * `version:<id>@<sha256>` or `sha256:<hash>`.
 *
 * Never the version id alone: a model source can arrive inline in any tenant's request, and the id is only
 * what the sender claims. Keyed by id, the first source seen for it would decide the schema (and its
 * quarantine, the leak firewall's only knowledge of the examples) for every later run that names the same
 * version, whoever sent it. Keyed by content, a forged or partial source (a version object without its
 * model's example) gets its own entry and shadows nothing.
 */
function cacheKeyOf(parsed: ParsedSource): string {
  const hash = canonicalHash({
    extractor: EXTRACTOR_REVISION,
    kind: parsed.kind,
    model: parsed.model,
    version: parsed.version,
    schema: parsed.openapi?.document ?? null,
    example: parsed.example,
    // A provider file's enabled fields and operation change the result, not only its document.
    ...(parsed.provider ? { provider: parsed.provider, input: parsed.openapi?.input ?? null } : {}),
  });
  return parsed.kind !== 'tool_config' && parsed.version !== null ? `version:${parsed.version}@${hash}` : `sha256:${hash}`;
}

/** Where the blueprint came from: a model without a schema was inferred from its example. */
function blueprintSource(parsed: ParsedSource): ModelSchema['source'] {
  if (parsed.openapi === null) return 'example_input';
  if (parsed.kind === 'provider_openapi') return 'provider_openapi';
  return parsed.kind === 'replicate_version' ? 'replicate_version' : 'replicate_model';
}

function fromOpenApi(parsed: ParsedSource, warnings: WarningList): Blueprint {
  const { document, input, inputField } = parsed.openapi as NonNullable<ParsedSource['openapi']>;
  const converted = convertOpenApiInput(document, input, inputField, warnings);
  for (const key of Object.keys(parsed.example ?? {})) {
    if (!Object.hasOwn(converted.properties, key)) {
      warnings.add(key, 'example_extra_key', `${parsed.exampleField} has a key the schema does not declare; ignored`);
    }
  }
  // Provider documents give sample prompts as defaults; Replicate's Cog schemas keep real defaults only.
  if (parsed.kind !== 'provider_openapi') {
    return { properties: converted.properties, raw: converted.raw, required: converted.required, schemaExamples: converted.examples };
  }
  const sampleDefaults = quarantineExampleDefaults(converted.properties, warnings);
  return {
    properties: converted.properties,
    raw: converted.raw,
    required: converted.required,
    schemaExamples: [...converted.examples, ...sampleDefaults],
    assembledExample: assembledExample(converted.raw, sampleDefaults),
  };
}

function fromExample(parsed: ParsedSource, warnings: WarningList): Blueprint {
  if (parsed.kind === 'replicate_model') {
    warnings.add('', 'schema_missing', 'the model has no openapi_schema; field types were inferred from default_example.input');
  }
  const properties = inferProperties(parsed.example ?? {}, warnings);
  return { properties, raw: {}, required: [], schemaExamples: [] };
}

/**
 * An example tells us types, not which fields are mandatory: requiring every example key would force the
 * builder to invent values for optional knobs. So only the primary prompt is required (a run without the
 * user's prompt is meaningless), and nothing else.
 */
function inferRequired(fields: FieldSpec[]): string[] {
  const prompt = primaryPromptName(fields);
  if (prompt === undefined) return [];
  for (const field of fields) if (field.name === prompt) field.required = true;
  return [prompt];
}
