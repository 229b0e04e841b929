/** Server-sent events over a real port: in order, live, and resumable after a reconnect. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settle } from '../support/pipeline.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';

let api: ApiHarness;
let baseUrl: string;

beforeAll(async () => {
  api = await createApiHarness();
  baseUrl = await api.app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await api?.close();
});

interface SseEvent {
  id: string;
  type: string;
}

/** Reads the stream until `stop` says so, then disconnects (as a browser tab closing would). */
async function readEvents(runId: string, options: { lastEventId?: string; stop: (events: SseEvent[]) => boolean }): Promise<SseEvent[]> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/runs/${runId}/events`, {
    headers: { authorization: `Bearer ${api.keys.submitter}`, ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}) },
    signal: controller.signal,
  });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let buffer = '';
  const deadline = setTimeout(() => controller.abort(), 15_000);
  try {
    while (!options.stop(events)) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: (.+)$/m.exec(frame)?.[1];
        const type = /^event: (.+)$/m.exec(frame)?.[1];
        if (id && type) events.push({ id, type });
      }
    }
  } finally {
    clearTimeout(deadline);
    controller.abort();
  }
  return events;
}

describe('GET /api/runs/:id/events', () => {
  it('streams the events live and in order while the run moves, and resumes after a reconnect', async () => {
    const submitted = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { model: 'black-forest-labs/flux-schnell', prompt: 'a comet', policy: 'require_human' } });
    const runId = json<{ id: string }>(submitted).id;

    // Connect at once: the early events are replayed from the table, the later ones arrive live.
    const firstPart = await readEvents(runId, { stop: (events) => events.some((e) => e.type === 'review.created') });
    expect(firstPart.map((e) => e.type)).toEqual(['run.created', 'stage.completed', 'stage.completed', 'stage.completed', 'review.created']);
    const ids = firstPart.map((e) => BigInt(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));

    const run = await settle(api.system, runId, ['awaiting_human']);
    const live = readEvents(runId, { lastEventId: firstPart.at(-1)!.id, stop: (events) => events.some((e) => e.type === 'run.completed') });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await api.call('POST', `/api/runs/${runId}/decision`, { key: api.keys.reviewer, body: { reviewId: run.pendingReview!.reviewId, payloadHash: run.pendingReview!.payloadHash, action: 'approve' } });
    const secondPart = await live;
    expect(secondPart.map((e) => e.type)).toEqual(['review.decided', 'run.resumed', 'run.completed']);

    // A reconnect from the middle gets exactly what came after, with no repeats.
    const resumed = await readEvents(runId, { lastEventId: firstPart[2]!.id, stop: (events) => events.some((e) => e.type === 'run.completed') });
    expect(resumed.map((e) => e.id)).toEqual([...firstPart.slice(3), ...secondPart].map((e) => e.id));
  });

  it('refuses another tenant and a malformed Last-Event-ID', async () => {
    const submitted = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { model: 'black-forest-labs/flux-schnell', prompt: 'x' } });
    const runId = json<{ id: string }>(submitted).id;
    expect((await fetch(`${baseUrl}/api/runs/${runId}/events`, { headers: { authorization: `Bearer ${api.keys.other}` } })).status).toBe(404);
    expect((await fetch(`${baseUrl}/api/runs/${runId}/events`, { headers: { authorization: `Bearer ${api.keys.submitter}`, 'last-event-id': 'abc' } })).status).toBe(400);
  });
});
