/**
 * The OpenAPI document: served at /openapi.json, identical to docs/openapi.json (run `npm run openapi`
 * after changing a route or a contract), valid for swagger-parser, self-contained, and every operation
 * named, tagged and secured. `redocly lint` (recommended rules) runs on the same file in scripts/test.sh.
 */
import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { attachConformance, createConformanceChecker, type ConformanceLog } from '../support/conformance.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';

let system: TestSystem;
let app: FastifyInstance;
let served: string;
let conformance: ConformanceLog;

beforeAll(async () => {
  system = await createTestSystem();
  app = await buildApp(system);
  conformance = attachConformance(app);
  await app.ready();
  served = (await app.inject({ method: 'GET', url: '/openapi.json' })).body;
});

afterAll(async () => {
  await app?.close();
  await system?.dispose();
});

/** Every `$ref` anywhere in a value. */
function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => refsIn(item, found));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') found.push(inner);
      else refsIn(inner, found);
    }
  }
  return found;
}

type Operation = { operationId?: string; tags?: string[]; security?: unknown[]; responses: Record<string, unknown> };

describe('the OpenAPI document', () => {
  it('is served exactly as docs/openapi.json holds it (run `npm run openapi` when this fails)', () => {
    expect(served).toBe(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
  });

  it('is a valid OpenAPI 3.1 document for swagger-parser', async () => {
    const parsed = (await SwaggerParser.validate(JSON.parse(served) as never)) as { openapi: string };
    expect(parsed.openapi).toBe('3.1.0');
  });

  it('is self-contained: every $ref is local and resolves', () => {
    const document = JSON.parse(served) as Record<string, unknown>;
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(50);
    const unresolved = refs.filter((ref) => {
      if (!ref.startsWith('#/')) return true;
      const target = ref.slice(2).split('/').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], document);
      return target === undefined;
    });
    expect(unresolved).toEqual([]);
  });

  it('names, tags and secures every operation, and answers every error as application/problem+json', () => {
    const document = JSON.parse(served) as { paths: Record<string, Record<string, Operation>>; tags: { name: string }[]; components: { responses: Record<string, { content: Record<string, unknown> }> } };
    const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ at: `${method.toUpperCase()} ${path}`, op })));
    expect(operations.length).toBeGreaterThanOrEqual(24);
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = new Set(document.tags.map((tag) => tag.name));
    for (const { at, op } of operations) {
      expect(op.operationId, at).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(op.tags?.every((tag) => tags.has(tag)), at).toBe(true);
      expect(Array.isArray(op.security), at).toBe(true);
      expect(Object.keys(op.responses).some((status) => status.startsWith('2')), at).toBe(true);
    }
    for (const [name, response] of Object.entries(document.components.responses)) {
      expect(Object.keys(response.content), name).toEqual(['application/problem+json']);
    }
  });

  it('documents the event stream and the metrics in their own media types', () => {
    const document = JSON.parse(served) as { paths: Record<string, Record<string, Operation>> };
    const content = (path: string) => Object.keys((document.paths[path]!.get!.responses['200'] as { content: object }).content);
    expect(content('/api/runs/{id}/events')).toEqual(['text/event-stream']);
    expect(content('/metrics')).toEqual(['text/plain; version=0.0.4; charset=utf-8']);
  });
});

describe('the response-conformance hook (test/support/conformance.ts)', () => {
  const answer = { method: 'GET', route: '/api/runs/:id', url: '/api/runs/0b0c4a7e-52a8-4d39-9a57-2f1d7f0e8b11', contentType: 'application/problem+json; charset=utf-8' };
  const problem = (status: number) => JSON.stringify({ type: 'https://vetted.dev/problems/x', title: 't', status, code: 'RUN_NOT_FOUND', detail: 'd' });

  it('passes a documented answer and names what is wrong with one that is not', () => {
    const checker = createConformanceChecker(JSON.parse(served) as Record<string, unknown>);
    expect(checker.check({ ...answer, status: 404, body: problem(404) })).toEqual([]);
    expect(checker.check({ ...answer, status: 409, body: problem(409) })[0]).toMatch(/status 409 is not documented for GET \/api\/runs\/\{id\}/);
    expect(checker.check({ ...answer, status: 404, contentType: 'application/json', body: problem(404) })[0]).toMatch(/content-type "application\/json" is not one of application\/problem\+json/);
    expect(checker.check({ ...answer, status: 404, body: '{"status":404}' })[0]).toMatch(/does not fit the documented schema: body must have required property 'type'/);
    expect(checker.check({ ...answer, route: undefined, status: 500, body: problem(500) })[0]).toMatch(/must be a 4xx/);
    expect(checker.check({ ...answer, route: '/metrics', url: '/metrics', status: 200, contentType: 'text/plain; version=0.0.4; charset=utf-8', body: '# HELP x\n' })).toEqual([]);
  });

  it('sees the answers an app gives, the event stream included', async () => {
    await app.inject({ method: 'GET', url: '/api/healthz' });
    await app.inject({ method: 'GET', url: '/api/runs/0b0c4a7e-52a8-4d39-9a57-2f1d7f0e8b11' });
    conformance.assertNone();
    // A route answering a status its operation does not document is caught as it leaves.
    app.openapiDocument.paths['/api/healthz']!.get!.responses = { 201: { description: 'not what the route answers' } };
    try {
      await app.inject({ method: 'GET', url: '/api/healthz' });
      expect(() => conformance.assertNone()).toThrow(/GET \/api\/healthz → 200: status 200 is not documented/);
    } finally {
      app.openapiDocument.paths['/api/healthz']!.get!.responses = JSON.parse(served).paths['/api/healthz'].get.responses;
    }
  });
});
