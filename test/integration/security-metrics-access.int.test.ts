// Promise: /metrics answers only with VETTED_METRICS_TOKEN as a bearer token when it is set, and only loopback callers when it is not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../support/api.ts';

const TOKEN = 'a-metrics-token-for-tests';
let api: ApiHarness;

beforeAll(async () => {
  api = await createApiHarness({ VETTED_METRICS_TOKEN: TOKEN });
});

afterAll(async () => {
  await api?.close();
});

describe('/metrics access', () => {
  it('needs the metrics token: none, a wrong one or an API key is a 401 problem, the token reads the metrics', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', `Bearer ${api.keys.admin}`, `Bearer ${TOKEN}x`]) {
      const refused = await api.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(refused.statusCode, authorization).toBe(401);
      expect(refused.json()).toMatchObject({ code: 'UNAUTHORIZED' });
      expect(refused.body).not.toContain('tenant=');
    }
    const allowed = await api.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.body).toContain('# HELP');
  });
});
