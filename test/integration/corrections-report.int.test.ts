/**
 * The corrections report over real decisions and a few hundred seeded ones: GET /api/reports/corrections and
 * `vetted report corrections` agree with a count done here, per model, field, change, issue code and week; secret
 * inputs and free text are never shown; the tenant's own decisions only; the metric counts an edit as it lands.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CorrectionsReport, FieldCorrections } from '../../src/generated/contracts.ts';
import { weekOf } from '../../src/reports/corrections.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { BIN, processEnv } from '../support/mcp.ts';
import { settle } from '../support/pipeline.ts';

const FLUX = 'black-forest-labs/flux-schnell';
const ESRGAN = 'nightmareai/real-esrgan';
const DAY = 24 * 3600 * 1000;
const SEEDED = 300;
let api: ApiHarness;
let now: Date;

interface Seed {
  runId: string;
  model: string;
  at: Date;
  edits: Record<string, unknown> | null;
  before: Record<string, unknown>;
  issues: { path: string; code: string; severity: string }[];
}
const seeds: Seed[] = [];

/** A parked run of the model, at payload review. */
async function park(model: string, input: Record<string, unknown>) {
  const response = await api.call('POST', '/api/runs', { key: api.keys.submitter, body: { model, ...input, policy: 'require_human' } });
  expect(response.statusCode, response.body).toBe(202);
  return settle(api.system, json<{ id: string }>(response).id, ['awaiting_human']);
}

/** Decision i of the seeded set: a deterministic mix of changes, free text, a secret, issues and weeks. */
function seed(i: number, runs: { flux: string; esrgan: string }): Seed {
  const flux = i % 4 !== 3;
  const at = new Date(now.getTime() - (i % 9) * 7 * DAY - (i + 1) * 60_000);
  if (!flux) return { runId: runs.esrgan, model: ESRGAN, at, edits: i % 8 === 3 ? { scale: 4 } : null, before: { scale: 2 }, issues: [] };
  const edits: Record<string, unknown> = {};
  if (i % 3 === 0) edits.aspect_ratio = ['16:9', '9:16'][i % 2];
  if (i % 5 === 0) edits.prompt = `a lighthouse on a cliff at dusk, seen from the sea, version ${i}`;
  if (i % 7 === 0) edits.api_key = `sk-live-${i}-0123456789abcdef`;
  const issues = i % 6 === 0 ? [{ path: '/aspect_ratio', code: 'value_not_in_request', severity: 'blocking' }] : [];
  return { runId: runs.flux, model: FLUX, at, edits: Object.keys(edits).length ? edits : null, before: { aspect_ratio: '1:1', prompt: 'a lighthouse', api_key: 'sk-builder-0123456789' }, issues };
}

beforeAll(async () => {
  api = await createApiHarness();
  now = api.system.clock.now();
  // A real edit through the API: the decision the report and the metric must both see.
  const parked = await park(FLUX, { prompt: 'a red barn in a field' });
  const review = parked.pendingReview!;
  const decided = await api.call('POST', `/api/runs/${parked.id}/decision`, {
    key: api.keys.reviewer,
    body: { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'edit', edits: { aspect_ratio: '21:9' } },
  });
  expect(decided.statusCode, decided.body).toBe(200);
  const esrgan = await park(ESRGAN, { prompt: 'sharpen' });
  for (let i = 0; i < SEEDED; i += 1) seeds.push(seed(i, { flux: parked.id, esrgan: esrgan.id }));
  await api.system.database.pool.query(
    `insert into decisions (run_id, tenant_id, review_id, actor, action, raw, parsed, edits, review, at)
     select s.run_id, 't1', gen_random_uuid(), 'seeded', case when s.edits is null then 'approve' else 'edit' end, '{}', '{}', s.edits,
       jsonb_build_object('checkpoint', 'payload_review', 'candidate', jsonb_build_object('payload', s.before), 'issues', s.issues), s.at
     from jsonb_to_recordset($1::jsonb) as s(run_id uuid, edits jsonb, before jsonb, issues jsonb, at timestamptz)`,
    [JSON.stringify(seeds.map((s) => ({ run_id: s.runId, edits: s.edits, before: s.before, issues: s.issues, at: s.at.toISOString() })))],
  );
}, 120_000);

afterAll(async () => {
  await api?.close();
});

/** The count the report must match, done here the plain way. */
function expected(model: string) {
  const mine = seeds.filter((s) => s.model === model);
  const fieldEdits = (field: string) => mine.filter((s) => s.edits && field in s.edits);
  return { decisions: mine.length, corrected: mine.filter((s) => s.edits).length, fieldEdits };
}

const fieldOf = (report: CorrectionsReport, model: string, field: string): FieldCorrections | undefined =>
  report.models.find((m) => m.model === model)?.fields.find((f) => f.field === field);

describe('GET /api/reports/corrections', () => {
  it('matches the count per model, field, change, issue code and week', async () => {
    const response = await api.call('GET', '/api/reports/corrections?weeks=12', { key: api.keys.reviewer });
    expect(response.statusCode, response.body).toBe(200);
    const report = json<CorrectionsReport>(response);
    const flux = expected(FLUX);
    const fluxModel = report.models.find((m) => m.model === FLUX)!;
    // The seeded decisions plus the real one made through the API.
    expect(fluxModel.decisions).toBe(flux.decisions + 1);
    expect(fluxModel.corrected).toBe(flux.corrected + 1);
    expect(report.models.find((m) => m.model === ESRGAN)).toMatchObject({ decisions: expected(ESRGAN).decisions, corrected: expected(ESRGAN).corrected });
    expect(report.decisions).toBe(SEEDED + 1);

    const aspect = fieldOf(report, FLUX, 'aspect_ratio')!;
    const aspectSeeds = flux.fieldEdits('aspect_ratio');
    expect(aspect.kind).toBe('value');
    expect(aspect.edits).toBe(aspectSeeds.length + 1);
    expect(aspect.share).toBeCloseTo((aspectSeeds.length + 1) / (flux.decisions + 1), 3);
    for (const to of ['16:9', '9:16']) {
      expect(aspect.changes.find((c) => c.from === '1:1' && c.to === to)?.count).toBe(aspectSeeds.filter((s) => s.edits!.aspect_ratio === to).length);
    }
    expect(aspect.issueCodes).toEqual([{ code: 'value_not_in_request', count: aspectSeeds.filter((s) => s.issues.length > 0).length }]);
    const byWeek = new Map<string, number>();
    for (const s of aspectSeeds) byWeek.set(weekOf(s.at), (byWeek.get(weekOf(s.at)) ?? 0) + 1);
    byWeek.set(weekOf(now), (byWeek.get(weekOf(now)) ?? 0) + 1);
    expect(new Map(aspect.weeks.map((w) => [w.week, w.count]))).toEqual(byWeek);

    expect(fieldOf(report, ESRGAN, 'scale')!.changes).toEqual([{ from: 2, to: 4, count: expected(ESRGAN).fieldEdits('scale').length }]);
  });

  it('groups free text and counts secret inputs without showing them', async () => {
    const response = await api.call('GET', `/api/reports/corrections?model=${encodeURIComponent(FLUX)}`, { key: api.keys.reviewer });
    const report = json<CorrectionsReport>(response);
    expect(report.models.map((m) => m.model)).toEqual([FLUX]);
    const prompt = fieldOf(report, FLUX, 'prompt')!;
    expect(prompt).toMatchObject({ kind: 'free_text', edits: expected(FLUX).fieldEdits('prompt').length });
    expect(prompt.changes).toEqual([{ change: 'rewritten', count: prompt.edits }]);
    const secret = fieldOf(report, FLUX, 'api_key')!;
    expect(secret).toMatchObject({ kind: 'secret', edits: expected(FLUX).fieldEdits('api_key').length });
    expect(response.body).not.toMatch(/sk-live|sk-builder|lighthouse on a cliff/);
  });

  it('counts only the caller’s tenant and the window asked for', async () => {
    const other = json<CorrectionsReport>(await api.call('GET', '/api/reports/corrections', { key: api.keys.otherReviewer }));
    expect(other).toMatchObject({ decisions: 0, corrected: 0, models: [] });
    const recent = json<CorrectionsReport>(await api.call('GET', `/api/reports/corrections?since=${encodeURIComponent(new Date(now.getTime() - 7 * DAY).toISOString())}`, { key: api.keys.reviewer }));
    const inWindow = seeds.filter((s) => s.at.getTime() >= now.getTime() - 7 * DAY).length + 1;
    expect(recent.decisions).toBe(inWindow);
  });

  it('refuses a window that ends before it starts, and keys that may not read reviews', async () => {
    const since = new Date(now.getTime() + DAY).toISOString();
    const backwards = await api.call('GET', `/api/reports/corrections?since=${encodeURIComponent(since)}`, { key: api.keys.reviewer });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.body).toContain('querystring.since');
    expect((await api.call('GET', '/api/reports/corrections?weeks=0', { key: api.keys.reviewer })).statusCode).toBe(400);
    expect((await api.call('GET', '/api/reports/corrections', { key: api.keys.submitter })).statusCode).toBe(403);
  });
});

describe('vetted report corrections', () => {
  it('prints the same report as the API, as JSON and as a table', async () => {
    const run = promisify(execFile);
    const env = processEnv(api.system);
    const [{ stdout }, table] = await Promise.all([
      run(process.execPath, [BIN, 'report', 'corrections', '--tenant', 't1', '--model', FLUX, '--format', 'json'], { env }),
      run(process.execPath, [BIN, 'report', 'corrections', '--tenant', 't1'], { env }),
    ]);
    const fromApi = json<CorrectionsReport>(await api.call('GET', `/api/reports/corrections?model=${encodeURIComponent(FLUX)}`, { key: api.keys.reviewer }));
    const fromCli = JSON.parse(stdout) as CorrectionsReport;
    expect(fromCli.models).toEqual(fromApi.models);
    expect(table.stdout).toContain(`${FLUX}: ${fromApi.models[0]!.corrected} of ${fromApi.models[0]!.decisions} decisions corrected`);
    expect(table.stdout).toMatch(/"1:1" → "(16:9|9:16)"/);
    await expect(run(process.execPath, [BIN, 'report', 'corrections', '--model', 'not a model'], { env })).rejects.toMatchObject({ stderr: expect.stringContaining('--model') });
  });
});

describe('/metrics', () => {
  it('counts the fields a decision changed, as it lands', async () => {
    const text = (await api.call('GET', '/metrics', { key: null })).body;
    expect(text).toContain(`vetted_review_corrections_total{tenant="t1",model="${FLUX}",field="aspect_ratio"} 1`);
  });
});
