/** Server-sent events over a real port: in order, live, and resumable after a reconnect. */
import pg from 'pg';
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
async function readEvents(runId: string, options: { lastEventId?: string; path?: string; key?: string; stop: (events: SseEvent[]) => boolean }): Promise<SseEvent[]> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}${options.path ?? `/api/runs/${runId}/events`}`, {
    headers: { authorization: `Bearer ${options.key ?? api.keys.submitter}`, ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}) },
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

  // Ids are taken at insert and committed in any order: the follower must not move past an id still uncommitted.
  const INSERT_LIKE = `insert into run_events (run_id, tenant_id, type, actor, trace_id, thread_id)
    select run_id, tenant_id, $2, 'test', trace_id, thread_id from run_events where run_id = $1 limit 1 returning id::text`;

  for (const stream of [
    { name: 'a run', type: 'run.requeued', path: undefined, key: () => api.keys.submitter },
    // run.cancelled without a reviewId: review events also take the tenant's audit lock, which would order these two.
    { name: 'the review feed', type: 'run.cancelled', path: '/api/reviews/events', key: () => api.keys.reviewer },
  ]) {
    it(`delivers to a follower of ${stream.name} both events of transactions that commit out of id order, in id order, once`, async () => {
      const submitted = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { model: 'black-forest-labs/flux-schnell', prompt: 'a gap', policy: 'require_human' } });
      const runId = json<{ id: string }>(submitted).id;
      const run = await settle(api.system, runId, ['awaiting_human']);
      const [lower, higher] = [new pg.Client({ connectionString: api.system.config.databaseUrl }), new pg.Client({ connectionString: api.system.config.databaseUrl })];
      await Promise.all([lower.connect(), higher.connect()]);
      try {
        const lastSeen = (await readEvents(runId, { stop: (events) => events.some((e) => e.type === 'review.created') })).at(-1)!.id;
        await lower.query('begin');
        const lowerId = (await lower.query<{ id: string }>(INSERT_LIKE, [run.id, stream.type])).rows[0]!.id;
        await higher.query('begin');
        const higherId = (await higher.query<{ id: string }>(INSERT_LIKE, [run.id, stream.type])).rows[0]!.id;
        expect(BigInt(higherId)).toBeGreaterThan(BigInt(lowerId));
        const following = readEvents(runId, { path: stream.path, key: stream.key(), lastEventId: lastSeen, stop: (events) => events.filter((e) => e.id === lowerId || e.id === higherId).length === 2 });
        await higher.query('commit');
        // Several hub polls and fallback-free wakes: the follower reads while the lower id is still uncommitted.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        await lower.query('commit');
        const ids = (await following).map((e) => e.id).filter((id) => id === lowerId || id === higherId);
        expect(ids).toEqual([lowerId, higherId]);
      } finally {
        await Promise.all([lower.end(), higher.end()]);
      }
    });
  }
});
