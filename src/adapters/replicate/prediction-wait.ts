/**
 * Waiting for a prediction: poll `GET /predictions/{id}` with a growing interval (pollIntervalMs, ×1.5 each
 * round, at most 8× the first), wake early on a webhook, give up at timeoutMs by canceling it.
 *
 * A failed poll is not a failed prediction: the error is retryable, BullMQ retries the execute job, and the
 * executor resumes through the prediction id the ledger recorded, never creating a second one.
 */
import type Replicate from 'replicate';
import type { Prediction } from 'replicate';
import { VettedError } from '../../errors.ts';
import type { ExecutionResult } from '../../generated/contracts.ts';
import { classifyReplicateError, describeFailure } from './api-errors.ts';
import { REPLICATE_PROVIDER_NAME, timedOutResult, toExecutionResult } from './prediction-result.ts';
import type { WebhookWaiters } from '../webhook-waiters.ts';

export interface WaitOptions {
  pollIntervalMs: number;
  timeoutMs: number;
  waiters: WebhookWaiters;
  signal?: AbortSignal;
}

const BACKOFF = 1.5;
const MAX_INTERVAL_FACTOR = 8;

export async function waitForPrediction(client: Replicate, predictionId: string, options: WaitOptions): Promise<ExecutionResult> {
  const deadline = Date.now() + options.timeoutMs;
  const maxInterval = options.pollIntervalMs * MAX_INTERVAL_FACTOR;
  let interval = options.pollIntervalMs;
  for (;;) {
    const prediction = await getPrediction(client, predictionId, options.signal);
    if (prediction === 'gone') return vanished(predictionId);
    const result = toExecutionResult(prediction);
    if (result) return result;
    const left = deadline - Date.now();
    if (left <= 0) return giveUp(client, prediction, options.timeoutMs);
    const woke = await options.waiters.sleep(predictionId, Math.min(interval, left), options.signal);
    if (woke === 'aborted') options.signal?.throwIfAborted();
    interval = Math.min(interval * BACKOFF, maxInterval);
  }
}

/** Best-effort cancel; a failure to cancel is reported in the result, not thrown. */
async function giveUp(client: Replicate, prediction: Prediction, timeoutMs: number): Promise<ExecutionResult> {
  const canceled = await client.predictions.cancel(prediction.id).then(
    () => true,
    () => false,
  );
  return timedOutResult(prediction, timeoutMs, canceled);
}

async function getPrediction(client: Replicate, predictionId: string, signal?: AbortSignal): Promise<Prediction | 'gone'> {
  try {
    return await client.predictions.get(predictionId, { signal });
  } catch (error) {
    const failure = classifyReplicateError(error);
    if (failure.kind === 'aborted') throw error;
    if (failure.kind === 'http' && failure.status === 404) return 'gone';
    if (failure.kind === 'http' && (failure.status === 401 || failure.status === 403)) {
      throw new VettedError('PROVIDER_FAILED', `Replicate refused the API token (HTTP ${failure.status}) while reading prediction ${predictionId}; check REPLICATE_API_TOKEN`);
    }
    throw new VettedError('PROVIDER_UNAVAILABLE', `Replicate could not be asked about prediction ${predictionId}: ${describeFailure(failure)}`);
  }
}

/** The prediction id the ledger holds is unknown to Replicate: record that, so nobody waits on it again. */
function vanished(predictionId: string): ExecutionResult {
  return {
    provider: REPLICATE_PROVIDER_NAME,
    status: 'failed',
    output: null,
    predictionId,
    error: `Replicate does not know prediction ${predictionId} (404); it was not run, or it was deleted`,
  };
}
