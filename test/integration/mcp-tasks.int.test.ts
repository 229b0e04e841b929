/**
 * Review tasks through the MCP tools and the HTTP API: a task type registered from the example file
 * (by the CLI, as an operator does), submit_task routed on confidence × impact, list_tasks, get_task,
 * record_task_review with the operator's name, and every error shape.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHttpServer, type RunningMcpServer } from '../../api/mcp-app.ts';
import type { ReviewTask } from '../../src/generated/contracts.ts';
import { registerTaskType } from '../../src/tasks/task-types.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { BIN, connectHttp, processEnv, type McpTestClient } from '../support/mcp.ts';

const run = promisify(execFile);
const TYPE_FILE = 'examples/task-types/lgv-troubleshooting.task-type.json';
const example = (file: string) => JSON.parse(readFileSync(`examples/tasks/${file}`, 'utf8')) as Record<string, unknown>;
const escalated = example('lgv-drive-fault.json');
const routine = example('lgv-battery-routine.json');

let api: ApiHarness;
let server: RunningMcpServer;
let agent: McpTestClient;
let operator: McpTestClient;
let service: McpTestClient;

beforeAll(async () => {
  api = await createApiHarness();
  server = await startMcpHttpServer(api.system, { host: '127.0.0.1', port: 0 });
  const person = await api.system.reviewers.create({ tenantId: 't1', name: 'Grace Hopper', role: 'reviewer', team: 'reliability' });
  const personKey = (await api.system.apiKeys.create({ tenantId: 't1', role: 'reviewer', reviewerId: person.id })).key;
  agent = await connectHttp(server.url, api.keys.submitter);
  operator = await connectHttp(server.url, personKey);
  service = await connectHttp(server.url, api.keys.admin);
});

afterAll(async () => {
  for (const client of [agent, operator, service]) await client?.close();
  await server?.close();
  await api?.close();
});

describe('task types', () => {
  it('`vetted task-types add --file` registers the example for a tenant; a broken schema is refused naming it', async () => {
    const env = processEnv(api.system);
    const { stdout } = await run(process.execPath, [BIN, 'task-types', 'add', '--file', TYPE_FILE, '--tenant', 't1'], { env });
    expect(stdout).toContain('registered task type lgv-troubleshooting for tenant t1');
    expect(stdout).toContain('high+normal');
    const types = json<{ items: { name: string; autoApprove: unknown[] }[] }>(await api.call('GET', '/api/task-types', { key: api.keys.reviewer }));
    expect(types.items).toEqual([expect.objectContaining({ name: 'lgv-troubleshooting', autoApprove: [{ confidence: 'high', impact: 'normal' }] })]);

    await expect(registerTaskType(api.system.tasks, 't1', { name: 'broken', schema: { type: 'object', properties: { a: { type: 'strnig' } } } })).rejects.toMatchObject({ code: 'INVALID_REQUEST', field: 'schema' });
    await expect(registerTaskType(api.system.tasks, 't1', { name: 'scalar', schema: { type: 'string' } })).rejects.toMatchObject({ field: 'schema.type' });
    const forbidden = await api.call('POST', '/api/task-types', { key: api.keys.reviewer, body: { name: 'x', schema: { type: 'object' } } });
    expect(forbidden.statusCode).toBe(403);
  });
});

describe('submit_task → list_tasks → record_task_review', () => {
  it('high confidence, normal impact comes back approved at once by the routing policy', async () => {
    const answer = await agent.call('submit_task', routine);
    expect(answer.isError).toBe(false);
    expect(answer.body.task).toMatchObject({
      status: 'approved', routing: 'auto_approved', confidence: 'high', impact: 'normal',
      review: { decision: 'approved', actor: 'policy:auto_approve', operator: { role: 'policy' } },
    });
  });

  it('low confidence, high impact waits; the operator lists it, reads it and records a review under their name', async () => {
    const submitted = await agent.call('submit_task', escalated);
    const task = submitted.body.task as ReviewTask;
    expect(task).toMatchObject({ status: 'pending', routing: 'human_review', review: null, submitter: { name: 'LGV troubleshooting assistant', role: 'chatbot' } });

    const pending = await operator.call('list_tasks', { status: 'pending' });
    expect(pending.body).toMatchObject({ status: 'ok', count: expect.any(Number), total: expect.any(Number) });
    expect((pending.body.tasks as ReviewTask[]).map((t) => t.id)).toContain(task.id);
    expect((await operator.call('get_task', { taskId: task.id })).body).toMatchObject({ status: 'ok', task: { id: task.id, payload: { issue: { lgv_id: 'LGV-07' } } } });

    const reviewed = await operator.call('record_task_review', { taskId: task.id, decision: 'approved', notes: 'Inspect C-14 first; agreed.' });
    expect(reviewed.body.task).toMatchObject({
      status: 'approved',
      review: { decision: 'approved', notes: 'Inspect C-14 first; agreed.', operator: { name: 'Grace Hopper', role: 'reviewer', team: 'reliability', id: expect.stringMatching(/^rv_/) }, reviewedAt: expect.any(String) },
    });
    const again = await operator.call('record_task_review', { taskId: task.id, decision: 'rejected', notes: 'changed my mind' });
    expect(again.body).toMatchObject({ status: 'conflict', code: 'TASK_ALREADY_REVIEWED', message: expect.stringContaining('Grace Hopper') });
    expect((await agent.call('get_task', { taskId: task.id })).body).toMatchObject({ task: { status: 'approved', review: { decision: 'approved' } } });
    const approved = await operator.call('list_tasks', { status: 'approved' });
    expect((approved.body.tasks as ReviewTask[]).map((t) => t.id)).toContain(task.id);
  });

  it("a service's key names the operator; without one it is told to", async () => {
    const task = (await agent.call('submit_task', { ...escalated, requestKey: 'svc-1' })).body.task as ReviewTask;
    const bare = await service.call('record_task_review', { taskId: task.id, decision: 'rejected', notes: 'no' });
    expect(bare.body).toMatchObject({ status: 'error', field: 'operator' });
    const named = await service.call('record_task_review', { taskId: task.id, decision: 'rejected', notes: 'Not enough evidence.', operator: { name: 'Night shift lead', role: 'operations' } });
    expect(named.body.task).toMatchObject({ status: 'rejected', review: { operator: { name: 'Night shift lead', role: 'operations' }, actor: expect.stringMatching(/^key:/) } });
  });

  it('a repeated requestKey returns the first task; the same key for another task is a conflict', async () => {
    const first = (await agent.call('submit_task', { ...escalated, requestKey: 'INC-20931' })).body.task as ReviewTask;
    const again = (await agent.call('submit_task', { ...escalated, requestKey: 'INC-20931' })).body.task as ReviewTask;
    expect(again.id).toBe(first.id);
    const other = await agent.call('submit_task', { ...escalated, whyEscalated: 'something else', requestKey: 'INC-20931' });
    expect(other.body).toMatchObject({ status: 'conflict', code: 'REQUEST_KEY_REUSED' });
  });
});

describe('the MCP error shapes for tasks', () => {
  it('invalid arguments name the field; a payload that does not fit its type lists every issue', async () => {
    expect((await operator.call('record_task_review', { taskId: crypto.randomUUID(), decision: 'maybe', notes: 'x' })).body).toMatchObject({ status: 'error', field: 'decision' });
    expect((await operator.call('list_tasks', { status: 'archived' })).body).toMatchObject({ status: 'error', field: 'status' });
    expect((await agent.call('submit_task', { ...escalated, confidence: 'certain' })).body).toMatchObject({ status: 'error', field: 'confidence' });
    expect((await agent.call('submit_task', { ...escalated, whyEscalated: 'x'.repeat(4001) })).body).toMatchObject({ status: 'error', field: 'whyEscalated' });
    const payload = { issue: { lgv_id: 7 }, investigation: { what_checked: [] }, recommendation: { proposed_next_action: 'x', expected_outcome: 'y' } };
    const misfit = await agent.call('submit_task', { ...escalated, payload });
    expect(misfit.body).toMatchObject({ status: 'error', code: 'INVALID_REQUEST', message: expect.stringContaining('payload') });
    expect(misfit.body.issues).toEqual(expect.arrayContaining([
      expect.objectContaining({ path: '/issue/reported_symptom' }),
      expect.objectContaining({ path: '/issue/lgv_id' }),
      expect.objectContaining({ path: '/investigation/evidence' }),
    ]));
  });

  it("unknown ids, an unknown type and another tenant's task are not_found; roles without the permission are forbidden", async () => {
    const unknown = crypto.randomUUID();
    expect((await operator.call('get_task', { taskId: unknown })).body).toMatchObject({ status: 'not_found', id: unknown });
    expect((await agent.call('submit_task', { ...escalated, taskType: 'forklift' })).body).toMatchObject({ status: 'not_found', id: 'forklift' });
    const task = (await agent.call('submit_task', escalated)).body.task as ReviewTask;
    const stranger = await connectHttp(server.url, api.keys.otherReviewer);
    try {
      expect((await stranger.call('get_task', { taskId: task.id })).body).toMatchObject({ status: 'not_found', id: task.id });
      expect((await stranger.call('record_task_review', { taskId: task.id, decision: 'approved', notes: 'mine now', operator: { name: 'Eve', role: 'reviewer' } })).body).toMatchObject({ status: 'not_found', id: task.id });
      expect((await stranger.call('list_tasks', {})).body).toMatchObject({ status: 'ok', count: 0, total: 0, tasks: [] });
    } finally {
      await stranger.close();
    }
    expect((await agent.call('record_task_review', { taskId: task.id, decision: 'approved', notes: 'self-approval' })).body).toMatchObject({ status: 'forbidden' });
    expect((await operator.call('submit_task', escalated)).body).toMatchObject({ status: 'forbidden' });
  });
});

describe('over HTTP', () => {
  it('POST /api/tasks, GET /api/tasks, GET /api/tasks/:id and POST /api/tasks/:id/review meet the same rules', async () => {
    const created = await api.call('POST', '/api/tasks', { key: api.keys.submitter, body: escalated });
    expect(created.statusCode, created.body).toBe(201);
    const task = json<ReviewTask>(created);
    expect(task.status).toBe('pending');
    const page = json<{ items: ReviewTask[]; total: number }>(await api.call('GET', '/api/tasks?status=pending&limit=200', { key: api.keys.reviewer }));
    expect(page.items.map((t) => t.id)).toContain(task.id);
    const review = { decision: 'rejected', notes: 'Wrong aisle.', operator: { name: 'Ops desk', role: 'operations' } };
    expect((await api.call('POST', `/api/tasks/${task.id}/review`, { key: api.keys.admin, body: review })).statusCode).toBe(200);
    const second = await api.call('POST', `/api/tasks/${task.id}/review`, { key: api.keys.admin, body: review });
    expect(second.statusCode).toBe(409);
    expect(json(second)).toMatchObject({ code: 'TASK_ALREADY_REVIEWED' });
    expect((await api.call('GET', `/api/tasks/${task.id}`, { key: api.keys.other })).statusCode).toBe(404);
    expect((await api.call('POST', '/api/tasks', { key: api.keys.submitter, body: { ...escalated, impact: 'huge' } })).statusCode).toBe(400);
  });
});
