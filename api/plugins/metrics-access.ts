/**
 * Who may read /metrics on the API: the rule in src/auth/metrics-access.ts (the worker's `--metrics-port`
 * listener applies the same), fed from a Fastify request.
 */
import type { FastifyRequest } from 'fastify';
import { assertMetricsCaller, type MetricsAccess } from '../../src/auth/metrics-access.ts';
import { bearerToken } from './auth.ts';

export type { MetricsAccess };

/** @throws VettedError UNAUTHORIZED (wrong or missing token) or FORBIDDEN (no token configured, caller not allowed). */
export function assertMetricsAccess(request: FastifyRequest, access: MetricsAccess): void {
  assertMetricsCaller({ bearer: bearerToken(request), address: request.ip }, access);
}
