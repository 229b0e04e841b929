/**
 * A provider's webhooks, as the API route that receives them sees them: a delivery only wakes the execution
 * waiting on its prediction (the replicate provider, src/adapters/replicate/webhook-waiters.ts, implements it).
 */
import type { ModelProvider } from './ports.ts';

export type WebhookDelivery =
  /** A waiter in this process was woken; it re-reads the prediction now. */
  | { status: 'woken'; predictionId: string; waiters: number }
  /**
   * Nobody here waits on it right now (another worker does, the execution is over, or this process is between
   * a poll and its sleep). The id is remembered for a minute, so a sleep on it that starts just after ends at once.
   */
  | { status: 'not_waiting'; predictionId: string }
  /** Not a prediction body, or no replicate provider in this process. */
  | { status: 'ignored'; reason: string };

/** A provider that can take webhooks (the replicate provider). */
export interface WebhookReceiver {
  readonly webhooks: {
    /** Wakes the waiters of the prediction the body names. */
    deliver(body: unknown): WebhookDelivery;
  };
}

/**
 * Hands a Replicate webhook body to the waiting execution, if it waits in this process.
 * @param provider `system.adapters.provider('replicate')`
 * @param body the parsed JSON body of the webhook request (a prediction object), after signature checks
 */
export function handleReplicateWebhook(provider: ModelProvider, body: unknown): WebhookDelivery {
  if (!isWebhookReceiver(provider)) return { status: 'ignored', reason: `provider ${provider.name} takes no webhooks` };
  return provider.webhooks.deliver(body);
}

function isWebhookReceiver(provider: ModelProvider): provider is ModelProvider & WebhookReceiver {
  const webhooks = (provider as Partial<WebhookReceiver>).webhooks;
  return typeof webhooks?.deliver === 'function';
}
