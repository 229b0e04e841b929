/**
 * The `replicate` ModelProvider, on the official SDK.
 *
 * execute: create the prediction (by version id when the run knows it, else by model name), report its id
 * through `onStarted` at once (the ledger stores it before any waiting, so a crash resumes instead of
 * creating a second one), then wait (prediction-wait.ts). The create call never uses `Prefer: wait`: a
 * blocking create would run the model before its id is recorded.
 *
 * What a failed create means for the ledger (see ProviderNotStartedError in src/stages/executor.ts):
 *   connection never opened, 429, other 4xx → nothing was created: the step is released (429 and network
 *                                            trouble retry with BullMQ's backoff; a 4xx fails the run)
 *   5xx, reset connection, anything else    → maybe created: the step stays "started"; a retry finds no
 *                                            handle and asks a person (execution_uncertain)
 */
import type Replicate from 'replicate';
import type { Prediction } from 'replicate';
import { VettedError } from '../../errors.ts';
import type { ExecutionRequest, ModelProvider } from '../../ports.ts';
import { ProviderNotStartedError, ProviderThrottledError } from '../../stages/executor.ts';
import { classifyReplicateError, describeFailure } from './api-errors.ts';
import { createReplicateClient, type ReplicateConfig } from './client.ts';
import { REPLICATE_PROVIDER_NAME, toExecutionResult } from './prediction-result.ts';
import { waitForPrediction } from './prediction-wait.ts';
import { createWebhookWaiters, type WebhookReceiver, type WebhookWaiters } from '../webhook-waiters.ts';

export { REPLICATE_PROVIDER_NAME } from './prediction-result.ts';

/** The replicate provider: a ModelProvider that also takes webhooks (see webhook-waiters.ts). */
export type ReplicateProvider = ModelProvider & WebhookReceiver & { resume: NonNullable<ModelProvider['resume']>; cancel: NonNullable<ModelProvider['cancel']> };

export interface ReplicateProviderDeps {
  /** A client made elsewhere (the registry shares one with the model fetcher). */
  client?: Replicate;
  waiters?: WebhookWaiters;
}

export function createReplicateProvider(config: ReplicateConfig, deps: ReplicateProviderDeps = {}): ReplicateProvider {
  const client = deps.client ?? createReplicateClient(config);
  const webhooks = deps.waiters ?? createWebhookWaiters();
  const wait = (predictionId: string, signal?: AbortSignal) =>
    waitForPrediction(client, predictionId, { pollIntervalMs: config.pollIntervalMs, timeoutMs: config.timeoutMs, waiters: webhooks, signal });
  return {
    name: REPLICATE_PROVIDER_NAME,
    sideEffectFree: false,
    webhooks,
    async execute(request, onStarted) {
      const prediction = await createPrediction(client, request, config.webhookUrl);
      await onStarted({ predictionId: prediction.id });
      return toExecutionResult(prediction) ?? wait(prediction.id, request.signal);
    },
    resume: (handle, request) => wait(handle.predictionId, request.signal),
    async cancel(handle) {
      try {
        await client.predictions.cancel(handle.predictionId);
      } catch (error) {
        const failure = classifyReplicateError(error);
        throw new VettedError('PROVIDER_UNAVAILABLE', `Replicate did not cancel prediction ${handle.predictionId}: ${describeFailure(failure)}`);
      }
    },
  };
}

async function createPrediction(client: Replicate, request: ExecutionRequest, webhookUrl: string | undefined): Promise<Prediction> {
  const common = {
    input: request.payload,
    signal: request.signal,
    ...(webhookUrl ? { webhook: webhookUrl, webhook_events_filter: ['completed' as const] } : {}),
  };
  const target = request.version ? `version ${request.version}` : `model ${request.model ?? '?'}`;
  try {
    if (request.version) return await client.predictions.create({ ...common, version: request.version });
    if (request.model) return await client.predictions.create({ ...common, model: request.model });
  } catch (error) {
    throw createFailure(error, target);
  }
  throw new ProviderNotStartedError('PROVIDER_FAILED', 'The run names neither a model nor a version to run on Replicate', { field: 'model' });
}

function createFailure(error: unknown, target: string): unknown {
  const failure = classifyReplicateError(error);
  switch (failure.kind) {
    case 'aborted':
      return error;
    case 'unreachable':
      return new ProviderNotStartedError('PROVIDER_UNAVAILABLE', `Replicate could not be reached, no prediction was created: ${failure.reason}`);
    case 'http':
      if (failure.status === 429) {
        return new ProviderThrottledError(`Replicate rate-limited the prediction for ${target} (429); it will be tried again`);
      }
      if (failure.status < 500) {
        return new ProviderNotStartedError('PROVIDER_FAILED', `Replicate refused the prediction for ${target}: ${describeFailure(failure)}`);
      }
      return new VettedError('PROVIDER_UNAVAILABLE', `Replicate failed while creating the prediction for ${target} (${describeFailure(failure)}); it may or may not exist`);
    case 'unknown':
      return new VettedError('PROVIDER_UNAVAILABLE', `The request creating the prediction for ${target} failed mid-way (${failure.reason}); it may or may not exist`);
  }
}
