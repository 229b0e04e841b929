/** Health, readiness, providers and metrics: the operator's routes (no API key needed). */
import type { FastifyInstance } from 'fastify';
import { VettedError } from '../../src/errors.ts';
import type { System } from '../../src/system.ts';
import { healthAnswer, providersAnswer, readinessAnswer } from '../schemas.ts';
import { withTimeout } from '../../src/util/with-timeout.ts';

export function registerSystemRoutes(app: FastifyInstance, system: System): void {
  app.get('/api/healthz', { schema: { tags: ['system'], summary: 'The process is up', response: { 200: healthAnswer } } }, async () => ({ status: 'ok' }));

  app.get('/api/readyz', { schema: { tags: ['system'], summary: 'PostgreSQL and Redis answer', response: { 200: readinessAnswer, 503: readinessAnswer } } }, async (_request, reply) => {
    const check = async (name: string, probe: () => Promise<unknown>) => {
      try {
        await withTimeout(probe(), 2000, name);
        return [name, 'ok'] as const;
      } catch (error) {
        return [name, error instanceof Error ? error.message : String(error)] as const;
      }
    };
    const results = Object.fromEntries(
      await Promise.all([check('postgres', () => system.pingDatabase()), check('redis', () => system.queues.connection.ping())]),
    );
    const ready = Object.values(results).every((r) => r === 'ok');
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks: results });
  });

  app.get('/api/providers', { config: { permission: 'runs:read' }, schema: { tags: ['system'], summary: 'Builders and providers this server can use, and the defaults', response: { 200: providersAnswer } } }, async () => ({
    builders: system.adapters.builderNames(),
    providers: system.adapters.providerNames(),
    defaults: { builder: system.config.defaults.builder, provider: system.config.defaults.provider, policy: system.config.defaults.policy },
  }));

  app.get('/metrics', { schema: { tags: ['system'], summary: 'Prometheus metrics (text exposition format)', response: { 200: { type: 'string' } } } }, async (_request, reply) => {
    try {
      const text = await system.metrics.registry.metrics();
      return reply.type(system.metrics.registry.contentType).send(text);
    } catch (error) {
      throw new VettedError('SERVICE_UNAVAILABLE', `metrics could not be collected: ${(error as Error).message}`);
    }
  });
}
