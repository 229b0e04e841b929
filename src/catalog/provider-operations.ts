/**
 * The operations each provider runs, by the operationId in its published document. A model file may name any
 * operation of the document (extraction reads them all, so `vetted extract` can show one), but a model the
 * provider cannot run is refused where it enters: `vetted models add` and submission, not the execute stage
 * after a review. The providers' own tables (src/adapters/openai, src/adapters/anthropic) are typed by these
 * lists, so the two cannot drift apart.
 */
import { VettedError } from '../errors.ts';
import type { ModelSchema } from '../generated/contracts.ts';

export const OPENAI_RUNNABLE = ['createImage', 'createImageEdit', 'createSpeech', 'createTranscription', 'createChatCompletion'] as const;
export const ANTHROPIC_RUNNABLE = ['messages_post'] as const;

export type OpenAiRunnable = (typeof OPENAI_RUNNABLE)[number];

/** Providers that run a fixed set of operations; fal runs any endpoint its queue accepts. */
const RUNNABLE: Readonly<Record<string, readonly string[]>> = { openai: OPENAI_RUNNABLE, anthropic: ANTHROPIC_RUNNABLE };

/** Why the model's provider cannot run it, or undefined when it can (or the model names no operation). */
export function unrunnableOperation(schema: Pick<ModelSchema, 'provider'>): string | undefined {
  const provider = schema.provider;
  const runnable = provider ? RUNNABLE[provider.name] : undefined;
  if (!provider?.operation || !runnable || runnable.includes(provider.operation)) return undefined;
  return `operation "${provider.operation}" is not one the ${provider.name} provider runs; it runs ${runnable.join(', ')}`;
}

/**
 * @param field where the operation was given (`operation` in a model file, `modelSource.operation` inline)
 * @throws VettedError MODEL_SOURCE_INVALID naming the operation and what the provider runs.
 */
export function assertRunnableOperation(schema: Pick<ModelSchema, 'provider'>, field = 'operation'): void {
  const reason = unrunnableOperation(schema);
  if (reason) throw new VettedError('MODEL_SOURCE_INVALID', `${field}: ${reason}`, { field, details: { operation: schema.provider?.operation, provider: schema.provider?.name } });
}
