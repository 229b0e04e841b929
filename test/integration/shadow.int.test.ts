/**
 * Shadow mode through the real queues, PostgreSQL and the API: a shadowed run gets its report (the shadow
 * canaries: V2 leaks each one, V3 none) while the V3 run completes untouched; sampling follows the request and
 * the tenant's settings; a V2 failure is a failed report, never a V3 problem; the reports API is tenant-scoped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { runs, type RunRow, type ShadowReportRow } from '../../src/db/schema/index.ts';
import { registerModel } from '../../src/catalog/model-catalog.ts';
import { createLegacyV2Builder } from '../../src/shadow/legacy-v2-builder.ts';
import { keepBuiltRow, takeBuiltRow } from '../../src/shadow/built-rows.ts';
import { triggerShadow } from '../../src/shadow/trigger.ts';
import type { QueuedSystem, System } from '../../src/system.ts';
import { shadowRun } from '../../src/shadow/shadow-run.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { settle, submit } from '../support/pipeline.ts';
import { CANARY_MODEL_REF, CANARY_VALUES, PROMPT_ONLY, PROMPT_ONLY_LEAKS, PROMPT_ONLY_V2, PROMPT_ONLY_V3, shadowCanaryModel } from '../support/shadow-canary.ts';
import { eventually } from '../support/test-system.ts';

let api: ApiHarness;
let shadowed: { run: RunRow; report: ShadowReportRow };

beforeAll(async () => {
  api = await createApiHarness();
  await registerModel(api.system, { tenantId: '*', source: shadowCanaryModel() });
  const run = await submit(api.system, { model: CANARY_MODEL_REF, ...PROMPT_ONLY, shadow: true });
  shadowed = { run: await settle(api.system, run.id, ['completed']), report: await reportOf(api.system, run.id) };
});

afterAll(async () => {
  await api?.close();
});

async function reportOf(system: System, runId: string): Promise<ShadowReportRow> {
  return eventually(async () => (await system.shadowReports.listForRun(runId))[0], 15_000, `the shadow report of ${runId}`);
}

describe('a shadowed run (the canaries, through the queues)', () => {
  it('stores both payloads, and flags every canary V2 carried, with path, example value and match', () => {
    const { report } = shadowed;
    expect(report).toMatchObject({ status: 'ok', failureReason: null, tenantId: 't1', builder: 'heuristic', leakCount: 5, v3LeakCount: 0 });
    expect(report.v2Payload).toEqual(PROMPT_ONLY_V2);
    expect(report.v3Payload).toEqual(PROMPT_ONLY_V3);
    expect(report.leaks.map(({ path, exampleValue, match }) => ({ path, exampleValue, match }))).toEqual(PROMPT_ONLY_LEAKS);
    expect(report.v3Leaks).toEqual([]);
    expect(report.leakedFields).toEqual(['guidance_scale', 'image', 'negative_prompt', 'seed', 'style_preset']);
    expect(report.fieldsDiffering).toBe(5);
    expect(report.diff).toContainEqual({ type: 'CHANGE', path: ['guidance_scale'], value: 7.5, oldValue: 6.0221 });
  });

  it('leaves the V3 run alone: completed, V3 payload executed, no canary anywhere in it', async () => {
    const { run, report } = shadowed;
    expect(run.status).toBe('completed');
    expect(run.candidate?.payload).toEqual(report.v3Payload);
    const events = await api.system.store.events(run.id);
    expect(events.map((e) => e.type)).not.toContain('run.failed');
    const text = JSON.stringify({ candidate: run.candidate, result: run.result, events: events.map((e) => e.data) });
    for (const canary of CANARY_VALUES) expect(text).not.toContain(String(canary));
  });
});

describe('sampling', () => {
  it("shadows a tenant's runs at its rate, and a request's shadow: false opts out", async () => {
    await api.system.shadowSettings.upsert({ tenantId: 't2', sampleRate: 1, updatedBy: 'test' });
    const optedOut = await submit(api.system, { model: CANARY_MODEL_REF, prompt: 'a quiet bay', shadow: false }, 't2');
    const sampled = await submit(api.system, { model: CANARY_MODEL_REF, prompt: 'a quiet bay' }, 't2');
    await settle(api.system, optedOut.id, ['completed']);
    expect((await reportOf(api.system, sampled.id)).tenantId).toBe('t2');
    expect(await api.system.shadowReports.listForRun(optedOut.id)).toEqual([]);
  });

  it('does not shadow without a request flag, a setting or a default rate', async () => {
    const plain = await submit(api.system, { model: CANARY_MODEL_REF, prompt: 'a lone gull' });
    const marker = await submit(api.system, { model: CANARY_MODEL_REF, prompt: 'a lone gull', shadow: true });
    await settle(api.system, plain.id, ['completed']);
    await reportOf(api.system, marker.id);
    expect(await api.system.shadowReports.listForRun(plain.id)).toEqual([]);
  });
});

describe('failures stay in shadow mode', () => {
  it('a V2 builder that throws gives a failed report with the reason, and the V3 run is untouched', async () => {
    const run = await settle(api.system, (await submit(api.system, { model: CANARY_MODEL_REF, prompt: 'a red kite' })).id, ['completed']);
    const eventsBefore = await api.system.store.events(run.id);
    const throwing = createLegacyV2Builder({ name: 'exploding', build: () => Promise.reject(new Error('the LLM hung up')) });
    expect(await shadowRun(api.system, { runId: run.id, attempt: 3 }, { legacyFor: () => throwing })).toBe('reported');
    expect(await api.system.shadowReports.find(run.id, 3)).toMatchObject({
      status: 'failed',
      failureReason: 'V2 builder (v2:exploding) failed: the LLM hung up',
      v2Payload: null,
      v3Payload: run.candidate?.payload,
    });
    // A repeated job's insert finds the report: nothing changes.
    expect(await shadowRun(api.system, { runId: run.id, attempt: 3 })).toBe('duplicate');
    const after = await api.system.store.get(run.id);
    expect(after).toMatchObject({ status: 'completed', updatedAt: run.updatedAt });
    expect(await api.system.store.events(run.id)).toHaveLength(eventsBefore.length);
    expect(api.system.logs.some((line) => line.event === 'SHADOW_FAILED' && line.runId === run.id)).toBe(true);
  });

  it("reuses a deterministic builder's V3 candidate, and builds V2 again once a review edited the run", async () => {
    const run = await settle(api.system, (await submit(api.system, { model: CANARY_MODEL_REF, prompt: 'a grey heron' })).id, ['completed']);
    const heuristic = api.system.adapters.builder('heuristic');
    let builds = 0;
    const counting = createLegacyV2Builder({ ...heuristic, build: (input, options) => ((builds += 1), heuristic.build(input, options)) });
    expect(await shadowRun(api.system, { runId: run.id, attempt: 90 }, { legacyFor: () => counting })).toBe('reported');
    expect(builds).toBe(0);
    const reused = await api.system.shadowReports.find(run.id, 90);
    await api.system.database.db.update(runs).set({ reviewEdits: { seed: 7 } }).where(eq(runs.id, run.id));
    expect(await shadowRun(api.system, { runId: run.id, attempt: 91 }, { legacyFor: () => counting })).toBe('reported');
    expect(builds).toBe(1);
    // Same bundle and schema, so the rebuilt V2 payload is the one the reuse gave.
    expect((await api.system.shadowReports.find(run.id, 91))?.v2Payload).toEqual(reused?.v2Payload);
  });

  it("compares the row its build's move returned when that was in this process, and reads the run otherwise", async () => {
    const run = await settle(api.system, (await submit(api.system, { model: CANARY_MODEL_REF, prompt: 'a white egret' })).id, ['completed']);
    const candidate = { ...run.candidate!, payload: { ...run.candidate!.payload, prompt: 'as the build left it' } };
    keepBuiltRow(api.system, { ...run, candidate }, 70);
    expect(await shadowRun(api.system, { runId: run.id, attempt: 70 })).toBe('reported');
    expect((await api.system.shadowReports.find(run.id, 70))?.v3Payload).toMatchObject({ prompt: 'as the build left it' });
    // Taken once: another job for the same build reads the run (and finds the report written).
    expect(takeBuiltRow(api.system, run.id, 70)).toBeUndefined();
    expect(await shadowRun(api.system, { runId: run.id, attempt: 71 })).toBe('reported');
    expect((await api.system.shadowReports.find(run.id, 71))?.v3Payload).toEqual(run.candidate?.payload);
  });

  it('a shadow job that cannot be queued is logged, never thrown into the V3 path', async () => {
    const broken: QueuedSystem = { ...api.system, queues: { ...api.system.queues, enqueueShadow: () => Promise.reject(new Error('redis is down')) } };
    const decision = await triggerShadow(broken, { run: { ...shadowed.run, request: { ...shadowed.run.request, shadow: true } }, buildAttempt: 99 });
    expect(decision).toBeUndefined();
    expect(api.system.logs.some((line) => line.event === 'SHADOW_TRIGGER_FAILED' && line.reason === 'redis is down')).toBe(true);
  });
});

describe('GET /api/shadow/reports and /api/shadow/summary', () => {
  it("lists the caller's tenant's reports, filtered by model and field", async () => {
    const page = json<{ items: { runId: string; leakedFields: string[]; links: { run: string } }[]; nextCursor: string | null }>(
      await api.call('GET', `/api/shadow/reports?model=${CANARY_MODEL_REF}&field=image&limit=50`, { key: api.keys.reviewer }),
    );
    expect(page.items.map((r) => r.runId)).toContain(shadowed.run.id);
    expect(page.items.every((r) => r.leakedFields.includes('image'))).toBe(true);
    expect(page.items[0]?.links.run).toMatch(/^\/api\/runs\//);
    const none = json<{ items: unknown[] }>(await api.call('GET', '/api/shadow/reports?field=no_such_field', { key: api.keys.reviewer }));
    expect(none.items).toEqual([]);
    const other = json<{ items: { runId: string }[] }>(await api.call('GET', '/api/shadow/reports', { key: api.keys.otherReviewer }));
    expect(other.items.map((r) => r.runId)).not.toContain(shadowed.run.id);
  });

  it('pages with a cursor without repeats', async () => {
    const first = json<{ items: { id: string }[]; nextCursor: string | null }>(await api.call('GET', '/api/shadow/reports?limit=1', { key: api.keys.reviewer }));
    expect(first.nextCursor).not.toBeNull();
    const second = json<{ items: { id: string }[] }>(await api.call('GET', `/api/shadow/reports?limit=1&cursor=${first.nextCursor}`, { key: api.keys.reviewer }));
    expect(second.items[0]?.id).not.toBe(first.items[0]?.id);
  });

  it('summarises leak rates by model and field over 1h, 24h and 7d', async () => {
    const body = json<{ windows: { window: string; totals: { v3Leaks: number }; models: { model: string; leakRate: number }[]; fields: { field: string; leakRate: number }[] }[] }>(
      await api.call('GET', '/api/shadow/summary', { key: api.keys.reviewer }),
    );
    expect(body.windows.map((w) => w.window)).toEqual(['1h', '24h', '7d']);
    const hour = body.windows[0];
    expect(hour?.totals.v3Leaks).toBe(0);
    expect(hour?.models.find((m) => m.model === CANARY_MODEL_REF)?.leakRate).toBeGreaterThan(0);
    expect(hour?.fields.map((f) => f.field)).toEqual(expect.arrayContaining(['image', 'seed', 'style_preset']));
  });

  it('is documented in the OpenAPI document', async () => {
    const openapi = json<{ paths: Record<string, unknown> }>(await api.call('GET', '/openapi.json', { key: null }));
    expect(Object.keys(openapi.paths)).toEqual(expect.arrayContaining(['/api/shadow/reports', '/api/shadow/summary']));
  });

  it('needs shadow:read, and names the field of a bad query (problem+json)', async () => {
    expect((await api.call('GET', '/api/shadow/reports', { key: api.keys.submitter })).statusCode).toBe(403);
    const bad = await api.call('GET', '/api/shadow/reports?since=yesterday', { key: api.keys.reviewer });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toContain('application/problem+json');
    expect(json(bad)).toMatchObject({ code: 'INVALID_REQUEST', field: 'querystring.since' });
    expect(json(await api.call('GET', '/api/shadow/summary?windows=1h,soon', { key: api.keys.reviewer }))).toMatchObject({ status: 400, field: 'querystring.windows' });
  });
});
