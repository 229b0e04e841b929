/**
 * A provider's webhooks, as the API routes that receive them see them: a delivery only wakes the execution
 * waiting on its prediction or request (the replicate and fal providers, src/adapters/webhook-waiters.ts,
 * implement it). Replicate's are checked by the route (a shared secret); fal's by the fal provider, which reads
 * fal's public keys.
 */
import type { FalSignedDelivery } from './auth/fal-webhook-signature.ts';
import { VettedError } from './errors.ts';
import type { ModelProvider } from './ports.ts';

export type WebhookDelivery =
  /** A waiter in this process was woken; it re-reads the prediction now. */
  | { status: 'woken'; predictionId: string; waiters: number }
  /**
   * Nobody here waits on it right now (another worker does, the execution is over, or this process is between
   * a poll and its sleep). The id is remembered for a minute, so a sleep on it that starts just after ends at once.
   */
  | { status: 'not_waiting'; predictionId: string }
  /** Not a prediction (or request) body, or no such provider in this process. */
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

/** A provider whose webhooks are signed with keys it reads itself (the fal provider). */
export interface SignedWebhookReceiver {
  readonly webhooks: {
    refusal(delivery: FalSignedDelivery, nowMs: number): Promise<string | undefined>;
    deliver(body: unknown): WebhookDelivery;
  };
}

/**
 * Checks a fal webhook's signature and timestamp, then hands its body to the waiting execution. Nothing is
 * read from the body before the signature checks out.
 * @param provider `system.adapters.provider('fal')`
 * @throws VettedError UNAUTHORIZED (a refused delivery: it wakes nothing), INVALID_JSON / INVALID_REQUEST for a
 *   signed body that is no JSON object, PROVIDER_UNAVAILABLE when fal's keys cannot be read.
 */
export async function handleFalWebhook(provider: ModelProvider, delivery: FalSignedDelivery, nowMs: number): Promise<WebhookDelivery> {
  if (!isSignedReceiver(provider)) return { status: 'ignored', reason: `provider ${provider.name} takes no signed webhooks` };
  const refusal = await provider.webhooks.refusal(delivery, nowMs);
  if (refusal) throw new VettedError('UNAUTHORIZED', `Webhook refused: ${refusal}`);
  return provider.webhooks.deliver(jsonObject(delivery.body));
}

function jsonObject(text: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new VettedError('INVALID_JSON', 'The webhook body is not valid JSON', { field: 'body' });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new VettedError('INVALID_REQUEST', 'The webhook body must be a JSON object', { field: 'body' });
  }
  return body as Record<string, unknown>;
}

function isSignedReceiver(provider: ModelProvider): provider is ModelProvider & SignedWebhookReceiver {
  const webhooks = (provider as Partial<SignedWebhookReceiver>).webhooks;
  return typeof webhooks?.refusal === 'function' && typeof webhooks.deliver === 'function';
}
