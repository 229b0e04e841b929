/**
 * Hostile input at /mcp (streamable HTTP, stateless), on a real server, PostgreSQL and Redis: bad keys, bodies
 * that are not JSON, wrong media types, JSON-RPC that breaks the protocol, and every tool called with arguments
 * of every wrong shape (fixed lists plus seeded fast-check samples, so every run sends the same ones). Every
 * answer must be a 4xx, or a JSON-RPC answer on 200 whose tool results are errors that say why; never a 5xx;
 * the process stays up, no run or task is created, and no review is decided.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHttpServer, type RunningMcpServer } from '../../api/mcp-app.ts';
import { createApiHarness, type ApiHarness } from '../support/api.ts';
import { badAuthorizations, deepJson, HOSTILE_CONTENT_TYPES, HOSTILE_IDS, INJECTION_STRINGS, jsonArb, MALFORMED_JSON, sampleOf } from '../support/hostile.ts';

const TOOLS = [
  'list_pending_reviews', 'get_review', 'record_decision', 'reply', 'submit_run', 'get_run', 'assign_review', 'snooze_review', 'queue_stats',
  'submit_task', 'list_tasks', 'get_task', 'record_task_review', 'export_audit',
] as const;
const ACCEPT = 'application/json, text/event-stream';
const CONCURRENCY = 8;

let api: ApiHarness;
let server: RunningMcpServer;

beforeAll(async () => {
  api = await createApiHarness({ VETTED_RATE_LIMIT_PER_MINUTE: '1000000' });
  server = await startMcpHttpServer(api.system, { host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await server?.close();
  await api?.close();
});

interface Probe {
  why: string;
  /** A charset or media type the server may parse safely: a working answer is fair too. */
  mayWork?: boolean;
  headers: Record<string, string>;
  body: string;
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

function probe(why: string, body: unknown, headers: Record<string, string> = {}): Probe {
  const key = api.keys.admin;
  return {
    why,
    headers: { 'content-type': 'application/json', accept: ACCEPT, authorization: `Bearer ${key}`, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

const call = (id: number, name: string, args: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

function keyProbes(): Probe[] {
  return badAuthorizations(api.keys.admin).map((authorization, i) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: ACCEPT };
    if (authorization !== undefined) headers.authorization = authorization;
    return { why: `bad key #${i}`, headers, body: JSON.stringify(call(1, 'queue_stats', {})) };
  });
}

function transportProbes(): Probe[] {
  return [
    ...MALFORMED_JSON.map((text) => probe(`malformed JSON ${JSON.stringify(text).slice(0, 30)}`, text)),
    ...HOSTILE_CONTENT_TYPES.map((type) => ({ ...probe(`content-type ${type}`, call(1, 'queue_stats', {}), { 'content-type': type }), mayWork: true })),
    ...['text/html', 'application/json', 'text/event-stream', '*/x', ''].map((accept) => probe(`accept ${accept || '(empty)'}`, call(1, 'queue_stats', {}), { accept })),
    probe('deep nesting', `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${deepJson(5000)}}`),
    probe('over the body limit', { ...call(1, 'queue_stats', {}), pad: 'x'.repeat(api.system.config.limits.bodyLimitBytes) }),
    probe('__proto__ key', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_run","arguments":{"__proto__":{"admin":true}}}}'),
  ];
}

function protocolProbes(): Probe[] {
  const shapes: unknown[] = [
    {}, [], [{}], [1, 2], null, 42, 'text', { jsonrpc: '1.0', id: 1, method: 'tools/list' }, { id: 1, method: 'tools/list' },
    { jsonrpc: '2.0', method: 'tools/call', params: { name: 'queue_stats' } }, { jsonrpc: '2.0', id: {}, method: 'tools/list' },
    { jsonrpc: '2.0', id: 1, method: 'no/such/method' }, { jsonrpc: '2.0', id: 1, method: 'tools/call' },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: 'x' }, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 42 } },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'drop_database', arguments: {} } },
    { jsonrpc: '2.0', id: 'x'.repeat(10_000), method: 'tools/list' }, { jsonrpc: '2.0', id: 1, result: {} },
    Array.from({ length: 200 }, (_, i) => call(i, 'get_run', { runId: HOSTILE_IDS[i % HOSTILE_IDS.length] })),
  ];
  return shapes.map((shape, i) => probe(`JSON-RPC shape #${i}`, shape));
}

/** An empty object is valid for the tools whose arguments are all optional: not hostile. */
const isEmptyObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

/** Wrong arguments for every tool: fixed hostile values under each likely field, and seeded random JSON. */
function argumentProbes(): Probe[] {
  const fields = ['reviewId', 'runId', 'taskId', 'payloadHash', 'action', 'limit', 'cursor', 'text', 'model', 'prompt', 'type', 'payload', 'requestKey', 'confidence', 'impact', 'decision', 'notes', 'edits'];
  const values: unknown[] = [...INJECTION_STRINGS, ...HOSTILE_IDS, null, -1, 1e308, true, [], {}, 'x'.repeat(100_000), { $ref: '#' }];
  const probes: Probe[] = [];
  let id = 0;
  for (const tool of TOOLS) {
    for (const field of fields) {
      for (const value of values.filter((_, i) => (i + field.length) % 3 === 0)) probes.push(probe(`${tool} ${field}=${String(JSON.stringify(value)).slice(0, 20)}`, call(++id, tool, { [field]: value })));
    }
    for (const args of sampleOf(jsonArb(3), 25, tool.length).filter((a) => !isEmptyObject(a))) probes.push(probe(`${tool} random arguments`, call(++id, tool, args)));
    for (const args of sampleOf(fc.dictionary(fc.constantFrom(...fields), jsonArb(2)), 25, tool.length + 1).filter((a) => !isEmptyObject(a))) probes.push(probe(`${tool} random fields`, call(++id, tool, args)));
  }
  return probes;
}

async function send(p: Probe): Promise<Answer> {
  const response = await fetch(server.url, { method: 'POST', headers: p.headers, body: p.body });
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
}

async function pool<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  }));
  return results;
}

/** What is wrong with one answer, or undefined when it is a fair refusal. */
function judge(p: Probe, answer: Answer): string | undefined {
  const at = `${p.why} → ${answer.status}`;
  if (answer.status >= 500) return `${at}: a server error: ${answer.text.slice(0, 200)}`;
  if (answer.status >= 400) {
    if (!answer.text) return undefined;
    const body = parse(answer.text);
    if (answer.contentType.includes('application/problem+json')) return typeof (body as { code?: unknown })?.code === 'string' ? undefined : `${at}: a problem without a code`;
    return isRpcError(body) ? undefined : `${at}: a 4xx that is neither a problem nor a JSON-RPC error: ${answer.text.slice(0, 200)}`;
  }
  if (answer.status === 202 && !answer.text) return undefined;
  const body = parse(answer.text);
  const messages = Array.isArray(body) ? body : [body];
  for (const message of messages) {
    if (isRpcError(message)) continue;
    const result = (message as { result?: { isError?: boolean; structuredContent?: { status?: string } } }).result;
    if (!result) return `${at}: neither a result nor an error: ${answer.text.slice(0, 200)}`;
    // A tool answers a wrong argument with isError and a status that says which kind (error, not_found, forbidden).
    if (result.isError !== true && result.structuredContent?.status === 'ok' && !p.mayWork) return `${at}: accepted: ${answer.text.slice(0, 200)}`;
  }
  return undefined;
}

function isRpcError(message: unknown): boolean {
  const error = (message as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return typeof error?.code === 'number' && typeof error.message === 'string';
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function counts(): Promise<{ runs: number; tasks: number; decisions: number }> {
  const count = async (table: string) => Number((await api.system.database.pool.query(`select count(*)::int as n from ${table}`)).rows[0].n);
  return { runs: await count('runs'), tasks: await count('tasks'), decisions: await count('decisions') };
}

describe('hostile input at /mcp', () => {
  it('answers every request with a 4xx or a JSON-RPC error, never a 5xx, and creates or decides nothing', async () => {
    const before = await counts();
    const probes = [...keyProbes(), ...transportProbes(), ...protocolProbes(), ...argumentProbes()];
    const answers = await pool(probes, send);
    const wrong = probes.map((p, i) => judge(p, answers[i]!)).filter((problem): problem is string => problem !== undefined);
    expect(wrong.slice(0, 20)).toEqual([]);
    expect(probes.length).toBeGreaterThan(1000);
    // Bad keys never reach MCP: a 401 problem each, or a 431 problem from the HTTP parser for a 64 KB header.
    const keyAnswers = keyProbes().map((p, i) => ({ oversized: (p.headers.authorization ?? '').length > 16_384, ...answers[i]! }));
    expect(keyAnswers.filter((a) => a.status !== (a.oversized ? 431 : 401))).toEqual([]);
    expect(keyAnswers.filter((a) => a.oversized).map((a) => JSON.parse(a.text))).toEqual([expect.objectContaining({ status: 431, code: 'INVALID_REQUEST', field: 'headers' })]);
    // The process is still up and a well-formed call still works.
    const healthy = await send(probe('healthy', call(1, 'queue_stats', {})));
    expect(healthy.status).toBe(200);
    expect(JSON.parse(healthy.text)).toMatchObject({ result: { structuredContent: { status: 'ok' } } });
    expect(await counts()).toEqual(before);
  });
});
