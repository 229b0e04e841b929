/**
 * The catalog's port for models it does not know: a provider (Replicate, src/adapters/replicate/model-fetcher.ts)
 * fetches the model's source by reference, and resolveRunModel extracts and stores it.
 */

/** A model source fetched from a provider, in one of the shapes the SchemaExtractor accepts. */
export interface FetchedModel {
  kind: 'model' | 'version';
  /** owner/name */
  model: string;
  version: string | null;
  source: Record<string, unknown>;
}

/** Fetches model sources by reference; the catalog falls back to it for models it does not know. */
export interface ModelFetcher {
  readonly provider: string;
  /**
   * @throws VettedError MODEL_NOT_FOUND (field `model`) for an unknown model or version, MODEL_SOURCE_INVALID
   *   for a version without openapi_schema, PROVIDER_UNAVAILABLE (retryable) when Replicate cannot answer.
   */
  fetch(ref: string, options?: { signal?: AbortSignal }): Promise<FetchedModel>;
}
