/**
 * fal signs a webhook delivery with ED25519. The signed message is four lines joined by "\n": the
 * `X-Fal-Webhook-Request-Id`, `X-Fal-Webhook-User-Id` and `X-Fal-Webhook-Timestamp` headers and the SHA-256 hex
 * of the exact body bytes; `X-Fal-Webhook-Signature` is the signature in hex. The public keys are fal's JWKS
 * (src/adapters/fal/jwks-keys.ts reads them); a delivery names no key, so any of them may have signed it.
 *
 * Pure: the keys and the clock come in. ED25519 verification does not depend on secret data, so it needs no
 * constant-time comparison of ours; the hex is read only after its shape is checked, so a malformed header
 * is refused without reaching the keys.
 */
import { createHash, verify, type KeyObject } from 'node:crypto';
import { WEBHOOK_TOLERANCE_SECONDS } from './webhook-signature.ts';

export interface FalSignedDelivery {
  requestId: string;
  userId: string;
  /** Seconds since the epoch, as sent in `X-Fal-Webhook-Timestamp`. */
  timestamp: string;
  /** 128 hex digits. */
  signature: string;
  /** The raw body, exactly as received. */
  body: string;
}

/** The headers, lower-cased as Node gives them. */
export const FAL_WEBHOOK_HEADERS = {
  requestId: 'x-fal-webhook-request-id',
  userId: 'x-fal-webhook-user-id',
  timestamp: 'x-fal-webhook-timestamp',
  signature: 'x-fal-webhook-signature',
} as const;

const SIGNATURE_HEX = /^[0-9a-fA-F]{128}$/;

/** The bytes fal signs for a delivery. */
export function falSignedMessage(delivery: Omit<FalSignedDelivery, 'signature'>): Buffer {
  const bodyHash = createHash('sha256').update(delivery.body, 'utf8').digest('hex');
  return Buffer.from([delivery.requestId, delivery.userId, delivery.timestamp, bodyHash].join('\n'), 'utf8');
}

/** Why the delivery's headers cannot be checked at all (missing, malformed, out of the time window), or undefined. */
export function falDeliveryShapeRefusal(delivery: FalSignedDelivery, nowMs: number): string | undefined {
  const missing = Object.entries(FAL_WEBHOOK_HEADERS).filter(([field]) => !delivery[field as keyof typeof FAL_WEBHOOK_HEADERS]).map(([, header]) => header);
  if (missing.length > 0) return `the ${missing.join(', ')} header${missing.length > 1 ? 's are' : ' is'} required`;
  if (!/^\d{1,12}$/.test(delivery.timestamp)) return `${FAL_WEBHOOK_HEADERS.timestamp} must be whole seconds since the epoch`;
  if (Math.abs(nowMs / 1000 - Number(delivery.timestamp)) > WEBHOOK_TOLERANCE_SECONDS) {
    return `${FAL_WEBHOOK_HEADERS.timestamp} is more than ${WEBHOOK_TOLERANCE_SECONDS / 60} minutes from now (a replayed or delayed delivery)`;
  }
  if (!SIGNATURE_HEX.test(delivery.signature)) return `${FAL_WEBHOOK_HEADERS.signature} must be an ED25519 signature in hex (128 digits)`;
  return undefined;
}

/** True when one of `keys` signed the delivery (its shape checked first with falDeliveryShapeRefusal). */
export function signedByOneOf(delivery: FalSignedDelivery, keys: readonly KeyObject[]): boolean {
  const message = falSignedMessage(delivery);
  const signature = Buffer.from(delivery.signature, 'hex');
  // Every key is tried, whatever the first answers: the time taken says nothing about which key matched.
  let signed = false;
  for (const key of keys) signed = verifyQuietly(message, key, signature) || signed;
  return signed;
}

function verifyQuietly(message: Buffer, key: KeyObject, signature: Buffer): boolean {
  try {
    return verify(null, message, key, signature);
  } catch {
    // A key of another type in the set: it signed nothing here.
    return false;
  }
}
