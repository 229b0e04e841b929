/**
 * The audit chain end to end: review events (raised, claimed, released, decided, overridden, cancelled) are
 * chained per tenant as they commit; GET /api/audit and `vetted audit export` stream them; `vetted audit verify`
 * says the chain is intact and names the first record edited, removed or swapped; a retention purge leaves it
 * intact.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHttpServer } from '../../api/mcp-app.ts';
import { createVettedClient, type AuditRecord as ClientAuditRecord } from '../../clients/typescript/src/index.ts';
import { recordHash, type AuditRecord } from '../../src/audit/audit-record.ts';
import { purgeExpiredDocuments } from '../../src/retention/purge.ts';
import { registerTaskType } from '../../src/tasks/task-types.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { connectHttp } from '../support/mcp.ts';
import { runCli } from '../support/cli-process.ts';
import { settle } from '../support/pipeline.ts';

const FLUX = 'black-forest-labs/flux-schnell';
const DAY_MS = 86_400_000;
const CYCLES = 110;

let api: ApiHarness;
let home: string;

beforeAll(async () => {
  api = await createApiHarness();
  home = await mkdtemp(path.join(tmpdir(), 'vetted-audit-'));
});

afterAll(async () => {
  await api?.close();
});

async function parkedRun(prompt: string): Promise<{ id: string; reviewId: string; payloadHash: string }> {
  const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { model: FLUX, prompt, policy: 'require_human' } });
  expect(response.statusCode, response.body).toBe(202);
  const run = await settle(api.system, json<{ id: string }>(response).id, ['awaiting_human']);
  return { id: run.id, reviewId: run.pendingReview!.reviewId, payloadHash: run.pendingReview!.payloadHash };
}

const cli = (args: string[]) => runCli(home, args, { DATABASE_URL: api.system.config.databaseUrl, REDIS_URL: api.system.config.redisUrl });

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '');
}

describe('audit export', () => {
  it('chains a few hundred review events, streams them as NDJSON and CSV, and verify catches an edit, a removal and a swap', async () => {
    const [first, second, third] = [await parkedRun('a fox at dawn'), await parkedRun('a kite in the wind'), await parkedRun('a cat on a wall')];
    for (let i = 0; i < CYCLES; i++) {
      const review = [first, second][i % 2]!;
      expect((await api.call('POST', `/api/reviews/${review.reviewId}/claim`, { key: api.keys.reviewer, body: {} })).statusCode).toBe(200);
      expect((await api.call('DELETE', `/api/reviews/${review.reviewId}/claim`, { key: api.keys.reviewer })).statusCode).toBe(200);
    }
    const approved = await api.call('POST', `/api/runs/${first.id}/decision`, { key: api.keys.reviewer, body: { reviewId: first.reviewId, payloadHash: first.payloadHash, action: 'approve' } });
    expect(approved.statusCode, approved.body).toBe(200);
    const rejected = await api.call('POST', `/api/runs/${second.id}/decision`, { key: api.keys.reviewer, body: { reviewId: second.reviewId, payloadHash: second.payloadHash, action: 'reject', reason: 'not this one' } });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect((await api.call('DELETE', `/api/runs/${third.id}`, { key: api.keys.admin })).statusCode).toBe(200);
    await settle(api.system, first.id, ['completed']);

    const response = await api.call('GET', '/api/audit');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('application/x-ndjson');
    const records = lines(response.body).map((line) => JSON.parse(line) as AuditRecord);
    expect(records.length).toBeGreaterThanOrEqual(3 + 2 * CYCLES + 3);
    expect(records.map((r) => r.seq)).toEqual(records.map((_, i) => i + 1));
    expect(new Set(records.map((r) => r.tenantId))).toEqual(new Set(['t1']));
    const actions = records.map((r) => r.action);
    expect(actions.filter((a) => a === 'raise')).toHaveLength(3);
    expect(actions.filter((a) => a === 'claim')).toHaveLength(CYCLES);
    expect(actions.filter((a) => a === 'release')).toHaveLength(CYCLES);
    expect(records.find((r) => r.action === 'approve')).toMatchObject({ runId: first.id, reviewId: first.reviewId, payloadHash: first.payloadHash, type: 'review.decided', actor: expect.stringMatching(/^key:/) });
    expect(records.find((r) => r.action === 'reject')).toMatchObject({ reviewId: second.reviewId, payloadHash: second.payloadHash });
    expect(records.find((r) => r.action === 'cancel')).toMatchObject({ reviewId: third.reviewId, type: 'run.cancelled' });
    for (const record of records) expect(recordHash(record)).toBe(record.hash);

    // A member's key cannot read it.
    expect((await api.call('GET', '/api/audit', { key: api.keys.reviewer })).statusCode).toBe(403);

    const ndjsonFile = path.join(home, 'audit.ndjson');
    const exported = await cli(['audit', 'export', '--tenant', 't1', '--out', ndjsonFile]);
    expect(exported.code, exported.stderr).toBe(0);
    const text = await readFile(ndjsonFile, 'utf8');
    expect(lines(text)).toEqual(lines(response.body));
    const intact = await cli(['audit', 'verify', ndjsonFile]);
    expect(intact.code, intact.stderr).toBe(0);
    expect(intact.stdout.trim()).toBe(`chain intact, ${records.length} records`);

    const csv = await cli(['audit', 'export', '--tenant', 't1', '--format', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    expect(lines(csv.stdout)).toHaveLength(records.length + 1);
    const csvFile = path.join(home, 'audit.csv');
    await writeFile(csvFile, csv.stdout);
    expect((await cli(['audit', 'verify', csvFile])).stdout.trim()).toBe(`chain intact, ${records.length} records`);

    const tampered = async (name: string, change: (rows: string[]) => string[]) => {
      const file = path.join(home, name);
      await writeFile(file, `${change(lines(text)).join('\n')}\n`);
      return cli(['audit', 'verify', file]);
    };
    const edited = await tampered('edited.ndjson', (rows) => rows.map((row, i) => (i === 99 ? row.replace('"action":"claim"', '"action":"approve"').replace('"action":"release"', '"action":"approve"') : row)));
    expect(edited.code).toBe(1);
    expect(edited.stdout).toContain('line 100: record 100 was altered');
    const removed = await tampered('removed.ndjson', (rows) => rows.filter((_, i) => i !== 149));
    expect(removed.code).toBe(1);
    expect(removed.stdout).toContain('line 150: record 150 was removed before record 151');
    const swapped = await tampered('swapped.ndjson', (rows) => [...rows.slice(0, 199), rows[200]!, rows[199]!, ...rows.slice(201)]);
    expect(swapped.code).toBe(1);
    expect(swapped.stdout).toContain('line 200: record 201 comes before record 200 (reordered)');

    // The API's CSV is the CLI's.
    const csvResponse = await api.call('GET', '/api/audit?format=csv');
    expect(csvResponse.headers['content-type']).toContain('text/csv');
    expect(lines(csvResponse.body)).toEqual(lines(csv.stdout));
  });

  it('keeps the chain intact when retention purges the documents of the runs it names', async () => {
    const before = lines((await api.call('GET', '/api/audit')).body);
    await api.system.retention.upsert({ tenantId: 't1', documentsDays: 1, maskPii: false, updatedBy: 'test' });
    const results = await purgeExpiredDocuments({ ...api.system, clock: { now: () => new Date(Date.now() + 2 * DAY_MS) } });
    expect(results.find((r) => r.tenantId === 't1')?.purged).toBeGreaterThanOrEqual(3);
    const after = lines((await api.call('GET', '/api/audit')).body);
    expect(after).toEqual(before);
    const file = path.join(home, 'after-purge.ndjson');
    await writeFile(file, `${after.join('\n')}\n`);
    expect((await cli(['audit', 'verify', file])).stdout.trim()).toBe(`chain intact, ${after.length} records`);
  });

  it('pages the same chain over MCP (export_audit) and streams it through the typed client', async () => {
    const exported = lines((await api.call('GET', '/api/audit')).body).map((line) => JSON.parse(line) as AuditRecord);
    expect(exported.length).toBeGreaterThan(200);
    const server = await startMcpHttpServer(api.system, { host: '127.0.0.1', port: 0 });
    const admin = await connectHttp(server.url, api.keys.admin);
    const reviewer = await connectHttp(server.url, api.keys.reviewer);
    try {
      const paged: AuditRecord[] = [];
      let afterSeq: number | undefined = 0;
      let pages = 0;
      while (afterSeq !== undefined) {
        const answer = await admin.call('export_audit', { afterSeq, limit: 100 });
        expect(answer.body.status, JSON.stringify(answer.body)).toBe('ok');
        const page = answer.body as unknown as { count: number; records: AuditRecord[]; nextAfterSeq?: number };
        expect(page.count).toBe(page.records.length);
        paged.push(...page.records);
        afterSeq = page.nextAfterSeq;
        pages++;
      }
      expect(pages).toBe(Math.ceil(exported.length / 100));
      expect(paged).toEqual(exported);
      const later = await admin.call('export_audit', { since: new Date(Date.now() + 60_000).toISOString() });
      expect(later.body).toMatchObject({ status: 'ok', count: 0, records: [] });
      expect((await admin.call('export_audit', { limit: 5000 })).body).toMatchObject({ status: 'error', message: expect.stringContaining('limit') });
      expect((await reviewer.call('export_audit', {})).body.status).toBe('forbidden');
    } finally {
      await admin.close();
      await reviewer.close();
      await server.close();
    }

    const baseUrl = await api.app.listen({ host: '127.0.0.1', port: 0 });
    const client = createVettedClient({ baseUrl, apiKey: api.keys.admin });
    const streamed: ClientAuditRecord[] = [];
    for await (const record of client.auditRecords()) streamed.push(record);
    expect(streamed).toEqual(exported);
    const fromLast: ClientAuditRecord[] = [];
    for await (const record of client.auditRecords({ since: exported.at(-1)!.at })) fromLast.push(record);
    expect(fromLast.at(-1)).toEqual(exported.at(-1));
    expect(fromLast.length).toBeLessThan(exported.length);
    const denied = createVettedClient({ baseUrl, apiKey: api.keys.reviewer }).auditRecords();
    await expect(denied.next()).rejects.toMatchObject({ status: 403 });
  });

  it('refuses a bad format and a bad since with a problem naming the field', async () => {
    const format = await api.call('GET', '/api/audit?format=xml');
    expect(format.statusCode).toBe(400);
    expect(format.body).toContain('format');
    const since = await api.call('GET', '/api/audit?since=yesterday');
    expect(since.statusCode).toBe(400);
    expect(since.body).toContain('since');
  });

  it('chains review-task decisions too: one decided by the routing policy at submission, one by a person; verify covers them', async () => {
    await registerTaskType(api.system.tasks, 't1', JSON.parse(readFileSync('examples/task-types/lgv-troubleshooting.task-type.json', 'utf8')));
    const submit = async (file: string) => {
      const response = await api.call('POST', '/api/tasks', { key: api.keys.submitter, body: JSON.parse(readFileSync(`examples/tasks/${file}`, 'utf8')) });
      expect(response.statusCode, response.body).toBe(201);
      return json<{ id: string; status: string }>(response);
    };
    const routine = await submit('lgv-battery-routine.json');
    expect(routine.status).toBe('approved');
    const fault = await submit('lgv-drive-fault.json');
    expect(fault.status).toBe('pending');
    const before = lines((await api.call('GET', '/api/audit')).body).map((line) => JSON.parse(line) as AuditRecord);
    expect(before.filter((record) => record.reviewId === fault.id)).toEqual([]);
    const reviewed = await api.call('POST', `/api/tasks/${fault.id}/review`, { key: api.keys.reviewer, body: { decision: 'rejected', notes: 'check the drive logs first', operator: { name: 'Grace Hopper', role: 'reviewer' } } });
    expect(reviewed.statusCode, reviewed.body).toBe(200);
    expect((await api.call('POST', `/api/tasks/${fault.id}/review`, { key: api.keys.reviewer, body: { decision: 'approved', notes: 'again', operator: { name: 'Grace Hopper', role: 'reviewer' } } })).statusCode).toBe(409);

    const records = lines((await api.call('GET', '/api/audit')).body).map((line) => JSON.parse(line) as AuditRecord);
    const taskRecords = records.filter((record) => record.type === 'task.reviewed');
    expect(taskRecords.map(({ reviewId, runId, action, actor }) => ({ reviewId, runId, action, actor }))).toEqual([
      { reviewId: routine.id, runId: null, action: 'approve', actor: 'policy:auto_approve' },
      { reviewId: fault.id, runId: null, action: 'reject', actor: expect.stringMatching(/^key:/) },
    ]);
    expect(records.map((record) => record.seq)).toEqual(records.map((_, i) => i + 1));
    const file = path.join(home, 'with-tasks.ndjson');
    await writeFile(file, records.map((record) => JSON.stringify(record)).join('\n') + '\n');
    expect((await cli(['audit', 'verify', file])).stdout.trim()).toBe(`chain intact, ${records.length} records`);
    const csvFile = path.join(home, 'with-tasks.csv');
    await writeFile(csvFile, (await api.call('GET', '/api/audit?format=csv')).body);
    expect((await cli(['audit', 'verify', csvFile])).stdout.trim()).toBe(`chain intact, ${records.length} records`);
    const altered = records.map((record) => (record.reviewId === fault.id ? { ...record, action: 'approve' } : record));
    await writeFile(file, altered.map((record) => JSON.stringify(record)).join('\n') + '\n');
    const caught = await cli(['audit', 'verify', file]);
    expect(caught.code).toBe(1);
  });
});
