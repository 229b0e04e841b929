/**
 * Bearer API keys. Every /api route names the permission it needs in its config; the hook resolves the key
 * (src/auth/principal-cache.ts: cached for a few seconds, so revocation takes effect within seconds), checks the permission,
 * and puts the caller's principal, and so its tenant, on the request. Routes never see another tenant.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { VettedError } from '../../src/errors.ts';
import type { Permission, Principal } from '../../src/auth/api-keys.ts';
import { assertPermission, cachedPrincipals, missingKeyError } from '../../src/auth/principal-cache.ts';
import type { System } from '../../src/system.ts';

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
  const principalOf = cachedPrincipals((token) => system.apiKeys.verify(token));

  app.addHook('onRequest', async (request) => {
    const permission = request.routeOptions.config.permission;
    if (!permission) return;
    const token = bearerToken(request);
    if (!token) throw missingKeyError();
    const principal = await principalOf(token);
    assertPermission(principal, permission);
    request.principal = principal;
  });
}

/** The caller, for handlers behind a permission (the hook guarantees it is there). */
export function principal(request: FastifyRequest): Principal {
  if (!request.principal) throw new VettedError('UNAUTHORIZED', 'No API key on this request');
  return request.principal;
}
