/**
 * A bare HTTP endpoint for a worker process's own metrics (`vetted worker --metrics-port`): the counters and
 * histograms its stage visits observe (stage durations, run outcomes, provider errors...). The API serves
 * the same registry at /metrics, plus the gauges read from the shared stores. Both ask the same of a caller
 * (src/auth/metrics-access.ts): the metrics token when one is set, else a loopback address.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { assertMetricsCaller, bearerOf, type MetricsAccess } from '../auth/metrics-access.ts';
import { ERROR_CATALOGUE, isVettedError } from '../errors.ts';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** Serves `registry` at GET /metrics on `host:port` (port 0: any free port) to callers `access` allows. */
export async function startMetricsServer(registry: Registry, host: string, port: number, access: MetricsAccess): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('GET /metrics\n');
      return;
    }
    if (refused(request, response, access)) return;
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => response.writeHead(503, { 'content-type': 'text/plain' }).end(`metrics could not be collected: ${String(error)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Answers a caller the access rule refuses with the same problem body the API gives; true when it did. */
function refused(request: IncomingMessage, response: ServerResponse, access: MetricsAccess): boolean {
  try {
    assertMetricsCaller({ bearer: bearerOf(request.headers.authorization), address: request.socket.remoteAddress }, access);
    return false;
  } catch (error) {
    if (!isVettedError(error)) throw error;
    const problem = {
      type: `https://vetted.dev/problems/${error.code.toLowerCase().replace(/_/g, '-')}`,
      title: ERROR_CATALOGUE[error.code].title,
      status: error.status,
      code: error.code,
      detail: error.message,
      ...(error.field ? { field: error.field } : {}),
      instance: '/metrics',
    };
    response.writeHead(error.status, { 'content-type': 'application/problem+json' }).end(JSON.stringify(problem));
    return true;
  }
}
