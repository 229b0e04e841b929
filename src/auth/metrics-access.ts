/**
 * Who may read a process's metrics: they name every tenant, model and volume, so they are not public. One rule
 * for the API's /metrics and a worker's `--metrics-port` listener. With VETTED_METRICS_TOKEN set, a scraper sends
 * `Authorization: Bearer <token>` (compared in constant time). Unset, only loopback callers are answered (a
 * Prometheus on the same host, `curl` on the box), and in production mode nobody is: a production process must be
 * given a token to expose its metrics at all.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { VettedError } from '../errors.ts';

export interface MetricsAccess {
  token: string | undefined;
  production: boolean;
}

/** What the rule looks at in a request: its bearer token (if any) and the caller's address. */
export interface MetricsCaller {
  bearer: string | undefined;
  address: string | undefined;
}

const LOOPBACK_ADDRESS = /^(127\.|::1$|::ffff:127\.)/;

/** @throws VettedError UNAUTHORIZED (wrong or missing token) or FORBIDDEN (no token configured, caller not allowed). */
export function assertMetricsCaller(caller: MetricsCaller, access: MetricsAccess): void {
  if (access.token) {
    if (caller.bearer !== undefined && sameSecret(caller.bearer, access.token)) return;
    throw new VettedError('UNAUTHORIZED', 'metrics need "Authorization: Bearer <VETTED_METRICS_TOKEN>"', { field: 'headers.authorization' });
  }
  if (access.production) throw new VettedError('FORBIDDEN', 'metrics are off in production mode until VETTED_METRICS_TOKEN is set');
  if (!LOOPBACK_ADDRESS.test(caller.address ?? '')) throw new VettedError('FORBIDDEN', 'metrics answer loopback callers only while VETTED_METRICS_TOKEN is unset');
}

/** The token of an `Authorization: Bearer <token>` header; undefined for no header or another scheme. */
export function bearerOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, token] = header.split(' ', 2);
  return scheme?.toLowerCase() === 'bearer' && token ? token.trim() : undefined;
}

/** Hashing first gives equal-length buffers, so timingSafeEqual applies whatever length was sent. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
