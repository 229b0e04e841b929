/**
 * The review-queue metrics per tenant, checkpoint and task type, on /metrics and in `vetted stats`: pending depth,
 * oldest wait, decisions per minute, time to decision, and the share of tasks approved by policy.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewTask } from '../../src/generated/contracts.ts';
import { METRICS_WINDOW_MINUTES } from '../../src/observability/review-gauges.ts';
import type { ReviewStats } from '../../src/stats/review-stats.ts';
import { registerTaskType } from '../../src/tasks/task-types.ts';
import { createApiHarness, json, type ApiHarness } from '../support/api.ts';
import { BIN, processEnv } from '../support/mcp.ts';
import { settle } from '../support/pipeline.ts';

const TASK = 'lgv-troubleshooting';
const example = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
let api: ApiHarness;

beforeAll(async () => {
  api = await createApiHarness();
  await registerTaskType(api.system.tasks, 't1', example('examples/task-types/lgv-troubleshooting.task-type.json'));
  // Runs: two wait for a person at payload review, one of them is then decided.
  const park = async (key: string) => {
    const response = await api.call('POST', '/api/runs', { key, body: { model: 'black-forest-labs/flux-schnell', prompt: 'a crane', policy: 'require_human' } });
    return settle(api.system, json<{ id: string }>(response).id, ['awaiting_human']);
  };
  const [decided] = await Promise.all([park(api.keys.submitter), park(api.keys.submitter)]);
  const review = decided.pendingReview!;
  const answer = await api.call('POST', `/api/runs/${decided.id}/decision`, { key: api.keys.reviewer, body: { reviewId: review.reviewId, payloadHash: review.payloadHash, action: 'approve' } });
  expect(answer.statusCode, answer.body).toBe(200);
  // Tasks: one approved by policy, two escalated, of which one is reviewed.
  const submit = async (file: string) => json<ReviewTask>(await api.call('POST', '/api/tasks', { key: api.keys.submitter, body: example(`examples/tasks/${file}`) }));
  await submit('lgv-battery-routine.json');
  const [escalated] = [await submit('lgv-drive-fault.json'), await submit('lgv-drive-fault.json')];
  const reviewed = await api.call('POST', `/api/tasks/${escalated!.id}/review`, { key: api.keys.admin, body: { decision: 'approved', notes: 'ok', operator: { name: 'Ops', role: 'operations' } } });
  expect(reviewed.statusCode, reviewed.body).toBe(200);
});

afterAll(async () => {
  await api?.close();
});

/** The value of one sample line in the Prometheus text. */
function sample(text: string, name: string, labels: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}{${labels}}`));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

describe('/metrics', () => {
  it('reports depth, oldest wait, decisions per minute, time to decision and the auto-approved share per tenant, checkpoint and task type', async () => {
    const response = await api.call('GET', '/metrics', { key: null });
    expect(response.statusCode).toBe(200);
    const text = response.body;
    const review = 'tenant="t1",checkpoint="payload_review"';
    // One series per fact: the waiting reviews are vetted_pending_reviews (with the model), not a second gauge.
    expect(text).not.toMatch(/^vetted_review_pending|^vetted_review_oldest_pending_seconds/m);
    const pendingByModel = 'tenant="t1",model="black-forest-labs/flux-schnell",checkpoint="payload_review"';
    expect(sample(text, 'vetted_pending_reviews', pendingByModel)).toBe(1);
    expect(sample(text, 'vetted_pending_review_oldest_seconds', pendingByModel)).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'vetted_review_decisions_per_minute', review)).toBeCloseTo(1 / METRICS_WINDOW_MINUTES, 6);
    expect(sample(text, 'vetted_review_time_to_decision_seconds_count', review)).toBe(1);
    const task = `tenant="t1",task_type="${TASK}"`;
    expect(sample(text, 'vetted_task_pending', task)).toBe(1);
    expect(sample(text, 'vetted_task_oldest_pending_seconds', task)).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'vetted_task_reviews_per_minute', task)).toBeCloseTo(1 / METRICS_WINDOW_MINUTES, 6);
    expect(sample(text, 'vetted_task_auto_approved_ratio', task)).toBeCloseTo(1 / 3, 6);
    expect(sample(text, 'vetted_task_time_to_decision_seconds_count', task)).toBe(1);
  });
});

describe('vetted stats', () => {
  it('prints the same figures, for one tenant or all, as JSON or a table', async () => {
    const env = processEnv(api.system);
    const run = promisify(execFile);
    const [{ stdout }, table] = await Promise.all([
      run(process.execPath, [BIN, 'stats', '--tenant', 't1', '--window', '30', '--format', 'json'], { env }),
      run(process.execPath, [BIN, 'stats'], { env }),
    ]);
    const stats = JSON.parse(stdout) as ReviewStats;
    expect(stats.windowMinutes).toBe(30);
    expect(stats.reviews).toEqual([expect.objectContaining({ tenant: 't1', checkpoint: 'payload_review', pending: 1, decisions: 1, decisionsPerMinute: 1 / 30, timeToDecisionP50Seconds: expect.any(Number) })]);
    expect(stats.tasks).toEqual([expect.objectContaining({ tenant: 't1', taskType: TASK, pending: 1, decisions: 1, submitted: 3, autoApprovedShare: 1 / 3 })]);
    expect(table.stdout).toContain('Reviews of runs');
    expect(table.stdout).toContain('payload_review');
    expect(table.stdout).toContain(TASK);
    expect(table.stdout).toContain('33%');
  });
});
