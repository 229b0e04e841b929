/**
 * The MCP server with the SDK's own Client, over streamable HTTP and over stdio (a real `vetted mcp` process):
 * list → get → record_decision → the run completes; submit_task → list_tasks → record_task_review over stdio
 * (the task tools in depth: mcp-tasks.int.test.ts); the MCP error shapes; tenants, roles and keys.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHttpServer, type RunningMcpServer } from '../../api/mcp-app.ts';
import type { PendingReview } from '../../src/generated/contracts.ts';
import { registerTaskType } from '../../src/tasks/task-types.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { BIN, connectHttp, connectStdio, processEnv, type McpTestClient } from '../support/mcp.ts';
import { settle } from '../support/pipeline.ts';

const run = promisify(execFile);
let api: ApiHarness;
let server: RunningMcpServer;
let reviewer: McpTestClient;
let submitter: McpTestClient;
let personKey: string;
let personReviewerId: string;

beforeAll(async () => {
  api = await createApiHarness();
  server = await startMcpHttpServer(api.system, { host: '127.0.0.1', port: 0 });
  const person = await api.system.reviewers.create({ tenantId: 't1', name: 'Ada Lovelace', role: 'reviewer', team: 'imaging' });
  personKey = (await api.system.apiKeys.create({ tenantId: 't1', role: 'reviewer', reviewerId: person.id })).key;
  personReviewerId = person.id;
  reviewer = await connectHttp(server.url, personKey);
  submitter = await connectHttp(server.url, api.keys.submitter);
});

afterAll(async () => {
  await reviewer?.close();
  await submitter?.close();
  await server?.close();
  await api?.close();
});

const approvalNeeded = { model: 'black-forest-labs/flux-schnell', prompt: 'a paper crane', policy: 'require_human' };
const imageMissing = { model: 'nightmareai/real-esrgan', prompt: 'sharpen it' };

/** submit_run arguments with a prototype-rewriting key (JSON.parse keeps `__proto__` as an own key). */
function protoArgs(): Record<string, unknown> {
  return JSON.parse('{"model":"black-forest-labs/flux-schnell","prompt":"x","userProfile":{"__proto__":{"admin":true}}}') as Record<string, unknown>;
}

async function vettedMcp(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, 'mcp'], { env: processEnv(api.system, env), timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function parked(request: Record<string, unknown>, key = api.keys.submitter): Promise<{ runId: string; review: PendingReview }> {
  const response = await api.call('POST', '/api/runs', { key, body: request });
  expect(response.statusCode, response.body).toBe(202);
  const runId = json<{ id: string }>(response).id;
  const run = await settle(api.system, runId, ['awaiting_human']);
  return { runId, review: run.pendingReview! };
}

describe('tools/list', () => {
  it('declares every tool with an object inputSchema and outputSchema from schemas/, inlined', async () => {
    const { tools } = await reviewer.client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['list_pending_reviews', 'get_review', 'record_decision', 'reply', 'submit_run', 'get_run', 'queue_stats']));
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(JSON.stringify(tool.inputSchema), tool.name).not.toContain('$ref');
      expect(JSON.stringify(tool.outputSchema), tool.name).not.toContain('$ref');
    }
    const record = tools.find((tool) => tool.name === 'record_decision');
    expect(record?.inputSchema.required).toEqual(['reviewId', 'payloadHash', 'action']);
  });
});

describe('over streamable HTTP', () => {
  it('list → get → record_decision: the run completes, decided by the person behind the key', async () => {
    const { runId, review } = await parked(approvalNeeded);
    const listed = await reviewer.call('list_pending_reviews', { checkpoint: 'payload_review', limit: 200 });
    expect(listed.isError).toBe(false);
    const item = (listed.body.reviews as { reviewId: string; payloadHash: string; issues: unknown[]; runId: string }[]).find((r) => r.reviewId === review.reviewId);
    expect(item).toMatchObject({ runId, payloadHash: review.payloadHash, issues: expect.any(Array) });
    expect(listed.body.count).toBe((listed.body.reviews as unknown[]).length);
    expect(listed.body.total).toBeGreaterThanOrEqual(listed.body.count as number);

    const got = await reviewer.call('get_review', { reviewId: review.reviewId });
    expect(got.body).toMatchObject({ status: 'ok', reviewStatus: 'pending', review: { reviewId: review.reviewId, payloadHash: review.payloadHash }, run: { id: runId, status: 'awaiting_human' } });

    const decided = await reviewer.call('record_decision', { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'approve' });
    expect(decided.body).toMatchObject({ status: 'ok', decision: { reviewId: review.reviewId, action: 'approve', route: 'execute' }, run: { id: runId } });
    expect((decided.body.decision as { actor: string }).actor).toMatch(/^reviewer:rv_/);
    await settle(api.system, runId, ['completed']);

    const run = await reviewer.call('get_run', { runId });
    expect(run.body).toMatchObject({ status: 'ok', run: { id: runId, status: 'completed' } });
    const after = await reviewer.call('get_review', { reviewId: review.reviewId });
    expect(after.body).toMatchObject({ status: 'ok', reviewStatus: 'decided', review: { reviewId: review.reviewId } });
    expect(after.body.decisions).toEqual([expect.objectContaining({ action: 'approve', actor: (decided.body.decision as { actor: string }).actor })]);
  });

  it('pages with count (this page), total (all pending) and nextCursor', async () => {
    for (let i = 0; i < 3; i++) await parked({ ...approvalNeeded, prompt: `crane ${i}` });
    const first = await reviewer.call('list_pending_reviews', { limit: 2 });
    expect(first.body).toMatchObject({ status: 'ok', count: 2, nextCursor: expect.any(String) });
    expect(first.body.total).toBeGreaterThanOrEqual(3);
    const second = await reviewer.call('list_pending_reviews', { limit: 2, cursor: first.body.nextCursor });
    const ids = (page: typeof first) => (page.body.reviews as { reviewId: string }[]).map((r) => r.reviewId);
    expect(ids(second).some((id) => ids(first).includes(id))).toBe(false);
  });

  it('an empty queue is success with count 0', async () => {
    const empty = await reviewer.call('list_pending_reviews', { checkpoint: 'response_review' });
    expect(empty).toEqual({ isError: false, body: { status: 'ok', count: 0, total: 0, reviews: [] } });
  });

  it('queue_stats and GET /api/reviews/stats agree: pending, the oldest wait, per checkpoint', async () => {
    await parked(imageMissing);
    const stats = await reviewer.call('queue_stats');
    const http = json<Record<string, unknown>>(await api.call('GET', '/api/reviews/stats', { key: api.keys.reviewer }));
    expect(stats.body).toEqual({ status: 'ok', ...http });
    expect(http).toMatchObject({ pending: expect.any(Number), oldestAgeSeconds: expect.any(Number), byCheckpoint: { payload_review: { pending: expect.any(Number) }, response_review: { pending: 0, oldestAgeSeconds: null } } });
    expect((http.byCheckpoint as Record<string, { pending: number }>).payload_review?.pending).toBe(http.pending);
    const other = json<Record<string, unknown>>(await api.call('GET', '/api/reviews/stats', { key: api.keys.otherReviewer }));
    expect(other).toMatchObject({ pending: 0, oldestAgeSeconds: null });
  });

  it('reply reads words as a decision (the submitter approves where the policy lets it)', async () => {
    const { runId, review } = await parked({ ...approvalNeeded, policy: { mode: 'require_human', submitterApproves: true } });
    const answer = await submitter.call('reply', { reviewId: review.reviewId, text: 'yes' });
    expect(answer.body).toMatchObject({ status: 'ok', outcome: { layer: 'fast_path', decision: 'continue' }, route: 'execute', run: { id: runId } });
    await settle(api.system, runId, ['completed']);
  });

  it('submit_run stores the run and answers at once; a repeated requestKey returns it', async () => {
    const first = await submitter.call('submit_run', { ...approvalNeeded, requestKey: 'mcp-crane-1' });
    expect(first.body).toMatchObject({ status: 'ok', created: true, run: { id: expect.any(String), status: 'queued' } });
    const again = await submitter.call('submit_run', { ...approvalNeeded, requestKey: 'mcp-crane-1' });
    expect(again.body).toMatchObject({ status: 'ok', created: false, run: { id: (first.body.run as { id: string }).id } });
  });
});

describe('deadline, SLA and assignment over MCP', () => {
  const withSla = { ...approvalNeeded, prompt: 'a crane with a deadline', policy: { mode: 'require_human', reviewTtlSeconds: 3600, sla: { remindAfterSeconds: 600, escalateAfterSeconds: 1200, escalateTo: { team: 'leads' } } } };

  it('list_pending_reviews and get_review carry the deadline, the reminder and escalation times, who it escalates to, and the assignee', async () => {
    const { review } = await parked(withSla);
    const raised = Date.parse(review.createdAt);
    const admin = await connectHttp(server.url, api.keys.admin);
    try {
      const person = (await reviewer.call('get_review', { reviewId: review.reviewId })).body;
      expect(person).toMatchObject({ status: 'ok', assignedTo: null, sla: { escalatesTo: { team: 'leads' } } });
      const assigned = await admin.call('assign_review', { reviewId: review.reviewId, reviewer: personReviewerId, reason: 'imaging knows cranes' });
      expect(assigned.body).toMatchObject({ status: 'ok', reviewId: review.reviewId, assignedTo: personReviewerId });

      const listed = await reviewer.call('list_pending_reviews', { limit: 200 });
      const item = (listed.body.reviews as Record<string, unknown>[]).find((r) => r.reviewId === review.reviewId);
      expect(item).toMatchObject({ assignedTo: personReviewerId, expiresAt: review.expiresAt, sla: { escalatesTo: { team: 'leads' } } });
      const sla = item?.sla as { remindAt: string; escalateAt: string };
      expect(Date.parse(sla.remindAt) - raised).toBe(600_000);
      expect(Date.parse(sla.escalateAt) - raised).toBe(1_200_000);
      expect(Date.parse(review.expiresAt) - raised).toBe(3_600_000);

      const got = await reviewer.call('get_review', { reviewId: review.reviewId });
      expect(got.body).toMatchObject({ status: 'ok', assignedTo: personReviewerId, sla: { remindAt: sla.remindAt, escalateAt: sla.escalateAt, escalatesTo: { team: 'leads' } } });
      const mine = await reviewer.call('list_pending_reviews', { assignedTo: 'me', limit: 200 });
      expect((mine.body.reviews as { reviewId: string }[]).map((r) => r.reviewId)).toContain(review.reviewId);
    } finally {
      await admin.close();
    }
  });

  it('a review whose policy sets no SLA says sla null; a reviewer without reviews:assign is refused', async () => {
    const { review } = await parked({ ...approvalNeeded, prompt: 'a crane without a deadline' });
    const item = ((await reviewer.call('list_pending_reviews', { limit: 200 })).body.reviews as Record<string, unknown>[]).find((r) => r.reviewId === review.reviewId);
    expect(item).toMatchObject({ sla: null, assignedTo: null });
    const refused = await reviewer.call('assign_review', { reviewId: review.reviewId, reviewer: personReviewerId });
    expect(refused).toMatchObject({ isError: true, body: { status: 'forbidden' } });
  });

  it('snooze_review hides the review from my queue only, until null brings it back', async () => {
    const { review } = await parked({ ...approvalNeeded, prompt: 'a crane for later' });
    const until = new Date(Date.parse(review.createdAt) + 3_600_000).toISOString();
    const snoozed = await reviewer.call('snooze_review', { reviewId: review.reviewId, until });
    expect(snoozed.body).toMatchObject({ status: 'ok', reviewId: review.reviewId, snoozedUntil: until });
    const ids = async (client: McpTestClient, args: Record<string, unknown> = {}) => ((await client.call('list_pending_reviews', { limit: 200, ...args })).body.reviews as { reviewId: string }[]).map((r) => r.reviewId);
    expect(await ids(reviewer)).not.toContain(review.reviewId);
    expect(await ids(reviewer, { includeSnoozed: true })).toContain(review.reviewId);
    const admin = await connectHttp(server.url, api.keys.admin);
    try {
      expect(await ids(admin)).toContain(review.reviewId);
    } finally {
      await admin.close();
    }
    const back = await reviewer.call('snooze_review', { reviewId: review.reviewId, until: null });
    expect(back.body).toMatchObject({ status: 'ok', snoozedUntil: null });
    expect(await ids(reviewer)).toContain(review.reviewId);
  });
});

describe('the MCP error shapes', () => {
  it('invalid arguments: status error naming the first failing field, isError true', async () => {
    const bad = await reviewer.call('list_pending_reviews', { limit: 0 });
    expect(bad.isError).toBe(true);
    expect(bad.body).toMatchObject({ status: 'error', field: 'limit' });
    expect(bad.body.message).toContain('limit');
    const missing = await reviewer.call('get_review', {});
    expect(missing.body).toMatchObject({ status: 'error', field: 'reviewId' });
    expect(missing.body.message).toContain('reviewId is required');
    const notUuid = await reviewer.call('get_review', { reviewId: '../../etc/passwd' });
    expect(notUuid.body).toMatchObject({ status: 'error', field: 'reviewId' });
    const badAction = await reviewer.call('record_decision', { reviewId: crypto.randomUUID(), payloadHash: 'a'.repeat(64), action: 'maybe' });
    expect(badAction.body).toMatchObject({ status: 'error', field: 'action' });
    // Over HTTP the body parser refuses it first (a 400 problem, as on every route); stdio checks it in the tool.
    await expect(submitter.call('submit_run', protoArgs())).rejects.toThrow(/__proto__/);
  });

  it('unknown ids, and another tenant’s, are not_found naming the id', async () => {
    const unknown = crypto.randomUUID();
    expect((await reviewer.call('get_review', { reviewId: unknown })).body).toEqual({ status: 'not_found', id: unknown, message: expect.any(String) });
    expect((await reviewer.call('get_run', { runId: unknown })).body).toMatchObject({ status: 'not_found', id: unknown });
    const { runId, review } = await parked(approvalNeeded);
    const stranger = await connectHttp(server.url, api.keys.otherReviewer);
    try {
      expect((await stranger.call('get_review', { reviewId: review.reviewId })).body).toMatchObject({ status: 'not_found', id: review.reviewId });
      expect((await stranger.call('get_run', { runId })).body).toMatchObject({ status: 'not_found', id: runId });
      expect((await stranger.call('record_decision', { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'approve' })).body).toMatchObject({ status: 'not_found', id: review.reviewId });
      const theirs = await stranger.call('list_pending_reviews', { limit: 200 });
      expect((theirs.body.reviews as { reviewId: string }[]).map((r) => r.reviewId)).not.toContain(review.reviewId);
    } finally {
      await stranger.close();
    }
    expect((await api.system.store.get(runId))?.status).toBe('awaiting_human');
  });

  it('a stale payloadHash and a second decision are conflicts, not not_found', async () => {
    const { review } = await parked(approvalNeeded);
    const stale = await reviewer.call('record_decision', { reviewId: review.reviewId, payloadHash: 'f'.repeat(64), action: 'approve' });
    expect(stale.body).toMatchObject({ status: 'conflict', code: 'PAYLOAD_HASH_MISMATCH' });
    expect((await reviewer.call('record_decision', { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'reject', reason: 'not a crane' })).body).toMatchObject({ status: 'ok' });
    const second = await reviewer.call('record_decision', { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'approve' });
    expect(second.isError).toBe(true);
    expect(second.body).toMatchObject({ status: 'conflict', code: 'REVIEW_STALE' });
    expect(second.body.message).toContain('no longer pending');
  });

  it('a role without the permission is forbidden', async () => {
    const { review } = await parked(approvalNeeded);
    const refused = await submitter.call('record_decision', { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'approve' });
    expect(refused.body).toMatchObject({ status: 'forbidden', message: expect.stringContaining('reviews:decide') });
    expect((await submitter.call('list_pending_reviews')).body).toMatchObject({ status: 'forbidden' });
    expect((await reviewer.call('submit_run', approvalNeeded)).body).toMatchObject({ status: 'forbidden' });
  });

  it('an edit that still fails validation is an error with issues; approving over blocking issues lists them', async () => {
    const { review } = await parked(imageMissing);
    const edit = await reviewer.call('record_decision', { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'edit', edits: { scale: 99 } });
    expect(edit.body).toMatchObject({ status: 'error', code: 'EDIT_INVALID', issues: [{ path: '/scale', message: expect.stringContaining('scale') }] });
    const approve = await reviewer.call('record_decision', { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'approve' });
    expect(approve.body).toMatchObject({ status: 'error', code: 'BLOCKING_ISSUES', issues: [expect.objectContaining({ path: '/image', severity: 'blocking' })] });
  });
});

describe('keys', () => {
  it('HTTP without a key, or with a wrong one, is 401 before MCP', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } };
    for (const authorization of [undefined, 'Bearer vt_000000000000.wrongwrongwrongwrongwrongwrongwrong']) {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify(initialize),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(response.headers.get('www-authenticate')).toContain('Bearer');
    }
    await expect(connectHttp(server.url, undefined)).rejects.toThrow();
  });

  it('the API serves /mcp too', async () => {
    const response = await api.call('GET', '/mcp', { key: api.keys.reviewer });
    expect(response.statusCode).toBe(405);
  });
});

describe('over stdio (`vetted mcp` as a client starts it)', () => {
  let operator: McpTestClient & { stderr: () => string };
  let agent: McpTestClient & { stderr: () => string };

  beforeAll(async () => {
    await registerTaskType(api.system.tasks, 't1', JSON.parse(readFileSync('examples/task-types/lgv-troubleshooting.task-type.json', 'utf8')));
    // The operator's assistant with a person's key; the troubleshooting chatbot with a submitter key.
    [operator, agent] = await Promise.all([connectStdio(api.system, personKey), connectStdio(api.system, api.keys.submitter)]);
  });

  afterAll(async () => {
    await Promise.all([operator?.close(), agent?.close()]);
  });

  it('list → get → record_decision completes a run; bad arguments and roles get the same shapes', async () => {
    const { runId, review } = await parked(approvalNeeded);
    const listed = await operator.call('list_pending_reviews', { limit: 200 });
    expect((listed.body.reviews as { reviewId: string }[]).map((r) => r.reviewId)).toContain(review.reviewId);
    const got = await operator.call('get_review', { reviewId: review.reviewId });
    const payloadHash = (got.body.review as PendingReview).payloadHash;
    const decided = await operator.call('record_decision', { reviewId: review.reviewId, payloadHash, action: 'approve' });
    expect(decided.body).toMatchObject({ status: 'ok', run: { id: runId } });
    await settle(api.system, runId, ['completed']);
    expect((await operator.call('get_review', { reviewId: review.reviewId })).body).toMatchObject({ reviewStatus: 'decided' });
    expect((await operator.call('list_pending_reviews', { limit: 0 })).body).toMatchObject({ status: 'error', field: 'limit' });
    expect((await operator.call('submit_run', protoArgs())).body).toMatchObject({ status: 'forbidden' });
    expect((await agent.call('record_decision', { reviewId: review.reviewId, payloadHash, action: 'approve' })).body).toMatchObject({ status: 'forbidden' });
    // Over HTTP the body parser refuses prototype keys; over stdio the tool does, naming the key.
    expect((await agent.call('submit_run', protoArgs())).body).toMatchObject({ status: 'error', field: 'userProfile.__proto__' });
    expect(operator.stderr()).not.toContain(personKey);
  });

  it('submit_task: high+normal returns approved at once, low+high waits → list_tasks → record_task_review', async () => {
    const routine = await agent.call('submit_task', JSON.parse(readFileSync('examples/tasks/lgv-battery-routine.json', 'utf8')));
    expect(routine.body.task).toMatchObject({ status: 'approved', routing: 'auto_approved' });
    const escalated = await agent.call('submit_task', JSON.parse(readFileSync('examples/tasks/lgv-drive-fault.json', 'utf8')));
    const task = escalated.body.task as { id: string; status: string };
    expect(task.status).toBe('pending');
    const pending = await operator.call('list_tasks', { status: 'pending' });
    expect((pending.body.tasks as { id: string }[]).map((t) => t.id)).toContain(task.id);
    const reviewed = await operator.call('record_task_review', { taskId: task.id, decision: 'rejected', notes: 'Check the drive logs first.' });
    expect(reviewed.body.task).toMatchObject({ status: 'rejected', review: { decision: 'rejected', operator: { name: 'Ada Lovelace', role: 'reviewer' } } });
    expect((await agent.call('get_task', { taskId: task.id })).body).toMatchObject({ task: { status: 'rejected', review: { notes: 'Check the drive logs first.' } } });
    expect((await operator.call('record_task_review', { taskId: task.id, decision: 'approved', notes: 'again' })).body).toMatchObject({ status: 'conflict' });
  });

  it('no key, or a wrong one, stops the process at start (exit 2) saying what to do', async () => {
    const [missing, wrong] = await Promise.all([vettedMcp({ VETTED_API_KEY: '' }), vettedMcp({ VETTED_API_KEY: 'vt_000000000000.wrongwrongwrongwrongwrongwrongwrong' })]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('VETTED_API_KEY');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('UNAUTHORIZED');
    expect(wrong.stdout).toBe('');
  });
});
