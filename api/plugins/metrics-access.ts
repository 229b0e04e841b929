/**
 * Who may read /metrics: it names every tenant, model and volume, so it is not public. With
 * VETTED_METRICS_TOKEN set, a scraper sends `Authorization: Bearer <token>` (compared in constant time). Unset,
 * only loopback callers are answered (a Prometheus on the same host, `curl` on the box), and in production mode
 * nobody is: a production API must be given a token to expose its metrics at all.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { VettedError } from '../../src/errors.ts';
import { bearerToken } from './auth.ts';

export interface MetricsAccess {
  token: string | undefined;
  production: boolean;
}

const LOOPBACK_ADDRESS = /^(127\.|::1$|::ffff:127\.)/;

/** @throws VettedError UNAUTHORIZED (wrong or missing token) or FORBIDDEN (no token configured, caller not allowed). */
export function assertMetricsAccess(request: FastifyRequest, access: MetricsAccess): void {
  if (access.token) {
    const given = bearerToken(request);
    if (given !== undefined && sameSecret(given, access.token)) return;
    throw new VettedError('UNAUTHORIZED', '/metrics needs "Authorization: Bearer <VETTED_METRICS_TOKEN>"', { field: 'headers.authorization' });
  }
  if (access.production) throw new VettedError('FORBIDDEN', '/metrics is off in production mode until VETTED_METRICS_TOKEN is set');
  if (!LOOPBACK_ADDRESS.test(request.ip)) throw new VettedError('FORBIDDEN', '/metrics answers loopback callers only while VETTED_METRICS_TOKEN is unset');
}

/** Hashing first gives equal-length buffers, so timingSafeEqual applies whatever length was sent. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
