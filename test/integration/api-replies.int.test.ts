/**
 * Chat replies end to end, over HTTP, with the real workers and the local OpenAI-compatible sim as the
 * interpreter: a parked run is answered "2", "כן", "yes, but 16:9", "never mind" and "what's the weather", and
 * each transition happens; unclear replies are asked again until the policy's limit; a reply to an expired
 * review starts a new run; the seed's log lines carry traceId, threadId and hitlId.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireDueReviews } from '../../src/engine/expiry.ts';
import type { PendingReview } from '../../src/generated/contracts.ts';
import { startOpenAiSim, type OpenAiSim } from '../../src/sim/index.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { settle } from '../support/pipeline.ts';

let sim: OpenAiSim;
let api: ApiHarness;

beforeAll(async () => {
  sim = await startOpenAiSim();
  // A base URL alone configures the interpreter (and the openai builder), while the default builder stays heuristic.
  api = await createApiHarness({ OPENAI_BASE_URL: sim.baseUrl });
});
afterAll(async () => {
  await api?.close();
  await sim?.close();
});

interface ReplyAnswer {
  outcome: { layer: string; decision: string; parsed?: Record<string, unknown> } | null;
  route: string;
  run: { id: string; status: string };
  newRun?: { id: string; status: string };
  ask?: string;
}

async function parked(body: Record<string, unknown>): Promise<{ runId: string; review: PendingReview }> {
  const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { model: 'black-forest-labs/flux-schnell', prompt: 'a paper crane', ...body } });
  expect(response.statusCode, response.body).toBe(202);
  const runId = json<{ id: string }>(response).id;
  return { runId, review: (await settle(api.system, runId, ['awaiting_human'])).pendingReview! };
}

async function replyTo(runId: string, review: PendingReview, text: string, key = api.keys.submitter): Promise<ReplyAnswer> {
  const response = await api.call('POST', `/api/runs/${runId}/reply`, { key, body: { reviewId: review.reviewId, text } });
  expect(response.statusCode, response.body).toBe(200);
  return json<ReplyAnswer>(response);
}

/** A person must approve, and the chat user may be that person (security-reply-rights.int.test.ts: the default). */
const CHAT_APPROVES = { mode: 'require_human', submitterApproves: true };

const logsOf = (event: string, runId: string) => api.system.logs.filter((line) => line.event === event && line.runId === runId);

describe('a parked run answered in words', () => {
  it('"2" picks the second allowed value of the field that failed, without the LLM', async () => {
    const { runId, review } = await parked({ edits: { aspect_ratio: '7:3' } });
    expect(review).toMatchObject({ reason: 'validation_failed', expectedInput: 'single_choice', source: 'disambiguation', answerField: 'aspect_ratio' });
    expect(review.options.slice(0, 2)).toEqual([{ id: '1:1', label: '1:1' }, { id: '16:9', label: '16:9' }]);
    const calls = sim.requests.length;
    expect(await replyTo(runId, review, '2')).toMatchObject({ outcome: { layer: 'fast_path', decision: 'continue', parsed: { selected: ['16:9'] } }, route: 'validate' });
    const done = await settle(api.system, runId, ['completed']);
    expect(done.candidate?.payload).toMatchObject({ aspect_ratio: '16:9' });
    expect(sim.requests.length).toBe(calls);
    expect(logsOf('HITL_FAST_PATH_MATCH', runId)).toEqual([expect.objectContaining({ hitlId: review.reviewId, traceId: done.traceId, threadId: done.threadId, decision: 'continue' })]);
  });

  it('"כן" approves and the run executes once (the policy lets the submitter approve)', async () => {
    const { runId, review } = await parked({ policy: CHAT_APPROVES });
    expect(review).toMatchObject({ expectedInput: 'yes_no', source: 'planner', returnTo: { action: 'approve', route: 'execute' } });
    expect(await replyTo(runId, review, 'כן')).toMatchObject({ outcome: { layer: 'fast_path', parsed: { approved: true } }, route: 'execute' });
    await settle(api.system, runId, ['completed']);
    expect(await api.system.store.ledger.listForRun(runId)).toHaveLength(1);
    const [decision] = await api.system.store.decisions(runId);
    expect(decision).toMatchObject({ action: 'approve', raw: { text: 'כן' }, parsed: expect.objectContaining({ via: 'reply', layer: 'fast_path', decision: 'continue', route: 'execute' }) });
    const ids = { traceId: expect.any(String), threadId: expect.any(String), hitlId: review.reviewId };
    expect(logsOf('HITL_CREATED', runId)).toEqual([expect.objectContaining({ ...ids, source: 'planner', returnTo: { action: 'approve', route: 'execute' }, originStepId: review.originStepId })]);
    expect(logsOf('HITL_RESUME_VALID', runId)).toEqual([expect.objectContaining({ ...ids, route: 'execute', goto: 'executing', returnTo: review.returnTo })]);
  });

  it('"yes, but 16:9" approves with the change, read by the interpreter', async () => {
    const { runId, review } = await parked({ policy: CHAT_APPROVES });
    expect(await replyTo(runId, review, 'yes, but 16:9')).toMatchObject({
      outcome: { layer: 'interpreter', decision: 'continue_with_modifications', parsed: { modifications: { aspect_ratio: '16:9' } } }, route: 'validate',
    });
    const done = await settle(api.system, runId, ['completed']);
    expect(done.candidate?.payload).toMatchObject({ aspect_ratio: '16:9' });
    expect(done.candidate?.provenance.aspect_ratio).toMatchObject({ source: 'human_edit' });
    expect(logsOf('HITL_INTERPRETER_RESULT', runId)).toEqual([expect.objectContaining({ hitlId: review.reviewId, decision: 'continue_with_modifications', hasMods: true })]);
    expect(logsOf('HITL_CONTINUE_WITH_MODIFICATIONS', runId)).toEqual([expect.objectContaining({ hitlId: review.reviewId, modifications: { aspect_ratio: '16:9' }, originStepId: review.originStepId })]);
  });

  it('"never mind" cancels the run', async () => {
    const { runId, review } = await parked({ policy: 'require_human' });
    expect(await replyTo(runId, review, 'never mind')).toMatchObject({ outcome: { layer: 'interpreter', decision: 'cancel' }, route: 'cancel', run: { status: 'cancelled' } });
    expect((await api.system.store.get(runId))?.error?.message).toContain('never mind');
  });

  it('"what\'s the weather" closes this review and starts a new run from the words, in the same conversation', async () => {
    const { runId, review } = await parked({ policy: 'require_human', sessionId: 'chat-42' });
    const answer = await replyTo(runId, review, "what's the weather tomorrow?");
    expect(answer).toMatchObject({ outcome: { layer: 'interpreter', decision: 'switch_intent' }, route: 'new_run', run: { status: 'cancelled' } });
    const fresh = await api.system.store.get(answer.newRun!.id);
    const old = await api.system.store.get(runId);
    expect(fresh).toMatchObject({ threadId: old?.threadId, sessionId: 'chat-42', request: { prompt: "what's the weather tomorrow?" } });
    expect(fresh?.request.conversation?.slice(-2)).toEqual([{ role: 'assistant', content: review.question }, { role: 'user', content: "what's the weather tomorrow?" }]);
    const [created] = await api.system.store.events(fresh!.id);
    expect(created?.data).toMatchObject({ origin: { runId, reviewId: review.reviewId, why: 'switch_intent' } });
    expect(logsOf('HITL_SWITCH_INTENT', runId)).toEqual([expect.objectContaining({ hitlId: review.reviewId, rawReply: "what's the weather tomorrow?" })]);
  });

  it('an unmatched answer to a choice is a new request, decided without the LLM', async () => {
    const { runId, review } = await parked({ edits: { aspect_ratio: '7:3' } });
    const calls = sim.requests.length;
    expect(await replyTo(runId, review, 'the red one')).toMatchObject({ outcome: { layer: 'deterministic', decision: 'switch_intent' }, route: 'new_run' });
    expect(sim.requests.length).toBe(calls);
  });
});

describe('replies that cannot be understood', () => {
  it('are asked again with a nudge, counted, and past policy.maxReAsks the run is cancelled', async () => {
    const { runId, review } = await parked({ policy: { mode: 'require_human', maxReAsks: 1 } });
    const first = await replyTo(runId, review, 'hmm');
    expect(first).toMatchObject({ outcome: { decision: 're_ask' }, route: 're_ask', run: { status: 'awaiting_human' } });
    expect(first.ask).toBe(`Sorry, I did not understand that. ${review.question}`);
    expect((await api.system.store.get(runId))?.pendingReview).toMatchObject({ reviewId: review.reviewId, reAsks: 1 });
    expect(await replyTo(runId, review, 'hmm again')).toMatchObject({ route: 'cancel', run: { status: 'cancelled' } });
    expect(logsOf('HITL_RE_ASK', runId)).toHaveLength(2);
    const types = (await api.system.store.events(runId)).map((e) => e.type);
    expect(types).toContain('review.re_asked');
  });
});

describe('a reply too late', () => {
  it('starts a new run carrying the question and the reply, instead of an error', async () => {
    const { runId, review } = await parked({ policy: { mode: 'require_human', reviewTtlSeconds: 30 } });
    await expireDueReviews(api.system, new Date(Date.parse(review.expiresAt) + 1));
    const answer = await replyTo(runId, review, 'yes');
    expect(answer).toMatchObject({ outcome: null, route: 'new_run', run: { status: 'expired' } });
    const fresh = await api.system.store.get(answer.newRun!.id);
    expect(fresh?.request.conversation?.slice(-2)).toEqual([{ role: 'assistant', content: review.question }, { role: 'user', content: 'yes' }]);
    expect(logsOf('HITL_EXPIRED', runId).some((line) => line.hitlId === review.reviewId)).toBe(true);
  });
});

describe('the same rules as decisions', () => {
  it('a stale review is 409, another tenant 404, a key without the permission 403', async () => {
    const { runId, review } = await parked({ policy: 'require_human' });
    const stale = await api.call('POST', `/api/runs/${runId}/reply`, { key: api.keys.submitter, body: { reviewId: '00000000-0000-4000-8000-000000000000', text: 'yes' } });
    expect(json(stale)).toMatchObject({ status: 409, code: 'REVIEW_STALE' });
    const foreign = await api.call('POST', `/api/runs/${runId}/reply`, { key: api.keys.other, body: { reviewId: review.reviewId, text: 'yes' } });
    expect(json(foreign)).toMatchObject({ status: 404, code: 'RUN_NOT_FOUND' });
    const empty = await api.call('POST', `/api/runs/${runId}/reply`, { key: api.keys.submitter, body: { reviewId: review.reviewId, text: '' } });
    expect(json(empty)).toMatchObject({ status: 400, field: 'text' });
  });
});
