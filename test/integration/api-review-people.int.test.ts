/**
 * Reviewers are people, over HTTP: a person's keys count once in a quorum and the audit names the person;
 * claims keep two people off one review; a decided (or expired) review stays readable, with its decisions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireDueReviews } from '../../src/engine/expiry.ts';
import type { PendingReview } from '../../src/generated/contracts.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { settle } from '../support/pipeline.ts';

let api: ApiHarness;
const people: Record<'ada' | 'grace', { id: string; keys: [string, string] }> = {} as never;

beforeAll(async () => {
  api = await createApiHarness();
  for (const [handle, name, team] of [['ada', 'Ada Lovelace', 'imaging'], ['grace', 'Grace Hopper', 'audio']] as const) {
    const person = await api.system.reviewers.create({ tenantId: 't1', name, role: 'reviewer', team });
    const key = async () => (await api.system.apiKeys.create({ tenantId: 't1', role: 'reviewer', reviewerId: person.id })).key;
    people[handle] = { id: person.id, keys: [await key(), await key()] };
  }
});
afterAll(async () => api?.close());

async function parked(body: Record<string, unknown>): Promise<{ runId: string; review: PendingReview }> {
  const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { model: 'black-forest-labs/flux-schnell', prompt: 'a paper crane', ...body } });
  expect(response.statusCode, response.body).toBe(202);
  const runId = json<{ id: string }>(response).id;
  return { runId, review: (await settle(api.system, runId, ['awaiting_human'])).pendingReview! };
}

const approve = (runId: string, review: PendingReview, key: string) =>
  api.call('POST', `/api/runs/${runId}/decision`, { key, body: { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'approve' } });

describe('reviewers are people', () => {
  it('one person with two keys is one approval of a quorum; the audit names the person', async () => {
    const { runId, review } = await parked({ policy: { mode: 'require_human', quorum: 2 } });
    expect(json(await approve(runId, review, people.ada.keys[0]))).toMatchObject({ route: 'await_quorum' });
    expect(json(await approve(runId, review, people.ada.keys[1]))).toMatchObject({ status: 409, code: 'DECISION_CONFLICT' });
    expect(json(await approve(runId, review, people.grace.keys[0]))).toMatchObject({ route: 'execute' });
    await settle(api.system, runId, ['completed']);
    const decisions = await api.system.store.decisions(runId);
    expect(decisions.map((d) => d.actor)).toEqual([`reviewer:${people.ada.id}`, `reviewer:${people.grace.id}`]);
  });
});

describe('claims', () => {
  it("a claimed review is its claimant's: others are refused until it is given back or decided", async () => {
    const { runId, review } = await parked({ policy: 'require_human' });
    const claimed = await api.call('POST', `/api/reviews/${review.reviewId}/claim`, { key: people.ada.keys[0], body: { ttlSeconds: 300 } });
    expect(json(claimed)).toMatchObject({ reviewId: review.reviewId, runId, claimedBy: `reviewer:${people.ada.id}` });
    const refused = json(await approve(runId, review, people.grace.keys[0]));
    expect(refused).toMatchObject({ status: 409, code: 'REVIEW_CLAIMED', claimedBy: `reviewer:${people.ada.id}` });
    expect(json(await api.call('POST', `/api/reviews/${review.reviewId}/claim`, { key: people.grace.keys[0] }))).toMatchObject({ status: 409, code: 'REVIEW_CLAIMED' });

    const mine = json<{ items: { reviewId: string; claimedBy: string | null }[] }>(await api.call('GET', '/api/reviews/pending?assignee=me', { key: people.ada.keys[1] }));
    expect(mine.items.map((i) => i.reviewId)).toEqual([review.reviewId]);
    const unclaimed = json<{ items: { reviewId: string }[] }>(await api.call('GET', '/api/reviews/pending?unclaimed=true', { key: people.grace.keys[0] }));
    expect(unclaimed.items.map((i) => i.reviewId)).not.toContain(review.reviewId);

    expect(json(await api.call('DELETE', `/api/reviews/${review.reviewId}/claim`, { key: people.ada.keys[1] }))).toMatchObject({ claimedBy: null });
    expect(json(await approve(runId, review, people.grace.keys[0]))).toMatchObject({ route: 'execute' });
    await settle(api.system, runId, ['completed']);
  });

  it('a claim whose lease ran out is anyone\'s, and a team filter finds reviews routed to it', async () => {
    const { runId, review } = await parked({ policy: { mode: 'require_human', team: 'imaging' } });
    await api.system.store.commit({ runId, from: ['awaiting_human'], to: 'awaiting_human', set: { claimedBy: `reviewer:${people.ada.id}`, claimExpiresAt: new Date(Date.now() - 1000) } });
    const team = json<{ items: { reviewId: string; team: string }[] }>(await api.call('GET', '/api/reviews/pending?team=imaging', { key: people.grace.keys[0] }));
    expect(team.items).toEqual([expect.objectContaining({ reviewId: review.reviewId, team: 'imaging' })]);
    expect(json(await approve(runId, review, people.grace.keys[0]))).toMatchObject({ route: 'execute' });
  });
});

describe('decided reviews stay readable', () => {
  it('GET /api/reviews/:id answers a decided review with its decisions, and GET /api/reviews lists it', async () => {
    const { runId, review } = await parked({ policy: 'require_human' });
    await approve(runId, review, people.ada.keys[0]);
    const detail = json<{ status: string; review: PendingReview; decisions: { actor: string; action: string; parsed: Record<string, unknown> }[] }>(
      await api.call('GET', `/api/reviews/${review.reviewId}`, { key: api.keys.reviewer }),
    );
    expect(detail).toMatchObject({ status: 'decided', review: { reviewId: review.reviewId, question: review.question } });
    expect(detail.decisions).toEqual([expect.objectContaining({ actor: `reviewer:${people.ada.id}`, action: 'approve', parsed: expect.objectContaining({ route: 'execute' }) })]);
    const decided = json<{ items: { reviewId: string; decision: { actor: string } }[] }>(await api.call('GET', '/api/reviews?status=decided&limit=50', { key: api.keys.reviewer }));
    expect(decided.items.find((i) => i.reviewId === review.reviewId)?.decision.actor).toBe(`reviewer:${people.ada.id}`);
    // Another tenant cannot read it.
    expect(json(await api.call('GET', `/api/reviews/${review.reviewId}`, { key: api.keys.otherReviewer }))).toMatchObject({ status: 404, code: 'REVIEW_NOT_FOUND' });
  });

  it('an expired review says so', async () => {
    const { review } = await parked({ policy: { mode: 'require_human', reviewTtlSeconds: 30 } });
    await expireDueReviews(api.system, new Date(Date.parse(review.expiresAt) + 1));
    expect(json(await api.call('GET', `/api/reviews/${review.reviewId}`, { key: api.keys.reviewer }))).toMatchObject({ status: 'expired', decisions: [expect.objectContaining({ actor: 'system:expiry', action: 'expire' })] });
  });
});
