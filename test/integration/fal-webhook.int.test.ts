/**
 * fal's webhooks, checked as fal signs them: an ED25519 signature by a key fal publishes (here the local fal
 * server's JWKS) over the request id, user id, timestamp and the body's SHA-256. The execution polls once an
 * hour in this file, so only a webhook can end its wait: a signed one completes the run; a tampered, stale or
 * foreign-key one is refused with 401 and wakes nothing (the server counts every status read). A key rotation
 * is followed through the route: the keys are read on a clock of this file's own, so "a minute later" needs
 * no waiting.
 */
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { createFalProvider } from '../../src/adapters/fal/fal-provider.ts';
import { createJwksKeys } from '../../src/adapters/fal/jwks-keys.ts';
import { startFalSim, type FalSim } from '../../src/sim/fal-sim.ts';
import { startStageWorkers, type RunningWorkers } from '../../workers/start-workers.ts';
import { settle, submit } from '../support/pipeline.ts';
import { createTestSystem, eventually, type TestSystem } from '../support/test-system.ts';

const KEY = 'fal_webhook_key_0042';
const flux = JSON.parse(readFileSync(new URL('../../examples/providers/fal-flux-dev.provider.json', import.meta.url), 'utf8')) as unknown;
let fal: FalSim;
let system: TestSystem;
let workers: RunningWorkers;
let app: FastifyInstance;
/** How far the JWKS cache's clock is ahead of the real one. */
let keysClockAheadMs = 0;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  // Never completes by polling: only complete() (and its webhook) ends a request.
  fal = await startFalSim({ apiKey: KEY, pollsToComplete: 1_000_000 });
  const port = await freePort();
  const webhookUrl = `http://127.0.0.1:${port}/api/webhooks/fal`;
  const falConfig = { apiKey: KEY, baseUrl: fal.baseUrl, pollIntervalMs: 3_600_000, timeoutMs: 600_000, webhookUrl, jwksUrl: fal.jwksUrl };
  const keys = createJwksKeys({ url: fal.jwksUrl, now: () => Date.now() + keysClockAheadMs });
  system = await createTestSystem(
    { FAL_KEY: KEY, FAL_BASE_URL: fal.baseUrl, VETTED_FAL_POLL_MS: '3600000', VETTED_FAL_WEBHOOK_URL: webhookUrl, VETTED_FAL_JWKS_URL: fal.jwksUrl },
    { adapters: { providers: { fal: createFalProvider(falConfig, undefined, keys) } } },
  );
  app = await buildApp(system);
  await app.listen({ host: '127.0.0.1', port });
  workers = startStageWorkers(system);
});

afterAll(async () => {
  await workers?.close();
  await app?.close();
  await system?.dispose();
  await fal?.close();
});

const post = (body: string, headers: object) =>
  app.inject({ method: 'POST', url: '/api/webhooks/fal', payload: body, headers: { 'content-type': 'application/json', ...headers } });
const bodyFor = (requestId: string) => JSON.stringify({ request_id: requestId, gateway_request_id: requestId, status: 'OK', payload: { images: [{ url: 'https://cdn.example/x.png' }] } });
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Signed with a key fal never published, in fal's format (written here from fal's description). */
function signedByStranger(requestId: string, body: string): Record<string, string> {
  const { privateKey } = generateKeyPairSync('ed25519');
  const timestamp = String(nowSeconds());
  const message = [requestId, 'sim-fal-user', timestamp, createHash('sha256').update(body).digest('hex')].join('\n');
  return {
    'x-fal-webhook-request-id': requestId, 'x-fal-webhook-user-id': 'sim-fal-user', 'x-fal-webhook-timestamp': timestamp,
    'x-fal-webhook-signature': sign(null, Buffer.from(message), privateKey).toString('hex'),
  };
}

/** Submits a run and waits until its fal request is queued, read once, and the execution sleeps on it. */
async function waitingRun(prompt: string) {
  const run = await submit(system, { modelSource: flux, prompt });
  const queued = await eventually(async () => fal.submitted().find((entry) => JSON.stringify(entry.input).includes(prompt) && entry.polls >= 1));
  expect((await system.store.get(run.id))?.status).toBe('executing');
  return { runId: run.id, requestId: queued.requestId };
}

const pollsOf = (requestId: string) => fal.submitted().find((entry) => entry.requestId === requestId)?.polls;

describe('POST /api/webhooks/fal', () => {
  it('refuses a tampered, stale, foreign-key or unsigned delivery with 401 and changes nothing', async () => {
    const { runId, requestId } = await waitingRun('a lantern on a jetty');
    const before = { polls: pollsOf(requestId), events: (await system.store.events(runId)).length, ledger: await system.store.ledger.listForRun(runId) };
    const body = bodyFor(requestId);
    const signed = fal.signWebhook(requestId, body);
    const refused = [
      await post(body.replace('"OK"', '"ERROR"'), signed),
      await post(body, { ...signed, 'x-fal-webhook-request-id': 'sim-fal-999999' }),
      await post(body, fal.signWebhook(requestId, body, nowSeconds() - 6 * 60)),
      await post(body, fal.signWebhook(requestId, body, nowSeconds() + 6 * 60)),
      await post(body, signedByStranger(requestId, body)),
      await post(body, { ...signed, 'x-fal-webhook-signature': signed['x-fal-webhook-signature'].slice(0, 64) }),
      await post(body, { 'x-fal-webhook-request-id': requestId }),
    ];
    expect(refused.map((answer) => answer.statusCode)).toEqual([401, 401, 401, 401, 401, 401, 401]);
    expect(refused.map((answer) => answer.json().code)).toEqual(Array(7).fill('UNAUTHORIZED'));
    expect(refused[2]?.json().detail).toContain('x-fal-webhook-timestamp is more than 5 minutes from now');
    expect(refused[4]?.json().detail).toContain('matches none of fal\'s published webhook keys');
    expect(refused[6]?.json().detail).toContain('x-fal-webhook-user-id, x-fal-webhook-timestamp, x-fal-webhook-signature headers are required');

    // Nothing woke: no extra status read at fal, the run still executing, no event, the ledger as it was.
    expect(pollsOf(requestId)).toBe(before.polls);
    expect((await system.store.get(runId))?.status).toBe('executing');
    expect(await system.store.events(runId)).toHaveLength(before.events);
    expect(await system.store.ledger.listForRun(runId)).toEqual(before.ledger);

    // fal's own signed delivery ends the wait: the run completes with the result read from fal, once.
    expect(await fal.complete(requestId)).toMatchObject({ requestId, status: 200 });
    const run = await settle(system, runId);
    expect(run).toMatchObject({ status: 'completed', provider: 'fal', result: { status: 'succeeded', output: { images: [{ url: expect.stringContaining(`/files/${requestId}.png`) }] } } });
    expect(fal.submitted().filter((entry) => entry.requestId === requestId)).toHaveLength(1);
  });

  it('the submission asks fal for the webhook; a signed delivery nobody waits for is harmless; a signed body that is no JSON is a 400', async () => {
    const { requestId } = await waitingRun('a kite over dunes');
    expect(fal.submitted().find((entry) => entry.requestId === requestId)?.webhookUrl).toMatch(/\/api\/webhooks\/fal$/);
    const stray = bodyFor('sim-fal-unknown');
    expect((await post(stray, fal.signWebhook('sim-fal-unknown', stray))).json()).toEqual({ status: 'not_waiting', predictionId: 'sim-fal-unknown' });
    const notJson = 'not json';
    expect((await post(notJson, fal.signWebhook(requestId, notJson))).statusCode).toBe(400);
    await fal.complete(requestId);
    await eventually(async () => (fal.webhooksSent().some((sent) => sent.requestId === requestId && sent.status === 200) ? true : undefined));
  });
});

describe('fal webhook key rotation, through the route', () => {
  it('a delivery signed with the key fal rotates to is accepted after one JWKS re-read; the retired key is refused', async () => {
    const { runId, requestId } = await waitingRun('a heron at low tide');
    const stray = bodyFor('sim-fal-stray');
    // Signed before the rotation, delivered after it.
    const byOldKey = fal.signWebhook('sim-fal-stray', stray);

    // An hour on, the cached keys are stale: the next delivery reads the JWKS, and the old key still verifies.
    keysClockAheadMs += 61 * 60_000;
    const readsBefore = fal.jwksReads();
    expect((await post(stray, fal.signWebhook('sim-fal-stray', stray))).statusCode).toBe(200);
    expect(fal.jwksReads()).toBe(readsBefore + 1);

    fal.rotateWebhookKey();
    fal.retireOldWebhookKeys();
    // Within the minute after a read, a key the cache does not know is refused without asking fal again:
    // forged deliveries cannot make Vetted hammer fal's JWKS (fal retries a refused delivery).
    const tooSoon = await post(stray, fal.signWebhook('sim-fal-stray', stray));
    expect(tooSoon.statusCode).toBe(401);
    expect(tooSoon.json().detail).toContain("matches none of fal's published webhook keys");
    expect(fal.jwksReads()).toBe(readsBefore + 1);

    // A minute later, fal's own delivery signed with the new key makes the keys be read again and wakes the run.
    keysClockAheadMs += 61_000;
    expect(await fal.complete(requestId)).toMatchObject({ requestId, status: 200 });
    expect(fal.jwksReads()).toBe(readsBefore + 2);
    expect(await settle(system, runId)).toMatchObject({ status: 'completed', provider: 'fal', result: { status: 'succeeded' } });

    // The retired key verifies nothing any more: not from the cache, nor after another read a minute later.
    expect((await post(stray, byOldKey)).statusCode).toBe(401);
    keysClockAheadMs += 61_000;
    const afterRead = await post(stray, byOldKey);
    expect(afterRead.statusCode).toBe(401);
    expect(afterRead.json().detail).toContain("matches none of fal's published webhook keys");
    expect(fal.jwksReads()).toBe(readsBefore + 3);
  });
});
