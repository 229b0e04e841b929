/**
 * What a reviewer's round trip costs PostgreSQL, counted, not timed (the bench's review-steps probe prints the
 * same steps with their CPU): each API call below may send only the statements listed, so a change that adds a
 * round trip to a step fails here. Counted with the process's caches warm (the verified key, the model's schema
 * and catalog reference), as a round trip finds them within their lifetimes: the key for KEY_CACHE_TTL_MS, the
 * reference for a few seconds (models-repository.ts). They are warmed again just before each call, so a slow
 * machine does not count their refresh.
 *
 *   list    the page of pending reviews: one read (the masking takes its runs from it)
 *   read    the run: its row with its documents, and its events
 *   decide  the run as the decision's plan needs it, then ONE statement: the compare-and-set on the pending
 *           review, the decision row and both events (the answer is the row that statement returned)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PendingReview } from '../../src/generated/contracts.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { settle } from '../support/pipeline.ts';
import { statementLog } from '../support/statement-count.ts';

const MODEL = 'black-forest-labs/flux-schnell';
let api: ApiHarness;

beforeAll(async () => {
  api = await createApiHarness();
});

afterAll(async () => {
  await api?.close();
});

async function parked(): Promise<{ runId: string; review: PendingReview }> {
  const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { model: MODEL, prompt: 'a paper crane', policy: 'require_human' } });
  expect(response.statusCode, response.body).toBe(202);
  const runId = json<{ id: string }>(response).id;
  const run = await settle(api.system, runId, ['awaiting_human'], 60_000);
  return { runId, review: run.pendingReview! };
}

/** The caches a round trip reads through, refreshed (unlogged) if they lapsed. */
async function warm(): Promise<void> {
  expect((await api.call('GET', '/api/reviews/stats', { key: api.keys.reviewer })).statusCode).toBe(200);
  await api.system.models.resolveRef('t1', MODEL);
}

/** One round trip as a reviewer's client makes it, each call's statements logged apart. */
async function roundTrip(): Promise<{ list: string[]; read: string[]; decide: string[] }> {
  const { runId, review } = await parked();
  const list = statementLog();
  const read = statementLog();
  const decide = statementLog();
  await warm();
  const listed = await list.during(() => api.call('GET', '/api/reviews/pending', { key: api.keys.reviewer }));
  expect(listed.statusCode, listed.body).toBe(200);
  await warm();
  const run = await read.during(() => api.call('GET', `/api/runs/${runId}`, { key: api.keys.reviewer }));
  expect(json<{ pendingReview: { reviewId: string } }>(run).pendingReview.reviewId).toBe(review.reviewId);
  await warm();
  const decided = await decide.during(() => api.call('POST', `/api/runs/${runId}/decision`, { key: api.keys.reviewer, body: { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'approve' } }));
  expect(decided.statusCode, decided.body).toBe(200);
  expect(json(decided)).toMatchObject({ route: 'execute', run: { id: runId, status: 'executing' } });
  // The execution runs in the workers, whose statements are not the decision's; waiting for it also lets
  // anything the decision left running finish before its log is read.
  await settle(api.system, runId, ['completed'], 60_000);
  return { list: list.statements, read: read.statements, decide: decide.statements };
}

describe("a reviewer's round trip, in statements", () => {
  it('decide is the run read once and one statement; list and read send one and two', async () => {
    await roundTrip();
    const { list, read, decide } = await roundTrip();
    expect(decide, decide.join('\n')).toEqual(['vetted_run_by_id_scoped', expect.stringMatching(/^vetted_move_/)]);
    expect(read, read.join('\n')).toHaveLength(2);
    expect(read[0]).toBe('vetted_run_by_id_scoped');
    expect(list, list.join('\n')).toHaveLength(1);
  });
});
