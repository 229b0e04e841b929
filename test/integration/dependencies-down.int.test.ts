/**
 * PostgreSQL or Redis going away (a restart) is not a server bug: the API answers 503 SERVICE_UNAVAILABLE
 * with Retry-After, naming the dependency, and /api/readyz says which one is missing. The services are taken
 * away from this file's system only, through a TCP proxy (test/support/tcp-proxy.ts).
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { attachConformance, type ConformanceLog } from '../support/conformance.ts';
import { registerExamples, TENANT } from '../support/pipeline.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { createTestSystem, eventually, type TestSystem } from '../support/test-system.ts';

let postgres: TcpProxy;
let redis: TcpProxy;
let system: TestSystem;
let app: FastifyInstance;
let key: string;
/** A key nobody has used yet, so the API has not cached it: its lookup needs PostgreSQL. */
let freshKey: string;
let conformance: ConformanceLog;

beforeAll(async () => {
  postgres = await startTcpProxy(5432);
  redis = await startTcpProxy(Number(new URL(process.env.VETTED_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379').port || 6379));
  system = await createTestSystem({ REDIS_URL: `redis://127.0.0.1:${redis.port}` }, { postgresPort: postgres.port });
  await registerExamples(system);
  key = (await system.apiKeys.create({ tenantId: TENANT, role: 'admin' })).key;
  freshKey = (await system.apiKeys.create({ tenantId: TENANT, role: 'submitter' })).key;
  app = await buildApp(system);
  conformance = attachConformance(app);
  await app.ready();
});

afterAll(async () => {
  postgres?.restore();
  redis?.restore();
  await app?.close();
  await system?.dispose();
  await Promise.all([postgres?.close(), redis?.close()]);
  // Every answer, the 503s and the readiness reports included, is one the document describes.
  conformance?.assertNone();
});

const get = (url: string, auth = key) => app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${auth}` } });
const submit = () => app.inject({ method: 'POST', url: '/api/runs', headers: { authorization: `Bearer ${key}` }, payload: { model: 'black-forest-labs/flux-schnell', prompt: 'a heron' } });

function expectUnavailable(response: LightMyRequestResponse, dependency: 'postgres' | 'redis'): void {
  expect(response.statusCode, response.body).toBe(503);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.headers['retry-after']).toBe('5');
  expect(response.json()).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', dependency });
  // The client learns what to do, not where the database lives.
  expect(response.body).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
}

describe('dependencies down', () => {
  it('PostgreSQL away: 503 with Retry-After naming it, readiness says it is missing, and all is well once it is back', async () => {
    expect((await submit()).statusCode).toBe(202);
    const runId = (await get('/api/runs?limit=1')).json<{ items: { id: string }[] }>().items[0]!.id;

    postgres.cut();
    expectUnavailable(await get(`/api/runs/${runId}`), 'postgres');
    expectUnavailable(await get('/api/runs?limit=5'), 'postgres');
    // A key not in the API's cache is looked up in PostgreSQL: the same answer, not a 401 or a 500.
    expectUnavailable(await get('/api/runs', freshKey), 'postgres');
    expectUnavailable(await submit(), 'postgres');
    const ready = await get('/api/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['retry-after']).toBe('5');
    expect(ready.json()).toMatchObject({ status: 'not_ready', missing: ['postgres'], checks: { redis: 'ok' } });

    postgres.restore();
    await eventually(async () => ((await get(`/api/runs/${runId}`)).statusCode === 200 ? true : undefined), 15_000, 'PostgreSQL back');
    expect((await get('/api/readyz')).json()).toMatchObject({ status: 'ready', missing: [] });
  });

  it('Redis away: routes that enqueue answer 503 naming it at once, reads still work, readiness says Redis is missing', async () => {
    redis.cut();
    await eventually(async () => (system.queues.connection.status !== 'ready' ? true : undefined), 5000, 'the queue connection to notice');
    expectUnavailable(await submit(), 'redis');
    const read = await get('/api/runs?limit=1');
    expect(read.statusCode, read.body).toBe(200);
    const ready = await get('/api/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'not_ready', missing: ['redis'], checks: { postgres: 'ok' } });

    redis.restore();
    await eventually(async () => (system.queues.connection.status === 'ready' ? true : undefined), 15_000, 'Redis back');
    expect((await submit()).statusCode).toBe(202);
    expect((await get('/api/readyz')).statusCode).toBe(200);
  });
});
