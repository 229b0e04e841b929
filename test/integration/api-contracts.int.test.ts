/** Every answer the API gives matches the response schema its route declares (and documents in OpenAPI). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schemas from '../../api/schemas.ts';
import { createAjv } from '../../src/schema/ajv.ts';
import { loadContractSchemas } from '../../src/schema/contracts.ts';
import { settle } from '../support/pipeline.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';

let api: ApiHarness;
const ajv = createAjv({ strict: false });
for (const { schema } of loadContractSchemas()) ajv.addSchema(schema);

function expectFits(schema: object, body: unknown, label: string): void {
  const validate = ajv.compile(schema);
  expect(validate(body), `${label}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

let parkedId: string;
let reviewId: string;
let completedId: string;

beforeAll(async () => {
  api = await createApiHarness();
  const submit = async (body: Record<string, unknown>) => json<{ id: string }>(await api.call('POST', '/api/runs', { key: api.keys.submitter, body })).id;
  completedId = await submit({ model: 'black-forest-labs/flux-schnell', prompt: 'a heron', sessionId: 's-contract', shadow: true });
  parkedId = await submit({ model: 'nightmareai/real-esrgan', prompt: 'sharpen', sessionId: 's-contract' });
  await settle(api.system, completedId, ['completed']);
  reviewId = (await settle(api.system, parkedId, ['awaiting_human'])).pendingReviewId!;
});

afterAll(async () => {
  await api?.close();
});

describe('responses fit their declared schemas', () => {
  it.each([
    ['GET /api/runs/:id', () => `/api/runs/${completedId}`, schemas.ref('run')],
    ['GET /api/runs/:id/state', () => `/api/runs/${parkedId}/state`, schemas.runState],
    ['GET /api/runs', () => '/api/runs?limit=1', schemas.runPage],
    ['GET /api/runs/active', () => '/api/runs/active?sessionId=s-contract', schemas.runList],
    ['GET /api/sessions/:id/runs/active', () => '/api/sessions/s-contract/runs/active', schemas.runList],
    ['GET /api/reviews/pending', () => '/api/reviews/pending', schemas.reviewSummaryPage],
    ['GET /api/reviews/:reviewId', () => `/api/reviews/${reviewId}`, schemas.reviewDetail],
    ['GET /api/providers', () => '/api/providers', schemas.providersAnswer],
    ['GET /api/healthz', () => '/api/healthz', schemas.healthAnswer],
    ['GET /api/readyz', () => '/api/readyz', schemas.readinessAnswer],
    ['GET /api/shadow/reports', () => '/api/shadow/reports', schemas.shadowReportPage],
    ['GET /api/shadow/summary', () => '/api/shadow/summary', schemas.shadowSummaryAnswer],
  ])('%s', async (label, url, schema) => {
    const response = await api.call('GET', url(), { key: api.keys.admin });
    expect(response.statusCode, response.body).toBe(200);
    expectFits(schema, json(response), label);
  });

  it('the OpenAPI document gives every /api route a success answer schema (200, 201 for a created key, or 202)', async () => {
    const openapi = json<{ paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> }>(await api.call('GET', '/openapi.json', { key: null }));
    const missing: string[] = [];
    for (const [path, operations] of Object.entries(openapi.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const codes = Object.keys(operation.responses ?? {});
        if (path.startsWith('/api/webhooks')) continue;
        if (!['200', '201', '202'].some((code) => codes.includes(code))) missing.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
