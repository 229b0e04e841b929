/** Health, readiness, providers and metrics: the operator's routes (no API key; /metrics has its own token, metrics-access.ts). */
import type { FastifyInstance } from 'fastify';
import { prometheusContentType } from 'prom-client';
import { VettedError } from '../../src/errors.ts';
import type { System } from '../../src/system.ts';
import { commonErrors, healthAnswer, providersAnswer, readinessAnswer, ref } from '../schemas.ts';
import { withTimeout } from '../../src/util/with-timeout.ts';
import { assertMetricsAccess } from '../plugins/metrics-access.ts';
import { principal } from '../plugins/auth.ts';
import { mapProviders } from '../../src/catalog/provider-registry.ts';
import { RETRY_AFTER_SECONDS, type Dependency } from '../plugins/dependencies.ts';

/**
 * The Prometheus text exposition format, exactly as the answer's Content-Type header says it (prom-client's
 * own constant), so a client that copies the document's media type gets what it was promised.
 */
const PROMETHEUS_TEXT = prometheusContentType;

export function registerSystemRoutes(app: FastifyInstance, system: System): void {
  app.get('/api/healthz', { schema: { operationId: 'getHealth', tags: ['system'], summary: 'The process is up', response: { 200: healthAnswer } } }, async () => ({ status: 'ok' }));

  app.get('/api/readyz', {
    schema: {
      operationId: 'getReadiness',
      tags: ['system'],
      summary: 'PostgreSQL and Redis answer',
      description: 'Not ready is 503 with Retry-After, `missing` naming the dependencies that did not answer and `checks` saying why.',
      response: { 200: readinessAnswer, 503: { ...readinessAnswer, description: 'Not ready: `missing` names the dependencies that did not answer' } },
    },
  }, async (_request, reply) => {
    const check = async (name: Dependency, probe: () => Promise<unknown>) => {
      try {
        await withTimeout(probe(), 2000, name);
        return [name, 'ok'] as const;
      } catch (error) {
        return [name, error instanceof Error ? error.message : String(error)] as const;
      }
    };
    // Embedded mode has PGlite for PostgreSQL and no Redis to ask about.
    const { queues } = system;
    const results = await Promise.all([check('postgres', () => system.pingDatabase()), ...(queues ? [check('redis', () => pingRedis(queues))] : [])]);
    const missing = results.filter(([, result]) => result !== 'ok').map(([name]) => name);
    if (missing.length > 0) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    return reply.code(missing.length === 0 ? 200 : 503).send({ status: missing.length === 0 ? 'ready' : 'not_ready', missing, checks: Object.fromEntries(results) });
  });

  app.get('/api/providers', {
    config: { permission: 'runs:read' },
    schema: { operationId: 'listProviders', tags: ['system'], summary: 'Builders and providers this server can use, the defaults, and which provider runs which catalog model', response: { 200: providersAnswer } },
  }, async (request) => {
    const providers = system.adapters.providerNames();
    const catalog = await system.models.listCatalog(principal(request).tenantId);
    return {
      builders: system.adapters.builderNames(),
      providers,
      defaults: { builder: system.config.defaults.builder, provider: system.config.defaults.provider, policy: system.config.defaults.policy },
      registry: mapProviders(providers, system.config.defaults.provider, catalog),
    };
  });

  app.get('/api/store/backup', {
    config: { permission: 'settings:manage' },
    schema: {
      operationId: 'backupStore',
      tags: ['system'],
      summary: 'A backup of the embedded store, taken while it runs',
      description: 'The whole store (every tenant), as PGlite\'s gzipped tar of its data directory; `vetted store restore` unpacks it. Only an embedded API (`vetted api --embedded`) has one to give: on PostgreSQL this is 404, back it up with pg_dump.',
      response: { 200: { description: 'The backup (gzipped tar)', content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } } } }, ...commonErrors },
    },
  }, async (_request, reply) => {
    if (!system.backupStore) throw new VettedError('ROUTE_NOT_FOUND', 'This API runs on PostgreSQL: back it up with pg_dump (only the embedded store is backed up here)');
    const backup = await system.backupStore();
    return reply.type('application/gzip').header('content-disposition', 'attachment; filename="vetted-store.tar.gz"').send(Buffer.from(backup));
  });

  app.get('/metrics', {
    config: { dependencies: ['postgres', 'redis'] },
    schema: {
      operationId: 'getMetrics',
      tags: ['system'],
      summary: 'Prometheus metrics (text exposition format)',
      description: 'With VETTED_METRICS_TOKEN set, send it as `Authorization: Bearer <token>` (401 otherwise). Unset, only loopback callers are answered, and nobody in production mode (403).',
      response: {
        200: { description: 'The metrics, in the Prometheus text format', content: { [PROMETHEUS_TEXT]: { schema: { type: 'string' } } } },
        401: ref('problem'),
        403: ref('problem'),
      },
    },
  }, async (request, reply) => {
    assertMetricsAccess(request, { token: system.config.metricsToken, production: system.config.production });
    try {
      const text = await system.metrics.registry.metrics();
      return reply.type(system.metrics.registry.contentType).send(text);
    } catch (error) {
      throw new VettedError('SERVICE_UNAVAILABLE', `metrics could not be collected: ${(error as Error).message}`);
    }
  });
}

/** The queues' Redis connection, as much of it as readiness asks about (ioredis, one server or a cluster). */
interface RedisConnection {
  readonly status: string;
  ping(): Promise<unknown>;
}

/** Redis answers PING, without waiting in the client's offline queue while it is away. */
async function pingRedis(queues: { readonly connection: RedisConnection }): Promise<unknown> {
  const { connection } = queues;
  if (connection.status !== 'ready') throw new Error(`not connected (${connection.status})`);
  return connection.ping();
}
