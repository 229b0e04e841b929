/**
 * How the fal simulator signs its webhooks, as fal does: ED25519 over four lines joined by "\n" (request id,
 * user id, timestamp in seconds, SHA-256 hex of the body), the signature in hex, the public key served as a
 * JWKS. Written here from fal's description, apart from Vetted's verifier (src/auth/fal-webhook-signature.ts),
 * so the two checking each other means something.
 */
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

export interface FalWebhookHeaders {
  'x-fal-webhook-request-id': string;
  'x-fal-webhook-user-id': string;
  'x-fal-webhook-timestamp': string;
  'x-fal-webhook-signature': string;
}

export interface FalWebhookSigner {
  /** The JWKS document fal would serve: the current key and the ones before it. */
  jwks(): { keys: Record<string, string>[] };
  /** Headers for a delivery of `body` about `requestId`, stamped `timestampSeconds` (default now). */
  sign(requestId: string, body: string, timestampSeconds?: number): FalWebhookHeaders;
  /** Signs with a new key from now on, still publishing the old ones (a key rotation). */
  rotate(): void;
  /** Stops publishing every key but the current one (the end of a rotation). */
  retireOld(): void;
}

export const SIM_FAL_USER_ID = 'sim-fal-user';

export function createFalWebhookSigner(): FalWebhookSigner {
  const keys: { kid: string; privateKey: KeyObject; publicKey: KeyObject }[] = [];
  const add = () => keys.push({ kid: `sim-fal-key-${keys.length + 1}`, ...generateKeyPairSync('ed25519') });
  add();
  return {
    jwks: () => ({
      keys: keys.map(({ kid, publicKey }) => ({ ...(publicKey.export({ format: 'jwk' }) as Record<string, string>), kid, use: 'sig', alg: 'EdDSA' })),
    }),
    sign(requestId, body, timestampSeconds = Math.floor(Date.now() / 1000)) {
      const timestamp = String(timestampSeconds);
      const digest = createHash('sha256').update(body).digest('hex');
      const message = `${requestId}\n${SIM_FAL_USER_ID}\n${timestamp}\n${digest}`;
      const current = keys[keys.length - 1];
      if (!current) throw new Error('the fal sim has no signing key');
      return {
        'x-fal-webhook-request-id': requestId,
        'x-fal-webhook-user-id': SIM_FAL_USER_ID,
        'x-fal-webhook-timestamp': timestamp,
        'x-fal-webhook-signature': sign(null, Buffer.from(message), current.privateKey).toString('hex'),
      };
    },
    rotate: add,
    retireOld: () => {
      keys.splice(0, keys.length - 1);
    },
  };
}
