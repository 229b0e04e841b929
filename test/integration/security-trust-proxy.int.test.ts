// Promise: per-address limits count the client a listed reverse proxy names (VETTED_TRUST_PROXY), so one client's
// bad keys do not lock out the others behind the same proxy; a header from anyone not listed changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createApiHarness, type ApiHarness } from '../support/api.ts';

const LIMIT = 3;
const PROXY = '10.0.0.5';
const BAD_KEY = `vt_${'x'.repeat(12)}.${'B'.repeat(43)}`;
let api: ApiHarness;

beforeAll(async () => {
  api = await createApiHarness({ VETTED_RATE_LIMIT_PER_MINUTE: String(LIMIT), VETTED_TRUST_PROXY: '10.0.0.0/24' });
});

afterAll(async () => {
  await api?.close();
});

const get = (remoteAddress: string, key: string, forwardedFor?: string) =>
  api.app.inject({ method: 'GET', url: '/api/runs', remoteAddress, headers: { authorization: `Bearer ${key}`, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) } });

describe('per-address limits behind a trusted proxy', () => {
  it("one client's bad keys through the proxy exhaust its own budget, not its neighbours'", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) statuses.push((await get(PROXY, BAD_KEY, '203.0.113.7')).statusCode);
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429, 429]);
    // Another user behind the same proxy, with a real key, is not locked out.
    expect((await get(PROXY, api.keys.submitter, '203.0.113.8')).statusCode).toBe(200);
  });

  it('a caller that is not a listed proxy cannot pick its address with X-Forwarded-For', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) statuses.push((await get('198.51.100.20', BAD_KEY, `192.0.2.${i}`)).statusCode);
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429]);
  });

  it('refuses a setting that is not an address or a range, naming it', () => {
    for (const value of ['proxy.example', '10.0.0.0/33', '10.0.0.1/8/1', '::1/129']) {
      expect(() => loadConfig({ VETTED_TRUST_PROXY: value }), value).toThrow(/VETTED_TRUST_PROXY/);
    }
    expect(loadConfig({ VETTED_TRUST_PROXY: '10.0.0.0/8, ::1' }).trustProxy).toEqual(['10.0.0.0/8', '::1']);
  });
});
