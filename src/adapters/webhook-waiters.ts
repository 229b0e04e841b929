/**
 * Webhooks shorten the wait; they never replace the poll. A waiting execution sleeps between polls in
 * {@link WebhookWaiters.sleep}; a provider's webhook for its prediction (Replicate) or request (fal) wakes it
 * early, and it then reads the outcome from the API like any other poll.
 *
 * Why the body is only a wake-up call: the route that receives it is public, so its content is not trusted.
 * A forged webhook costs one extra GET and changes nothing; the outcome always comes from the API.
 *
 * Mounting (the API's job): verify the signature and its timestamp first (src/auth/webhook-signature.ts)
 * (the secret is `GET /v1/webhooks/default/secret`), then call
 * `handleReplicateWebhook(system.adapters.provider('replicate'), body)` (src/provider-webhooks.ts) and answer 200 whatever it returns:
 * a webhook for a prediction waited on by another process is normal (that process polls), not an error.
 * Set VETTED_REPLICATE_WEBHOOK_URL to the route's public URL so predictions are created with it. fal's
 * deliveries are checked inside the fal provider (src/adapters/fal/fal-webhooks.ts) before they reach here.
 */
import { LRUCache } from 'lru-cache';
import type { WebhookDelivery } from '../provider-webhooks.ts';

export interface WebhookWaiters {
  /** Resolves after `ms`, or earlier when a webhook names the prediction or the signal aborts. */
  sleep(predictionId: string, ms: number, signal?: AbortSignal): Promise<'timer' | 'webhook' | 'aborted'>;
  /** Wakes the waiters of the prediction the body names. */
  deliver(body: unknown): WebhookDelivery;
}

/**
 * Webhooks that arrived while nobody slept on their prediction: a worker reads the prediction, and the webhook
 * can land before it goes to sleep. Without this, that wake-up was lost and the wait ran to the next poll.
 * Bounded, because webhooks for predictions other processes wait on land here too.
 */
const EARLY_WAKE_TTL_MS = 60_000;
const EARLY_WAKE_MAX = 10_000;

/**
 * @param idOf reads the id a delivery names (a Replicate prediction's `id` by default; fal's `request_id`)
 */
export function createWebhookWaiters(idOf: (body: unknown) => string | undefined = predictionIdOf): WebhookWaiters {
  const waiters = new Map<string, Set<() => void>>();
  // Date.now rather than performance.now: the same clock as the sleep's timers (and the tests' fake ones).
  const earlyWakes = new LRUCache<string, true>({ max: EARLY_WAKE_MAX, ttl: EARLY_WAKE_TTL_MS, perf: { now: () => Date.now() } });
  return {
    sleep(predictionId, ms, signal) {
      // get, not delete alone: delete also reports an entry whose minute is over.
      if (earlyWakes.get(predictionId)) {
        earlyWakes.delete(predictionId);
        return Promise.resolve('webhook');
      }
      return new Promise((resolve) => {
        const set = waiters.get(predictionId) ?? new Set<() => void>();
        waiters.set(predictionId, set);
        const finish = (how: 'timer' | 'webhook' | 'aborted') => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          set.delete(wake);
          if (set.size === 0 && waiters.get(predictionId) === set) waiters.delete(predictionId);
          resolve(how);
        };
        const wake = () => finish('webhook');
        const onAbort = () => finish('aborted');
        const timer = setTimeout(() => finish('timer'), Math.max(0, ms));
        set.add(wake);
        if (signal?.aborted) onAbort();
        else signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    deliver(body) {
      const predictionId = idOf(body);
      if (predictionId === undefined) return { status: 'ignored', reason: 'the body names no prediction id' };
      const set = waiters.get(predictionId);
      if (!set || set.size === 0) {
        earlyWakes.set(predictionId, true);
        return { status: 'not_waiting', predictionId };
      }
      const woken = [...set];
      for (const wake of woken) wake();
      return { status: 'woken', predictionId, waiters: woken.length };
    },
  };
}

/** A provider that can take webhooks (the replicate and fal providers). */
export interface WebhookReceiver {
  readonly webhooks: WebhookWaiters;
}

function predictionIdOf(body: unknown): string | undefined {
  return stringField(body, 'id');
}

/** A non-empty string member of a JSON object body, or undefined. */
export function stringField(body: unknown, name: string): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
