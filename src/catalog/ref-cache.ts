/**
 * Resolved catalog references, kept a few seconds: every run's extract stage (and a reviewer's decision) resolves
 * the model it names, and a reference changes only when someone registers a model, so most resolutions need no
 * read. Bounded in entries (REF_CACHE_MAX) and in time (REF_CACHE_TTL_MS, on the system's clock): a reference
 * re-pointed by another process (the CLI, another worker) is seen here once more than REF_CACHE_TTL_MS has passed
 * since this process read it; one re-pointed through this process at once (`forget`).
 */
import { LRUCache } from 'lru-cache';
import type { CatalogRef } from './catalog-store.ts';

/** The longest a process answers with a reference another process has since re-pointed. */
export const REF_CACHE_TTL_MS = 5_000;
/** The most (tenant, reference) pairs a process keeps; past it the least recently used is read again. */
export const REF_CACHE_MAX = 10_000;

export interface RefCacheOptions {
  ttlMs?: number;
  max?: number;
  /** Milliseconds on the system's clock (what the system is given, so a test can move it); default Date.now. */
  clock?: { now(): number };
}

export interface RefCache {
  /** The cached answer for the tenant's reference, else `read()`'s, kept when it found one. */
  resolve(tenantId: string, ref: string, read: () => Promise<CatalogRef | undefined>): Promise<CatalogRef | undefined>;
  /** Drops every answer, and any read under way: after a registration or a re-point here. */
  forget(): void;
}

const systemMilliseconds = { now: () => Date.now() };

export function createRefCache(options: RefCacheOptions = {}): RefCache {
  const cache = new LRUCache<string, CatalogRef>({
    max: options.max ?? REF_CACHE_MAX,
    ttl: options.ttlMs ?? REF_CACHE_TTL_MS,
    // Each look reads the clock (by default the cache reuses a reading for 1 ms): the bound holds to the millisecond.
    ttlResolution: 0,
    perf: options.clock ?? systemMilliseconds,
  });
  // Bumped by forget: a read that began before a registration here may have seen the old reference, and its
  // answer must not outlive the registration in the cache.
  let generation = 0;
  return {
    async resolve(tenantId, ref, read) {
      const key = `${tenantId}\u0000${ref}`;
      const cached = cache.get(key);
      if (cached) return cached;
      const asked = generation;
      const found = await read();
      // A reference not found is never kept: a model registered a moment later (anywhere) resolves at once.
      if (found && asked === generation) cache.set(key, found);
      return found;
    },
    forget() {
      generation += 1;
      cache.clear();
    },
  };
}
