/**
 * Who may answer a review by reply. A submitter key answering "yes" to a require_human review is refused (403
 * naming why) and adds nothing toward a quorum, however often it says it; it may still cancel its own run and
 * answer its run's clarifying question. The policy's submitterApproves lets its "yes" approve, never toward a
 * quorum of more than one. A submitter key that did not submit the run may not answer it at all; a reviewer's
 * reply counts as a reviewer's approval.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PendingReview } from '../../src/generated/contracts.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { settle } from '../support/pipeline.ts';

let api: ApiHarness;
let otherSubmitter: string;

beforeAll(async () => {
  api = await createApiHarness();
  otherSubmitter = (await api.system.apiKeys.create({ tenantId: 't1', role: 'submitter' })).key;
});
afterAll(async () => {
  await api?.close();
});

async function parked(body: Record<string, unknown>): Promise<{ runId: string; review: PendingReview }> {
  const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { model: 'black-forest-labs/flux-schnell', prompt: 'a paper crane', ...body } });
  expect(response.statusCode, response.body).toBe(202);
  const runId = json<{ id: string }>(response).id;
  return { runId, review: (await settle(api.system, runId, ['awaiting_human'])).pendingReview! };
}

const replyTo = (runId: string, review: PendingReview, text: string, key: string) => api.call('POST', `/api/runs/${runId}/reply`, { key, body: { reviewId: review.reviewId, text } });

describe('answering a review by reply', () => {
  it('a submitter saying "yes" twice to a require_human review with a quorum is refused, naming why, and adds no approval', async () => {
    const { runId, review } = await parked({ policy: { mode: 'require_human', quorum: 2 } });
    for (const text of ['yes', 'yes']) {
      const refused = await replyTo(runId, review, text, api.keys.submitter);
      expect(refused.statusCode).toBe(403);
      expect(json(refused)).toMatchObject({ code: 'FORBIDDEN', field: 'text', detail: expect.stringContaining('never counts toward a quorum') });
    }
    const run = await api.system.store.get(runId);
    expect(run).toMatchObject({ status: 'awaiting_human', pendingReview: { reviewId: review.reviewId } });
    expect(run?.pendingReview?.approvals ?? []).toEqual([]);
    expect(await api.system.store.decisions(runId)).toEqual([]);
    // Two reviewers' replies make the quorum.
    expect(json(await replyTo(runId, review, 'yes', api.keys.reviewer))).toMatchObject({ route: 'await_quorum' });
    expect(json(await replyTo(runId, review, 'yes', api.keys.override))).toMatchObject({ route: 'execute' });
    await settle(api.system, runId, ['completed']);
  });

  it('by default a submitter\'s "yes" approves no require_human review, but "no" cancels it', async () => {
    const { runId, review } = await parked({ policy: 'require_human' });
    const refused = await replyTo(runId, review, 'yes', api.keys.submitter);
    expect(refused.statusCode).toBe(403);
    expect(json(refused)).toMatchObject({ code: 'FORBIDDEN', detail: expect.stringMatching(/cannot approve a payload_review \(policy_requires_human\).*submitterApproves/) });
    expect((await api.system.store.get(runId))?.status).toBe('awaiting_human');
    const cancelled = await replyTo(runId, review, 'no', api.keys.submitter);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(json(cancelled)).toMatchObject({ route: 'cancel', run: { status: 'cancelled' } });
  });

  it('policy.submitterApproves lets the submitter\'s "yes" approve its own run', async () => {
    const { runId, review } = await parked({ policy: { mode: 'require_human', submitterApproves: true } });
    expect(json(await replyTo(runId, review, 'yes', api.keys.submitter))).toMatchObject({ route: 'execute' });
    await settle(api.system, runId, ['completed']);
  });

  it('even with submitterApproves, a submitter never counts toward a quorum of more than one', async () => {
    const { runId, review } = await parked({ policy: { mode: 'require_human', submitterApproves: true, quorum: 2 } });
    const refused = await replyTo(runId, review, 'yes', api.keys.submitter);
    expect(refused.statusCode).toBe(403);
    expect(json(refused)).toMatchObject({ detail: expect.stringContaining('never counts toward a quorum') });
    expect((await api.system.store.get(runId))?.pendingReview?.approvals ?? []).toEqual([]);
  });

  it('the submitter answers its run\'s clarifying question; another submitter key may not answer at all', async () => {
    const { runId, review } = await parked({ edits: { aspect_ratio: '7:3' } });
    expect(review).toMatchObject({ kind: 'clarification', reason: 'validation_failed' });
    const stranger = await replyTo(runId, review, '2', otherSubmitter);
    expect(stranger.statusCode).toBe(403);
    expect(json(stranger)).toMatchObject({ code: 'FORBIDDEN', field: 'reviewId', detail: expect.stringContaining("did not submit the run") });
    const answered = await replyTo(runId, review, '2', api.keys.submitter);
    expect(answered.statusCode, answered.body).toBe(200);
    expect(json(answered)).toMatchObject({ route: 'validate' });
    expect((await settle(api.system, runId, ['completed'])).candidate?.payload).toMatchObject({ aspect_ratio: '16:9' });
  });
});
