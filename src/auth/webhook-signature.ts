/**
 * Replicate signs webhooks as Standard Webhooks do: `v1,<base64 HMAC-SHA256>` over "<id>.<timestamp>.<body>"
 * with the secret after `whsec_`. Checked here rather than with the SDK's validateWebhook because the SDK
 * accepts any timestamp (a captured delivery could be replayed for ever) and compares signatures with `===`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a delivery's `webhook-timestamp` may be from our clock, either way (the Standard Webhooks tolerance). */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

export interface SignedDelivery {
  id: string;
  /** Seconds since the epoch, as sent in `webhook-timestamp`. */
  timestamp: string;
  /** Space-separated `v1,<signature>` entries (several while a secret rotates). */
  signature: string;
  body: string;
}

/** Why a delivery is refused, or undefined when it is signed with the secret within the time window. */
export function webhookRefusal(delivery: SignedDelivery, secret: string, nowMs: number): string | undefined {
  if (!delivery.id || !delivery.timestamp || !delivery.signature) return 'the webhook-id, webhook-timestamp and webhook-signature headers are required';
  if (!/^\d{1,12}$/.test(delivery.timestamp)) return 'webhook-timestamp must be whole seconds since the epoch';
  const ageSeconds = Math.abs(nowMs / 1000 - Number(delivery.timestamp));
  if (ageSeconds > WEBHOOK_TOLERANCE_SECONDS) return `webhook-timestamp is more than ${WEBHOOK_TOLERANCE_SECONDS / 60} minutes from now (a replayed or delayed delivery)`;
  const expected = createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
    .update(`${delivery.id}.${delivery.timestamp}.${delivery.body}`)
    .digest();
  const matches = delivery.signature.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    // timingSafeEqual needs equal lengths; a length mismatch says nothing about the secret.
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? undefined : 'the webhook signature does not match REPLICATE_WEBHOOK_SECRET';
}
