/**
 * SSRF through callbackUrl: without VETTED_WEBHOOK_ALLOW_PRIVATE, internal targets are refused at intake
 * (400 naming callbackUrl) and at delivery, where the address a name resolves to is checked inside the
 * socket's lookup, so the address checked is the address connected to (DNS rebinding).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UnrecoverableError } from 'bullmq';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assertContract } from '../../src/schema/contracts.ts';
import { postCallback, type Resolver } from '../../src/delivery/callback-delivery.ts';
import { deliverWebhook } from '../../src/delivery/webhook-delivery.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';

let api: ApiHarness;
let receiver: Server;
let port: number;
const received: { headers: IncomingMessage['headers']; body: string }[] = [];

beforeAll(async () => {
  // The harness configures a webhook secret; VETTED_WEBHOOK_ALLOW_PRIVATE stays at its default (false).
  api = await createApiHarness();
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  port = (receiver.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => receiver?.close(() => resolve()) ?? resolve());
  await api?.close();
});

beforeEach(() => {
  received.length = 0;
});

const flux = { model: 'black-forest-labs/flux-schnell', prompt: 'a kite' };

describe('intake', () => {
  it.each([
    ['http://127.0.0.1:9/x', 'loopback address (127.0.0.1)'],
    ['http://169.254.169.254/latest', 'cloud metadata address (169.254.169.254)'],
    ['http://localhost:6379/', 'loopback name (localhost)'],
    ['http://[::1]:5432/', 'loopback address ([::1])'],
    ['http://[::ffff:127.0.0.1]/', 'loopback address ([::ffff:7f00:1])'],
    ['http://10.0.0.1/', 'private address (10.0.0.1)'],
  ])('%s → 400 naming callbackUrl', async (callbackUrl, what) => {
    const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { ...flux, callbackUrl } });
    expect(response.statusCode, response.body).toBe(400);
    const problem = json<{ code: string; field: string; detail: string; addressClass: string }>(response);
    expect(problem).toMatchObject({ code: 'INVALID_REQUEST', field: 'callbackUrl' });
    expect(problem.detail).toContain(`callbackUrl points at a ${what}; callbacks go to public addresses only`);
    assertContract('problem', problem, 'problem');
    // Refused before the run row is written: nothing to list.
    expect(json<{ items: unknown[] }>(await api.call('GET', '/api/runs', { key: api.keys.submitter })).items).toEqual([]);
  });

  it('a public callbackUrl is accepted (its name is checked again at delivery)', async () => {
    const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { ...flux, callbackUrl: 'https://hooks.example.com/vetted' } });
    expect(response.statusCode, response.body).toBe(202);
  });
});

describe('delivery', () => {
  const message = { body: '{"hello":"world"}', headers: { 'content-type': 'application/json', 'vetted-event-type': 'run.completed' } };
  /** A public-looking name whose DNS answer is loopback: what a rebinding attacker controls. */
  const rebinding: Resolver = async (hostname) => (hostname === 'hooks.example.com' ? [{ address: '127.0.0.1', family: 4 }] : []);

  it('refuses a name that resolves to loopback at delivery time, and never connects', async () => {
    const delivery = postCallback(`http://hooks.example.com:${port}/hooks`, message, { allowPrivate: false, resolve: rebinding });
    await expect(delivery).rejects.toMatchObject({
      name: 'VettedError',
      field: 'callbackUrl',
      message: expect.stringContaining('callbackUrl host hooks.example.com resolves to a loopback address (127.0.0.1)'),
    });
    expect(received).toEqual([]);
  });

  it('with allowPrivate, connects to exactly the address the guard checked', async () => {
    const status = await postCallback(`http://hooks.example.com:${port}/hooks`, message, { allowPrivate: true, resolve: rebinding });
    expect(status).toBe(204);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ body: message.body, headers: { host: `hooks.example.com:${port}`, 'vetted-event-type': 'run.completed' } });
  });

  it('refuses localhost and loopback literals with the system resolver too', async () => {
    await expect(postCallback(`http://localhost:${port}/hooks`, message, { allowPrivate: false })).rejects.toMatchObject({ field: 'callbackUrl' });
    await expect(postCallback(`http://127.0.0.1:${port}/hooks`, message, { allowPrivate: false })).rejects.toMatchObject({ field: 'callbackUrl' });
    expect(received).toEqual([]);
    expect(await postCallback(`http://localhost:${port}/hooks`, message, { allowPrivate: true })).toBe(204);
  });

  it('the webhook worker fails a refused target for good (a run accepted before the flag was turned off)', async () => {
    const id = api.system.newId();
    await api.system.store.insert(
      {
        id, tenantId: 't1', status: 'queued', stage: 'extract', attempt: 0, traceId: api.system.newId(), threadId: id,
        builder: 'heuristic', provider: 'dry', policy: { mode: 'auto' }, request: { ...flux, callbackUrl: `http://127.0.0.1:${port}/hooks` },
      },
      { type: 'run.created', actor: 'test', data: {} },
    );
    const [event] = await api.system.store.events(id);
    const failure = deliverWebhook(api.system, { runId: id, eventId: String(event!.id) });
    await expect(failure).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(failure).rejects.toThrow('callbackUrl points at a loopback address (127.0.0.1)');
    expect(received).toEqual([]);
  });
});
