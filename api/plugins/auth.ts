/**
 * Bearer API keys. Every /api route names the permission it needs in its config; the hook resolves the key
 * (src/auth/principal-cache.ts: cached, so a request reads no key; a key revoked elsewhere is refused within
 * KEY_CACHE_TTL_MS, one revoked through this process at once), checks the permission,
 * and puts the caller's principal, and so its tenant, on the request. Routes never see another tenant.
 * Failed authentications are counted per client address (auth-failures.ts); the rate limit that runs after this
 * hook counts per verified key (rate-limit.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { VettedError } from '../../src/errors.ts';
import type { Permission, Principal } from '../../src/auth/api-keys.ts';
import { assertPermission, cachedPrincipals, missingKeyError } from '../../src/auth/principal-cache.ts';
import type { System } from '../../src/system.ts';
import { failedAuthBudget } from './auth-failures.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
  interface FastifyContextConfig {
    /** The permission a route needs; omit only on public routes (health, docs, metrics). */
    permission?: Permission;
    /** Any valid key, whatever its permissions: the route checks what the caller may do itself (MCP, per tool). */
    anyKey?: boolean;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ', 2);
  return scheme?.toLowerCase() === 'bearer' && token ? token.trim() : undefined;
}

/** Registers the hook; returns what forgets every verified key (a key revoked through this API is refused at once here). */
export function registerAuth(app: FastifyInstance, system: System): { forgetVerifiedKeys: () => void } {
  // On the system's clock, like every other deadline, so the bound can be tested without waiting it out.
  const principalOf = cachedPrincipals((token) => system.apiKeys.verify(token), { clock: { now: () => system.clock.now().getTime() } });
  const failures = failedAuthBudget(system.config.limits.rateLimitPerMinute);

  app.addHook('onRequest', async (request, reply) => {
    const { permission, anyKey } = request.routeOptions.config;
    if (!permission && !anyKey) return;
    failures.assertWithin(request.ip);
    const principal = await authenticate(request).catch((error: unknown) => {
      failures.record(request.ip);
      reply.header('www-authenticate', 'Bearer realm="vetted"');
      throw error;
    });
    if (permission) assertPermission(principal, permission);
    request.principal = principal;
  });

  async function authenticate(request: FastifyRequest): Promise<Principal> {
    const token = bearerToken(request);
    if (!token) throw missingKeyError();
    return principalOf(token);
  }
  return { forgetVerifiedKeys: () => principalOf.forget() };
}

/** The caller, for handlers behind a permission (the hook guarantees it is there). */
export function principal(request: FastifyRequest): Principal {
  if (!request.principal) throw new VettedError('UNAUTHORIZED', 'No API key on this request');
  return request.principal;
}
