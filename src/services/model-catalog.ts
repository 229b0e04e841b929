/**
 * Finding the ModelSchema for a run: from the request's inline modelSource, or from the catalog by
 * reference. Extraction happens once per source (cached by version id or content hash in PostgreSQL).
 */
import { VettedError } from '../errors.ts';
import type { GenerationRequest, ModelSchema } from '../generated/contracts.ts';
import { extractModelSchema } from '../stages/schema-extractor/index.ts';
import { isPlainObject } from '../stages/example-quarantine.ts';
import type { System } from '../system.ts';
import { canonicalHash } from '../util/canonical-hash.ts';

export interface ResolvedModel {
  schemaKey: string;
  modelSchema: ModelSchema;
}

/**
 * The cache key a source will be stored under, computed without extracting: the version id when the
 * source carries one, else the hash of its content.
 */
export function sourceCacheKey(source: Record<string, unknown>): string {
  const latest = source.latest_version;
  const versionId = isPlainObject(latest) ? latest.id : 'openapi_schema' in source ? source.id : undefined;
  return typeof versionId === 'string' && versionId !== '' ? `version:${versionId}` : `sha256:${canonicalHash(source)}`;
}

/** Extracts (or finds in the cache) the schema for a source and stores it. */
export async function extractAndStore(system: System, source: unknown): Promise<ResolvedModel> {
  if (isPlainObject(source)) {
    const cached = await system.models.getSchema(sourceCacheKey(source));
    if (cached) return { schemaKey: sourceCacheKey(source), modelSchema: cached };
  }
  const extraction = extractModelSchema(source);
  await system.models.saveExtraction(extraction.cacheKey, extraction.modelSchema, extraction.quarantine);
  return { schemaKey: extraction.cacheKey, modelSchema: extraction.modelSchema };
}

/**
 * @throws VettedError MODEL_NOT_FOUND (field `model`) or INVALID_REQUEST when the request names no model;
 *   with a Replicate token, also what fetching the model can throw (see fetchFromProvider).
 */
export async function resolveRunModel(system: System, tenantId: string, request: GenerationRequest): Promise<ResolvedModel> {
  if (request.modelSource) return extractAndStore(system, request.modelSource);
  if (!request.model) throw new VettedError('INVALID_REQUEST', 'The request names no model: set "model" or "modelSource"', { field: 'model' });
  const entry = await system.models.resolveRef(tenantId, request.model);
  if (!entry) {
    const fetched = await fetchFromProvider(system, tenantId, request.model);
    if (fetched) return fetched;
    throw new VettedError(
      'MODEL_NOT_FOUND',
      `model "${request.model}" is not in the catalog; register it with \`vetted models add <file>\` or send it inline as "modelSource"`,
      { field: 'model' },
    );
  }
  const modelSchema = await system.models.getSchema(entry.schemaKey);
  if (!modelSchema) throw new VettedError('INTERNAL', `catalog entry ${request.model} points at missing schema ${entry.schemaKey}`);
  return { schemaKey: entry.schemaKey, modelSchema };
}

/** The catalog references a model registers under: `owner/name`, plus `owner/name:version` when known. */
export function catalogRefs(modelSchema: ModelSchema, fallbackRef?: string): string[] {
  const name = modelSchema.model ?? fallbackRef;
  if (!name) {
    throw new VettedError('INVALID_REQUEST', 'The model file does not say which model it is: add "owner" and "name", or pass --ref owner/name', {
      field: 'model',
    });
  }
  return modelSchema.version ? [name, `${name}:${modelSchema.version}`] : [name];
}

export async function registerModel(
  system: System,
  input: { tenantId: string; source: unknown; ref?: string },
): Promise<ResolvedModel & { refs: string[] }> {
  const resolved = await extractAndStore(system, input.source);
  const refs = catalogRefs(resolved.modelSchema, input.ref);
  await system.models.registerModel({ tenantId: input.tenantId, refs, schemaKey: resolved.schemaKey, source: input.source as Record<string, unknown> });
  return { ...resolved, refs };
}

/**
 * A model the catalog lacks, fetched from the provider (Replicate) when one is configured, extracted and
 * registered for the tenant, so the next run finds it in the catalog (the cache). A model object registers
 * `owner/name` and `owner/name:<latest version>`; a version registers only `owner/name:version`, so fetching
 * an old version never re-points a tenant's bare `owner/name`.
 * @returns undefined when no fetcher is configured.
 * @throws VettedError MODEL_NOT_FOUND (404 on Replicate), MODEL_SOURCE_INVALID (a version without
 *   openapi_schema), PROVIDER_UNAVAILABLE (retryable: Replicate could not answer).
 */
async function fetchFromProvider(system: System, tenantId: string, ref: string): Promise<ResolvedModel | undefined> {
  const fetcher = system.adapters.modelFetcher();
  if (!fetcher) return undefined;
  const fetched = await fetcher.fetch(ref);
  if (fetched.kind === 'model') return registerModel(system, { tenantId, source: fetched.source });
  const resolved = await extractAndStore(system, fetched.source);
  await system.models.registerModel({ tenantId, refs: [ref], schemaKey: resolved.schemaKey, source: fetched.source });
  return resolved;
}
