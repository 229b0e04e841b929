/**
 * A reviewer sends a parked run to another catalog model (the change_model decision), over HTTP on real services:
 * the run goes back to extract, assemble and build for the new model, keeps what people gave that fits it, and
 * completes there; the audit trail and the timeline name the old and the new model. Models of another tenant,
 * or not in the catalog, and callers without the permission are refused naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerModel } from '../../src/catalog/model-catalog.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { exampleModel, settle } from '../support/pipeline.ts';

let api: ApiHarness;

beforeAll(async () => {
  api = await createApiHarness();
  await registerModel(api.system, { tenantId: 't1', source: exampleModel('sdxl.model.json') });
  // The same model, known to tenant t2 only under a name of its own.
  await registerModel(api.system, { tenantId: 't2', source: exampleModel('sdxl.model.json'), ref: 'other-tenant/sdxl-copy' });
});

afterAll(async () => {
  await api?.close();
});

async function submit(body: Record<string, unknown>): Promise<string> {
  const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body });
  expect(response.statusCode, response.body).toBe(202);
  return json<{ id: string }>(response).id;
}

function decide(runId: string, body: Record<string, unknown>, key = api.keys.reviewer) {
  return api.call('POST', `/api/runs/${runId}/decision`, { key, body });
}

describe('change_model at an information review', () => {
  it('builds the run for the named model, which it completes on, with both models in the audit and the timeline', async () => {
    const id = await submit({ model: 'black-forest-labs/flux-schnell' });
    const parked = await settle(api.system, id, ['awaiting_human']);
    const review = parked.pendingReview!;
    expect(review).toMatchObject({ checkpoint: 'information_review' });
    expect(review.actions?.map((o) => o.id)).toContain('change_model');
    expect(parked.model).toBe('black-forest-labs/flux-schnell');

    const changed = await decide(id, { reviewId: review.reviewId, action: 'change_model', model: 'nightmareai/real-esrgan', reason: 'the user wants their photo upscaled' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(json(changed)).toMatchObject({ route: 'extract' });

    // The new model's schema: the request still has nothing to build from, so its person is asked again, for it.
    const again = await settle(api.system, id, ['awaiting_human']);
    expect(again.pendingReview?.reviewId).not.toBe(review.reviewId);
    expect(again.pendingReview?.checkpoint).toBe('information_review');
    expect(again).toMatchObject({ model: 'nightmareai/real-esrgan', request: { model: 'nightmareai/real-esrgan' } });
    expect(again.schemaKey).not.toBe(parked.schemaKey);

    const edited = await decide(id, { reviewId: again.pendingReview!.reviewId, payloadHash: again.pendingReview!.payloadHash, action: 'edit', edits: { image: 'https://example.com/cat.png' } });
    expect(edited.statusCode, edited.body).toBe(200);
    const done = await settle(api.system, id, ['completed']);
    expect(done.candidate?.payload).toMatchObject({ image: 'https://example.com/cat.png' });
    expect(done.candidate?.payload).not.toHaveProperty('prompt');
    const executions = await api.system.store.ledger.listForRun(id);
    expect(executions).toHaveLength(1);

    const decisions = await api.system.store.decisions(id);
    expect(decisions[0]).toMatchObject({ action: 'change_model', parsed: { route: 'extract', status: 'extracting', fromModel: 'black-forest-labs/flux-schnell', toModel: 'nightmareai/real-esrgan' } });
    const events = await api.system.store.events(id);
    expect(events.find((e) => e.type === 'review.decided' && e.data.action === 'change_model')?.data).toMatchObject({ fromModel: 'black-forest-labs/flux-schnell', toModel: 'nightmareai/real-esrgan' });
    expect(events.find((e) => e.type === 'run.resumed' && e.data.route === 'extract')?.data).toMatchObject({ fromModel: 'black-forest-labs/flux-schnell', toModel: 'nightmareai/real-esrgan', nextStage: 'extract' });
    // The stages ran again from the first, for the new model: extract, then assemble, which asked again.
    const after = events.slice(events.findIndex((e) => e.type === 'run.resumed')).filter((e) => e.type === 'stage.completed' || e.type === 'review.created');
    expect(after.slice(0, 2).map((e) => [e.type, e.data.nextStage ?? e.data.checkpoint])).toEqual([['stage.completed', 'assemble'], ['review.created', 'information_review']]);
  });
});

describe('change_model at a payload review', () => {
  it("keeps the user's edits that fit the new model, drops the rest and says which, and nothing the builder made", async () => {
    const id = await submit({ model: 'black-forest-labs/flux-schnell', prompt: 'a red kite over the sea', policy: 'require_human', edits: { seed: 7, go_fast: false } });
    const parked = await settle(api.system, id, ['awaiting_human']);
    expect(parked.pendingReview).toMatchObject({ checkpoint: 'payload_review' });
    expect(parked.candidate?.payload).toMatchObject({ go_fast: false, seed: 7 });

    const changed = await decide(id, { reviewId: parked.pendingReview!.reviewId, action: 'change_model', model: 'stability-ai/sdxl' });
    expect(changed.statusCode, changed.body).toBe(200);
    const again = await settle(api.system, id, ['awaiting_human']);
    expect(again.pendingReview).toMatchObject({ checkpoint: 'payload_review' });
    expect(again.model).toBe('stability-ai/sdxl');
    expect(again.request).toMatchObject({ prompt: 'a red kite over the sea', edits: { seed: 7 } });
    expect(again.request.edits).not.toHaveProperty('go_fast');
    expect(again.candidate?.payload).toMatchObject({ seed: 7 });
    expect(again.candidate?.payload).not.toHaveProperty('go_fast');
    expect((await api.system.store.decisions(id))[0]?.parsed).toMatchObject({ droppedEdits: ['go_fast'] });

    const approved = await decide(id, { reviewId: again.pendingReview!.reviewId, payloadHash: again.pendingReview!.payloadHash, action: 'approve' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await settle(api.system, id, ['completed'])).status).toBe('completed');
  });
});

describe('change_model refusals', () => {
  it('refuses a model of another tenant, one not in the catalog, a missing model, the same model and a caller without the permission', async () => {
    const id = await submit({ model: 'black-forest-labs/flux-schnell', prompt: 'a lighthouse', policy: 'require_human' });
    const parked = await settle(api.system, id, ['awaiting_human']);
    const reviewId = parked.pendingReview!.reviewId;

    const otherTenant = await decide(id, { reviewId, action: 'change_model', model: 'other-tenant/sdxl-copy' });
    expect(otherTenant.statusCode).toBe(404);
    expect(json(otherTenant)).toMatchObject({ code: 'MODEL_NOT_FOUND', field: 'model' });

    const unknown = await decide(id, { reviewId, action: 'change_model', model: 'nobody/nothing' });
    expect(json(unknown)).toMatchObject({ code: 'MODEL_NOT_FOUND', field: 'model' });

    const missing = await decide(id, { reviewId, action: 'change_model' });
    expect(missing.statusCode).toBe(400);
    expect(json(missing)).toMatchObject({ field: 'model' });

    const same = await decide(id, { reviewId, action: 'change_model', model: 'black-forest-labs/flux-schnell' });
    expect(same.statusCode).toBe(400);
    expect(json(same)).toMatchObject({ field: 'model' });

    const modelWithApprove = await decide(id, { reviewId, payloadHash: parked.pendingReview!.payloadHash, action: 'approve', model: 'stability-ai/sdxl' });
    expect(modelWithApprove.statusCode).toBe(400);
    expect(json(modelWithApprove)).toMatchObject({ field: 'model' });

    const submitter = await decide(id, { reviewId, action: 'change_model', model: 'stability-ai/sdxl' }, api.keys.submitter);
    expect(submitter.statusCode).toBe(403);

    // Nothing moved: the review is still the one pending, for the first model.
    const still = await api.system.store.get(id);
    expect(still).toMatchObject({ status: 'awaiting_human', pendingReviewId: reviewId, model: 'black-forest-labs/flux-schnell' });
    expect(await api.system.store.decisions(id)).toHaveLength(0);
  });
});
