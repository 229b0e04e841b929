/**
 * Finding the ModelSchema for a run: from the request's inline modelSource, or from the catalog by
 * reference. Extraction happens once per source content (cached in PostgreSQL under extractionCacheKey).
 */
import { isVettedError, VettedError } from '../errors.ts';
import type { GenerationRequest, ModelSchema } from '../generated/contracts.ts';
import { isModelReference } from '../schema/contracts.ts';
import { extractModelSchema, extractionCacheKey } from '../stages/schema-extractor/index.ts';
import type { Logger } from '../observability/logger.ts';
import type { CatalogRef, CatalogStore } from './catalog-store.ts';
import type { ModelFetcher } from './model-fetcher.ts';
import { assertRunnableOperation } from './provider-operations.ts';

/** What the catalog's functions need: the store, the model fetcher (Replicate), and a logger. */
export interface CatalogDeps {
  models: CatalogStore;
  adapters: { modelFetcher(): ModelFetcher | undefined };
  logger: Logger;
}

export interface ResolvedModel {
  schemaKey: string;
  modelSchema: ModelSchema;
}

/**
 * Extracts (or finds in the cache) the schema for a source and stores it. The cache is content-addressed
 * (extractionCacheKey says why), so a source is never answered with another source's extraction.
 */
export async function extractAndStore(deps: CatalogDeps, source: unknown): Promise<ResolvedModel> {
  const schemaKey = extractionCacheKey(source);
  const cached = await deps.models.getSchema(schemaKey);
  if (cached) return { schemaKey, modelSchema: cached };
  const extraction = extractModelSchema(source);
  await deps.models.saveExtraction(extraction.cacheKey, extraction.modelSchema, extraction.quarantine);
  return { schemaKey: extraction.cacheKey, modelSchema: extraction.modelSchema };
}

/**
 * @throws VettedError MODEL_NOT_FOUND (field `model`) or INVALID_REQUEST when the request names no model;
 *   with a Replicate token, also what fetching the model can throw (see fetchFromProvider).
 */
export async function resolveRunModel(deps: CatalogDeps, tenantId: string, request: GenerationRequest): Promise<ResolvedModel> {
  if (request.modelSource) return extractAndStore(deps, request.modelSource);
  if (!request.model) throw new VettedError('INVALID_REQUEST', 'The request names no model: set "model" or "modelSource"', { field: 'model' });
  const entry = await deps.models.resolveRef(tenantId, request.model);
  if (!entry) {
    const fetched = await fetchFromProvider(deps, tenantId, request.model);
    if (fetched) return fetched;
    throw new VettedError(
      'MODEL_NOT_FOUND',
      `model "${request.model}" is not in the catalog; register it with \`vetted models add <file>\` or send it inline as "modelSource"`,
      { field: 'model' },
    );
  }
  const schemaKey = await currentSchemaKey(deps, entry);
  const modelSchema = await deps.models.getSchema(schemaKey);
  if (!modelSchema) throw new VettedError('INTERNAL', `catalog entry ${request.model} points at missing schema ${schemaKey}`);
  return { schemaKey, modelSchema };
}

/**
 * Schema keys this process has seen match their registered source under the running extractor. A key is
 * content-addressed (source and extractor revision), so one check per key and process is enough.
 */
const currentKeys = new Set<string>();

/**
 * The entry's schema key, after an extractor upgrade re-extracted from the registered source: the key
 * embeds the extractor revision (EXTRACTOR_REVISION), so an entry made by an older extractor points at a
 * key the running one would not compute. Such an entry is extracted again and re-pointed, once.
 */
async function currentSchemaKey(deps: CatalogDeps, entry: CatalogRef): Promise<string> {
  if (currentKeys.has(entry.schemaKey)) return entry.schemaKey;
  const source = await deps.models.getRegisteredSource(entry);
  const freshKey = source ? await currentKeyOf(deps, entry, source) : undefined;
  if (freshKey === undefined || freshKey === entry.schemaKey) {
    currentKeys.add(entry.schemaKey);
    return entry.schemaKey;
  }
  await deps.models.repointRef(entry, freshKey);
  deps.logger.info({ event: 'MODEL_REEXTRACTED', ref: entry.ref, tenantId: entry.tenantId, from: entry.schemaKey, to: freshKey }, 'MODEL_REEXTRACTED');
  currentKeys.add(freshKey);
  return freshKey;
}

/**
 * The registered source's key under the running extractor (extracting it when the key is new), or undefined
 * when this extractor refuses the source (its checks are stricter than the one it was registered under): the
 * entry then keeps serving what it was registered with, and a warning says so, rather than every run naming
 * it failing.
 */
async function currentKeyOf(deps: CatalogDeps, entry: CatalogRef, source: Record<string, unknown>): Promise<string | undefined> {
  try {
    const key = extractionCacheKey(source);
    return key === entry.schemaKey ? key : (await extractAndStore(deps, source)).schemaKey;
  } catch (error) {
    if (!isVettedError(error) || error.status >= 500) throw error;
    deps.logger.warn({ event: 'MODEL_REEXTRACT_REFUSED', ref: entry.ref, tenantId: entry.tenantId, reason: error.message }, 'MODEL_REEXTRACT_REFUSED');
    return undefined;
  }
}

/**
 * The catalog references a model registers under. An explicit `ref` wins over the name the file gives:
 * `owner/name` registers it and, when the schema knows its version, `owner/name:version`; a ref that already
 * names a version registers only itself (and must be the schema's version when the schema knows one).
 * Without a ref, the file's own `owner/name` (and `:version`) is used.
 * @throws VettedError INVALID_REQUEST (field `ref`) for a ref outside the ModelReference contract or naming
 *   another version; (field `model`) when neither the file nor a ref names the model.
 */
export function catalogRefs(modelSchema: ModelSchema, ref?: string): string[] {
  if (ref !== undefined) {
    if (!isModelReference(ref)) throw new VettedError('INVALID_REQUEST', `ref "${ref}" must look like owner/name or owner/name:version`, { field: 'ref' });
    const [, refVersion] = ref.split(':');
    if (refVersion === undefined) return modelSchema.version ? [ref, `${ref}:${modelSchema.version}`] : [ref];
    if (modelSchema.version && refVersion !== modelSchema.version) {
      throw new VettedError('INVALID_REQUEST', `ref "${ref}" names version ${refVersion}, but the model file is version ${modelSchema.version}; pass the ref without ":${refVersion}"`, {
        field: 'ref',
      });
    }
    return [ref];
  }
  if (!modelSchema.model) {
    throw new VettedError('INVALID_REQUEST', 'The model file does not say which model it is: add "owner" and "name", or pass --ref owner/name', {
      field: 'model',
    });
  }
  const refs = modelSchema.version ? [modelSchema.model, `${modelSchema.model}:${modelSchema.version}`] : [modelSchema.model];
  // A name no request could ever use (`bad owner/x/y`) would register without error and never resolve.
  const unusable = refs.find((derived) => !isModelReference(derived));
  if (unusable !== undefined) {
    throw new VettedError(
      'INVALID_REQUEST',
      `The model file names "${unusable}", which no request can refer to (owner/name[:version]: letters, digits, . _ -); fix the file's owner, name or version, or pass --ref owner/name`,
      { field: 'model' },
    );
  }
  return refs;
}

/**
 * Extracts and stores a model source and points its catalog references (see catalogRefs) at it for a tenant.
 * @returns the schema and the refs registered, so callers can say which.
 * @throws VettedError MODEL_SOURCE_INVALID (field `operation`) for an operation its provider does not run.
 */
export async function registerModel(
  deps: CatalogDeps,
  input: { tenantId: string; source: unknown; ref?: string },
): Promise<ResolvedModel & { refs: string[] }> {
  const resolved = await extractAndStore(deps, input.source);
  assertRunnableOperation(resolved.modelSchema);
  const refs = catalogRefs(resolved.modelSchema, input.ref);
  await deps.models.registerModel({ tenantId: input.tenantId, refs, schemaKey: resolved.schemaKey, source: input.source as Record<string, unknown> });
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
async function fetchFromProvider(deps: CatalogDeps, tenantId: string, ref: string): Promise<ResolvedModel | undefined> {
  const fetcher = deps.adapters.modelFetcher();
  if (!fetcher) return undefined;
  const fetched = await fetcher.fetch(ref);
  if (fetched.kind === 'model') return registerModel(deps, { tenantId, source: fetched.source });
  const resolved = await extractAndStore(deps, fetched.source);
  await deps.models.registerModel({ tenantId, refs: [ref], schemaKey: resolved.schemaKey, source: fetched.source });
  return resolved;
}
