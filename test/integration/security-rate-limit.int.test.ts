// Promise: the rate limit counts only verified keys; failed authentications are limited per address and never spend the key a token names; an MCP batch cannot carry calls past the limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyIdOf } from '../../src/auth/api-keys.ts';
import { createApiHarness, type ApiHarness } from '../support/api.ts';

const LIMIT = 5;
const ATTACKER = '203.0.113.7';
let api: ApiHarness;

beforeAll(async () => {
  api = await createApiHarness({ VETTED_RATE_LIMIT_PER_MINUTE: String(LIMIT) });
});

afterAll(async () => {
  await api?.close();
});

const rpc = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

function mcp(key: string | undefined, body: unknown, remoteAddress?: string) {
  return api.app.inject({
    method: 'POST', url: '/mcp', remoteAddress, payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(key ? { authorization: `Bearer ${key}` } : {}) },
  });
}

async function runCount(): Promise<number> {
  return Number((await api.system.database.pool.query('select count(*)::int as n from runs')).rows[0].n);
}

describe('rate limit keyed on verified identity', () => {
  it('a forged token naming a victim key id does not lock the victim out', async () => {
    const victim = api.keys.reviewer;
    const forged = `vt_${keyIdOf(victim)}.${'A'.repeat(43)}`;
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) statuses.push((await mcp(forged, rpc(i, 'queue_stats', {}), ATTACKER)).statusCode);
    expect(statuses).toEqual(Array(LIMIT).fill(401));

    const onMcp = await mcp(victim, rpc(1, 'queue_stats', {}));
    expect(onMcp.statusCode).toBe(200);
    expect(onMcp.json()).toMatchObject({ result: { structuredContent: { status: 'ok' } } });
    expect((await api.app.inject({ method: 'GET', url: '/api/reviews/pending', headers: { authorization: `Bearer ${victim}` } })).statusCode).toBe(200);
  });

  it('limits bad-key and keyless requests per client address, and other addresses are unaffected', async () => {
    const address = '198.51.100.9';
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const key = i % 2 === 0 ? `vt_${'x'.repeat(12)}.${'B'.repeat(43)}` : undefined;
      const response = await api.app.inject({ method: 'GET', url: '/api/runs', remoteAddress: address, headers: key ? { authorization: `Bearer ${key}` } : {} });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        expect(response.headers['content-type']).toContain('application/problem+json');
        expect(response.json()).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
      }
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    // Another address with a real key is not affected.
    expect((await api.app.inject({ method: 'GET', url: '/api/runs', remoteAddress: '198.51.100.10', headers: { authorization: `Bearer ${api.keys.submitter}` } })).statusCode).toBe(200);
  });

  it('refuses a 30-call JSON-RPC batch of submit_run, naming why, and creates nothing', async () => {
    const before = await runCount();
    const batch = Array.from({ length: 30 }, (_, i) => rpc(i, 'submit_run', { model: 'black-forest-labs/flux-schnell', prompt: `a crane ${i}` }));
    const response = await mcp(api.keys.admin, batch);
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ code: 'INVALID_REQUEST', field: 'body' });
    expect(response.json().detail).toContain('batches are not accepted');
    expect(await runCount()).toBe(before);
  });

  it('counts every MCP call of a verified key against its budget', async () => {
    const key = api.keys.override;
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) statuses.push((await mcp(key, rpc(i, 'queue_stats', {}))).statusCode);
    expect(statuses).toEqual([...Array(LIMIT).fill(200), 429, 429]);
  });
});
