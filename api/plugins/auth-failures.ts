/**
 * Requests that fail authentication (no key, a malformed, unknown or revoked key) are counted per client
 * address, never per the key id a token names: the id in an unverified token is the attacker's choice, and
 * counting under it would let anyone who knows a key's public id lock that key out. Past the budget, the
 * address gets 429 before the key is even looked up, so guessing keys is bounded and cheap to refuse.
 */
import { LRUCache } from 'lru-cache';
import { VettedError } from '../../src/errors.ts';

export interface FailedAuthBudget {
  /** @throws VettedError RATE_LIMITED when the address used up its failures for this minute. */
  assertWithin(address: string): void;
  /** Counts one failed authentication against the address. */
  record(address: string): void;
}

const WINDOW_MS = 60_000;
/** Addresses tracked at once; a flood from more addresses than this forgets the oldest (bounded memory). */
const MAX_ADDRESSES = 50_000;

export function failedAuthBudget(perMinute: number): FailedAuthBudget {
  // A fixed window per address: the count's time to live starts at the first failure and is not renewed.
  const failures = new LRUCache<string, number>({ max: MAX_ADDRESSES, ttl: WINDOW_MS });
  return {
    assertWithin(address) {
      if ((failures.get(address) ?? 0) < perMinute) return;
      const retryAfterSeconds = Math.max(1, Math.ceil(failures.getRemainingTTL(address) / 1000));
      throw new VettedError('RATE_LIMITED', `Too many requests without a valid API key from this address; retry in ${retryAfterSeconds} s`, {
        details: { retryAfterSeconds },
      });
    },
    record(address) {
      failures.set(address, (failures.get(address) ?? 0) + 1, { noUpdateTTL: true });
    },
  };
}
