/**
 * Bearer API keys. Every /api route names the permission it needs in its config; the hook resolves the key
 * (cached for a few seconds, so revocation takes effect within KEY_CACHE_TTL_MS), checks the permission,
 * and puts the caller's principal, and so its tenant, on the request. Routes never see another tenant.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { VettedError } from '../../src/errors.ts';
import type { Permission, Principal } from '../../src/auth/api-keys.ts';
import type { System } from '../../src/system.ts';

const KEY_CACHE_TTL_MS = 10_000;

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
  interface FastifyContextConfig {
    /** The permission a route needs; omit only on public routes (health, docs, metrics). */
    permission?: Permission;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ', 2);
  return scheme?.toLowerCase() === 'bearer' && token ? token.trim() : undefined;
}

export function registerAuth(app: FastifyInstance, system: System): void {
  const cache = new LRUCache<string, Principal>({ max: 10_000, ttl: KEY_CACHE_TTL_MS });

  async function principalOf(token: string): Promise<Principal> {
    const cached = cache.get(token);
    if (cached) return cached;
    const principal = await system.apiKeys.verify(token);
    cache.set(token, principal);
    return principal;
  }

  app.addHook('onRequest', async (request) => {
    const permission = request.routeOptions.config.permission;
    if (!permission) return;
    const token = bearerToken(request);
    if (!token) throw new VettedError('UNAUTHORIZED', 'Send an API key: "Authorization: Bearer vt_<id>.<secret>" (create one with `vetted keys create`)');
    const principal = await principalOf(token);
    if (!principal.permissions.has(permission)) {
      throw new VettedError('FORBIDDEN', `A ${principal.role} key may not do this (needs ${permission})`, { details: { role: principal.role, needs: permission } });
    }
    request.principal = principal;
  });
}

/** The caller, for handlers behind a permission (the hook guarantees it is there). */
export function principal(request: FastifyRequest): Principal {
  if (!request.principal) throw new VettedError('UNAUTHORIZED', 'No API key on this request');
  return request.principal;
}
