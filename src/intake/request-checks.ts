/**
 * What intake can tell about a request before it is stored, so the caller hears it now (HTTP 4xx, CLI exit 2)
 * instead of from a run that fails a moment later in a worker:
 *  - text jsonb cannot store, a request naming no model, a callbackUrl this server cannot sign or may not reach;
 *  - a builder or provider this server does not have;
 *  - attachments: http(s) and within the size limit (the assembler's own check, run alone);
 *  - a model reference the catalog does not have, when no provider is configured to fetch it;
 *  - an inline modelSource that is none of the accepted shapes, or uses a construct the extractor refuses;
 *  - a model whose provider does not run its operation (an OpenAI embeddings operation, say);
 *  - a request that names a model AND sends one inline that is another model: the payload would be checked
 *    against one model's schema and executed on the other.
 * The stages check the same things again (a catalog entry can change between intake and extract); this only
 * moves the common mistakes forward. Nothing is written but the extraction cache (content-addressed), which
 * the extract stage then finds instead of extracting the same source again.
 */
import { extractAndStore } from '../catalog/model-catalog.ts';
import { assertRunnableOperation } from '../catalog/provider-operations.ts';
import { assertCallbackUrl } from '../delivery/callback-target.ts';
import type { Engine } from '../engine/engine.ts';
import { isVettedError, VettedError } from '../errors.ts';
import type { GenerationRequest, ModelSchema } from '../generated/contracts.ts';
import { checkAttachments } from '../stages/context-assembler.ts';
import { findUnstorableText } from '../util/storable-text.ts';

/**
 * @throws VettedError INVALID_REQUEST (naming the field), ATTACHMENT_REJECTED (`attachments[i].…`),
 *   MODEL_NOT_FOUND (`model`), MODEL_SOURCE_INVALID or SCHEMA_UNSUPPORTED (`modelSource.…`).
 */
export async function checkRequest(engine: Engine, tenantId: string, request: GenerationRequest): Promise<string> {
  const unstorable = findUnstorableText(request);
  if (unstorable) throw new VettedError('INVALID_REQUEST', `request: ${unstorable.path} ${unstorable.reason}`, { field: unstorable.path });
  if (!request.model && !request.modelSource) {
    throw new VettedError('INVALID_REQUEST', 'request: model is required (owner/name), or send the model inline as modelSource', { field: 'model' });
  }
  if (request.callbackUrl) checkCallbackUrl(engine, request.callbackUrl);
  engine.adapters.builder(request.builder ?? engine.config.defaults.builder);
  checkAttachments(request.attachments ?? [], engine.config.limits.maxAttachmentBytes);
  const schema = await checkModel(engine, tenantId, request);
  const provider = runProvider(engine, request, schema?.provider?.name);
  engine.adapters.provider(provider);
  // `dry` calls nothing, so it may preview a model its own provider could not run.
  if (schema && provider === schema.provider?.name) assertRunnableOperation(schema, request.modelSource === undefined ? 'model' : 'modelSource.operation');
  return provider;
}

/**
 * The provider a run executes on: the one the request names, else the model's own (a fal endpoint runs on
 * fal, an OpenAI operation on openai), else the configured default. A model read from a provider's document
 * runs on that provider or on `dry` (which calls nothing); any other provider would be sent a payload shaped
 * for another API.
 * @throws VettedError INVALID_REQUEST (field `provider`) for a provider that cannot run the model.
 */
function runProvider(engine: Engine, request: GenerationRequest, modelProvider: string | undefined): string {
  const named = request.provider;
  if (named !== undefined && modelProvider !== undefined && named !== modelProvider && named !== 'dry') {
    throw new VettedError('INVALID_REQUEST', `request: provider "${named}" cannot run this model, which is served by ${modelProvider}; name ${modelProvider} or dry, or leave provider out`, {
      field: 'provider',
    });
  }
  return named ?? modelProvider ?? engine.config.defaults.provider;
}

function checkCallbackUrl(engine: Engine, url: string): void {
  if (!engine.config.webhookSecret) {
    throw new VettedError('INVALID_REQUEST', 'request: callbackUrl needs webhook signing, which this server has not configured (VETTED_WEBHOOK_SECRET)', {
      field: 'callbackUrl',
    });
  }
  assertCallbackUrl(url, { allowPrivate: engine.config.webhookAllowPrivate });
}

/** Checks the model exists; answers its schema when it is known before extraction (inline or in the catalog). */
async function checkModel(engine: Engine, tenantId: string, request: GenerationRequest): Promise<ModelSchema | undefined> {
  if (request.modelSource !== undefined) {
    const schema = await inlineSchema(engine, request.modelSource);
    if (request.model) assertSameModel(request.model, schema);
    return schema;
  }
  const entry = request.model ? await engine.models.resolveRef(tenantId, request.model) : undefined;
  if (entry) return (await engine.models.getSchema(entry.schemaKey)) ?? undefined;
  if (request.model && !engine.adapters.modelFetcher()) {
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
async function inlineSchema(engine: Engine, source: unknown): Promise<ModelSchema> {
  try {
    return (await extractAndStore(engine, source)).modelSchema;
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
