/**
 * Retention per tenant: the documents of runs that ended longer ago than `documentsDays` are purged (by
 * `vetted purge` and by the maintenance worker's repeatable job) while the audit skeleton stays; a purged run
 * says so in the API; PII masking of stored text when the tenant asks for it.
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpiredDocuments } from '../../src/retention/purge.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { settle } from '../support/pipeline.ts';
import { eventually } from '../support/test-system.ts';

const FLUX = 'black-forest-labs/flux-schnell';
const BIN = path.resolve(import.meta.dirname, '../../bin/vetted.mjs');
const DAY_MS = 86_400_000;

let api: ApiHarness;

beforeAll(async () => {
  api = await createApiHarness({ VETTED_PURGE_INTERVAL_MS: '1000' });
});

afterAll(async () => {
  await api?.close();
});

async function submitted(body: Record<string, unknown>): Promise<string> {
  const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { model: FLUX, ...body } });
  expect(response.statusCode, response.body).toBe(202);
  return json<{ id: string }>(response).id;
}

const query = async <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => (await api.system.database.pool.query<T>(text, values)).rows;

describe('retention', () => {
  it('masks emails and phone numbers in the stored prompt and conversation for a tenant that asks', async () => {
    await api.system.retention.upsert({ tenantId: 't1', documentsDays: 30, maskPii: true, updatedBy: 'test' });
    const id = await submitted({ prompt: 'a card for ada@example.com, call +1 415 555 0100', conversation: [{ role: 'user', content: 'mail me at bob@example.org' }] });
    const run = await settle(api.system, id, ['completed']);
    expect(run.request.prompt).toBe('a card for [email], call [phone]');
    expect(run.request.conversation?.[0]?.content).toBe('mail me at [email]');
    expect(JSON.stringify(run.candidate)).not.toContain('example.com');

    // A chat reply's stored text too.
    const parked = await settle(api.system, await submitted({ prompt: 'a reply card', policy: 'require_human' }), ['awaiting_human']);
    const replied = await api.call('POST', `/api/runs/${parked.id}/reply`, { key: api.keys.submitter, body: { reviewId: parked.pendingReview!.reviewId, text: 'not sure, write to carol@example.com' } });
    expect(replied.statusCode, replied.body).toBe(200);
    const rows = await query<{ raw: { text: string } }>(`select raw from decisions where run_id = $1`, [parked.id]);
    expect(rows.map((row) => row.raw.text)).toEqual(['not sure, write to [email]']);
  });

  it('purges the documents of ended runs past the retention, keeps the audit skeleton, and says so in the API', async () => {
    const completed = await submitted({ prompt: 'a heron in the fog' });
    await settle(api.system, completed, ['completed']);
    const parked = await settle(api.system, await submitted({ prompt: 'a paper boat on a lake', policy: 'require_human' }), ['awaiting_human']);
    const review = parked.pendingReview!;
    const rejected = await api.call('POST', `/api/runs/${parked.id}/decision`, { key: api.keys.reviewer, body: { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'reject', reason: 'not today' } });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const waiting = await settle(api.system, await submitted({ prompt: 'a lantern still waiting', policy: 'require_human' }), ['awaiting_human']);
    const [before] = await query<{ request: string; events: number }>(
      `select (select body::text from run_documents where run_id = $1 and kind = 'request') as request, (select count(*)::int from run_events where run_id = $1) as events`,
      [completed],
    );

    const later = { now: () => new Date(Date.now() + 31 * DAY_MS) };
    const results = await purgeExpiredDocuments({ ...api.system, clock: later });
    const t1 = results.find((r) => r.tenantId === 't1')!;
    expect(t1.purged).toBeGreaterThanOrEqual(3); // the masked run of the first test, the completed one, the rejected one
    expect(await purgeExpiredDocuments({ ...api.system, clock: later })).toEqual([expect.objectContaining({ tenantId: 't1', purged: 0 })]);

    const [row] = await query<Record<string, unknown>>(`select * from runs where id = $1`, [completed]);
    expect(row).toMatchObject({ status: 'completed', pending_review: null, review_edits: {} });
    // Every document row is gone; the run reads as an empty request and no bundle, candidate, issues or result.
    expect(await query(`select kind from run_documents where run_id = any($1)`, [[completed, parked.id]])).toEqual([]);
    expect(await api.system.store.get(completed)).toMatchObject({ request: {}, bundle: null, candidate: null, issues: [], result: null });
    expect(row!.purged_at).toBeInstanceOf(Date);
    expect(row!.schema_hash).toEqual(expect.any(String));
    expect(row!.completed_at).toBeInstanceOf(Date);
    const events = await api.system.store.events(completed);
    expect(events.length).toBe(before!.events + 1);
    expect(events.at(-1)).toMatchObject({ type: 'run.purged', actor: 'system:retention', data: { requestSha256: createHash('sha256').update(before!.request).digest('hex') } });
    const [execution] = await query<{ result: unknown; payload_hash: string }>(`select result, payload_hash from executions where run_id = $1`, [completed]);
    expect(execution).toMatchObject({ result: null, payload_hash: expect.any(String) });
    const [decision] = await query<{ raw: unknown; edits: unknown; review: unknown; action: string; actor: string }>(`select raw, edits, review, action, actor from decisions where run_id = $1`, [parked.id]);
    expect(decision).toMatchObject({ raw: {}, edits: null, review: null, action: 'reject', actor: expect.stringMatching(/^key:/) });
    const text = (await query<{ t: string }>(`select string_agg(t::text, '') as t from runs t where id = any($1)`, [[completed, parked.id]]))[0]!.t;
    expect(text).not.toMatch(/heron|paper boat/);

    // A run still waiting is not terminal: untouched.
    expect((await api.system.store.get(waiting.id))?.request.prompt).toBe('a lantern still waiting');

    const view = json<{ purgedAt: string | null; status: string }>(await api.call('GET', `/api/runs/${completed}`, { key: api.keys.submitter }));
    expect(view).toMatchObject({ status: 'completed', purgedAt: expect.any(String) });
    const state = json<{ request: unknown; events: { type: string }[] }>(await api.call('GET', `/api/runs/${completed}/state`, { key: api.keys.submitter }));
    expect(state.request).toEqual({});
    expect(state.events.at(-1)?.type).toBe('run.purged');
    expect(json<{ purgedAt?: string }>(await api.call('GET', `/api/runs/${waiting.id}`, { key: api.keys.submitter })).purgedAt).toBeUndefined();
  });

  it('the maintenance worker purges on a repeatable BullMQ job', async () => {
    const schedulers = await api.system.queues.maintenance.getJobSchedulers();
    expect(schedulers.find((s) => s.key === 'purge')).toMatchObject({ every: 1000 });
    const id = await submitted({ prompt: 'an old kite' });
    await settle(api.system, id, ['completed']);
    // Ended 40 days ago, as far as the purge can tell.
    await query(`update runs set completed_at = now() - interval '40 days' where id = $1`, [id]);
    const purged = await eventually(async () => (await api.system.store.get(id))?.purgedAt ?? undefined, 15_000, 'the scheduled purge');
    expect(purged).toBeInstanceOf(Date);
  });

  it('vetted retention set and vetted purge, as processes', async () => {
    const env = { ...process.env, DATABASE_URL: api.system.config.databaseUrl, VETTED_QUEUE_PREFIX: api.system.config.queuePrefix, LOG_LEVEL: 'warn' };
    const run = promisify(execFile);
    const set = await run('node', [BIN, 'retention', 'set', '--tenant', 't3', '--documents-days', '7', '--mask-pii'], { env });
    expect(set.stdout).toContain('tenant t3: documents purged 7 days after a run ends; PII masking on');
    expect((await api.system.retention.get('t3'))).toMatchObject({ documentsDays: 7, maskPii: true });
    const purge = await run('node', [BIN, 'purge', '--tenant', 't3'], { env });
    expect(purge.stdout).toMatch(/^t3: 0 runs purged \(ended before .*, 7 days\)/);
    const refused = await run('node', [BIN, 'retention', 'set', '--tenant', 't3', '--documents-days', '0'], { env }).then(() => undefined, (error: { code: number; stderr: string }) => error);
    expect(refused?.code).toBe(2);
    expect(refused?.stderr).toContain('--documents-days');
  });
});
