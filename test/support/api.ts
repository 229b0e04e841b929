/** An API on a real system for integration tests: Fastify via inject (or a real port), keys per role. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../api/app.ts';
import type { Role } from '../../src/db/schema/index.ts';
import { startWorkers, type RunningWorkers } from '../../workers/start-workers.ts';
import { attachConformance, type ConformanceLog } from './conformance.ts';
import { registerExamples } from './pipeline.ts';
import type { SystemOptions } from '../../src/system.ts';
import { createTestSystem, type TestSystem } from './test-system.ts';

export interface ApiHarness {
  system: TestSystem;
  app: FastifyInstance;
  workers: RunningWorkers;
  /** Keys for tenant t1 by role, plus `other` (a submitter of tenant t2) and `override` (a reviewer with override). */
  keys: Record<Role | 'other' | 'override' | 'otherReviewer', string>;
  /** Every answer the app gives is checked against its OpenAPI document (conformance.ts); `call` throws on a misfit. */
  conformance: ConformanceLog;
  call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options?: { key?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function createApiHarness(env: Record<string, string> = {}, options: SystemOptions = {}): Promise<ApiHarness> {
  const system = await createTestSystem({ VETTED_WEBHOOK_SECRET: 'test-webhook-secret-0123456789', ...env }, options);
  const workers = startWorkers(system);
  await registerExamples(system);
  const key = async (tenantId: string, role: Role, permissions: 'override'[] = []) => (await system.apiKeys.create({ tenantId, role, permissions })).key;
  const keys = {
    submitter: await key('t1', 'submitter'),
    reviewer: await key('t1', 'reviewer'),
    admin: await key('t1', 'admin'),
    override: await key('t1', 'reviewer', ['override']),
    other: await key('t2', 'submitter'),
    otherReviewer: await key('t2', 'reviewer'),
  };
  const app = await buildApp(system);
  const conformance = attachConformance(app);
  await app.ready();
  return {
    system,
    app,
    workers,
    keys,
    conformance,
    async call(method, url, options = {}) {
      const key = options.key === undefined ? keys.admin : options.key;
      const headers: Record<string, string> = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...options.headers };
      const response = options.rawBody !== undefined
        ? await app.inject({ method, url, headers: { 'content-type': 'application/json', ...headers }, payload: options.rawBody })
        : await app.inject({ method, url, headers, ...(options.body === undefined ? {} : { payload: options.body as object }) });
      conformance.assertNone();
      return response;
    },
    async close() {
      await app.close();
      await workers.close();
      await system.dispose();
      // Answers the tests got without `call` (a direct inject, a real port, the event stream).
      conformance.assertNone();
    },
  };
}

export function json<T = Record<string, unknown>>(response: LightMyRequestResponse): T {
  return response.json() as T;
}
