/** The HTTP API for runs on real Fastify, Redis and PostgreSQL: submit, read, list, auth, bad input. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../src/errors.ts';
import { assertContract } from '../../src/schema/contracts.ts';
import { settle } from '../support/pipeline.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';

let api: ApiHarness;

beforeAll(async () => {
  api = await createApiHarness();
});

afterAll(async () => {
  await api?.close();
});

const flux = { model: 'black-forest-labs/flux-schnell', prompt: 'a heron in the fog' };

async function submitOk(body: Record<string, unknown>, key = api.keys.submitter): Promise<string> {
  const response = await api.call('POST', '/api/runs', { key, body });
  expect(response.statusCode, response.body).toBe(202);
  return json<{ id: string }>(response).id;
}

describe('POST /api/runs and GET /api/runs/:id', () => {
  it('accepts a request (202 with links), stores it before answering, and the run completes', async () => {
    const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: flux });
    expect(response.statusCode).toBe(202);
    const accepted = json<{ id: string; status: string; created: boolean; links: Record<string, string> }>(response);
    expect(accepted).toMatchObject({ status: 'queued', created: true, links: { self: `/api/runs/${accepted.id}`, events: `/api/runs/${accepted.id}/events` } });
    expect(response.headers.location).toBe(`/api/runs/${accepted.id}`);
    expect(await api.system.store.get(accepted.id)).toBeDefined();

    await settle(api.system, accepted.id, ['completed']);
    const run = json(await api.call('GET', `/api/runs/${accepted.id}`, { key: api.keys.submitter }));
    assertContract('run', run, 'GET /api/runs/:id');
    expect(run).toMatchObject({ id: accepted.id, status: 'completed', stage: 'execute', tenantId: 't1' });
    const timings = run.timings as { totalMs: number; stagesMs: Record<string, number> };
    expect(timings.totalMs).toBeGreaterThan(0);
    expect(Object.keys(timings.stagesMs).sort()).toEqual(['assemble', 'build', 'extract', 'validate']);
  });

  it('answers a path that is no route with a catalogued 404 (ROUTE_NOT_FOUND) pointing at the document', async () => {
    const answer = await api.call('GET', '/api/no-such-thing?x=1', { key: api.keys.submitter });
    expect(answer.statusCode).toBe(404);
    expect(json(answer)).toMatchObject({ code: 'ROUTE_NOT_FOUND', title: 'No such route', detail: 'No route GET /api/no-such-thing: see /openapi.json for the API\'s routes' });
    expect(Object.keys(ERROR_CATALOGUE)).toContain(json(answer).code);
  });

  it('is idempotent on requestKey: the same run comes back with 200', async () => {
    const body = { ...flux, requestKey: 'api-idem-1' };
    const first = await api.call('POST', '/api/runs', { key: api.keys.submitter, body });
    const second = await api.call('POST', '/api/runs', { key: api.keys.submitter, body });
    expect([first.statusCode, second.statusCode]).toEqual([202, 200]);
    expect(json(second)).toMatchObject({ id: json(first).id, created: false });
  });

  it('GET /api/runs/:id/state has what a session needs to resume', async () => {
    const id = await submitOk(flux);
    await settle(api.system, id, ['completed']);
    const state = json<{ run: { id: string }; request: unknown; events: { type: string }[]; executions: { step: string }[]; decisions: unknown[] }>(
      await api.call('GET', `/api/runs/${id}/state`, { key: api.keys.submitter }),
    );
    expect(state.run.id).toBe(id);
    expect(state.request).toMatchObject(flux);
    expect(state.events.at(-1)?.type).toBe('run.completed');
    expect(state.executions.map((e) => e.step)).toEqual(['execute:1']);
    expect(state.decisions).toEqual([]);
  });
});

describe('listing', () => {
  it('filters by status, user and session, and pages with a cursor without repeats', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await submitOk({ ...flux, userId: 'lister', sessionId: `s-${i % 2}` }));
    for (const id of ids) await settle(api.system, id, ['completed']);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { id: string; userId: string }[]; nextCursor: string | null } = json(
        await api.call('GET', `/api/runs?userId=lister&status=completed&limit=2${cursor ? `&cursor=${cursor}` : ''}`, { key: api.keys.reviewer }),
      );
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((r) => r.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual([...ids].sort());

    const session = json<{ items: { sessionId: string }[] }>(await api.call('GET', '/api/runs?sessionId=s-1', { key: api.keys.reviewer }));
    expect(session.items.map((r) => r.sessionId)).toEqual(['s-1', 's-1']);
  });

  it('lists resumable runs by session and by user', async () => {
    const id = await submitOk({ ...flux, policy: 'require_human', sessionId: 'resume-me', userId: 'u-resume' });
    await settle(api.system, id, ['awaiting_human']);
    for (const url of ['/api/sessions/resume-me/runs/active', '/api/runs/active?userId=u-resume']) {
      const active = json<{ items: { id: string; status: string }[] }>(await api.call('GET', url, { key: api.keys.submitter }));
      expect(active.items).toEqual([expect.objectContaining({ id, status: 'awaiting_human' })]);
    }
    expect((await api.call('GET', '/api/runs/active', { key: api.keys.submitter })).statusCode).toBe(400);
  });
});

describe('auth: keys, roles and tenants', () => {
  it('401 without a key or with a wrong one, naming what to send', async () => {
    const missing = await api.call('GET', '/api/runs', { key: null });
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['content-type']).toContain('application/problem+json');
    expect(json(missing)).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect((await api.call('GET', '/api/runs', { key: 'vt_aaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' })).statusCode).toBe(401);
    expect((await api.call('GET', '/api/runs', { key: 'not-a-key' })).statusCode).toBe(401);
  });

  it('403 for a role without the permission', async () => {
    const response = await api.call('POST', '/api/runs', { key: api.keys.reviewer, body: flux });
    expect(response.statusCode).toBe(403);
    expect(json(response)).toMatchObject({ code: 'FORBIDDEN', role: 'reviewer', needs: 'runs:create' });
    expect((await api.call('GET', '/api/reviews/pending', { key: api.keys.submitter })).statusCode).toBe(403);
  });

  it("another tenant's run is 404, and never appears in its listings", async () => {
    const id = await submitOk(flux);
    expect((await api.call('GET', `/api/runs/${id}`, { key: api.keys.other })).statusCode).toBe(404);
    expect((await api.call('POST', `/api/runs/${id}/pause`, { key: api.keys.otherReviewer })).statusCode).toBe(404);
    expect((await api.call('DELETE', `/api/runs/${id}`, { key: api.keys.other })).statusCode).toBe(404);
    const listed = json<{ items: unknown[] }>(await api.call('GET', '/api/runs', { key: api.keys.other }));
    expect(listed.items).toEqual([]);
  });
});

describe('secrets in what the API shows', () => {
  it('masks credentials in signed attachment URLs in every view, while the stored run keeps what the provider needs', async () => {
    const signed = 'https://files.test/u/cat.png?X-Amz-Signature=SIGNATURE-VALUE-123&w=1';
    const id = await submitOk({ ...flux, attachments: [{ url: signed, mimeType: 'image/png', name: 'cat.png' }] });
    await settle(api.system, id, ['completed']);
    for (const path of [`/api/runs/${id}`, `/api/runs/${id}/state`]) {
      const body = (await api.call('GET', path, { key: api.keys.submitter })).body;
      expect(body, path).not.toContain('SIGNATURE-VALUE-123');
    }
    expect(json<{ bundle: { attachments: { url: string }[] } }>(await api.call('GET', `/api/runs/${id}`, { key: api.keys.submitter })).bundle.attachments[0]?.url).toContain('X-Amz-Signature=%5Bredacted%5D&w=1');
    expect((await api.system.store.get(id))?.bundle?.attachments[0]?.url).toBe(signed);
  });

  it("masks a model's secret input whatever its name, in the run, its state and its review", async () => {
    const modelSource = {
      id: 'v-secret-1',
      openapi_schema: {
        components: { schemas: { Input: { type: 'object', required: ['prompt'], properties: { prompt: { type: 'string', 'x-order': 0 }, weights_location: { type: 'string', 'x-cog-secret': true, 'x-order': 1 } } } } },
      },
    };
    const id = await submitOk({ modelSource, prompt: 'a heron', edits: { weights_location: 'SECRET-VALUE-987' }, policy: 'require_human' });
    const parked = await settle(api.system, id, ['awaiting_human']);
    expect((parked.candidate?.payload as Record<string, unknown>).weights_location).toBe('SECRET-VALUE-987');
    const reviewer = api.keys.reviewer;
    for (const [path, key] of [[`/api/runs/${id}`, api.keys.submitter], [`/api/runs/${id}/state`, api.keys.submitter], [`/api/reviews/${parked.pendingReview!.reviewId}`, reviewer]] as const) {
      const response = await api.call('GET', path, { key });
      expect(response.statusCode, path).toBe(200);
      expect(response.body, path).not.toContain('SECRET-VALUE-987');
    }
  });
});

describe('bad input gets a problem body naming the field', () => {
  it.each([
    [{ ...flux, surprise: 1 }, 'surprise', 'not an allowed field'],
    [{ ...flux, prompt: 42 }, 'prompt', 'must be string'],
    [{ ...flux, attachments: [{ url: 'file:///etc/passwd', mimeType: 'image/png' }] }, 'attachments[0].url', 'http(s)'],
    [{ prompt: 'no model' }, 'model', 'required'],
    [{ ...flux, callbackUrl: 'ftp://x' }, 'callbackUrl', 'http(s)'],
    [{ ...flux, attachments: [{ url: 'https:///x.png', mimeType: 'image/png' }] }, 'attachments[0].url', 'with a host'],
    // A union (a mode name or a policy object): the problem names the field inside the branch meant.
    [{ ...flux, policy: { mode: 'require_human', reviewTtlSeconds: 0 } }, 'policy.reviewTtlSeconds', '>= 1'],
    [{ ...flux, policy: { mode: 'auto', quorum: 100 } }, 'policy.quorum', '<='],
  ])('%j → 400 naming %s', async (body, field, reason) => {
    const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body });
    expect(response.statusCode).toBe(400);
    const problem = json<{ code: string; field: string; detail: string }>(response);
    expect(problem.field).toBe(field);
    expect(problem.detail).toContain(reason);
    assertContract('problem', problem, 'problem');
  });

  it('malformed JSON, prototype pollution and oversized bodies are refused', async () => {
    expect(json(await api.call('POST', '/api/runs', { key: api.keys.submitter, rawBody: '{"prompt": ' }))).toMatchObject({ code: 'INVALID_JSON', status: 400 });
    const poisoned = await api.call('POST', '/api/runs', { key: api.keys.submitter, rawBody: '{"model":"a/b","__proto__":{"admin":true}}' });
    expect(json(poisoned)).toMatchObject({ status: 400, code: 'INVALID_REQUEST', field: '__proto__' });
    const nested = await api.call('POST', '/api/runs', { key: api.keys.submitter, rawBody: '{"model":"a/b","userProfile":{"a":[{"constructor":{"prototype":{}}}]}}' });
    expect(json(nested)).toMatchObject({ status: 400, code: 'INVALID_REQUEST', field: 'userProfile.a[0].constructor.prototype' });
    expect(json(await api.call('POST', '/api/runs', { key: api.keys.submitter, rawBody: '{"prompt": 1,}' }))).toMatchObject({ code: 'INVALID_JSON', detail: expect.stringMatching(/position|Unexpected|Expected/) });
    // A byte-order mark, as some editors write, is not an error.
    expect((await api.call('POST', '/api/runs', { key: api.keys.submitter, rawBody: `\uFEFF${JSON.stringify(flux)}` })).statusCode).toBe(202);
    const huge = await api.call('POST', '/api/runs', { key: api.keys.submitter, rawBody: JSON.stringify({ ...flux, prompt: 'x'.repeat(2_000_000) }) });
    expect(json(huge)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
  });

  it('ids are validated before any query', async () => {
    const response = await api.call('GET', "/api/runs/1'%20or%201=1--", { key: api.keys.submitter });
    expect(response.statusCode).toBe(400);
    expect(json(response)).toMatchObject({ code: 'INVALID_ID', field: 'params.id' });
    expect(json(await api.call('GET', '/api/runs?cursor=!!!', { key: api.keys.submitter }))).toMatchObject({ field: 'querystring.cursor' });
    expect((await api.call('GET', '/api/runs/00000000-0000-4000-8000-000000000000', { key: api.keys.submitter })).statusCode).toBe(404);
  });
});

describe('system routes', () => {
  it('serves health, readiness, providers, metrics and the OpenAPI document', async () => {
    expect(json(await api.call('GET', '/api/healthz', { key: null }))).toEqual({ status: 'ok' });
    expect(json(await api.call('GET', '/api/readyz', { key: null }))).toEqual({ status: 'ready', missing: [], checks: { postgres: 'ok', redis: 'ok' } });
    const providers = json<{ providers: string[]; registry: { providers: { name: string; models: string[] }[]; unserved: unknown[] } }>(await api.call('GET', '/api/providers', { key: api.keys.submitter }));
    expect(providers).toMatchObject({ builders: expect.arrayContaining(['heuristic']), providers: expect.arrayContaining(['dry']) });
    // Every configured provider is in the registry view, and every catalog model is either served or named as unserved.
    expect(providers.registry.providers.map((provider) => provider.name)).toEqual(providers.providers);
    const metrics = await api.call('GET', '/metrics', { key: null });
    expect(metrics.body).toMatch(/vetted_runs\{[^}]*status="completed"[^}]*\} \d+/);
    expect(metrics.body).toContain('vetted_queue_depth{queue="build"}');
    expect(metrics.body).toContain('vetted_hitl_rate');
    const openapi = json<{ openapi: string; paths: Record<string, unknown> }>(await api.call('GET', '/openapi.json', { key: null }));
    expect(openapi.openapi).toBe('3.1.0');
    expect(Object.keys(openapi.paths)).toEqual(expect.arrayContaining(['/api/runs', '/api/runs/{id}/decision', '/api/reviews/pending', '/api/runs/{id}/events']));
    expect((await api.call('GET', '/docs/', { key: null })).statusCode).toBe(200);
  });
});
