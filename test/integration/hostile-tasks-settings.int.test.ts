/**
 * Hostile input at review tasks (/api/tasks), notification settings (/api/notification-settings) and JSON-RPC
 * batches on /mcp, on real Fastify, PostgreSQL and Redis: bad keys, the wrong role, another tenant's ids, bad
 * ids, oversize bodies, prototype-pollution keys, wrong types and unknown fields. Every answer must be a 4xx
 * problem (application/problem+json with code and detail, naming the field when one is at fault), never a 5xx;
 * no task, setting or run may change or appear that a request should not have made, and nothing of one tenant
 * reaches another.
 */
import { readFileSync } from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerTaskType } from '../../src/tasks/task-types.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { badAuthorizations, HOSTILE_IDS, MALFORMED_JSON } from '../support/hostile.ts';

const TASK_TYPE = JSON.parse(readFileSync('examples/task-types/lgv-troubleshooting.task-type.json', 'utf8')) as Record<string, unknown>;
const TASK = JSON.parse(readFileSync('examples/tasks/lgv-drive-fault.json', 'utf8')) as Record<string, unknown>;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const POLLUTERS = ['__proto__', 'constructor', 'prototype'];

let api: ApiHarness;
let otherAdmin: string;
let ownTask: string;
let foreignTask: string;

/** One hostile request and the field its problem must name (when a field is at fault). */
interface Case {
  why: string;
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  key?: string | null;
  authorization?: string;
  body?: string;
  status?: number;
  field?: string;
}

beforeAll(async () => {
  api = await createApiHarness({ VETTED_RATE_LIMIT_PER_MINUTE: '1000000', VETTED_BODY_LIMIT_BYTES: '65536', VETTED_SMTP_URL: 'smtp://127.0.0.1:2525' });
  otherAdmin = (await api.system.apiKeys.create({ tenantId: 't2', role: 'admin' })).key;
  await registerTaskType(api.system.tasks, 't1', TASK_TYPE);
  await registerTaskType(api.system.tasks, 't2', { ...TASK_TYPE, name: 'only-in-t2' });
  await registerTaskType(api.system.tasks, 't2', TASK_TYPE);
  ownTask = json<{ id: string }>(await api.call('POST', '/api/tasks', { key: api.keys.submitter, body: TASK })).id;
  foreignTask = json<{ id: string }>(await api.call('POST', '/api/tasks', { key: otherAdmin, body: { ...TASK, whyEscalated: 'T2-ONLY-SECRET-REASON' } })).id;
  const saved = await api.call('PUT', '/api/notification-settings', { key: otherAdmin, body: { email: 't2-only@example.com', nearExpirySeconds: 120 } });
  expect(saved.statusCode, saved.body).toBe(200);
});

afterAll(async () => {
  await api?.close();
});

async function send(c: Case): Promise<LightMyRequestResponse> {
  const key = c.key === undefined ? api.keys.admin : c.key;
  const authorization = c.authorization ?? (key === null ? undefined : `Bearer ${key}`);
  return api.app.inject({
    method: c.method, url: c.url,
    headers: { ...(authorization === undefined ? {} : { authorization }), ...(c.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(c.body === undefined ? {} : { payload: c.body }),
  });
}

/** The answer is a 4xx problem of the expected status, naming the expected field; returns a failure message or undefined. */
function misfit(c: Case, response: LightMyRequestResponse): string | undefined {
  const where = `${c.method} ${c.url.slice(0, 80)} (${c.why}) → ${response.statusCode} ${response.body.slice(0, 200)}`;
  if (response.statusCode < 400 || response.statusCode >= 500) return where;
  if (c.status !== undefined && response.statusCode !== c.status) return `${where}: expected ${c.status}`;
  if (!String(response.headers['content-type']).startsWith('application/problem+json')) return `${where}: not a problem body`;
  const problem = response.json() as { code?: string; detail?: string; field?: string };
  if (!problem.code || !problem.detail) return `${where}: problem without code or detail`;
  if (c.field !== undefined && !(problem.field ?? '').includes(c.field)) return `${where}: field should name ${c.field}`;
  return undefined;
}

async function barrage(cases: Case[]): Promise<void> {
  const misfits: string[] = [];
  for (const c of cases) {
    const wrong = misfit(c, await send(c));
    if (wrong) misfits.push(wrong);
  }
  expect(misfits).toEqual([]);
}

const body = (value: unknown) => JSON.stringify(value);
/** A valid object with `key` added as raw JSON text, since JSON.stringify drops or rewrites `__proto__`. */
const withRawKey = (value: Record<string, unknown>, key: string, raw = '{"polluted":true}') => `${JSON.stringify(value).slice(0, -1)},"${key}":${raw}}`;

async function tableRows(table: 'tasks' | 'notification_settings' | 'runs'): Promise<unknown[]> {
  return (await api.system.database.pool.query(`select * from ${table} order by 1`)).rows;
}

describe('hostile input at /api/tasks', () => {
  it('refuses bad keys, the wrong role, bad ids, other tenants\' tasks and types, and malformed submissions, changing nothing', async () => {
    const before = await tableRows('tasks');
    const wrongTypes: [string, unknown][] = [
      ['taskType', 42], ['taskType', '../../etc'], ['payload', 'text'], ['payload', [1]], ['confidence', 7], ['confidence', 'certain'], ['impact', []],
      ['whyEscalated', {}], ['whyEscalated', 'x'.repeat(4001)], ['submitter', 'bob'], ['requestKey', 5], ['missingInformation', 'none'],
    ];
    const cases: Case[] = [
      ...badAuthorizations(api.keys.submitter).map((authorization, i): Case => ({ why: `bad key #${i}`, method: 'POST', url: '/api/tasks', key: null, ...(authorization === undefined ? {} : { authorization }), body: body(TASK), status: 401 })),
      { why: 'a reviewer may not submit', method: 'POST', url: '/api/tasks', key: api.keys.reviewer, body: body(TASK), status: 403 },
      { why: 'a submitter may not review', method: 'POST', url: `/api/tasks/${ownTask}/review`, key: api.keys.submitter, body: body({ decision: 'approved', notes: 'ok' }), status: 403 },
      ...wrongTypes.map(([field, value]): Case => ({ why: `${field} of the wrong type`, method: 'POST', url: '/api/tasks', body: body({ ...TASK, [field]: value }), status: 400, field })),
      ...['taskType', 'payload', 'confidence', 'impact', 'whyEscalated', 'submitter'].map((field): Case => {
        const { [field]: _dropped, ...rest } = TASK;
        return { why: `${field} missing`, method: 'POST', url: '/api/tasks', body: body(rest), status: 400, field };
      }),
      { why: 'an unknown field', method: 'POST', url: '/api/tasks', body: body({ ...TASK, isAdmin: true }), status: 400, field: 'isAdmin' },
      ...POLLUTERS.map((key): Case => ({ why: `${key} at the top`, method: 'POST', url: '/api/tasks', body: withRawKey(TASK, key), status: 400 })),
      ...POLLUTERS.map((key): Case => ({ why: `${key} in the payload`, method: 'POST', url: '/api/tasks', body: body({ ...TASK, payload: '@' }).replace('"@"', withRawKey(TASK.payload as Record<string, unknown>, key)), status: 400 })),
      { why: 'a body over the limit', method: 'POST', url: '/api/tasks', body: body({ ...TASK, payload: { blob: 'x'.repeat(70_000) } }), status: 413, field: 'body' },
      ...MALFORMED_JSON.filter((text) => text.trim() !== '').map((text, i): Case => ({ why: `malformed JSON #${i}`, method: 'POST', url: '/api/tasks', body: text, field: 'body' })),
      { why: "another tenant's task type", method: 'POST', url: '/api/tasks', body: body({ ...TASK, taskType: 'only-in-t2' }), status: 404, field: 'taskType' },
      { why: "another tenant's task", method: 'GET', url: `/api/tasks/${foreignTask}`, status: 404 },
      { why: "reviewing another tenant's task", method: 'POST', url: `/api/tasks/${foreignTask}/review`, body: body({ decision: 'approved', notes: 'mine now', operator: { name: 'Mallory', role: 'ops' } }), status: 404 },
      { why: 'an unknown task', method: 'GET', url: `/api/tasks/${UNKNOWN_ID}`, status: 404 },
      ...HOSTILE_IDS.map((id): Case => ({ why: `a bad id ${id}`, method: 'GET', url: `/api/tasks/${id}` })),
      ...HOSTILE_IDS.map((id): Case => ({ why: `reviewing a bad id ${id}`, method: 'POST', url: `/api/tasks/${id}/review`, body: body({ decision: 'approved', notes: 'x' }) })),
      ...[['decision', 'maybe'], ['decision', true], ['notes', ''], ['notes', 'x'.repeat(4001)], ['notes', 9], ['operator', 'me']].map(([field, value]): Case => ({
        why: `review ${String(field)} of the wrong type`, method: 'POST', url: `/api/tasks/${ownTask}/review`, body: body({ decision: 'approved', notes: 'fine', [String(field)]: value }), status: 400, field: String(field),
      })),
      { why: 'a review with an unknown field', method: 'POST', url: `/api/tasks/${ownTask}/review`, body: body({ decision: 'approved', notes: 'fine', score: 10 }), status: 400, field: 'score' },
      ...POLLUTERS.map((key): Case => ({ why: `${key} in a review`, method: 'POST', url: `/api/tasks/${ownTask}/review`, body: withRawKey({ decision: 'approved', notes: 'fine' }, key), status: 400 })),
      ...['status=bogus', 'limit=-1', 'limit=abc', 'limit=100000', 'cursor=%00%27', 'cursor=not-a-cursor', 'taskType=%27%20OR%201%3D1', 'status[]=pending'].map((query): Case => ({
        why: `list query ${query}`, method: 'GET', url: `/api/tasks?${query}`, status: 400,
      })),
    ];
    await barrage(cases);
    expect(await tableRows('tasks')).toEqual(before);
  });

  it("lists and reads only the caller's tenant: another tenant's task never appears", async () => {
    for (const key of [api.keys.submitter, api.keys.reviewer, api.keys.admin]) {
      const list = await api.call('GET', '/api/tasks?limit=100', { key });
      expect(list.statusCode).toBe(200);
      expect(list.body).toContain(ownTask);
      expect(list.body).not.toContain(foreignTask);
      expect(list.body).not.toContain('T2-ONLY-SECRET-REASON');
    }
    const foreign = await api.call('GET', '/api/tasks?limit=100', { key: otherAdmin });
    expect(foreign.body).toContain(foreignTask);
    expect(foreign.body).not.toContain(ownTask);
  });
});

describe('hostile input at /api/notification-settings', () => {
  it('refuses bad keys, the wrong roles and every malformed body, and keeps each tenant\'s settings its own', async () => {
    const before = await tableRows('notification_settings');
    const put = (value: unknown, field?: string, why = `bad ${field}`): Case => ({ why, method: 'PUT', url: '/api/notification-settings', body: typeof value === 'string' ? value : body(value), status: 400, ...(field ? { field } : {}) });
    const cases: Case[] = [
      ...badAuthorizations(api.keys.admin).map((authorization, i): Case => ({ why: `bad key #${i}`, method: 'GET', url: '/api/notification-settings', key: null, ...(authorization === undefined ? {} : { authorization }), status: 401 })),
      ...[api.keys.submitter, api.keys.reviewer, api.keys.override].flatMap((key): Case[] => [
        { why: 'not an admin reads', method: 'GET', url: '/api/notification-settings', key, status: 403 },
        { why: 'not an admin writes', method: 'PUT', url: '/api/notification-settings', key, body: body({ email: 'me@example.com' }), status: 403 },
      ]),
      put({ slackWebhookUrl: 'ftp://example.com/hook' }, 'slackWebhookUrl'),
      put({ slackWebhookUrl: 42 }, 'slackWebhookUrl'),
      put({ webhookUrl: 'javascript:alert(1)' }, 'webhookUrl'),
      put({ webhookUrl: 'http://127.0.0.1:6379/' }, 'webhookUrl', 'a private address'),
      put({ webhookUrl: 'http://169.254.169.254/latest/meta-data' }, 'webhookUrl', 'the metadata address'),
      put({ webhookUrl: `https://example.com/${'a'.repeat(2000)}` }, 'webhookUrl', 'a long URL'),
      put({ email: 'not an email' }, 'email'),
      put({ email: ['a@example.com'] }, 'email'),
      put({ nearExpirySeconds: -1 }, 'nearExpirySeconds'),
      put({ nearExpirySeconds: 1.5 }, 'nearExpirySeconds'),
      put({ nearExpirySeconds: '60' }, 'nearExpirySeconds'),
      put({ nearExpirySeconds: 1e12 }, 'nearExpirySeconds'),
      put({ events: ['bogus'] }, 'events'),
      put({ events: 'waiting' }, 'events'),
      put({ events: ['waiting', 'waiting'] }, 'events'),
      put({ tenantId: 't2', email: 'x@example.com' }, 'tenantId', 'another tenant named in the body'),
      put({ smtpUrl: 'smtp://evil' }, 'smtpUrl', 'an unknown field'),
      put('[]', undefined, 'an array body'),
      put('"text"', undefined, 'a string body'),
      ...POLLUTERS.map((key) => put(withRawKey({ email: 'x@example.com' }, key), undefined, `${key} key`)),
      { why: 'a body over the limit', method: 'PUT', url: '/api/notification-settings', body: body({ email: 'x@example.com', pad: 'x'.repeat(70_000) }), status: 413, field: 'body' },
      ...MALFORMED_JSON.filter((text) => text.trim() !== '').map((text, i): Case => ({ why: `malformed JSON #${i}`, method: 'PUT', url: '/api/notification-settings', body: text, field: 'body' })),
    ];
    await barrage(cases);
    expect(await tableRows('notification_settings')).toEqual(before);
    const own = await api.call('GET', '/api/notification-settings', { key: api.keys.admin });
    expect(own.statusCode).toBe(200);
    expect(own.body).not.toContain('t2-only@example.com');
    expect(json(await api.call('GET', '/api/notification-settings', { key: otherAdmin }))).toMatchObject({ email: 't2-only@example.com', nearExpirySeconds: 120 });
  });
});

describe('JSON-RPC batches and hostile tool calls on /mcp', () => {
  const rpc = (id: number, name: string, args: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
  const mcp = (key: string, payload: string) =>
    api.app.inject({ method: 'POST', url: '/mcp', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, payload });

  it('refuses every batch of more than one message, whatever it holds, naming the body, and runs none of its calls', async () => {
    const runsBefore = (await tableRows('runs')).length;
    const tasksBefore = (await tableRows('tasks')).length;
    const submitRun = rpc(1, 'submit_run', { model: 'black-forest-labs/flux-schnell', prompt: 'a crane' });
    const batches = [
      [submitRun, rpc(2, 'submit_run', { model: 'black-forest-labs/flux-schnell', prompt: 'a heron' })],
      [rpc(1, 'submit_task', TASK), rpc(2, 'submit_task', { ...TASK, requestKey: 'other' })],
      [{ jsonrpc: '2.0', method: 'notifications/initialized' }, submitRun],
      [[submitRun], [submitRun]],
      Array.from({ length: 500 }, (_, i) => rpc(i, 'get_task', { taskId: foreignTask })),
    ];
    for (const key of [api.keys.admin, api.keys.submitter]) {
      for (const batch of batches) {
        const response = await mcp(key, body(batch));
        // 500 calls are also over the body limit: 413, naming the body too.
        expect([400, 413], `${batch.length}: ${response.body}`).toContain(response.statusCode);
        expect(response.headers['content-type']).toContain('application/problem+json');
        expect(response.json()).toMatchObject({ code: response.statusCode === 413 ? 'PAYLOAD_TOO_LARGE' : 'INVALID_REQUEST', field: 'body' });
        expect(response.body).not.toContain('T2-ONLY-SECRET-REASON');
      }
    }
    expect((await tableRows('runs')).length).toBe(runsBefore);
    expect((await tableRows('tasks')).length).toBe(tasksBefore);
  });

  it('an empty or nested batch is a 4xx that runs nothing; a one-message batch is one call', async () => {
    const runsBefore = (await tableRows('runs')).length;
    const submitRun = rpc(1, 'submit_run', { model: 'black-forest-labs/flux-schnell', prompt: 'a crane' });
    for (const batch of [[], [[submitRun]], [[]], [null], [42]]) {
      const response = await mcp(api.keys.admin, body(batch));
      expect(response.statusCode, `${body(batch).slice(0, 60)}: ${response.body}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, response.body).toBeLessThan(500);
    }
    expect((await tableRows('runs')).length).toBe(runsBefore);
    const single = await mcp(api.keys.admin, body([submitRun]));
    expect(single.statusCode, single.body).toBe(200);
    expect((await tableRows('runs')).length).toBe(runsBefore + 1);
  });

  it("answers another tenant's ids, the wrong role, prototype keys and wrong types with tool errors that say why, leaking nothing", async () => {
    const tasksBefore = await tableRows('tasks');
    const calls: [string, string, unknown, RegExp][] = [
      [api.keys.admin, 'get_task', { taskId: foreignTask }, /not.found|no task/i],
      [api.keys.reviewer, 'record_task_review', { taskId: foreignTask, decision: 'approved', notes: 'mine', operator: { name: 'Mallory', role: 'ops' } }, /not.found|no task/i],
      [api.keys.submitter, 'record_task_review', { taskId: ownTask, decision: 'approved', notes: 'self-approved' }, /permission|may not|forbidden/i],
      [api.keys.reviewer, 'submit_task', TASK, /permission|may not|forbidden/i],
      [api.keys.admin, 'submit_task', { ...TASK, confidence: 7 }, /confidence/],
      [api.keys.admin, 'submit_task', { ...TASK, isAdmin: true }, /isAdmin/],
      [api.keys.admin, 'submit_task', { ...TASK, taskType: 'only-in-t2' }, /task type/i],
      [api.keys.admin, 'get_task', { taskId: "1' OR '1'='1" }, /taskId/],
      [api.keys.admin, 'list_tasks', { status: 'bogus' }, /status/],
    ];
    for (const [key, name, args, why] of calls) {
      const response = await mcp(key, body(rpc(1, name, args)));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.body, name).toContain('"isError":true');
      expect(response.body, `${name} ${JSON.stringify(args).slice(0, 60)}`).toMatch(why);
      expect(response.body).not.toContain('T2-ONLY-SECRET-REASON');
    }
    for (const key of POLLUTERS) {
      const raw = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"submit_task","arguments":${withRawKey(TASK, key)}}}`;
      const response = await mcp(api.keys.admin, raw);
      expect(response.statusCode, response.body).toBeLessThan(500);
      if (response.statusCode === 200) expect(response.body).toContain('"isError":true');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
    expect(await tableRows('tasks')).toEqual(tasksBefore);
  });
});
