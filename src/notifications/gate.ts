/**
 * Notification jobs only for tenants that have somewhere to send them. A parked run keeps nothing of its own
 * in Redis, and a tenant without notification settings must not change that: the engine asks for every
 * review (commit.ts), and this gate adds a job only when the tenant has a channel. The answer is cached for
 * a few seconds per tenant, so parking costs no database read per run; new settings apply within that time.
 */
import { LRUCache } from 'lru-cache';
import type { NotificationJob } from '../engine/dispatch.ts';

export const SETTINGS_CACHE_TTL_MS = 10_000;

export function gatedNotifications(
  hasChannels: (tenantId: string) => Promise<boolean>,
  enqueue: (job: NotificationJob, at?: Date) => Promise<void>,
  ttlMs = SETTINGS_CACHE_TTL_MS,
): (job: NotificationJob, at?: Date) => Promise<void> {
  const cache = new LRUCache<string, boolean>({ max: 10_000, ttl: ttlMs });
  return async (job, at) => {
    let wanted = cache.get(job.tenantId);
    if (wanted === undefined) {
      wanted = await hasChannels(job.tenantId);
      cache.set(job.tenantId, wanted);
    }
    if (wanted) await enqueue(job, at);
  };
}
