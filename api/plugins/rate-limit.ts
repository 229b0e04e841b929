/**
 * Requests per verified API key, else per address, per minute. The limit runs after authentication
 * (auth.ts), so it counts under a key only once the key is proven: a token naming someone else's key id never
 * spends that key's budget (failed authentications are counted per address there). Health probes and everything
 * outside /api and /mcp (metrics, the document, the docs page) are not limited. The OpenAPI document lists 429 on
 * exactly the routes {@link isRateLimited} names.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { System } from '../../src/system.ts';

const UNLIMITED = ['/api/healthz', '/api/readyz'];

/** Whether a request to this URL (or route path) counts against the rate limit: the API and MCP over HTTP. */
export function isRateLimited(url: string): boolean {
  return (url.startsWith('/api/') || url.startsWith('/mcp')) && !UNLIMITED.some((path) => url.startsWith(path));
}

export async function registerRateLimit(app: FastifyInstance, system: System): Promise<void> {
  await app.register(rateLimit, {
    max: system.config.limits.rateLimitPerMinute,
    timeWindow: '1 minute',
    // After the auth hook (onRequest) and before the body is read: the principal is verified by then.
    hook: 'preParsing',
    keyGenerator: (request) => (request.principal ? `key:${request.principal.keyId}` : `address:${request.ip}`),
    allowList: (request) => !isRateLimited(request.url),
  });
}
