/**
 * Every request example the OpenAPI document shows is a body its route accepts: a client that copies one may
 * meet a 404 (the example's ids are made up) or a 409, never a 400 for the body's shape. (`redocly lint` checks
 * each example against its schema in scripts/test.sh; this checks it against the route's own validation and
 * the services behind it.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../support/api.ts';

let api: ApiHarness;

beforeAll(async () => {
  api = await createApiHarness();
});

afterAll(async () => {
  await api?.close();
});

interface Operation {
  operationId: string;
  'x-permission'?: string;
  requestBody?: { content: Record<string, { schema?: { examples?: unknown[] }; examples?: Record<string, { value: unknown }> }> };
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

function documentedExamples(document: { paths: Record<string, Record<string, Operation>> }): { method: Method; path: string; operation: Operation; body: unknown }[] {
  const found: { method: Method; path: string; operation: Operation; body: unknown }[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const media of Object.values(operation.requestBody?.content ?? {})) {
        const bodies = [...(media.schema?.examples ?? []), ...Object.values(media.examples ?? {}).map((example) => example.value)];
        for (const body of bodies) found.push({ method: method.toUpperCase() as Method, path, operation, body });
      }
    }
  }
  return found;
}

/**
 * The key whose role holds the operation's permission (admins do not decide reviews); assigning, and marking
 * someone else away, take an admin's reviews:assign.
 */
function keyFor(operation: Operation): string {
  const permission = operation['x-permission'] ?? '';
  if (permission === 'reviews:assign' || operation.operationId === 'setReviewerAvailability') return api.keys.admin;
  return permission.startsWith('reviews:') || permission === 'policies:preview' ? api.keys.reviewer : api.keys.admin;
}

describe('the request examples of the OpenAPI document', () => {
  it('are all accepted by their routes (never a 400)', async () => {
    const document = (await api.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>> };
    const examples = documentedExamples(document);
    expect(examples.length).toBeGreaterThanOrEqual(5);
    const refused: string[] = [];
    for (const { method, path, operation, body } of examples) {
      const url = path.replace(/\{[^}]+\}/g, '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f');
      const response = await api.call(method, url, { key: keyFor(operation), body });
      if (response.statusCode === 400 || response.statusCode === 403) refused.push(`${operation.operationId} ${response.statusCode}: ${response.body}`);
    }
    expect(refused).toEqual([]);
  });
});
