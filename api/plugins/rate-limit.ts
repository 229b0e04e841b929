/**
 * Requests per API key (by its public id), else per address, per minute. Health probes and everything
 * outside /api and /mcp (metrics, the document, the docs page) are not limited. The OpenAPI document lists 429 on
 * exactly the routes {@link isRateLimited} names.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { keyIdOf } from '../../src/auth/api-keys.ts';
import type { System } from '../../src/system.ts';
import { bearerToken } from './auth.ts';

const UNLIMITED = ['/api/healthz', '/api/readyz'];

/** Whether a request to this URL (or route path) counts against the rate limit: the API and MCP over HTTP. */
export function isRateLimited(url: string): boolean {
  return (url.startsWith('/api/') || url.startsWith('/mcp')) && !UNLIMITED.some((path) => url.startsWith(path));
}

export async function registerRateLimit(app: FastifyInstance, system: System): Promise<void> {
  await app.register(rateLimit, {
    max: system.config.limits.rateLimitPerMinute,
    timeWindow: '1 minute',
    keyGenerator: (request) => keyIdOf(bearerToken(request) ?? '') ?? request.ip,
    allowList: (request) => !isRateLimited(request.url),
  });
}
