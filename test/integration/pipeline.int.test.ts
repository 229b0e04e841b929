/**
 * The pipeline on real Redis and PostgreSQL: requests go in through intake, BullMQ workers run the five
 * stages, runs end executed, parked (with no job left in Redis) or failed with a reason naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expiryBucket, expiryJobId } from '../../src/queue/queues.ts';
import { submitRun } from '../../src/intake/submit-run.ts';
import { extractModelSchema, extractionCacheKey } from '../../src/stages/schema-extractor/index.ts';
import { decide } from '../../src/review/decide-on-run.ts';
import { startWorkers, type RunningWorkers } from '../../workers/start-workers.ts';
import { exampleModel, jobsInRedis, registerExamples, settle, submit, TENANT } from '../support/pipeline.ts';
import { createTestSystem, type TestSystem } from '../support/test-system.ts';

let system: TestSystem;
let workers: RunningWorkers;

beforeAll(async () => {
  system = await createTestSystem();
  workers = startWorkers(system);
  await registerExamples(system);
});

afterAll(async () => {
  await workers?.close();
  await system?.dispose();
});

const reviewer = { id: 'reviewer:alice', canOverride: false };

describe('a request that can run', () => {
  it('goes through every stage and executes on the dry provider with values from the user and the schema only', async () => {
    const created = await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a lighthouse at dawn, seed=77' });
    expect(created.status).toBe('queued');
    const run = await settle(system, created.id);
    expect(run.status).toBe('completed');
    expect(run.result?.provider).toBe('dry');
    const payload = run.candidate?.payload as Record<string, unknown>;
    expect(payload.prompt).toContain('lighthouse at dawn');
    expect(payload.seed).toBe(77);
    expect((run.result?.output as { input: unknown }).input).toEqual(payload);
    expect(JSON.stringify(payload)).not.toContain('gateau');

    const events = await system.store.events(run.id);
    expect(events.map((e) => e.type)).toEqual(['run.created', 'stage.completed', 'stage.completed', 'stage.completed', 'stage.completed', 'run.completed']);
    expect(events.every((e) => e.traceId === run.traceId && e.threadId === run.threadId)).toBe(true);
    expect(await system.store.ledger.listForRun(run.id)).toHaveLength(1);
    await expect.poll(() => jobsInRedis(system, run.id), { timeout: 15_000 }).toBe(0);
  });

  it('uses the attachment for the audio field of a version-object model', async () => {
    const run = await settle(system, (await submit(system, {
      model: 'openai/whisper', prompt: 'transcribe this',
      attachments: [{ url: 'https://cdn.test/talk.wav', mimeType: 'audio/wav' }],
    })).id);
    expect(run.status).toBe('completed');
    expect((run.candidate?.payload as Record<string, unknown>).audio).toBe('https://cdn.test/talk.wav');
    expect(run.candidate?.provenance.audio?.source).toBe('attachment');
  });

  it('accepts the model inline as modelSource', async () => {
    const run = await settle(system, (await submit(system, { modelSource: exampleModel('sticker-maker.tool.json'), prompt: 'a cactus sticker' })).id);
    expect(run.status).toBe('completed');
    expect(run.model).toBe('fofr/sticker-maker');
  });

  it("an inline source that claims another model's version id gets its own extraction, not a shared one", async () => {
    // One tenant sends a forged flux-schnell under its real version id, with a planted default and no example.
    const genuine = exampleModel('flux-schnell.model.json') as { latest_version: { id: string }; default_example: { input: Record<string, unknown> } };
    const forged = structuredClone(genuine) as unknown as { latest_version: { openapi_schema: { components: { schemas: { Input: { properties: Record<string, unknown> } } } } }; default_example: null };
    forged.latest_version.openapi_schema.components.schemas.Input.properties.extra_text = { type: 'string', default: 'PLANTED-BY-OTHER-TENANT' };
    forged.default_example = null;
    const planted = await settle(system, (await submit(system, { modelSource: forged, prompt: 'a fox' }, 'tenant-forger')).id);
    expect((planted.candidate?.payload as Record<string, unknown>).extra_text).toBe('PLANTED-BY-OTHER-TENANT');

    // Another tenant's genuine source with the same id: its own schema, and its own examples in the firewall.
    const honest = await settle(system, (await submit(system, { modelSource: genuine, prompt: 'a lighthouse' }, 'tenant-honest')).id);
    expect(honest.status).toBe('completed');
    expect(honest.schemaKey).not.toBe(planted.schemaKey);
    expect(honest.candidate?.payload).not.toHaveProperty('extra_text');
    const quarantine = await system.models.getQuarantine(honest.schemaKey as string);
    expect(quarantine.size).toBeGreaterThan(0);
    expect(quarantine.entries().map((entry) => entry.value)).toContain(genuine.default_example.input.prompt);
  });
});

describe('an extractor upgrade', () => {
  it('re-extracts a catalog entry an older extractor made, re-points it, and runs on the fresh schema', async () => {
    const source = exampleModel('flux-schnell.model.json') as Record<string, unknown>;
    const fresh = extractModelSchema(source);
    // What an older extractor stored: the same source, but before the `safety` role existed.
    const oldKey = 'sha256:made-by-an-older-extractor';
    const oldSchema = structuredClone(fresh.modelSchema);
    for (const field of oldSchema.fields) if (field.role === 'safety') field.role = 'other';
    await system.models.saveExtraction(oldKey, oldSchema, fresh.quarantine);
    const entry = { tenantId: 'tenant-upgrade', ref: 'black-forest-labs/flux-schnell' };
    await system.models.registerModel({ ...entry, refs: [entry.ref], schemaKey: oldKey, source });

    const run = await settle(system, (await submit(system, { model: entry.ref, prompt: 'a lighthouse' }, entry.tenantId)).id);
    expect(run.status).toBe('completed');
    expect(run.schemaKey).toBe(extractionCacheKey(source));
    expect((await system.models.resolveRef(entry.tenantId, entry.ref))?.schemaKey).toBe(fresh.cacheKey);
    const stored = await system.models.getSchema(fresh.cacheKey);
    expect(stored?.fields.find((f) => f.name === 'disable_safety_checker')?.role).toBe('safety');
    expect(system.logs.some((l) => l.event === 'MODEL_REEXTRACTED' && l.from === oldKey && l.to === fresh.cacheKey)).toBe(true);
  });
});

describe('an extractor upgrade that refuses a registered source', () => {
  it('keeps the entry serving what it was registered with, and warns, instead of failing every run', async () => {
    const fresh = extractModelSchema(exampleModel('flux-schnell.model.json'));
    const oldKey = 'sha256:registered-before-a-stricter-extractor';
    await system.models.saveExtraction(oldKey, fresh.modelSchema, fresh.quarantine);
    // Both shapes at once: refused by today's extractor, accepted by an older one.
    const source = { model: 'black-forest-labs/flux-schnell', example_input: { prompt: 'x' }, id: 'v', openapi_schema: {} };
    const entry = { tenantId: 'tenant-strict', ref: 'black-forest-labs/flux-schnell' };
    await system.models.registerModel({ ...entry, refs: [entry.ref], schemaKey: oldKey, source });
    const run = await settle(system, (await submit(system, { model: entry.ref, prompt: 'a lighthouse' }, entry.tenantId)).id);
    expect(run.status).toBe('completed');
    expect(run.schemaKey).toBe(oldKey);
    expect(system.logs.some((l) => l.event === 'MODEL_REEXTRACT_REFUSED' && l.ref === entry.ref)).toBe(true);
  });
});

describe('a request that parks', () => {
  it('parks awaiting_human with one pending review and no job in Redis, then an edit resolves it', async () => {
    const run = await settle(system, (await submit(system, { model: 'nightmareai/real-esrgan', prompt: 'upscale with face enhance' })).id);
    expect(run.status).toBe('awaiting_human');
    const review = run.pendingReview!;
    expect(review).toMatchObject({ checkpoint: 'payload_review', reason: 'validation_failed', kind: 'clarification' });
    expect(review.issues).toContainEqual(expect.objectContaining({ path: '/image', code: 'missing_required', severity: 'blocking' }));
    expect(JSON.stringify(run.candidate)).not.toContain('replicate.delivery');
    // No job is left in Redis for a parked run. Its expiry is covered by the delayed job of its expiry
    // bucket, shared by every review due in the same few seconds.
    await expect.poll(() => jobsInRedis(system, run.id), { timeout: 15_000 }).toBe(0);
    expect(await system.queues.expiry.getJobState(expiryJobId(expiryBucket(new Date(review.expiresAt))))).toBe('delayed');
    expect(system.logs.some((l) => l.event === 'HITL_CREATED' && l.runId === run.id && l.traceId === run.traceId)).toBe(true);

    const { plan } = await decide(system, {
      runId: run.id, tenantId: TENANT, actor: reviewer,
      body: { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'edit', edits: { image: 'https://cdn.test/me.jpg' } },
    });
    expect(plan.route).toBe('validate');
    const done = await settle(system, run.id, ['completed', 'failed', 'cancelled']);
    expect(done.status).toBe('completed');
    expect((done.result?.output as { input: Record<string, unknown> }).input.image).toBe('https://cdn.test/me.jpg');
    expect(done.candidate?.provenance.image?.source).toBe('human_edit');

    const decisions = await system.store.decisions(run.id);
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({ actor: 'reviewer:alice', action: 'edit', reviewId: review.reviewId, override: false });
    expect(decisions[0]?.edits).toEqual({ image: 'https://cdn.test/me.jpg' });
  });

  it('require_human parks a valid payload; approval executes it exactly once', async () => {
    const run = await settle(system, (await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a fox', policy: 'require_human' })).id);
    expect(run.pendingReview?.reason).toBe('policy_requires_human');
    await decide(system, { runId: run.id, tenantId: TENANT, actor: reviewer, body: { reviewId: run.pendingReview!.reviewId, action: 'approve' } });
    const done = await settle(system, run.id, ['completed']);
    expect(done.approvedPayloadHash).toBe(run.pendingReview!.payloadHash);
    expect(await system.store.ledger.listForRun(run.id)).toHaveLength(1);
  });

  it('reject cancels the run with the reason', async () => {
    const run = await settle(system, (await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a fox', policy: 'require_human' })).id);
    await decide(system, { runId: run.id, tenantId: TENANT, actor: reviewer, body: { reviewId: run.pendingReview!.reviewId, action: 'reject', reason: 'not today' } });
    const done = await system.store.get(run.id);
    expect(done).toMatchObject({ status: 'cancelled', error: { code: 'REJECTED', message: 'not today' }, pendingReview: null });
    expect(await system.store.ledger.listForRun(run.id)).toHaveLength(0);
  });

  it('of 20 concurrent decisions on one review, exactly one lands', async () => {
    const run = await settle(system, (await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'a fox', policy: 'require_human' })).id);
    const body = { reviewId: run.pendingReview!.reviewId, action: 'approve' };
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => decide(system, { runId: run.id, tenantId: TENANT, actor: { id: `r${i}`, canOverride: false }, body })),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes.filter((o) => o.status === 'rejected')) {
      expect((outcome as PromiseRejectedResult).reason.code).toBe('DECISION_CONFLICT');
    }
    expect(await system.store.decisions(run.id)).toHaveLength(1);
    await settle(system, run.id, ['completed']);
    expect(await system.store.ledger.listForRun(run.id)).toHaveLength(1);
  });
});

describe('bad input', () => {
  const notStored = async (request: Record<string, unknown>) => {
    const before = await system.store.list({ kind: 'recent', statuses: ['queued', 'failed'], tenantId: TENANT, limit: 1000 });
    const refused = await submitRun(system, { tenantId: TENANT, actor: 'test', request }).then(() => undefined, (error: unknown) => error);
    expect(await system.store.list({ kind: 'recent', statuses: ['queued', 'failed'], tenantId: TENANT, limit: 1000 })).toHaveLength(before.length);
    return refused;
  };

  const unsupported = { id: 'v1', openapi_schema: { components: { schemas: { Input: { type: 'object', properties: { a: { type: 'string', not: { enum: ['x'] } } } } } } } };
  it.each([
    ['an unknown model reference', 'MODEL_NOT_FOUND', 'model', { model: 'nobody/nothing', prompt: 'x' }],
    ['an inline model with neither schema nor example', 'MODEL_SOURCE_INVALID', 'modelSource.latest_version.openapi_schema', { modelSource: { owner: 'a', name: 'b' }, prompt: 'x' }],
    ['an inline schema with an unsupported construct', 'SCHEMA_UNSUPPORTED', 'modelSource.a', { model: 'a/b', modelSource: unsupported, prompt: 'x' }],
    ['an oversized attachment', 'ATTACHMENT_REJECTED', 'attachments[0].sizeBytes', { model: 'black-forest-labs/flux-schnell', attachments: [{ url: 'https://cdn.test/huge.png', mimeType: 'image/png', sizeBytes: 10 ** 12 }] }],
    ['a model reference that contradicts the inline model', 'INVALID_REQUEST', 'model', { model: 'stability-ai/sdxl', modelSource: exampleModel('flux-schnell.model.json'), prompt: 'x' }],
  ])('%s is refused at intake with %s naming %s, and nothing is stored', async (_label, code, field, request) => {
    const refused = await notStored(request);
    expect(refused).toMatchObject({ code, field });
  });

  it('a model reference that agrees with the inline source, or names what a version object leaves open, is accepted', async () => {
    const flux = exampleModel('flux-schnell.model.json') as { latest_version: { id: string } };
    for (const request of [
      { model: 'black-forest-labs/flux-schnell', modelSource: flux, prompt: 'a fox' },
      { model: `black-forest-labs/flux-schnell:${flux.latest_version.id}`, modelSource: flux, prompt: 'a fox' },
      { model: 'openai/whisper', modelSource: exampleModel('whisper.version.json'), prompt: 'transcribe', attachments: [{ url: 'https://cdn.test/a.wav', mimeType: 'audio/wav' }] },
    ]) {
      const run = await settle(system, (await submit(system, request)).id);
      expect(run.status).toBe('completed');
      expect(run.model).toBe(request.model);
    }
  });

  it.each([
    [{ model: 'black-forest-labs/flux-schnell', prompt: 'a fox', edits: { widht: 512 } }, 'INVALID_REQUEST', 'edits.widht'],
    // Stored without intake's checks: what a worker does when the catalog lost the model after intake.
    [{ model: 'nobody/nothing', prompt: 'x' }, 'MODEL_NOT_FOUND', 'model'],
  ])('%j fails the run in the worker with %s naming the field', async (request, code, field) => {
    const { run: stored } = await system.store.insert(
      { id: system.newId(), tenantId: TENANT, status: 'queued', stage: 'extract', attempt: 0, traceId: system.newId(), threadId: 'th', model: request.model, builder: 'heuristic', provider: 'dry', policy: { mode: 'auto' }, request },
      { type: 'run.created', actor: 'test', data: {} },
    );
    await system.queues.enqueueStage({ runId: stored.id, stage: 'extract', attempt: 0 });
    const run = await settle(system, stored.id, ['failed']);
    expect(run.error).toMatchObject({ code, field });
    expect(run.error?.message).toContain(field === 'model' ? 'nobody/nothing' : 'widht');
    await expect.poll(() => jobsInRedis(system, run.id), { timeout: 15_000 }).toBe(0);
  });

  it('refuses a malformed request before writing anything, naming the field', async () => {
    await expect(submitRun(system, { tenantId: TENANT, actor: 'test', request: { model: 'a/b', attachments: [{ url: 'javascript:alert(1)', mimeType: 'image/png' }] } }))
      .rejects.toMatchObject({ code: 'INVALID_REQUEST', field: 'attachments[0].url' });
    await expect(submitRun(system, { tenantId: TENANT, actor: 'test', request: { prompt: 'no model' } })).rejects.toMatchObject({ field: 'model' });
  });

  it('refuses text PostgreSQL cannot store (NUL, a lone surrogate) naming the field, instead of a driver error', async () => {
    const flux = 'black-forest-labs/flux-schnell';
    expect(await notStored({ model: flux, prompt: '\u0000 a fox' })).toMatchObject({ code: 'INVALID_REQUEST', field: 'prompt' });
    expect(await notStored({ model: flux, prompt: 'a fox', conversation: [{ role: 'user', content: 'hi \ud800' }] })).toMatchObject({ field: 'conversation[0].content' });
    expect(await notStored({ modelSource: { model: 'acme/x', example_input: { prompt: 'x\u0000' } }, prompt: 'a fox' })).toMatchObject({ field: 'modelSource.example_input.prompt' });
  });
});

describe('listing runs', () => {
  it('by status, newest first (what `vetted runs` shows)', async () => {
    const older = await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'first of two', policy: 'require_human' });
    const newer = await submit(system, { model: 'black-forest-labs/flux-schnell', prompt: 'second of two', policy: 'require_human' });
    await settle(system, older.id, ['awaiting_human']);
    await settle(system, newer.id, ['awaiting_human']);
    const listed = await system.store.list({ kind: 'recent', statuses: ['awaiting_human'], tenantId: TENANT, limit: 1000 });
    expect(listed[0]?.id).toBe(newer.id);
    expect(listed.map((run) => run.id).filter((id) => id === older.id || id === newer.id)).toEqual([newer.id, older.id]);
  });
});

describe('idempotent enqueue', () => {
  it('the same requestKey for the same tenant returns the existing run; another tenant gets its own', async () => {
    const request = { model: 'black-forest-labs/flux-schnell', prompt: 'once', requestKey: 'order-42' };
    const first = await submitRun(system, { tenantId: TENANT, request, actor: 'test' });
    const second = await submitRun(system, { tenantId: TENANT, request, actor: 'test' });
    expect(first.created).toBe(true);
    expect(second.created).toBe(false);
    expect(second.run.id).toBe(first.run.id);
    // The same key with another body is refused, naming the first run: it is not silently answered with it.
    await expect(submitRun(system, { tenantId: TENANT, request: { ...request, prompt: 'twice' }, actor: 'test' })).rejects.toMatchObject({
      code: 'REQUEST_KEY_REUSED', field: 'requestKey', details: { runId: first.run.id },
    });
    await system.models.registerModel({ tenantId: 'other', refs: ['black-forest-labs/flux-schnell'], schemaKey: (await system.models.resolveRef(TENANT, 'black-forest-labs/flux-schnell'))!.schemaKey, source: {} });
    const other = await submitRun(system, { tenantId: 'other', request, actor: 'test' });
    expect(other.created).toBe(true);
    expect(other.run.id).not.toBe(first.run.id);
    await settle(system, first.run.id, ['completed']);
    expect(await system.store.ledger.listForRun(first.run.id)).toHaveLength(1);
  });
});
