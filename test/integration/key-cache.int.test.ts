/**
 * The API's cache of verified keys (src/auth/principal-cache.ts) against the real key store: a request reads no
 * key while its verification is cached; a key revoked by another process (the CLI, another API process: here the
 * store itself) is refused once more than KEY_CACHE_TTL_MS has passed on the system's clock since it was
 * read, and not before; one revoked
 * through this API is refused at once.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { KEY_CACHE_TTL_MS } from '../../src/auth/principal-cache.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';
import { statementLog } from '../support/statement-count.ts';

const clock = { at: Date.parse('2026-11-27T09:00:00.000Z') };
let system: TestSystem;
let app: FastifyInstance;

beforeAll(async () => {
  system = await createTestSystem({}, { clock: { now: () => new Date(clock.at) } });
  app = await buildApp(system);
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await system?.dispose();
});

const listRuns = (key: string) => app.inject({ method: 'GET', url: '/api/runs', headers: { authorization: `Bearer ${key}` } });
const keyIdOf = (key: string) => key.slice(3, 15);

describe('verified keys, cached', () => {
  it('a key revoked elsewhere is served from the cache for KEY_CACHE_TTL_MS after it was read, refused the millisecond after', async () => {
    const { key } = await system.apiKeys.create({ tenantId: 't1', role: 'submitter' });
    expect((await listRuns(key)).statusCode).toBe(200);
    const cached = statementLog();
    expect((await cached.during(() => listRuns(key))).statusCode).toBe(200);
    expect(cached.statements.some((statement) => statement.includes('api_keys')), cached.statements.join('\n')).toBe(false);

    expect(await system.apiKeys.revoke(keyIdOf(key))).toBe(true);
    clock.at += KEY_CACHE_TTL_MS;
    expect((await listRuns(key)).statusCode).toBe(200);
    clock.at += 1;
    expect((await listRuns(key)).statusCode).toBe(401);
  });

  it('a key revoked through this API is refused on its next request', async () => {
    const admin = (await system.apiKeys.create({ tenantId: 't2', role: 'admin' })).key;
    const { key } = await system.apiKeys.create({ tenantId: 't2', role: 'submitter' });
    expect((await listRuns(key)).statusCode).toBe(200);
    const revoked = await app.inject({ method: 'DELETE', url: `/api/keys/${keyIdOf(key)}`, headers: { authorization: `Bearer ${admin}` } });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect((await listRuns(key)).statusCode).toBe(401);
  });
});
