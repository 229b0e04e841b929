/** The per-key rate limit: a key over its budget gets 429 with a problem body; other keys are unaffected. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';

let api: ApiHarness;

beforeAll(async () => {
  api = await createApiHarness({ VETTED_RATE_LIMIT_PER_MINUTE: '5' });
});

afterAll(async () => {
  await api?.close();
});

describe('rate limit per API key', () => {
  it('answers 429 after the budget, per key, and never limits health probes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await api.call('GET', '/api/runs', { key: api.keys.reviewer })).statusCode);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    const limited = await api.call('GET', '/api/runs', { key: api.keys.reviewer });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toContain('application/problem+json');
    expect(json(limited)).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect((await api.call('GET', '/api/runs', { key: api.keys.submitter })).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) expect((await api.call('GET', '/api/healthz', { key: null })).statusCode).toBe(200);
  });
});
