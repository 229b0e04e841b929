/** The OpenAPI operation builder's naming rule: every documented route names its operation (generated clients call it by that name). */
import { describe, expect, it } from 'vitest';
import { buildOperation, openApiPath } from '../../api/openapi/operations.ts';
import { ComponentNames } from '../../api/openapi/schema-conversion.ts';

const context = { names: new ComponentNames([]), onRef: () => undefined };

describe('buildOperation', () => {
  it('refuses a route without an operationId, naming the route and what to do', () => {
    expect(() => buildOperation({ method: 'POST', url: '/api/tasks/:taskId/review', schema: { tags: ['tasks'], response: { 200: { type: 'object' } } } }, context))
      .toThrow(/POST \/api\/tasks\/\{taskId\}\/review has no operationId: name it/);
  });

  it("keeps the route's own name", () => {
    const operation = buildOperation({ method: 'POST', url: '/api/tasks', schema: { operationId: 'submitTask', tags: ['tasks'], response: { 201: { type: 'object' } } } }, context);
    expect(operation.operationId).toBe('submitTask');
  });

  it('writes Fastify path parameters the OpenAPI way', () => {
    expect(openApiPath('/api/runs/:id/decision')).toBe('/api/runs/{id}/decision');
  });
});
