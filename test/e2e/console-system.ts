/**
 * One Vetted system for the console's browser tests: its own database and BullMQ prefix, the stage workers in
 * this process, the API on an ephemeral port serving the built console, a reviewer (a person) with a key, a
 * second person, a submitter key to send runs and tasks with, and the example task type (the LGV
 * troubleshooting record). Shared by every scenario of a file.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startApiServer, type RunningApi } from '../../api/server.ts';
import { registerTaskType } from '../../src/tasks/task-types.ts';
import { startWorkers, type RunningWorkers } from '../../workers/start-workers.ts';
import { registerExamples, TENANT } from '../support/pipeline.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';

export interface ConsoleSystem {
  system: TestSystem;
  api: RunningApi;
  baseUrl: string;
  keys: { reviewer: string; otherReviewer: string; submitter: string };
  /** Submits a request as the upstream app; returns the run id. */
  submit(request: Record<string, unknown>): Promise<string>;
  /** Submits a task (POST /api/tasks) as the upstream agent; returns its id. */
  submitTask(task: Record<string, unknown>): Promise<string>;
  /** POST to an API path with the submitter's key (the upstream app: chat replies, for one). */
  post<T>(path: string, body: unknown): Promise<T>;
  /** GET an API path with the reviewer's key. */
  read<T>(path: string): Promise<T>;
  close(): Promise<void>;
}

/** @param env more configuration (a provider's base URL and token, for one). */
export async function startConsoleSystem(env: Record<string, string> = {}): Promise<ConsoleSystem> {
  const system = await createTestSystem({ VETTED_POLICY: 'auto', ...env });
  const workers: RunningWorkers = startWorkers(system);
  await registerExamples(system);
  await registerTaskType(system.tasks, TENANT, JSON.parse(readFileSync(resolve(import.meta.dirname, '../../examples/task-types/lgv-troubleshooting.task-type.json'), 'utf8')));
  const ada = await system.reviewers.create({ tenantId: TENANT, name: 'Ada Lovelace', role: 'reviewer', team: 'imaging' });
  const grace = await system.reviewers.create({ tenantId: TENANT, name: 'Grace Hopper', role: 'reviewer', team: 'imaging' });
  const keys = {
    reviewer: (await system.apiKeys.create({ tenantId: TENANT, role: 'reviewer', reviewerId: ada.id })).key,
    otherReviewer: (await system.apiKeys.create({ tenantId: TENANT, role: 'reviewer', reviewerId: grace.id })).key,
    submitter: (await system.apiKeys.create({ tenantId: TENANT, role: 'submitter' })).key,
  };
  const api = await startApiServer(system, { host: '127.0.0.1', port: 0 });
  const baseUrl = api.url;
  const call = async <T>(method: string, path: string, key: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  return {
    system,
    api,
    baseUrl,
    keys,
    submit: async (request) => (await call<{ id: string }>('POST', '/api/runs', keys.submitter, request)).id,
    submitTask: async (task) => (await call<{ id: string }>('POST', '/api/tasks', keys.submitter, task)).id,
    post: (path, body) => call('POST', path, keys.submitter, body),
    read: (path) => call('GET', path, keys.reviewer),
    async close() {
      await api.close();
      await workers.close();
      await system.dispose();
    },
  };
}
