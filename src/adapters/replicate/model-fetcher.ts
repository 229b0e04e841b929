/**
 * Fetching a model the catalog does not know from Replicate, for extraction: `owner/name` is the model object
 * (`GET /models/{owner}/{name}`: latest_version.openapi_schema plus default_example, which the extractor
 * quarantines), `owner/name:version` is that version (`GET /models/{owner}/{name}/versions/{id}`).
 * The caller (resolveRunModel) stores what it extracts in the catalog, which is the cache.
 */
import type Replicate from 'replicate';
import { VettedError } from '../../errors.ts';
import { classifyReplicateError, describeFailure } from './api-errors.ts';
import type { ModelFetcher } from '../../catalog/model-fetcher.ts';

const MODEL_REFERENCE = /^([A-Za-z0-9][\w.-]*)\/([\w.-]+)(?::([\w.-]+))?$/;

export function createReplicateModelFetcher(client: Replicate): ModelFetcher {
  return {
    provider: 'replicate',
    async fetch(ref, options = {}) {
      const match = MODEL_REFERENCE.exec(ref);
      if (!match) throw new VettedError('INVALID_REQUEST', `model "${ref}" is not "owner/name" or "owner/name:version"`, { field: 'model' });
      const [, owner = '', name = '', version] = match;
      const model = `${owner}/${name}`;
      try {
        if (version === undefined) {
          const found = await client.models.get(owner, name, { signal: options.signal });
          return { kind: 'model', model, version: found.latest_version?.id ?? null, source: found as unknown as Record<string, unknown> };
        }
        const found = await client.models.versions.get(owner, name, version, { signal: options.signal });
        if (!found.openapi_schema) {
          throw new VettedError('MODEL_SOURCE_INVALID', `version ${version} of ${model} on Replicate has no openapi_schema, so its inputs are unknown`, {
            field: 'model',
          });
        }
        return { kind: 'version', model, version, source: found as unknown as Record<string, unknown> };
      } catch (error) {
        throw fetchFailure(error, ref);
      }
    },
  };
}

function fetchFailure(error: unknown, ref: string): unknown {
  if (error instanceof VettedError) return error;
  const failure = classifyReplicateError(error);
  if (failure.kind === 'aborted') return error;
  if (failure.kind === 'http' && failure.status === 404) {
    return new VettedError('MODEL_NOT_FOUND', `model "${ref}" is neither in the catalog nor on Replicate (404)`, { field: 'model' });
  }
  if (failure.kind === 'http' && (failure.status === 401 || failure.status === 403)) {
    return new VettedError('PROVIDER_FAILED', `Replicate refused the API token (HTTP ${failure.status}) while fetching "${ref}"; check REPLICATE_API_TOKEN`, {
      field: 'model',
    });
  }
  if (failure.kind === 'http' && failure.status < 500 && failure.status !== 429) {
    return new VettedError('PROVIDER_FAILED', `Replicate refused to describe "${ref}": ${describeFailure(failure)}`, { field: 'model' });
  }
  // 429, 5xx and network trouble pass: the extract stage retries with backoff. No `cause`: the SDK's error
  // carries the Request, whose Authorization header holds the token.
  return new VettedError('PROVIDER_UNAVAILABLE', `Replicate could not be asked about "${ref}": ${describeFailure(failure)}`, { field: 'model' });
}
