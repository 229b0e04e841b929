/**
 * Secret masking on every read path: a model with a `format: password` input under an ordinary name
 * (`studio_pass`), a submitter's edit and a reviewer's edit of it, then every documented GET route (path
 * parameters filled from the runs, reviews and tasks made here; event streams read to their last event) and
 * every MCP tool that reads. The secret never appears in any body; masked values show as `[redacted]`.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHttpServer, type RunningMcpServer } from '../../api/mcp-app.ts';
import { registerModel } from '../../src/catalog/model-catalog.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { connectHttp, type McpTestClient } from '../support/mcp.ts';
import { exampleModel, settle } from '../support/pipeline.ts';

const SECRET = 'PLAINSECRET-studio-7f3a';
const SUBMITTED = 'PLAINSECRET-submitted-91c2';
const LEAK = /PLAINSECRET/;

/** flux-schnell with one more input: a password-format field with a name no credential pattern knows. */
function vaultModel(): Record<string, unknown> {
  const source = structuredClone(exampleModel('flux-schnell.model.json')) as { owner: string; name: string; latest_version: { openapi_schema: { components: { schemas: { Input: { properties: Record<string, unknown> } } } } } };
  source.owner = 'acme';
  source.name = 'vault';
  source.latest_version.openapi_schema.components.schemas.Input.properties.studio_pass = { type: 'string', format: 'password', title: 'Studio pass', 'x-order': 99 };
  return source;
}

let api: ApiHarness;
let server: RunningMcpServer;
let mcp: McpTestClient;
let baseUrl: string;
const ids = { decidedRun: '', decidedReview: '', pendingRun: '', pendingReview: '', sessionId: 'session-vault', taskId: '' };

beforeAll(async () => {
  api = await createApiHarness();
  await registerModel(api.system, { tenantId: 't1', source: vaultModel() });
  const submit = async (body: Record<string, unknown>) => json<{ id: string }>(await api.call('POST', '/api/runs', { key: api.keys.submitter, body })).id;

  // A reviewer types the secret in as an edit; the run goes on and completes.
  const decided = await settle(api.system, await submit({ model: 'acme/vault', prompt: 'a vault door', policy: 'require_human', sessionId: ids.sessionId }), ['awaiting_human']);
  ids.decidedRun = decided.id;
  ids.decidedReview = decided.pendingReview!.reviewId;
  const decision = await api.call('POST', `/api/runs/${decided.id}/decision`, { key: api.keys.reviewer, body: { reviewId: ids.decidedReview, payloadHash: decided.pendingReview!.payloadHash, action: 'edit', edits: { studio_pass: SECRET } } });
  expect(decision.statusCode, decision.body).toBeLessThan(300);
  await settle(api.system, decided.id, ['completed']);

  // A submitter sent the secret with the request; the run waits for a reviewer.
  const pending = await settle(api.system, await submit({ model: 'acme/vault', prompt: 'a locked safe', policy: 'require_human', sessionId: ids.sessionId, edits: { studio_pass: SUBMITTED } }), ['awaiting_human']);
  ids.pendingRun = pending.id;
  ids.pendingReview = pending.pendingReview!.reviewId;

  const tasks = json<{ items?: { taskId?: string; id?: string }[] }>(await api.call('GET', '/api/tasks'));
  ids.taskId = tasks.items?.[0]?.taskId ?? tasks.items?.[0]?.id ?? '00000000-0000-4000-8000-000000000000';

  baseUrl = await api.app.listen({ host: '127.0.0.1', port: 0 });
  server = await startMcpHttpServer(api.system, { host: '127.0.0.1', port: 0 });
  mcp = await connectHttp(server.url, api.keys.admin);
});

afterAll(async () => {
  await mcp?.close();
  await server?.close();
  await api?.close();
});

/** Every documented GET path, its parameters filled from the runs made here (a run's id and its review's). */
function documentedGets(): string[] {
  const document = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  const urls: string[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    if (!operations.get) continue;
    for (const [runId, reviewId] of [[ids.decidedRun, ids.decidedReview], [ids.pendingRun, ids.pendingReview]]) {
      urls.push(path.replace('{id}', runId!).replace('{reviewId}', reviewId!).replace('{sessionId}', ids.sessionId).replace('{taskId}', ids.taskId));
    }
  }
  return [...new Set(urls)];
}

/** Variants of the listing routes' queries that change what they show. */
const QUERIES: Record<string, string[]> = {
  '/api/reviews': ['?status=decided', '?status=pending'],
  '/api/runs': ['', '?status=completed', '?sessionId=session-vault'],
};

/** An event stream's frames from the first event up to the newest one now stored. */
async function readStream(url: string, lastEventId: bigint): Promise<string> {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}${url}?lastEventId=0`, { headers: { authorization: `Bearer ${api.keys.admin}` }, signal: abort.signal });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes(`id: ${lastEventId}\n`)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  abort.abort();
  return text;
}

describe('secret-role values on every read path', () => {
  it('no documented GET route shows the secret, whether submitted or edited in by a reviewer', async () => {
    const urls = documentedGets();
    expect(urls).toContain(`/api/reviews/${ids.decidedReview}`);
    let redacted = 0;
    for (const url of urls) {
      if (url.endsWith('/events')) continue;
      for (const query of QUERIES[url] ?? ['']) {
        const response = await api.call('GET', `${url}${query}`);
        expect(response.statusCode, `${url}${query}`).toBeLessThan(500);
        expect(response.body, `${url}${query}`).not.toMatch(LEAK);
        if (response.body.includes('[redacted]')) redacted += 1;
      }
    }
    // The decided list (where a reviewer's edit once showed twice) and the review itself show the mask.
    const decidedList = await api.call('GET', '/api/reviews?status=decided');
    expect(decidedList.body).toContain('[redacted]');
    expect(JSON.stringify(json<{ items: unknown[] }>(decidedList).items)).toContain('studio_pass');
    expect(redacted).toBeGreaterThanOrEqual(5);
  });

  it('the event streams (a run\'s and the review feed) never carry the secret', async () => {
    const runEvents = await api.system.store.events(ids.decidedRun, { afterId: 0n });
    const runStream = await readStream(`/api/runs/${ids.decidedRun}/events`, runEvents.at(-1)!.id);
    expect(runStream).toContain('review.decided');
    expect(runStream).not.toMatch(LEAK);
    const feed = await api.system.reviewFeed.reviewEventsAfter('t1', 0n, 200);
    const feedStream = await readStream('/api/reviews/events', feed.at(-1)!.id);
    expect(feedStream).toContain(ids.decidedRun);
    expect(feedStream).not.toMatch(LEAK);
  });

  it('no MCP tool that reads shows the secret', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['list_pending_reviews', {}],
      ['get_review', { reviewId: ids.decidedReview }],
      ['get_review', { reviewId: ids.pendingReview }],
      ['get_run', { runId: ids.decidedRun }],
      ['get_run', { runId: ids.pendingRun }],
      ['queue_stats', {}],
      ['list_tasks', {}],
      ['get_task', { taskId: ids.taskId }],
      ['export_audit', {}],
    ];
    const { tools } = await mcp.client.listTools();
    const reading = tools.filter((tool) => tool.annotations?.readOnlyHint === true).map((tool) => tool.name);
    for (const name of reading) expect(calls.map(([called]) => called), `${name} is walked`).toContain(name);
    for (const [name, args] of calls) {
      const answer = await mcp.call(name, args);
      expect(JSON.stringify(answer.body), name).not.toMatch(LEAK);
    }
    const review = await mcp.call('get_review', { reviewId: ids.decidedReview });
    expect(JSON.stringify(review.body)).toContain('[redacted]');
  });
});
