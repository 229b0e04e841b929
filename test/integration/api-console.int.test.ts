/**
 * What the reviewer console needs from the API: the console itself at /console (and a problem that says how to
 * build it when it is not built), who a key is (GET /api/me), a review's form (the ModelSchema, the published
 * example, the countdown verdict), and the tenant's live review feed (GET /api/reviews/events).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerConsole } from '../../api/console.ts';
import { registerProblemDetails } from '../../api/plugins/problem-details.ts';
import { ROLE_PERMISSIONS } from '../../src/auth/api-keys.ts';
import type { PendingReview } from '../../src/generated/contracts.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { settle } from '../support/pipeline.ts';

interface ReviewFormAnswer {
  pending: boolean;
  modelSchema: { jsonSchema: { properties: Record<string, unknown> } };
  example: { input: Record<string, unknown>; note: string };
  autoApprove: unknown;
}

let api: ApiHarness;
let consoleDir: string;

beforeAll(async () => {
  api = await createApiHarness();
  consoleDir = mkdtempSync(path.join(tmpdir(), 'vetted-console-'));
  mkdirSync(path.join(consoleDir, 'assets'));
  writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(path.join(consoleDir, 'assets', 'app-1234.js'), 'console.log(1)');
});
afterAll(async () => {
  await api?.close();
  rmSync(consoleDir, { recursive: true, force: true });
});

async function parked(body: Record<string, unknown>): Promise<{ runId: string; review: PendingReview }> {
  const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { model: 'black-forest-labs/flux-schnell', ...body } });
  expect(response.statusCode, response.body).toBe(202);
  const runId = json<{ id: string }>(response).id;
  return { runId, review: (await settle(api.system, runId, ['awaiting_human'])).pendingReview! };
}

/** The console plugin as app.ts registers it (the whole app registers process metrics once per system). */
async function consoleApp(dir: string): Promise<FastifyInstance> {
  const app = Fastify();
  registerProblemDetails(app);
  await registerConsole(app, dir);
  return app;
}

describe('the console, served by the API', () => {
  it('serves the built app at /console: files, client-side routes as index.html, security headers, cached assets', async () => {
    const app = await consoleApp(consoleDir);
    try {
      expect((await app.inject({ url: '/console' })).headers.location).toBe('/console/');
      const index = await app.inject({ url: '/console/' });
      expect(index.statusCode).toBe(200);
      expect(index.body).toContain('<title>console</title>');
      expect(index.headers['content-security-policy']).toContain("script-src 'self'");
      expect(index.headers['cache-control']).toBe('no-cache');
      const route = await app.inject({ url: '/console/reviews/2b4f2a3e-0a7b-4c44-9c1e-1f1d2a3b4c5d' });
      expect(route.statusCode).toBe(200);
      expect(route.body).toContain('<title>console</title>');
      expect(route.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      const asset = await app.inject({ url: '/console/assets/app-1234.js' });
      expect(asset.headers['cache-control']).toContain('immutable');
      expect(asset.body).toBe('console.log(1)');
    } finally {
      await app.close();
    }
  });

  it('answers a problem naming the build command when the console is not built', async () => {
    const app = await consoleApp(path.join(consoleDir, 'missing'));
    try {
      const response = await app.inject({ url: '/console/' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ code: 'CONSOLE_NOT_BUILT', detail: expect.stringContaining('npm run console:build') });
    } finally {
      await app.close();
    }
  });
});

describe('GET /api/me', () => {
  it("tells a person's key who it is, and refuses a missing key", async () => {
    const person = await api.system.reviewers.create({ tenantId: 't1', name: 'Ada Lovelace', role: 'reviewer', team: 'imaging' });
    const key = (await api.system.apiKeys.create({ tenantId: 't1', role: 'reviewer', reviewerId: person.id })).key;
    expect(json(await api.call('GET', '/api/me', { key }))).toEqual({
      tenantId: 't1', role: 'reviewer', actor: `reviewer:${person.id}`, reviewer: { id: person.id, name: 'Ada Lovelace', team: 'imaging' },
      permissions: [...ROLE_PERMISSIONS.reviewer].sort(), mediaHosts: [],
    });
    expect(json(await api.call('GET', '/api/me', { key: api.keys.override }))).toMatchObject({ reviewer: null, permissions: expect.arrayContaining(['override']) });
    expect((await api.call('GET', '/api/me', { key: null })).statusCode).toBe(401);
  });
});

describe('GET /api/reviews/:reviewId/form', () => {
  it('gives the ModelSchema and the published example, labelled as never used; no countdown over a blocking issue', async () => {
    const { review } = await parked({ prompt: 'a red fox, 5 images', policy: { mode: 'auto', autoApproveCountdown: true } });
    const form = json<ReviewFormAnswer>(await api.call('GET', `/api/reviews/${review.reviewId}/form`, { key: api.keys.reviewer }));
    expect(form.pending).toBe(true);
    expect(form.modelSchema.jsonSchema.properties.num_outputs).toMatchObject({ maximum: 4 });
    expect(form.example.input.prompt).toContain('FLUX SCHNELL');
    expect(form.example.note).toContain('never used');
    expect(form.autoApprove).toEqual({ allowed: false, because: 'blocking_issues' });
  });

  it('allows the countdown only where the policy says so and nothing blocks', async () => {
    const allowed = await parked({ prompt: 'a lighthouse at dawn', policy: { mode: 'require_human', autoApproveCountdown: true } });
    expect(json(await api.call('GET', `/api/reviews/${allowed.review.reviewId}/form`, { key: api.keys.reviewer })).autoApprove).toEqual({ allowed: true, seconds: 10 });
    const notAsked = await parked({ prompt: 'a lighthouse at dusk', policy: 'require_human' });
    expect(json(await api.call('GET', `/api/reviews/${notAsked.review.reviewId}/form`, { key: api.keys.reviewer })).autoApprove).toEqual({ allowed: false, because: 'policy' });
  });

  it("is another tenant's 404, and a submitter's 403", async () => {
    const { review } = await parked({ prompt: 'a quiet harbour', policy: 'require_human' });
    expect(json(await api.call('GET', `/api/reviews/${review.reviewId}/form`, { key: api.keys.otherReviewer }))).toMatchObject({ status: 404, code: 'REVIEW_NOT_FOUND' });
    expect((await api.call('GET', `/api/reviews/${review.reviewId}/form`, { key: api.keys.submitter })).statusCode).toBe(403);
  });
});

describe('GET /api/reviews/events', () => {
  it("streams the tenant's review events live, and only that tenant's", async () => {
    const url = await api.app.listen({ host: '127.0.0.1', port: 0 });
    const controller = new AbortController();
    try {
      const response = await fetch(`${url}/api/reviews/events`, { headers: { authorization: `Bearer ${api.keys.reviewer}` }, signal: controller.signal });
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      // Submitted after the stream opened: it must arrive on it.
      const submitted = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { model: 'black-forest-labs/flux-schnell', prompt: 'a bridge in fog', policy: 'require_human' } });
      const runId = json<{ id: string }>(submitted).id;
      let text = '';
      while (!text.includes(`"runId":"${runId}"`)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
      expect(text).toMatch(/event: review\.created\ndata: \{[^\n]*"runId":"[^"]+"/);
      expect(text).not.toContain('event: stage.completed');
      // The other tenant's feed holds none of it.
      expect(await api.system.reviewFeed.reviewEventsAfter('t2', 0n, 200)).toEqual([]);
      expect((await api.system.reviewFeed.reviewEventsAfter('t1', 0n, 200)).some((e) => e.runId === runId && e.type === 'review.created')).toBe(true);
    } finally {
      controller.abort();
    }
  });

  it('refuses a Last-Event-ID that is not an event id, and a submitter', async () => {
    expect(json(await api.call('GET', '/api/reviews/events', { key: api.keys.reviewer, headers: { 'last-event-id': 'abc' } }))).toMatchObject({ status: 400, field: 'headers.last-event-id' });
    expect((await api.call('GET', '/api/reviews/events', { key: api.keys.submitter })).statusCode).toBe(403);
  });
});
