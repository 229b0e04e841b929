/** Pause, resume, cancel, expiry, information reviews and signed webhooks, over HTTP on real services. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../src/delivery/webhook-signature.ts';
import { settle } from '../support/pipeline.ts';
import { eventually } from '../support/test-system.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';

const WEBHOOK_SECRET = 'test-webhook-secret-0123456789';
let api: ApiHarness;

beforeAll(async () => {
  // The webhook receiver below listens on 127.0.0.1, a private target that is refused unless allowed.
  api = await createApiHarness({ VETTED_WEBHOOK_SECRET: WEBHOOK_SECRET, VETTED_WEBHOOK_ALLOW_PRIVATE: 'true' });
});

afterAll(async () => {
  await api?.close();
});

async function submit(body: Record<string, unknown>): Promise<string> {
  const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body });
  expect(response.statusCode, response.body).toBe(202);
  return json<{ id: string }>(response).id;
}

const approvalNeeded = { model: 'black-forest-labs/flux-schnell', prompt: 'a kite', policy: 'require_human' };

describe('pause, resume, cancel', () => {
  it('a paused parked run keeps its review; resume puts it back; cancel ends it', async () => {
    const id = await submit(approvalNeeded);
    const parked = await settle(api.system, id, ['awaiting_human']);
    const paused = json(await api.call('POST', `/api/runs/${id}/pause`, { key: api.keys.reviewer, body: { reason: 'checking with legal' } }));
    expect(paused).toMatchObject({ status: 'paused', pausedFrom: 'awaiting_human' });
    expect((await api.call('POST', `/api/runs/${id}/pause`, { key: api.keys.reviewer })).statusCode).toBe(409);
    const decideWhilePaused = await api.call('POST', `/api/runs/${id}/decision`, {
      key: api.keys.reviewer, body: { reviewId: parked.pendingReview!.reviewId, payloadHash: parked.pendingReview!.payloadHash, action: 'approve' },
    });
    expect(decideWhilePaused.statusCode).toBe(409);

    expect(json(await api.call('POST', `/api/runs/${id}/resume`, { key: api.keys.reviewer }))).toMatchObject({ status: 'awaiting_human', pendingReview: { reviewId: parked.pendingReview!.reviewId } });
    const cancelled = json(await api.call('DELETE', `/api/runs/${id}`, { key: api.keys.submitter }));
    expect(cancelled).toMatchObject({ status: 'cancelled', error: { code: 'CANCELLED' } });
    const events = (await api.system.store.events(id)).map((e) => e.type);
    expect(events).toEqual(expect.arrayContaining(['run.paused', 'run.resumed', 'run.cancelled']));
  });

  it('a run paused mid-pipeline resumes at its stage and completes', async () => {
    const id = await submit({ model: 'black-forest-labs/flux-schnell', prompt: 'a lantern' });
    // Pause as early as possible; whichever stage it is in, resume must carry it to the end.
    const pause = await api.call('POST', `/api/runs/${id}/pause`, { key: api.keys.submitter });
    if (pause.statusCode === 409) {
      // Refused: the run finished, or kept moving through every try (a fast run, executing). Either way it
      // must still end completed, executed once.
      expect(json(pause)).toMatchObject({ code: 'RUN_STATE_CONFLICT' });
      expect((await settle(api.system, id, ['completed'])).status).toBe('completed');
      return expect(await api.system.store.ledger.listForRun(id)).toHaveLength(1);
    }
    expect(json(pause)).toMatchObject({ status: 'paused' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await api.system.store.get(id))?.status).toBe('paused');
    await api.call('POST', `/api/runs/${id}/resume`, { key: api.keys.submitter });
    expect((await settle(api.system, id, ['completed'])).status).toBe('completed');
    expect(await api.system.store.ledger.listForRun(id)).toHaveLength(1);
  });
});

describe('expiry', () => {
  it('a review that gets no decision in time expires the run (delayed bucket job, event, log line)', async () => {
    const id = await submit({ ...approvalNeeded, policy: { mode: 'require_human', reviewTtlSeconds: 1 } });
    const parked = await settle(api.system, id, ['awaiting_human']);
    const expired = await settle(api.system, id, ['expired'], 20_000);
    expect(expired.error).toMatchObject({ code: 'REVIEW_EXPIRED' });
    expect(expired.pendingReview).toBeNull();
    expect((await api.system.store.events(id)).at(-1)).toMatchObject({ type: 'run.expired', data: { reviewId: parked.pendingReview!.reviewId } });
    expect(api.system.logs.some((l) => l.event === 'HITL_EXPIRED' && l.runId === id && l.traceId === parked.traceId)).toBe(true);
    const late = await api.call('POST', `/api/runs/${id}/decision`, { key: api.keys.reviewer, body: { reviewId: parked.pendingReview!.reviewId, action: 'reject' } });
    expect(late.statusCode).toBe(409);
  });
});

describe('information review', () => {
  it('a request with nothing to build from asks first; an edit gives the builder what it needs', async () => {
    const id = await submit({ model: 'black-forest-labs/flux-schnell' });
    const parked = await settle(api.system, id, ['awaiting_human']);
    expect(parked.pendingReview).toMatchObject({ checkpoint: 'information_review', reason: 'nothing_to_build_from', candidate: null });
    expect(parked.pendingReview!.actions?.map((o) => o.id)).toEqual(['approve', 'edit', 'change_model', 'reject']);
    // The person the request came from is asked in words, and their answer sets the model's prompt.
    expect(parked.pendingReview).toMatchObject({ expectedInput: 'free_text', answerField: 'prompt', source: 'planner', options: [], question: 'What would you like me to make?' });
    const response = await api.call('POST', `/api/runs/${id}/decision`, {
      key: api.keys.reviewer, body: { reviewId: parked.pendingReview!.reviewId, payloadHash: parked.pendingReview!.payloadHash, action: 'edit', edits: { prompt: 'a lighthouse' } },
    });
    expect(json(response)).toMatchObject({ route: 'build' });
    const done = await settle(api.system, id, ['completed']);
    expect(done.candidate?.payload).toMatchObject({ prompt: 'a lighthouse' });
    expect(done.candidate?.provenance.prompt?.source).toBe('human_edit');
  });
});

describe('webhooks', () => {
  let receiver: Server;
  const deliveries: { headers: IncomingMessage['headers']; body: string }[] = [];
  let failuresLeft = 1;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        if (failuresLeft-- > 0) return res.writeHead(503).end();
        deliveries.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });

  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('POSTs signed events for awaiting_human and the terminal state, retrying a failed delivery', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const id = await submit({ ...approvalNeeded, callbackUrl: url });
    const parked = await settle(api.system, id, ['awaiting_human']);
    await api.call('POST', `/api/runs/${id}/decision`, { key: api.keys.reviewer, body: { reviewId: parked.pendingReview!.reviewId, payloadHash: parked.pendingReview!.payloadHash, action: 'approve' } });
    await settle(api.system, id, ['completed']);

    await eventually(async () => (deliveries.length >= 2 ? true : undefined), 20_000, 'two webhook deliveries');
    const types = deliveries.map((d) => d.headers['vetted-event-type']).sort();
    expect(types).toEqual(['review.created', 'run.completed']);
    for (const delivery of deliveries) {
      expect(verifyWebhookSignature(WEBHOOK_SECRET, String(delivery.headers['vetted-signature']), delivery.body)).toBe(true);
      expect(verifyWebhookSignature('another-secret-entirely', String(delivery.headers['vetted-signature']), delivery.body)).toBe(false);
      expect(JSON.parse(delivery.body)).toMatchObject({ run: { id } });
    }
    expect(deliveries.map((d) => d.body).join()).not.toContain(WEBHOOK_SECRET);
  });

  it('refuses a callbackUrl when the server has no webhook secret', async () => {
    const { createTestSystem } = await import('../support/test-system.ts');
    const { submitRun } = await import('../../src/intake/submit-run.ts');
    const bare = await createTestSystem();
    try {
      await expect(submitRun(bare, { tenantId: 't1', actor: 'test', request: { ...approvalNeeded, callbackUrl: 'https://example.test/h' } })).rejects.toMatchObject({ field: 'callbackUrl' });
    } finally {
      await bare.dispose();
    }
  });
});
