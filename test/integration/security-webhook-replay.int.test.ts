// Promise: a Replicate webhook is accepted only when signed with the secret and stamped within five minutes (replays are refused).
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app.ts';
import type { WebhookReceiver } from '../../src/adapters/webhook-waiters.ts';
import { startSimServers, type SimServers } from '../../src/sim/index.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';

const SECRET = `whsec_${Buffer.from('a-test-signing-secret-of-enough-length').toString('base64')}`;
let sims: SimServers;
let system: TestSystem;
let app: FastifyInstance;

beforeAll(async () => {
  sims = await startSimServers({ instant: true });
  system = await createTestSystem({ ...sims.env, REPLICATE_WEBHOOK_SECRET: SECRET });
  app = await buildApp(system);
});

afterAll(async () => {
  await app?.close();
  await system?.dispose();
  await sims?.close();
});

function sign(id: string, timestamp: string, body: string): string {
  const key = Buffer.from(SECRET.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

function deliver(predictionId: string, timestamp: string, signature?: string) {
  const body = JSON.stringify({ id: predictionId, status: 'succeeded' });
  return app.inject({
    method: 'POST', url: '/api/webhooks/replicate', payload: body,
    headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1', 'webhook-timestamp': timestamp, 'webhook-signature': signature ?? sign('msg_1', timestamp, body) },
  });
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('replicate webhook replay protection', () => {
  it('refuses a correctly signed delivery stamped long ago and does not wake the waiting execution', async () => {
    const waiters = (system.adapters.provider('replicate') as unknown as WebhookReceiver).webhooks;
    const abort = new AbortController();
    const woke = waiters.sleep('pred-replayed', 60_000, abort.signal);

    const replayed = await deliver('pred-replayed', '1000000000');
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(replayed.json().detail).toContain('webhook-timestamp');

    abort.abort();
    expect(await woke).toBe('aborted');
  });

  it('refuses a timestamp six minutes away either way and accepts one four minutes old', async () => {
    expect((await deliver('pred-a', String(nowSeconds() - 6 * 60))).statusCode).toBe(401);
    expect((await deliver('pred-a', String(nowSeconds() + 6 * 60))).statusCode).toBe(401);
    const recent = await deliver('pred-a', String(nowSeconds() - 4 * 60));
    expect(recent.statusCode).toBe(200);
    expect(recent.json()).toMatchObject({ predictionId: 'pred-a' });
  });

  it('refuses signatures of the wrong length or version and a timestamp that is not seconds', async () => {
    const timestamp = String(nowSeconds());
    for (const signature of ['v1,AAAA', 'v1,', 'v2,' + sign('msg_1', timestamp, '{}').slice(3), 'garbage']) {
      expect((await deliver('pred-b', timestamp, signature)).statusCode).toBe(401);
    }
    expect((await deliver('pred-b', 'yesterday')).statusCode).toBe(401);
  });
});
