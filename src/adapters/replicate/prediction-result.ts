/**
 * A Replicate prediction as Vetted's ExecutionResult: outputs (URLs, text) and metrics kept, every
 * unsuccessful ending given a reason a person can read.
 */
import type { Prediction } from 'replicate';
import type { ExecutionResult } from '../../generated/contracts.ts';

export const REPLICATE_PROVIDER_NAME = 'replicate';

/** The result of a finished prediction, or undefined while it is still starting or processing. */
export function toExecutionResult(prediction: Prediction): ExecutionResult | undefined {
  const base = { provider: REPLICATE_PROVIDER_NAME, predictionId: prediction.id, metrics: metricsOf(prediction) };
  switch (prediction.status) {
    case 'starting':
    case 'processing':
      return undefined;
    case 'succeeded':
      return { ...base, status: 'succeeded', output: prediction.output ?? null };
    case 'failed':
      return { ...base, status: 'failed', output: prediction.output ?? null, error: errorText(prediction.error) ?? 'the prediction failed without a reason' };
    case 'canceled':
      return { ...base, status: 'canceled', output: prediction.output ?? null, error: errorText(prediction.error) ?? 'the prediction was canceled' };
    case 'aborted':
      return { ...base, status: 'failed', output: null, error: errorText(prediction.error) ?? 'Replicate aborted the prediction before it ran (its deadline passed)' };
    default:
      // A status this SDK version does not know: not finished as far as we can tell; keep waiting.
      return undefined;
  }
}

/** The result for a prediction Vetted stopped waiting for (and asked Replicate to cancel). */
export function timedOutResult(prediction: Prediction, timeoutMs: number, canceled: boolean): ExecutionResult {
  const action = canceled ? 'it was canceled' : 'canceling it failed, check it on Replicate';
  return {
    provider: REPLICATE_PROVIDER_NAME,
    status: 'failed',
    output: null,
    predictionId: prediction.id,
    metrics: metricsOf(prediction),
    error: `timed out after ${timeoutMs} ms waiting for prediction ${prediction.id} (last status ${prediction.status}); ${action}`,
  };
}

function metricsOf(prediction: Prediction): Record<string, unknown> {
  const metrics: Record<string, unknown> = { status: prediction.status };
  if (prediction.version) metrics.version = prediction.version;
  const predict = prediction.metrics?.predict_time;
  const total = prediction.metrics?.total_time;
  if (typeof predict === 'number') metrics.predictTimeMs = Math.round(predict * 1000);
  if (typeof total === 'number') metrics.totalTimeMs = Math.round(total * 1000);
  return metrics;
}

function errorText(error: unknown): string | undefined {
  if (error === null || error === undefined || error === '') return undefined;
  return typeof error === 'string' ? error : JSON.stringify(error);
}
