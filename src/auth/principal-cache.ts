/**
 * Turning a bearer token into the caller, and checking what the caller may do: shared by every channel that
 * takes API keys (the HTTP API's auth hook, the MCP server over HTTP and stdio), so a key means the same
 * everywhere. Verified keys are cached, so a request costs no database read; the cache is bounded in entries
 * (KEY_CACHE_MAX) and in time (KEY_CACHE_TTL_MS): a key revoked by another process (the CLI, another API
 * process) is refused here within KEY_CACHE_TTL_MS, one revoked through this process at once (`forget`).
 */
import { LRUCache } from 'lru-cache';
import { VettedError } from '../errors.ts';
import type { Permission, Principal } from './api-keys.ts';

/** The longest a revoked key is still accepted by a process that did not revoke it. */
export const KEY_CACHE_TTL_MS = 10_000;
/** The most verified keys a process keeps; past it the least recently used is read again when it returns. */
export const KEY_CACHE_MAX = 10_000;

/** The caller a token stands for. @throws VettedError UNAUTHORIZED for a malformed, unknown or revoked key. */
export type PrincipalResolver = (token: string) => Promise<Principal>;

/** A resolver whose cache can be dropped (after a revocation in this process). */
export type CachedPrincipals = PrincipalResolver & { forget(): void };

export interface PrincipalCacheOptions {
  ttlMs?: number;
  max?: number;
  /** Milliseconds on any steady scale (the system's clock in the API, so a test can move it). */
  clock?: { now(): number };
}

/**
 * Wraps the key store's verify in the cache. Only verified keys are kept: an unknown or revoked key is read
 * each time (failed attempts are bounded per address by the API, auth-failures.ts), so a new key works at once.
 */
export function cachedPrincipals(verify: (token: string) => Promise<Principal>, options: PrincipalCacheOptions = {}): CachedPrincipals {
  const cache = new LRUCache<string, Principal>({
    max: options.max ?? KEY_CACHE_MAX,
    ttl: options.ttlMs ?? KEY_CACHE_TTL_MS,
    // Each look reads the clock (by default the cache reuses a reading for 1 ms): the bound holds to the millisecond.
    ttlResolution: 0,
    ...(options.clock ? { perf: options.clock } : {}),
  });
  // Bumped by forget: a verify that began before a revocation here may have read the key still in force, and
  // its answer must not outlive the revocation in the cache.
  let generation = 0;
  const resolve = async (token: string): Promise<Principal> => {
    const cached = cache.get(token);
    if (cached) return cached;
    const asked = generation;
    const principal = await verify(token);
    if (asked === generation) cache.set(token, principal);
    return principal;
  };
  const forget = () => {
    generation += 1;
    cache.clear();
  };
  return Object.assign(resolve, { forget });
}

/** @throws VettedError FORBIDDEN naming the role and the permission it lacks. */
export function assertPermission(principal: Principal, permission: Permission): void {
  if (principal.permissions.has(permission)) return;
  throw new VettedError('FORBIDDEN', `A ${principal.role} key may not do this (needs ${permission})`, { details: { role: principal.role, needs: permission } });
}

/** What to send when a channel got no key at all. */
export function missingKeyError(): VettedError {
  return new VettedError('UNAUTHORIZED', 'Send an API key: "Authorization: Bearer vt_<id>.<secret>" (create one with `vetted keys create`)');
}
