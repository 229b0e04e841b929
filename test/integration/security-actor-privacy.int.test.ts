/**
 * Who acted, as a submitter sees it. A reviewer's key claims a submitter's review and a person's key (a named
 * reviewer) approves it with a second reviewer's key; the submitter then reads its run, its state, its event
 * stream and the MCP get_run tool, and sees no reviewer's key id or person id anywhere, only stable opaque
 * pseudonyms (two distinct approvers stay two). Reviewers and admins reading the same still see who acted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorPseudonym } from '../../src/auth/actor-view.ts';
import type { PendingReview } from '../../src/generated/contracts.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { settle } from '../support/pipeline.ts';

let api: ApiHarness;
let baseUrl: string;
let personKey: string;
let personId: string;

const keyIdOf = (key: string) => key.slice(3, 15);

beforeAll(async () => {
  api = await createApiHarness();
  const person = await api.system.reviewers.create({ tenantId: 't1', name: 'Ada Reviewer', role: 'reviewer' });
  personId = person.id;
  personKey = (await api.system.apiKeys.create({ tenantId: 't1', role: 'reviewer', reviewerId: person.id })).key;
  baseUrl = await api.app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await api?.close();
});

/** The run's event stream as text, read until the run completed (or 15 s passed). */
async function eventStreamText(runId: string, key: string): Promise<string> {
  const controller = new AbortController();
  const deadline = setTimeout(() => controller.abort(), 15_000);
  let text = '';
  try {
    const response = await fetch(`${baseUrl}/api/runs/${runId}/events`, { headers: { authorization: `Bearer ${key}` }, signal: controller.signal });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    while (!text.includes('run.completed')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(deadline);
    controller.abort();
  }
  return text;
}

async function mcpGetRun(runId: string, key: string): Promise<string> {
  const response = await api.app.inject({
    method: 'POST', url: '/mcp',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_run', arguments: { runId } } },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.body;
}

/** Everything the caller can read about the run: the run, its state, its events and MCP get_run. */
async function everythingAbout(runId: string, key: string): Promise<string> {
  const texts = [];
  for (const path of [`/api/runs/${runId}`, `/api/runs/${runId}/state`]) {
    const response = await api.call('GET', path, { key });
    expect(response.statusCode, path).toBe(200);
    texts.push(response.body);
  }
  texts.push(await eventStreamText(runId, key), await mcpGetRun(runId, key));
  return texts.join('\n');
}

describe('reviewer identities seen by a submitter', () => {
  it('a claimed and decided review shows the submitter pseudonyms, never key or reviewer ids; reviewers still see them', async () => {
    const submitted = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { model: 'black-forest-labs/flux-schnell', prompt: 'a paper crane', policy: { mode: 'require_human', quorum: 2 } } });
    expect(submitted.statusCode, submitted.body).toBe(202);
    const runId = json<{ id: string }>(submitted).id;
    const review: PendingReview = (await settle(api.system, runId, ['awaiting_human'])).pendingReview!;

    const claimed = await api.call('POST', `/api/reviews/${review.reviewId}/claim`, { key: api.keys.reviewer, body: {} });
    expect(claimed.statusCode, claimed.body).toBe(200);
    // While claimed, the submitter's view of the run must not name the claimer.
    const whileClaimed = await everythingAboutNow(runId);
    expect(whileClaimed).not.toContain(keyIdOf(api.keys.reviewer));
    const released = await api.call('DELETE', `/api/reviews/${review.reviewId}/claim`, { key: api.keys.reviewer });
    expect(released.statusCode, released.body).toBeLessThan(300);

    for (const key of [api.keys.reviewer, personKey]) {
      const decided = await api.call('POST', `/api/runs/${runId}/decision`, { key, body: { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'approve' } });
      expect(decided.statusCode, decided.body).toBe(200);
    }
    await settle(api.system, runId, ['completed']);

    const seen = await everythingAbout(runId, api.keys.submitter);
    for (const secret of [keyIdOf(api.keys.reviewer), keyIdOf(personKey), personId]) expect(seen).not.toContain(secret);
    // Each approver has its own stable pseudonym, so the submitter still sees two people approved.
    const reviewerAlias = actorPseudonym('t1', `key:${keyIdOf(api.keys.reviewer)}`);
    const personAlias = actorPseudonym('t1', `reviewer:${personId}`);
    expect(seen).toContain(reviewerAlias);
    expect(seen).toContain(personAlias);
    expect(reviewerAlias).not.toBe(personAlias);
    // Its own actions still name it.
    expect(seen).toContain(`key:${keyIdOf(api.keys.submitter)}`);

    for (const key of [api.keys.reviewer, api.keys.admin]) {
      const full = await everythingAbout(runId, key);
      expect(full).toContain(`key:${keyIdOf(api.keys.reviewer)}`);
      expect(full).toContain(`reviewer:${personId}`);
      expect(full).not.toContain('hidden:');
    }
  });
});

/** The submitter's view of a run that is still waiting (no event stream: it would wait for the end). */
async function everythingAboutNow(runId: string): Promise<string> {
  const texts = [];
  for (const path of [`/api/runs/${runId}`, `/api/runs/${runId}/state`]) texts.push((await api.call('GET', path, { key: api.keys.submitter })).body);
  texts.push(await mcpGetRun(runId, api.keys.submitter));
  return texts.join('\n');
}
