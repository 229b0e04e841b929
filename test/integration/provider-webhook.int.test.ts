/** POST /api/webhooks/replicate: signatures checked with the SDK, body used only to wake a waiter. */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { startSimServers, type SimServers } from '../../src/sim/index.ts';
import { attachConformance } from '../support/conformance.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';

const SECRET = `whsec_${Buffer.from('a-test-signing-secret-of-enough-length').toString('base64')}`;
let sims: SimServers;
let system: TestSystem;

beforeAll(async () => {
  sims = await startSimServers({ instant: true });
  system = await createTestSystem({ ...sims.env, REPLICATE_WEBHOOK_SECRET: SECRET });
});

afterAll(async () => {
  await system?.dispose();
  await sims?.close();
});

/** Replicate signs like Standard Webhooks: base64 HMAC-SHA256 over "<id>.<timestamp>.<body>". */
function sign(id: string, timestamp: string, body: string, secret = SECRET): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

describe('POST /api/webhooks/replicate', () => {
  it('accepts a correctly signed delivery and refuses a forged one', async () => {
    const app = await buildApp(system);
    const conformance = attachConformance(app);
    try {
      const body = JSON.stringify({ id: 'pred-123', status: 'succeeded' });
      const timestamp = String(Math.floor(Date.now() / 1000));
      const signed = await app.inject({
        method: 'POST', url: '/api/webhooks/replicate', payload: body,
        headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1', 'webhook-timestamp': timestamp, 'webhook-signature': sign('msg_1', timestamp, body) },
      });
      expect(signed.statusCode).toBe(200);
      expect(signed.json()).toEqual({ status: 'not_waiting', predictionId: 'pred-123' });

      const forged = await app.inject({
        method: 'POST', url: '/api/webhooks/replicate', payload: body,
        headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1', 'webhook-timestamp': timestamp, 'webhook-signature': sign('msg_1', timestamp, body, `whsec_${Buffer.from('someone-else').toString('base64')}`) },
      });
      expect(forged.statusCode).toBe(401);
      expect(forged.json()).toMatchObject({ code: 'UNAUTHORIZED' });
      conformance.assertNone();
    } finally {
      await app.close();
    }
  });
});
