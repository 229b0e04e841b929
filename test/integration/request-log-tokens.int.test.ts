/**
 * Request logs keep no email decision-link token: the API's request lines (incoming, completed, not found) and any
 * line naming a link show `token=[redacted]`, whether the token was good or not, while the route still reads it.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';

const TOKEN = 'v1.eyJyZXZpZXdJZCI6InNlY3JldCJ9.c2VjcmV0LW1hYy10aGF0LWRlY2lkZXM';
let system: TestSystem;
let app: FastifyInstance;

beforeAll(async () => {
  system = await createTestSystem({ VETTED_EMAIL_LINK_SECRET: 'email-link-secret-for-the-tests-0123456789' });
  app = await buildApp(system, { logRequests: true });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await system?.dispose();
});

const linesWith = (text: string) => system.logs.filter((line) => JSON.stringify(line).includes(text));

describe('request logs and decision-link tokens', () => {
  it('a GET of a decision link is logged with its token masked; the route still read the token', async () => {
    const answer = await app.inject({ method: 'GET', url: `/api/decision-links?token=${TOKEN}&lang=en` });
    // The token is not one the server signed: the page says so, which proves the route saw it.
    expect(answer.statusCode).toBeGreaterThanOrEqual(400);
    expect(answer.statusCode).toBeLessThan(500);
    const incoming = system.logs.find((line) => line.msg === 'incoming request' && String((line.req as { url?: string } | undefined)?.url).startsWith('/api/decision-links'));
    expect(incoming?.req).toMatchObject({ method: 'GET', url: '/api/decision-links?token=[redacted]&lang=en' });
    expect(system.logs.some((line) => line.msg === 'request completed')).toBe(true);
    expect(linesWith('c2VjcmV0LW1hYy10aGF0LWRlY2lkZXM')).toEqual([]);
  });

  it('a POST with the token in the query, an unknown route, and a line that names a link keep no token either', async () => {
    await app.inject({ method: 'POST', url: `/api/decision-links?token=${TOKEN}`, payload: `token=${TOKEN}&reason=no`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    await app.inject({ method: 'GET', url: `/api/decision-linkz?token=${TOKEN}` });
    system.logger.info({ link: `https://vetted.test/api/decision-links?token=${TOKEN}`, note: `sent /api/decision-links?action=approve&token=${TOKEN}` }, `mailed https://vetted.test/api/decision-links?token=${TOKEN}`);
    const mailed = system.logs.find((line) => String(line.msg).startsWith('mailed'));
    expect(mailed).toMatchObject({ msg: 'mailed https://vetted.test/api/decision-links?token=[redacted]', link: 'https://vetted.test/api/decision-links?token=[redacted]', note: 'sent /api/decision-links?action=approve&token=[redacted]' });
    expect(linesWith('/api/decision-linkz?token=[redacted]').length).toBeGreaterThan(0);
    expect(linesWith('c2VjcmV0LW1hYy10aGF0LWRlY2lkZXM')).toEqual([]);
  });
});
