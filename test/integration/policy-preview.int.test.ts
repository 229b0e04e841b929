/**
 * Policy preview: a proposed policy replayed over the tenant's stored runs, counted per checkpoint and
 * model against what happened, over HTTP and from the CLI (as a process); no run, event or decision changes.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PolicyPreview } from '../../src/policy/preview.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { settle } from '../support/pipeline.ts';

const FLUX = 'black-forest-labs/flux-schnell';
const ESRGAN = 'nightmareai/real-esrgan';
const BIN = path.resolve(import.meta.dirname, '../../bin/vetted.mjs');

let api: ApiHarness;

async function submitted(body: Record<string, unknown>): Promise<string> {
  const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body });
  expect(response.statusCode, response.body).toBe(202);
  return json<{ id: string }>(response).id;
}

beforeAll(async () => {
  api = await createApiHarness();
  // flux: three pass on their own, one waits for a person and is approved, one holds an invalid value and waits.
  for (const prompt of ['a heron', 'a fox', 'a lantern']) await settle(api.system, await submitted({ model: FLUX, prompt }), ['completed']);
  const approved = await settle(api.system, await submitted({ model: FLUX, prompt: 'a paper crane', policy: 'require_human' }), ['awaiting_human']);
  const review = approved.pendingReview!;
  const decided = await api.call('POST', `/api/runs/${approved.id}/decision`, { key: api.keys.reviewer, body: { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'approve' } });
  expect(decided.statusCode, decided.body).toBe(200);
  await settle(api.system, approved.id, ['completed']);
  await settle(api.system, await submitted({ model: FLUX, prompt: 'a lighthouse, 5 images' }), ['awaiting_human']);
  // real-esrgan without its image: waits for a person.
  await settle(api.system, await submitted({ model: ESRGAN, prompt: 'sharpen it' }), ['awaiting_human']);
});

afterAll(async () => {
  await api?.close();
});

/** Everything a preview could have touched, as one fingerprint. */
async function fingerprint(): Promise<string> {
  const { rows } = await api.system.database.pool.query<{ f: string }>(`
    select (select md5(coalesce(string_agg(t::text, '|' order by t.id), '')) from runs t)
      || (select count(*)::text || max(id)::text from run_events) || (select count(*)::text from decisions) as f`);
  return rows[0]!.f;
}

const preview = async (body: Record<string, unknown>, key = api.keys.reviewer) => api.call('POST', '/api/policies/preview', { key, body });

describe('POST /api/policies/preview', () => {
  it('require_human: every replayed run would wait; counts per checkpoint and model against what happened; nothing changes', async () => {
    const before = await fingerprint();
    const response = await preview({ policy: 'require_human', since: '7d' });
    expect(response.statusCode, response.body).toBe(200);
    const answer = json<PolicyPreview>(response);
    expect(answer.policy).toEqual({ mode: 'require_human' });
    expect(answer.runs).toEqual({ considered: 6, replayed: 6, notReplayable: {}, truncated: false });
    expect(answer.total).toMatchObject({ runs: 6, before: 3, after: 6, newlyParked: 3, noLongerParked: 0 });
    expect(answer.total.reasonsAfter).toEqual({ policy_requires_human: 4, validation_failed: 2 });
    expect(answer.byCheckpoint.find((c) => c.checkpoint === 'payload_review')).toMatchObject({ runs: 6, before: 3, after: 6 });
    expect(answer.byCheckpoint.find((c) => c.checkpoint === 'information_review')).toMatchObject({ before: 0, after: 0 });
    expect(answer.byModel.map((m) => [m.model, m.runs, m.before, m.after])).toEqual([[FLUX, 5, 2, 5], [ESRGAN, 1, 1, 1]]);
    expect(await fingerprint()).toBe(before);
  });

  it('auto: the approved run would not have waited, the invalid ones still would; a model filter narrows it', async () => {
    const answer = json<PolicyPreview>(await preview({ policy: { mode: 'auto' } }));
    expect(answer.total).toMatchObject({ runs: 6, before: 3, after: 2, newlyParked: 0, noLongerParked: 1 });
    const flux = answer.byModel.find((m) => m.model === FLUX)!;
    expect(flux.checkpoints.find((c) => c.checkpoint === 'payload_review')).toMatchObject({ runs: 5, before: 2, after: 1, noLongerParked: 1 });

    const onlyEsrgan = json<PolicyPreview>(await preview({ policy: 'auto', model: ESRGAN }));
    expect(onlyEsrgan.runs.replayed).toBe(1);
    expect(onlyEsrgan.window.model).toBe(ESRGAN);
  });

  it('thresholds and a response review are replayed too', async () => {
    const answer = json<PolicyPreview>(await preview({ policy: { mode: 'auto_with_thresholds', maxChangedFields: 0, responseReview: true } }));
    expect(answer.total.reasonsAfter.too_many_changes).toBe(4);
    // The four flux runs that executed would each have been asked about the model's answer.
    expect(answer.byCheckpoint.find((c) => c.checkpoint === 'response_review')).toMatchObject({ before: 0, after: 4, newlyParked: 4 });
  });

  it('refuses a bad policy, a bad window and a key without the permission, naming the field', async () => {
    const badMode = await preview({ policy: { mode: 'sometimes' } });
    expect(badMode.statusCode).toBe(400);
    expect(json(badMode).field).toMatch(/^policy/);
    const badSince = await preview({ policy: 'auto', since: 'last tuesday' });
    expect([badSince.statusCode, json(badSince).field]).toEqual([400, 'since']);
    expect((await preview({ policy: 'auto' }, api.keys.submitter)).statusCode).toBe(403);
    expect((await preview({ policy: 'auto', extra: 1 })).statusCode).toBe(400);
    // Another tenant sees none of these runs.
    expect(json<PolicyPreview>(await preview({ policy: 'require_human' }, api.keys.otherReviewer)).runs.considered).toBe(0);
  });
});

describe('vetted policy preview', () => {
  it('prints the same counts as a table, or JSON; a bad policy file is exit 2 naming the file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'vetted-policy-'));
    const file = path.join(dir, 'policy.json');
    await writeFile(file, JSON.stringify({ mode: 'require_human' }));
    const env = { ...process.env, DATABASE_URL: api.system.config.databaseUrl, VETTED_QUEUE_PREFIX: api.system.config.queuePrefix, LOG_LEVEL: 'warn' };
    const run = promisify(execFile);
    const table = await run('node', [BIN, 'policy', 'preview', '--file', file, '--tenant', 't1', '--since', '7d'], { env });
    expect(table.stdout).toMatch(new RegExp(`${FLUX.replace('/', '\\/')}\\s+payload_review\\s+5\\s+2\\s+5\\s+3\\s+0`));
    expect(table.stdout).toMatch(/\(all models\)\s+\(any\)\s+6\s+3\s+6\s+3\s+0/);
    expect(table.stdout).toContain('no run was changed');
    const asJson = JSON.parse((await run('node', [BIN, 'policy', 'preview', '--file', file, '--tenant', 't1', '--format', 'json'], { env })).stdout) as PolicyPreview;
    expect(asJson.total).toMatchObject({ runs: 6, before: 3, after: 6 });

    await writeFile(file, JSON.stringify({ mode: 'auto', minConfidence: 7 }));
    const refused = await run('node', [BIN, 'policy', 'preview', '--file', file, '--tenant', 't1'], { env }).then(() => undefined, (error: { code: number; stderr: string }) => error);
    expect(refused?.code).toBe(2);
    expect(refused?.stderr).toContain(`policy file ${file}`);
    expect(refused?.stderr).toContain('minConfidence');
  });
});
