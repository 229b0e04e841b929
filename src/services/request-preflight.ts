/**
 * What intake can tell about a request before it is stored, so the caller hears it now (HTTP 4xx, CLI exit 2)
 * instead of from a run that fails a moment later in a worker:
 *  - attachments: http(s) and within the size limit (the assembler's own checks, run early);
 *  - a model reference the catalog does not have, when no provider is configured to fetch it;
 *  - an inline modelSource that is none of the accepted shapes, or uses a construct the extractor refuses;
 *  - a request that names a model AND sends one inline that is another model: the payload would be checked
 *    against one model's schema and executed on the other.
 * The workers check the same things again (a catalog entry can change between intake and extract); this
 * only moves the common mistakes forward. Nothing is written but the extraction cache (content-addressed).
 */
import { isVettedError, VettedError } from '../errors.ts';
import type { GenerationRequest, ModelSchema } from '../generated/contracts.ts';
import { assembleContext } from '../stages/context-assembler.ts';
import type { System } from '../system.ts';
import { extractAndStore } from './model-catalog.ts';

/**
 * @throws VettedError ATTACHMENT_REJECTED (`attachments[i].…`), MODEL_NOT_FOUND (`model`),
 *   MODEL_SOURCE_INVALID or SCHEMA_UNSUPPORTED (`modelSource.…`), INVALID_REQUEST (`model`, when model and
 *   modelSource disagree).
 */
export async function preflightRequest(system: System, tenantId: string, request: GenerationRequest): Promise<void> {
  assembleContext(request, { maxAttachmentBytes: system.config.limits.maxAttachmentBytes });
  if (request.modelSource !== undefined) {
    const schema = await inlineSchema(system, request.modelSource);
    if (request.model) assertSameModel(request.model, schema);
    return;
  }
  if (request.model && !system.adapters.modelFetcher() && !(await system.models.resolveRef(tenantId, request.model))) {
    throw new VettedError(
      'MODEL_NOT_FOUND',
      `model "${request.model}" is not in the catalog; register it with \`vetted models add <file>\` or send it inline as "modelSource"`,
      { field: 'model' },
    );
  }
}

/**
 * The source's schema, extracted and cached as the extract stage would (which then finds it in the cache,
 * instead of extracting the same source a second time).
 */
async function inlineSchema(system: System, source: unknown): Promise<ModelSchema> {
  try {
    return (await extractAndStore(system, source)).modelSchema;
  } catch (error) {
    if (!isVettedError(error) || (error.code !== 'MODEL_SOURCE_INVALID' && error.code !== 'SCHEMA_UNSUPPORTED')) throw error;
    const field = error.field && error.field !== 'source' ? `modelSource.${error.field}` : 'modelSource';
    throw new VettedError(error.code, `modelSource: ${error.message}`, { field, details: error.details, cause: error });
  }
}

/**
 * `model` may name what an inline source leaves open (a version object does not say which model it is),
 * but it may not contradict it.
 */
export function assertSameModel(reference: string, schema: ModelSchema, sentAs = 'the model sent inline as modelSource'): void {
  const [name, version] = reference.split(':');
  const clash =
    (schema.model !== null && schema.model !== name) || (version !== undefined && schema.version !== null && schema.version !== version);
  if (!clash) return;
  const inline = schema.version ? `${schema.model ?? '(unnamed)'}:${schema.version}` : (schema.model ?? '(unnamed)');
  throw new VettedError(
    'INVALID_REQUEST',
    `request: model "${reference}" is not ${sentAs} (${inline}); send one of the two, or make them agree`,
    { field: 'model' },
  );
}
