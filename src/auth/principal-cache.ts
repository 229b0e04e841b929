/**
 * Turning a bearer token into the caller, and checking what the caller may do: shared by every channel that
 * takes API keys (the HTTP API's auth hook, the MCP server over HTTP and stdio), so a key means the same
 * everywhere. Verified keys are cached for a few seconds, so revocation takes effect within KEY_CACHE_TTL_MS.
 */
import { LRUCache } from 'lru-cache';
import { VettedError } from '../errors.ts';
import type { Permission, Principal } from './api-keys.ts';

export const KEY_CACHE_TTL_MS = 10_000;

/** The caller a token stands for. @throws VettedError UNAUTHORIZED for a malformed, unknown or revoked key. */
export type PrincipalResolver = (token: string) => Promise<Principal>;

/** A resolver whose cache can be dropped (after a revocation in this process). */
export type CachedPrincipals = PrincipalResolver & { forget(): void };

/** Wraps the key store's verify in a short-lived cache (a verify is a database read per request otherwise). */
export function cachedPrincipals(verify: (token: string) => Promise<Principal>, ttlMs = KEY_CACHE_TTL_MS): CachedPrincipals {
  const cache = new LRUCache<string, Principal>({ max: 10_000, ttl: ttlMs });
  const resolve = async (token: string): Promise<Principal> => {
    const cached = cache.get(token);
    if (cached) return cached;
    const principal = await verify(token);
    cache.set(token, principal);
    return principal;
  };
  return Object.assign(resolve, { forget: () => cache.clear() });
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
