/**
 * The TypeScript client (clients/typescript) against the live API on a real port, with workers, PostgreSQL and
 * Redis: submit a run that parks for review, decide it through the client with the payload hash it was shown,
 * follow the run to completion over SSE through two forced disconnects (resumed with Last-Event-ID, no
 * duplicates, no gaps), and verify the signed webhooks it delivers to a local receiver.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createVettedClient, isVettedApiError, verifyWebhook, WEBHOOK_SIGNATURE_HEADER, WebhookVerificationError,
  type RunEvent, type VettedClient,
} from '../../clients/typescript/src/index.ts';
import { createApiHarness, type ApiHarness } from '../support/api.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { eventually } from '../support/test-system.ts';

const WEBHOOK_SECRET = 'client-live-webhook-secret-0123456789';

interface Delivery {
  signature: string | undefined;
  eventType: string | undefined;
  body: Buffer;
}

let api: ApiHarness;
let baseUrl: string;
let proxy: TcpProxy;
let receiver: Server;
let receiverUrl: string;
const deliveries: Delivery[] = [];

beforeAll(async () => {
  // The receiver listens on 127.0.0.1, a private target the API refuses unless allowed.
  api = await createApiHarness({ VETTED_WEBHOOK_SECRET: WEBHOOK_SECRET, VETTED_WEBHOOK_ALLOW_PRIVATE: 'true' });
  baseUrl = await api.app.listen({ host: '127.0.0.1', port: 0 });
  // The follower goes through a TCP proxy, so the test can cut its connection as a network would.
  proxy = await startTcpProxy(Number(new URL(baseUrl).port));
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const header = request.headers[WEBHOOK_SIGNATURE_HEADER];
      deliveries.push({ signature: typeof header === 'string' ? header : undefined, eventType: request.headers['vetted-event-type'] as string | undefined, body: Buffer.concat(chunks) });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});

afterAll(async () => {
  await proxy?.close();
  receiver?.closeAllConnections();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  await api?.close();
});

/**
 * A fetch that records every event-stream request's Last-Event-ID, cuts the first stream after `cutAfter`
 * events (a connection lost mid-stream, at a known point), and holds a reconnect until a gate opens.
 */
function recordingFetch(cutAfter: number): { fetch: (request: Request) => Promise<Response>; streamRequests: (string | null)[]; holdNextStream(gate: Promise<void>): void } {
  const streamRequests: (string | null)[] = [];
  let hold: Promise<void> | undefined;
  return {
    streamRequests,
    holdNextStream(gate) {
      hold = gate;
    },
    async fetch(request) {
      if (!request.url.endsWith('/events')) return fetch(request);
      streamRequests.push(request.headers.get('last-event-id'));
      const gate = hold;
      hold = undefined;
      await gate;
      const response = await fetch(request);
      if (streamRequests.length > 1 || !response.body) return response;
      return new Response(cutAfterEvents(response.body, cutAfter), { status: response.status, headers: response.headers });
    },
  };
}

/** Passes `count` event frames through, then fails the next read as a dropped connection does. */
function cutAfterEvents(body: ReadableStream<Uint8Array>, count: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffered = '';
  let passed = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      // Erroring drops whatever is still queued, so the cut happens on the pull after the last frame was read.
      if (passed >= count) {
        await reader.cancel();
        return controller.error(new TypeError('terminated: the test cut the connection'));
      }
      const { value, done } = await reader.read();
      if (done) return controller.close();
      buffered += decoder.decode(value, { stream: true });
      for (let end = buffered.indexOf('\n\n'); end >= 0 && passed < count; end = buffered.indexOf('\n\n')) {
        const frame = buffered.slice(0, end + 2);
        buffered = buffered.slice(end + 2);
        controller.enqueue(encoder.encode(frame));
        if (/^id: /m.test(frame)) passed += 1;
      }
    },
    cancel: (reason) => reader.cancel(reason),
  }, { highWaterMark: 0 });
}

async function next(events: AsyncIterator<RunEvent>): Promise<RunEvent> {
  const result = await events.next();
  if (result.done) throw new Error('the follower ended early');
  return result.value;
}

describe('@vetted/client against the live API', () => {
  it('submit → park → decide → follow to completion across dropped connections → verify the delivered webhooks', async () => {
    const submitter = createVettedClient({ baseUrl, apiKey: api.keys.submitter });
    const reviewer = createVettedClient({ baseUrl: `${baseUrl}/`, apiKey: api.keys.reviewer });
    const recorder = recordingFetch(2);
    const follower: VettedClient = createVettedClient({ baseUrl: `http://127.0.0.1:${proxy.port}`, apiKey: api.keys.submitter, fetch: recorder.fetch });

    // Submit: require_human parks the run at payload review once its payload is built and validated.
    const submitted = await submitter.submitRun({ model: 'black-forest-labs/flux-schnell', prompt: 'a comet over a frozen lake', policy: 'require_human', callbackUrl: receiverUrl });
    expect(submitted).toMatchObject({ status: 'queued', created: true });
    const runId = submitted.id;

    const seen: RunEvent[] = [];
    const events = follower.followRun(runId, { reconnectDelayMs: 50 })[Symbol.asyncIterator]();
    seen.push(await next(events), await next(events));
    expect(seen.map((e) => e.type)).toEqual(['run.created', 'stage.completed']);

    // Disconnect 1, mid-pipeline (the stream fails after its second event): the follower reconnects after the
    // last event it yielded.
    while (seen.at(-1)!.type !== 'review.created') seen.push(await next(events));
    expect(recorder.streamRequests).toEqual([null, seen[1]!.id]);

    // Parked: the reviewer finds it in the queue and approves the payload as shown (its payloadHash).
    const run = await reviewer.getRun(runId);
    expect(run).toMatchObject({ status: 'awaiting_human', pendingReview: { checkpoint: 'payload_review' } });
    const pending = await reviewer.listPendingReviews({ checkpoint: 'payload_review' });
    const review = pending.items.find((item) => item.runId === runId);
    expect(review).toMatchObject({ reviewId: run.pendingReview!.reviewId, payloadHash: run.pendingReview!.payloadHash });

    // Disconnect 2, while parked, in the network (the proxy drops the connection): the reconnect is held until
    // the decision is made, so the rest arrives as a replay after Last-Event-ID rather than live.
    let decided!: () => void;
    recorder.holdNextStream(new Promise<void>((resolve) => { decided = resolve; }));
    proxy.cut();
    proxy.restore();
    const rest = (async () => {
      for (let step = await events.next(); !step.done; step = await events.next()) seen.push(step.value);
    })();

    // A stale hash is refused (the binding is real); the hash the reviewer was shown is accepted.
    const stale = await reviewer.decideReview({ ...review!, payloadHash: '0'.repeat(64) }, { action: 'approve' }).catch((error: unknown) => error);
    expect(isVettedApiError(stale) && stale).toMatchObject({ status: 409, apiCode: 'PAYLOAD_HASH_MISMATCH' });
    const decision = await reviewer.decideReview(review!, { action: 'approve', reason: 'as the user asked' });
    expect(decision).toMatchObject({ route: 'execute', run: { id: runId } });
    decided();
    await rest;

    // Followed to the end: every event of the audit trail exactly once, in order, ending at run.completed.
    const trail = await api.system.store.events(runId);
    expect(seen.map((e) => e.id)).toEqual(trail.map((e) => String(e.id)));
    expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
    expect(seen.at(-1)).toMatchObject({ type: 'run.completed', runId });
    expect(seen.map((e) => e.type)).toEqual(expect.arrayContaining(['review.created', 'review.decided', 'run.completed']));
    expect(recorder.streamRequests).toEqual([null, seen[1]!.id, seen.find((e) => e.type === 'review.created')!.id]);
    expect((await submitter.getRun(runId)).status).toBe('completed');

    // The webhooks: each delivery verifies with the secret and names its event; a tampered body does not.
    const completed = await eventually(async () => deliveries.find((d) => d.eventType === 'run.completed'), 30_000, 'the run.completed webhook');
    const event = verifyWebhook(completed.signature, completed.body, WEBHOOK_SECRET);
    expect(event).toMatchObject({ type: 'run.completed', id: seen.at(-1)!.id, run: { id: runId, status: 'completed' } });
    for (const delivery of deliveries) expect(verifyWebhook(delivery.signature, delivery.body, WEBHOOK_SECRET).run.id).toBe(runId);
    const tampered = Buffer.from(completed.body.toString('utf8').replace('"completed"', '"cancelled"'));
    expect(tampered.equals(completed.body)).toBe(false);
    expect(() => verifyWebhook(completed.signature, tampered, WEBHOOK_SECRET)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(completed.signature, tampered, WEBHOOK_SECRET)).toThrow(expect.objectContaining({ code: 'WEBHOOK_SIGNATURE_MISMATCH' }));
    expect(() => verifyWebhook(completed.signature, completed.body, 'not-the-secret')).toThrow(expect.objectContaining({ code: 'WEBHOOK_SIGNATURE_MISMATCH' }));
  });

  it('a finished run followed again from an id replays what came after and ends; a refusal surfaces as the API problem', async () => {
    const submitter = createVettedClient({ baseUrl, apiKey: api.keys.submitter });
    const { id } = await submitter.submitRun({ model: 'black-forest-labs/flux-schnell', prompt: 'a lighthouse at dusk' });
    const all: RunEvent[] = [];
    for await (const event of submitter.followRun(id)) all.push(event);
    expect(all.at(-1)!.type).toBe('run.completed');
    const resumed: RunEvent[] = [];
    for await (const event of submitter.followRun(id, { lastEventId: all[1]!.id })) resumed.push(event);
    expect(resumed.map((e) => e.id)).toEqual(all.slice(2).map((e) => e.id));
    const none: RunEvent[] = [];
    for await (const event of submitter.followRun(id, { lastEventId: all.at(-1)!.id })) none.push(event);
    expect(none).toEqual([]);

    // Another tenant's key cannot see the run: 404 RUN_NOT_FOUND, not retried.
    const other = createVettedClient({ baseUrl, apiKey: api.keys.other });
    await expect(other.getRun(id)).rejects.toMatchObject({ code: 'API_ERROR', status: 404, apiCode: 'RUN_NOT_FOUND' });
    await expect((async () => { for await (const _ of other.followRun(id)) void _; })()).rejects.toMatchObject({ status: 404, apiCode: 'RUN_NOT_FOUND' });
    // A bad request names its field.
    await expect(submitter.submitRun({ model: 'black-forest-labs/flux-schnell', prompt: 'x', policy: 'sometimes' as never })).rejects.toMatchObject({ status: 400, apiCode: 'INVALID_REQUEST', field: expect.stringContaining('policy') });
  });
});
