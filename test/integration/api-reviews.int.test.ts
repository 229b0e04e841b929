/** Human review over HTTP: the queue, one review in full, and every decision, including races. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PendingReview, Run } from '../../src/generated/contracts.ts';
import { assertContract } from '../../src/schema/contracts.ts';
import { registerModel } from '../../src/catalog/model-catalog.ts';
import { exampleModel, settle } from '../support/pipeline.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';

let api: ApiHarness;

beforeAll(async () => {
  api = await createApiHarness();
});

afterAll(async () => {
  await api?.close();
});

async function parked(body: Record<string, unknown>): Promise<{ runId: string; review: PendingReview }> {
  const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body });
  expect(response.statusCode, response.body).toBe(202);
  const runId = json<{ id: string }>(response).id;
  const run = await settle(api.system, runId, ['awaiting_human']);
  return { runId, review: run.pendingReview! };
}

const decide = (runId: string, body: Record<string, unknown>, key = api.keys.reviewer) => api.call('POST', `/api/runs/${runId}/decision`, { key, body });
const approvalNeeded = { model: 'black-forest-labs/flux-schnell', prompt: 'a paper crane', policy: 'require_human' };
const imageMissing = { model: 'nightmareai/real-esrgan', prompt: 'sharpen it' };

describe('the review queue', () => {
  it('lists pending reviews oldest first, filtered by checkpoint, and shows one in full', async () => {
    const first = await parked(imageMissing);
    const second = await parked(approvalNeeded);
    const list = json<{ items: { reviewId: string; checkpoint: string; reason: string }[] }>(await api.call('GET', '/api/reviews/pending?checkpoint=payload_review', { key: api.keys.reviewer }));
    const ids = list.items.map((i) => i.reviewId);
    expect(ids.indexOf(first.review.reviewId)).toBeLessThan(ids.indexOf(second.review.reviewId));
    expect(json<{ items: unknown[] }>(await api.call('GET', '/api/reviews/pending?checkpoint=response_review', { key: api.keys.reviewer })).items).toEqual([]);

    const detail = json<{ review: PendingReview; fields: { field: string; value: unknown; changed: boolean; hasDefault: boolean; provenance: { source: string } | null }[] }>(
      await api.call('GET', `/api/reviews/${first.review.reviewId}`, { key: api.keys.reviewer }),
    );
    assertContract('pending-review', detail.review, 'review');
    expect(detail.review.issues).toContainEqual(expect.objectContaining({ path: '/image', code: 'missing_required' }));
    const scale = detail.fields.find((f) => f.field === 'scale');
    expect(scale).toMatchObject({ value: 4, hasDefault: true, changed: false, provenance: { source: 'schema_default' } });
    expect(detail.fields.find((f) => f.field === 'image')).toMatchObject({ value: null, changed: false });
    expect((await api.call('GET', `/api/reviews/${first.review.reviewId}`, { key: api.keys.otherReviewer })).statusCode).toBe(404);
  });
});

describe('decisions', () => {
  it('edit: the edited payload is validated again and executes, provenance human_edit', async () => {
    const { runId, review } = await parked(imageMissing);
    const response = await decide(runId, { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'edit', edits: { image: 'https://cdn.test/x.png', scale: 2 } });
    expect(response.statusCode, response.body).toBe(200);
    expect(json(response)).toMatchObject({ route: 'validate' });
    const done = await settle(api.system, runId, ['completed']);
    expect(done.candidate?.payload).toMatchObject({ image: 'https://cdn.test/x.png', scale: 2 });
    expect(done.candidate?.provenance.scale?.source).toBe('human_edit');
  });

  it('edit with an invalid value or an unknown field is refused naming it, and the review stays pending', async () => {
    const { runId, review } = await parked(imageMissing);
    const bad = await decide(runId, { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'edit', edits: { scale: 99 } });
    expect(json(bad)).toMatchObject({ status: 400, code: 'EDIT_INVALID', field: 'edits.scale' });
    const unknown = await decide(runId, { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'edit', edits: { colour: 'red' } });
    expect(json(unknown)).toMatchObject({ code: 'EDIT_INVALID', field: 'edits.colour' });
    expect((await api.system.store.get(runId))?.pendingReviewId).toBe(review.reviewId);
  });

  it('approve executes; reject cancels with the reason; a terminal run refuses further actions with 409', async () => {
    const a = await parked(approvalNeeded);
    expect((await decide(a.runId, { reviewId: a.review.reviewId, payloadHash: a.review.payloadHash, action: 'approve' })).statusCode).toBe(200);
    await settle(api.system, a.runId, ['completed']);

    const r = await parked(approvalNeeded);
    const rejected = await decide(r.runId, { reviewId: r.review.reviewId, action: 'reject', reason: 'wrong crane' });
    expect(json<{ run: Run }>(rejected).run).toMatchObject({ status: 'cancelled', error: { message: 'wrong crane' } });
    for (const [method, url] of [['POST', `/api/runs/${r.runId}/pause`], ['POST', `/api/runs/${r.runId}/resume`], ['DELETE', `/api/runs/${r.runId}`]] as const) {
      expect((await api.call(method, url, { key: api.keys.reviewer })).statusCode).toBe(409);
    }
    expect((await decide(r.runId, { reviewId: r.review.reviewId, action: 'reject' })).statusCode).toBe(409);
  });

  it('a decision is bound to what the reviewer saw: stale review, wrong or missing payload hash', async () => {
    const { runId, review } = await parked(approvalNeeded);
    expect(json(await decide(runId, { reviewId: '00000000-0000-4000-8000-000000000000', payloadHash: review.payloadHash, action: 'approve' }))).toMatchObject({ status: 409, code: 'REVIEW_STALE', currentReviewId: review.reviewId });
    expect(json(await decide(runId, { reviewId: review.reviewId, payloadHash: 'a'.repeat(64), action: 'approve' }))).toMatchObject({ status: 409, code: 'PAYLOAD_HASH_MISMATCH' });
    expect(json(await decide(runId, { reviewId: review.reviewId, action: 'approve' }))).toMatchObject({ status: 400, field: 'payloadHash' });
    expect(json(await decide(runId, { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'approve', extra: 1 }))).toMatchObject({ status: 400, field: 'extra' });
  });

  it('approving over blocking issues is 422 unless the key may override; an override is recorded', async () => {
    const { runId, review } = await parked(imageMissing);
    const body = { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'approve' };
    expect(json(await decide(runId, body))).toMatchObject({ status: 422, code: 'BLOCKING_ISSUES' });
    expect(json(await decide(runId, { ...body, override: true }))).toMatchObject({ status: 403, field: 'override' });
    expect((await decide(runId, { ...body, override: true }, api.keys.override)).statusCode).toBe(200);
    await settle(api.system, runId, ['completed', 'failed']);
    const [decision] = await api.system.store.decisions(runId);
    expect(decision).toMatchObject({ override: true, action: 'approve' });
  });

  it('of 50 parallel decisions on one review exactly one succeeds; the rest get 409', async () => {
    const { runId, review } = await parked(approvalNeeded);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => decide(runId, { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'approve' })),
    );
    const codes = responses.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    await settle(api.system, runId, ['completed']);
    const decisions = await api.system.store.decisions(runId);
    expect(decisions).toHaveLength(1);
    expect(decisions[0]?.parsed).toMatchObject({ route: 'execute', status: 'executing', checkpoint: 'payload_review' });
    expect(await api.system.store.ledger.listForRun(runId)).toHaveLength(1);
    // The losers left no trace: one decision event, written just before the move it caused.
    const types = (await api.system.store.events(runId)).map((e) => e.type);
    expect(types.filter((t) => t === 'review.decided')).toHaveLength(1);
    expect(types.slice(types.indexOf('review.decided'), types.indexOf('review.decided') + 2)).toEqual(['review.decided', 'run.resumed']);
  });

  it('a quorum needs distinct reviewers; any reject ends it', async () => {
    const { runId, review } = await parked({ ...approvalNeeded, policy: { mode: 'require_human', quorum: 2 } });
    const body = { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'approve' };
    expect(json(await decide(runId, body))).toMatchObject({ route: 'await_quorum' });
    expect(json(await decide(runId, body))).toMatchObject({ status: 409, code: 'DECISION_CONFLICT' });
    expect(json(await decide(runId, body, api.keys.admin))).toMatchObject({ route: 'execute' });
    await settle(api.system, runId, ['completed']);

    const second = await parked({ ...approvalNeeded, policy: { mode: 'require_human', quorum: 2 } });
    await decide(second.runId, { reviewId: second.review.reviewId, payloadHash: second.review.payloadHash, action: 'approve' });
    expect(json(await decide(second.runId, { reviewId: second.review.reviewId, action: 'reject' }, api.keys.admin))).toMatchObject({ route: 'cancel' });
  });

  it('a re-registration under a new key with the same JSON Schema (an extractor upgrade) does not ask again', async () => {
    const { runId, review } = await parked(approvalNeeded);
    const before = await api.system.store.get(runId);
    const schema = await api.system.models.getSchema(before!.schemaKey!);
    await api.system.models.saveExtraction('sha256:same-schema-new-key', schema!, await api.system.models.getQuarantine(before!.schemaKey!));
    const entry = await api.system.models.resolveRef(before!.tenantId, 'black-forest-labs/flux-schnell');
    await api.system.models.repointRef(entry!, 'sha256:same-schema-new-key');
    const response = await decide(runId, { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'approve' });
    expect(json(response)).toMatchObject({ route: 'execute' });
    await settle(api.system, runId, ['completed']);
    // Put the catalog back for the tests after this one.
    await api.system.models.repointRef({ ...entry!, schemaKey: 'sha256:same-schema-new-key' }, entry!.schemaKey);
  });

  it("a schema change while parked raises a new review instead of executing the stale payload", async () => {
    const source = exampleModel('flux-schnell.model.json') as { latest_version: { id: string; openapi_schema: { components: { schemas: { Input: { properties: Record<string, unknown> } } } } } };
    const { runId, review } = await parked(approvalNeeded);
    source.latest_version.id = 'v2-with-a-new-field';
    source.latest_version.openapi_schema.components.schemas.Input.properties.style = { type: 'string', title: 'Style', default: 'none', 'x-order': 20 };
    await registerModel(api.system, { tenantId: 't1', source });
    // The decision is recorded and the engine checks the payload against the new schema: a person is asked again.
    const response = await decide(runId, { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'approve' });
    expect(json(response)).toMatchObject({ route: 'validate' });
    const run = await settle(api.system, runId, ['awaiting_human']);
    expect(run).toMatchObject({ status: 'awaiting_human', recheck: null, schemaKey: expect.stringMatching(/^version:v2-with-a-new-field@[a-f0-9]{64}$/) });
    expect(run.pendingReview).toMatchObject({ reason: 'schema_changed', checkpoint: 'payload_review' });
    expect(run.pendingReviewId).not.toBe(review.reviewId);
    expect(await api.system.store.ledger.listForRun(runId)).toHaveLength(0);
    const [decision] = await api.system.store.decisions(runId);
    expect(decision?.parsed).toMatchObject({ route: 'validate', recheck: 'schema_changed', schemaKey: run.schemaKey });
    // The review against the new schema is an ordinary one: approving it executes, once.
    const again = await decide(runId, { reviewId: run.pendingReviewId, payloadHash: run.pendingReview?.payloadHash, action: 'approve' });
    expect(json(again)).toMatchObject({ route: 'execute' });
    await settle(api.system, runId, ['completed']);
    expect(await api.system.store.ledger.listForRun(runId)).toHaveLength(1);
  });
});
