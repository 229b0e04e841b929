/**
 * The fal provider's webhooks: a delivery, once its ED25519 signature and timestamp check out, wakes the
 * execution waiting on the request it names (`request_id`), which then reads the status and the result from
 * fal's queue API. As for Replicate, the body never decides the outcome.
 *
 * The check, in order: the four X-Fal-Webhook-* headers present and well formed, the timestamp within five
 * minutes of our clock, then a signature by one of fal's published keys (jwks-keys.ts), read again once if
 * none matches (fal may have rotated). Anything else is refused and wakes nothing.
 */
import { falDeliveryShapeRefusal, signedByOneOf, type FalSignedDelivery } from '../../auth/fal-webhook-signature.ts';
import type { WebhookDelivery } from '../../provider-webhooks.ts';
import { createWebhookWaiters, stringField, type WebhookWaiters } from '../webhook-waiters.ts';
import type { FalSigningKeys } from './jwks-keys.ts';

export interface FalWebhooks extends WebhookWaiters {
  /** Why the delivery is refused, or undefined when fal signed it within the time window. */
  refusal(delivery: FalSignedDelivery, nowMs: number): Promise<string | undefined>;
  deliver(body: unknown): WebhookDelivery;
}

export function createFalWebhooks(keys: FalSigningKeys): FalWebhooks {
  const waiters = createWebhookWaiters((body) => stringField(body, 'request_id'));
  return {
    ...waiters,
    async refusal(delivery, nowMs) {
      const shape = falDeliveryShapeRefusal(delivery, nowMs);
      if (shape) return shape;
      if (signedByOneOf(delivery, await keys.current())) return undefined;
      const fresh = await keys.refreshed();
      if (fresh && signedByOneOf(delivery, fresh)) return undefined;
      return 'the signature matches none of fal\'s published webhook keys';
    },
  };
}
