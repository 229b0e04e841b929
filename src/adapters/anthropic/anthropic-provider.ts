/**
 * The `anthropic` ModelProvider, on the official `@anthropic-ai/sdk`: runs the Messages API
 * (`anthropic/messages_post`, the operationId of `POST /v1/messages` in Anthropic's published document) with the
 * vetted payload as the request body, never streamed. Every call carries an `Idempotency-Key` derived from the
 * run and its ledger step, recorded in the ledger before the call (keyed-call.ts), so neither a crash nor a
 * retry runs the model twice.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { ExecutionRequest, ModelProvider } from '../../ports.ts';
import { ProviderNotStartedError } from '../../stages/executor.ts';
import { createKeyedProvider } from '../keyed-call.ts';
import { ANTHROPIC_RUNNABLE } from '../../catalog/provider-operations.ts';

export const ANTHROPIC_PROVIDER_NAME = 'anthropic';
const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

/** The operations this provider runs, by the operationId in Anthropic's published document. */
export const ANTHROPIC_OPERATIONS = ANTHROPIC_RUNNABLE;

export interface AnthropicProviderConfig {
  apiKey: string;
  baseUrl?: string;
  timeoutMs: number;
  maxRetries: number;
}

export function createAnthropicProvider(config: AnthropicProviderConfig, client = anthropicClient(config)): ModelProvider {
  return createKeyedProvider({
    name: ANTHROPIC_PROVIDER_NAME,
    errors: { APIError: Anthropic.APIError, APIUserAbortError: Anthropic.APIUserAbortError },
    async prepare(request) {
      assertOperation(request);
      return { ...request.payload, stream: false } as unknown as Anthropic.MessageCreateParamsNonStreaming;
    },
    async call(body, idempotencyKey, signal) {
      const message = await client.messages.create(body, { headers: { 'Idempotency-Key': idempotencyKey }, ...(signal ? { signal } : {}) });
      return { output: message, metrics: { usage: message.usage } };
    },
  });
}

function anthropicClient(config: AnthropicProviderConfig): Anthropic {
  // Everything explicit: the SDK would otherwise read its own environment variables.
  return new Anthropic({
    apiKey: config.apiKey, authToken: null, baseURL: config.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL, timeout: config.timeoutMs, maxRetries: config.maxRetries, logLevel: 'off',
  });
}

function assertOperation(request: ExecutionRequest): void {
  const runs = ANTHROPIC_OPERATIONS.map((op) => `${ANTHROPIC_PROVIDER_NAME}/${op}`);
  if (!runs.includes(request.model ?? '')) {
    throw new ProviderNotStartedError('PROVIDER_FAILED', `model "${request.model ?? ''}" is no Anthropic operation this provider runs; it runs ${runs.join(', ')}`, { field: 'model' });
  }
}
